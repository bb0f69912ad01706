#include "class_mode.h"

#include <algorithm>
#include <cfloat>
#include <cstdlib>
#include <stdexcept>

#include "app_ui.h"
#include "presenter.h"
#include "ui_widgets.h"

namespace warplens::app {

namespace {

// A number the class typed, or nullopt for an empty field; std::invalid_argument otherwise.
std::optional<double> typed_number(const std::string& text, const char* what) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(text.c_str() + first, &end);
  if (end == text.c_str() + first || std::string(end).find_first_not_of(" \t") != std::string::npos)
    throw std::invalid_argument(std::string(what) + ": \"" + text + "\" is not a number");
  return v;
}

bool input_text(const char* label, std::string& text, float width) {
  char buffer[32] = {};
  text.copy(buffer, sizeof buffer - 1);
  ImGui::SetNextItemWidth(width);
  const bool entered =
      ImGui::InputText(label, buffer, sizeof buffer,
                       ImGuiInputTextFlags_CharsScientific | ImGuiInputTextFlags_EnterReturnsTrue);
  text = buffer;
  return entered;
}

}  // namespace

bool step_forward(UiState& ui, LabInstance& shown) {
  if (ui.view_step < 0) {
    ui.view_step = 0;
    return true;
  }
  if (ui.view_steps <= 0 || ui.view_step < ui.view_steps) {
    ++ui.view_step;
    return true;
  }
  LabStages* stages = shown.stages();  // nullptr: one access, no sequence
  if (stages && stages->step_stage() + 1 < stages->step_stages()) {  // the next access
    stages->go_to_step_stage(ui, stages->step_stage() + 1);
    ui.view_step = 0;
    return true;
  }
  return false;
}

void steps_drawn(UiState& ui, int steps, const std::string& unit) {
  ui.view_steps = steps;
  ui.step_unit = unit;
  if (ui.step_to_last) {
    ui.view_step = steps;
    ui.step_to_last = false;
  }
}

bool handle_step_key(UiState& ui, LabInstance& shown, ImWchar c) {
  if (c == '.') {
    if (!step_forward(ui, shown)) ui.view_step = -1;  // past the last: the whole access again
    ui.step_playing = false;
    return true;
  }
  if (c == ',') {
    ui.step_playing = false;
    if (ui.view_step < 0) {
      ui.view_step = std::max(0, ui.view_steps - 1);
    } else if (ui.view_step > 0) {
      --ui.view_step;
    } else if (LabStages* stages = shown.stages(); stages && stages->step_stage() > 0) {
      stages->go_to_step_stage(ui, stages->step_stage() - 1);  // the previous, at its last step
      ui.step_to_last = true;
    }
    return true;
  }
  if (c == ' ' && ui.view_step >= 0) {
    ui.step_playing = !ui.step_playing;
    if (ui.step_playing && ui.view_step >= ui.view_steps) ui.view_step = 0;  // from the start
    ui.step_due = 0;
    return true;
  }
  return false;
}

void advance_steps(UiState& ui, LabInstance& shown, double now) {
  if (ui.lab != ui.step_lab) {
    ui.step_lab = ui.lab;
    ui.view_step = -1;
    ui.step_playing = false;
  }
  if (ui.view_step < 0) return;
  if (ui.step_to_last) return;  // the stage's steps are not known yet
  if (ui.view_steps > 0 && ui.view_step > ui.view_steps) ui.view_step = ui.view_steps;
  if (!ui.step_playing) return;
  if (ui.step_due == 0) ui.step_due = now + kStepPace;
  if (now < ui.step_due) return;
  ui.step_due = now + kStepPace;
  if (!step_forward(ui, shown)) ui.step_playing = false;
}

std::string step_status(const UiState& ui, const LabInstance& shown) {
  if (ui.view_step < 0 || ui.step_unit.empty()) return {};
  const LabStages* stages = shown.stages();
  const std::string stage = stages ? stages->step_stage_name() : std::string();
  std::string text = (stage.empty() ? "" : stage + " \u2022 ") + ui.step_unit + " " +
                     std::to_string(ui.view_step) + " of " + std::to_string(ui.view_steps) +
                     " \u2022 . next \u2022 , previous \u2022 ";
  return text + (ui.step_playing ? "space pause" : "space play");
}

std::optional<Question> predict_question(const LabInstance& shown, const Scenario& scenario) {
  const auto answer = predict_answer(shown);
  if (!answer) return std::nullopt;
  Question q = answer->question;
  if (!scenario.question.empty()) q.text = scenario.question;
  return q;
}

void toggle_predict(UiState& ui, const LabInstance& shown, const Scenario& scenario) {
  ui.predict_message.clear();
  if (ui.predict) {
    ui.predict.reset();
    return;
  }
  const auto question = predict_question(shown, scenario);
  if (!question) {
    ui.predict_message =
        "predict, then reveal: this view has no count to guess (global and "
        "shared-memory labs have)";
    return;
  }
  ui.predict.emplace(*question);
  ui.guess_count_text.clear();
  ui.guess_gbps_text.clear();
  ui.view_step = -1;
  ui.step_playing = false;
}

bool predict_hides_answer(const UiState& ui) {
  return ui.predict && ui.predict->hides_answer();
}

std::vector<std::string> revealed_lines(const UiState& ui, const LabInstance& shown) {
  if (!ui.predict || ui.predict->stage() != PredictStage::Revealed) return {};
  const auto answer = predict_answer(shown);
  return answer ? ui.predict->verdict_lines(*answer) : std::vector<std::string>{};
}

float revealed_panel_height(const std::vector<std::string>& lines, const viz::ImGuiLayer& layer,
                            float width) {
  const ImGuiStyle& style = ImGui::GetStyle();
  float h = ImGui::GetFrameHeightWithSpacing() + 2 * style.WindowPadding.y +
            ImGui::GetFrameHeight();  // title bar, the Ask again line
  ImFont* bold = layer.fonts().bold ? layer.fonts().bold : ImGui::GetFont();
  const float wrap = width - 2 * style.WindowPadding.x;
  for (const std::string& line : lines)
    h += bold->CalcTextSizeA(bold->FontSize, FLT_MAX, wrap, line.c_str()).y + style.ItemSpacing.y;
  return h;
}

void draw_predict_panel(UiState& ui, const LabInstance& shown, const viz::ImGuiLayer& layer,
                        const viz::Theme& theme, ImVec2 pos, ImVec2 size,
                        const std::vector<std::string>& revealed, const std::string& title) {
  if (!ui.predict) return;
  Prediction& p = *ui.predict;
  const float s = layer.scale();
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin("Predict, then reveal##class", nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoSavedSettings);
  ImGui::PushTextWrapPos(0);
  if (!title.empty()) draw_title_beside(title);
  if (p.stage() == PredictStage::Revealed) {
    // The answer beside the guess in bold; the GPU's numbers under it.
    for (std::size_t i = 0; i < revealed.size(); ++i) {
      if (i == 0 && layer.fonts().bold) ImGui::PushFont(layer.fonts().bold);
      ImGui::TextUnformatted(revealed[i].c_str());
      if (i == 0 && layer.fonts().bold) ImGui::PopFont();
    }
    if (ui.interactive && ImGui::Button("Ask again")) {
      p.ask_again(predict_question(shown, scenario_at(ui, ui.scenario)));
      ui.guess_count_text.clear();
      ui.guess_gbps_text.clear();
    }
    if (ui.interactive) {
      ImGui::SameLine();
      ImGui::TextDisabled("Q: class mode off");
    }
    ImGui::PopTextWrapPos();
    ImGui::End();
    return;
  }
  if (layer.fonts().bold) ImGui::PushFont(layer.fonts().bold);
  ImGui::TextUnformatted(p.question().text.c_str());
  if (layer.fonts().bold) ImGui::PopFont();
  const bool ask_gbps = p.question().ask_gbps;
  ImGui::TextDisabled(
      "%s",
      ask_gbps ? ("Guess the " + p.question().unit + " per request, and the GB/s the GPU measures.")
                     .c_str()
               : ("Guess the " + p.question().unit + " per request.").c_str());
  bool submit = false;
  if (ui.interactive) {
    submit |= input_text(p.question().unit.c_str(), ui.guess_count_text, 110 * s);
    if (ask_gbps) {
      ImGui::SameLine(0, 24 * s);
      submit |= input_text("GB/s", ui.guess_gbps_text, 110 * s);
    }
    ImGui::SameLine(0, 24 * s);
    submit |= ImGui::Button("Guess");
  }
  if (submit) {
    try {
      const auto count = typed_number(ui.guess_count_text, p.question().unit.c_str());
      if (!count) throw std::invalid_argument("type a number of " + p.question().unit + " first");
      p.guess(*count, ask_gbps ? typed_number(ui.guess_gbps_text, "GB/s") : std::nullopt);
      ui.predict_message.clear();
    } catch (const std::exception& e) {
      ui.predict_message = e.what();
    }
  }
  if (p.stage() == PredictStage::Guessed) {
    ImGui::Text("Your guess: %g (%s)", *p.guessed_count(), p.question().unit.c_str());
    if (p.guessed_gbps()) {
      ImGui::SameLine();
      ImGui::Text("and %g GB/s", *p.guessed_gbps());
    }
  }
  if (ui.interactive) {
    if (ImGui::Button(p.stage() == PredictStage::Guessed ? "Reveal" : "Reveal without a guess"))
      p.reveal();
    ImGui::SameLine();
    ImGui::TextDisabled("Q: class mode off");
  }
  if (!ui.predict_message.empty())
    ImGui::TextColored(color4(theme.warning), "%s", ui.predict_message.c_str());
  ImGui::PopTextWrapPos();
  ImGui::End();
}

}  // namespace warplens::app
