#include "lesson_mode.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "app_ui.h"
#include "class_mode.h"
#include "scenarios.h"

namespace warplens::app {

namespace {

// A count as the views write it: whole numbers without decimals.
std::string count_text(double v) {
  char text[64];
  if (std::abs(v - std::round(v)) < 1e-9 && std::abs(v) < 1e12) {
    std::snprintf(text, sizeof text, "%.0f", v);
  } else {
    std::snprintf(text, sizeof text, "%.2f", v);
  }
  return text;
}

// The catalog index of `step`'s scenario: the built-in one, or its copy in ui.loaded.
int catalog_index(UiState& ui, const LessonStep& step) {
  if (step.builtin_index >= 0) return step.builtin_index;
  std::size_t at = 0;
  while (at < ui.loaded.size() && ui.loaded[at].name != step.scenario.name) ++at;
  if (at == ui.loaded.size()) {
    ui.loaded.push_back(step.scenario);
  } else {
    ui.loaded[at] = step.scenario;
  }
  return static_cast<int>(builtin_scenarios().size() + at);
}

}  // namespace

void start_lesson(UiState& ui, Workbench& labs, Lesson lesson) {
  if (lesson.steps.empty()) throw LessonError(lesson.origin + ": the lesson has no steps");
  ui.lesson = std::make_shared<LessonRun>();
  ui.lesson->lesson = std::move(lesson);
  go_to_lesson_step(ui, labs, 0);
}

void go_to_lesson_step(UiState& ui, Workbench& labs, int index) {
  if (!ui.lesson) return;
  LessonRun& run = *ui.lesson;
  const int count = static_cast<int>(run.lesson.steps.size());
  run.step = std::clamp(index, 0, count - 1);
  const LessonStep& step = run.lesson.steps[static_cast<std::size_t>(run.step)];
  ui.predict.reset();  // each step asks its own question, or none
  ui.predict_message.clear();
  ui.compare_error.clear();
  run.catalog = catalog_index(ui, step);
  apply_scenario(ui, labs, run.catalog);
  ui.presenter = true;
  ui.step_lab = ui.lab;
  LabInstance& shown = labs.lab(ui.lab);
  if (step.view_step) {
    try {
      go_to_step(shown, *step.view_step, ui.view_step);
    } catch (const std::invalid_argument& e) {
      ui.predict_message = step.where + ": " + e.what();
    }
  }
  if (step.view) {
    ui.bottom = *step.view;
    ui.select_bottom = true;
    // (The lesson's reader checked that the step's lab has the view.)
    if (LabViews* views = shown.views())
      views->open_bottom_view(*step.view, step.scenario, ui.sweep_word_bytes);
  }
  if (step.predict) toggle_predict(ui, shown, step.scenario);
}

bool move_lesson(UiState& ui, Workbench& labs, LessonMove move) {
  if (!ui.lesson) return false;
  const int last = static_cast<int>(ui.lesson->lesson.steps.size()) - 1;
  const int from = ui.lesson->step;
  int to = from;
  switch (move) {
    case LessonMove::Next: to = std::min(from + 1, last); break;
    case LessonMove::Previous: to = std::max(from - 1, 0); break;
    case LessonMove::First: to = 0; break;
    case LessonMove::Last: to = last; break;
  }
  if (to == from) return false;
  go_to_lesson_step(ui, labs, to);
  return true;
}

bool handle_lesson_keys(UiState& ui, Workbench& labs) {
  if (!ui.lesson) return false;
  const auto pressed = [](ImGuiKey key) { return ImGui::IsKeyPressed(ImGui::GetKeyIndex(key)); };
  bool any = false;
  const auto on = [&](bool key, LessonMove move) {
    if (!key) return;
    any = true;
    move_lesson(ui, labs, move);
  };
  on(pressed(ImGuiKey_PageDown) || pressed(ImGuiKey_RightArrow), LessonMove::Next);
  on(pressed(ImGuiKey_PageUp) || pressed(ImGuiKey_LeftArrow), LessonMove::Previous);
  on(pressed(ImGuiKey_Home), LessonMove::First);
  on(pressed(ImGuiKey_End), LessonMove::Last);
  for (ImWchar c : ImGui::GetIO().InputQueueCharacters) {
    if (c == 's' || c == 'S') {
      ui.lesson->speaker = !ui.lesson->speaker;
      any = true;
    }
  }
  return any;
}

std::string lesson_status(const UiState& ui) {
  if (!ui.lesson) return {};
  const LessonRun& run = *ui.lesson;
  const LessonStep& step = run.lesson.steps[static_cast<std::size_t>(run.step)];
  const std::string at =
      "step " + std::to_string(run.step + 1) + " of " + std::to_string(run.lesson.steps.size());
  if (ui.scenario != run.catalog)  // the picker or its arrows left the lesson's scenario
    return "off the lesson at " + at + " (Page Down / Page Up go on) \u2022 " + run.lesson.title;
  return at + ": " + step.title + " \u2022 " + run.lesson.title;
}

std::string clock_text(double seconds) {
  const long total = std::lround(std::max(0.0, seconds));
  char text[32];
  if (total >= 3600) {
    std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", total / 3600, total / 60 % 60, total % 60);
  } else {
    std::snprintf(text, sizeof text, "%ld:%02ld", total / 60, total % 60);
  }
  return text;
}

std::vector<std::string> answer_lines(const LabInstance& shown) {
  const auto answer = predict_answer(shown);
  if (!answer) return {};
  const std::string unit = " " + answer->question.unit + " per request";
  std::vector<std::string> lines = {"model: " + count_text(answer->model) + unit};
  if (answer->gpu) lines.push_back("GPU trace: " + count_text(*answer->gpu) + unit);
  if (answer->gbps) {
    char text[64];
    std::snprintf(text, sizeof text, "measured: %.0f GB/s", *answer->gbps);
    lines.push_back(text + (answer->gbps_what.empty() ? "" : " (" + answer->gbps_what + ")"));
  } else if (!shown.device().device) {
    lines.emplace_back("model only: no GPU measured this step");
  }
  return lines;
}

SpeakerNotes speaker_notes(const UiState& ui, const LabInstance& shown, double now) {
  if (!ui.lesson) throw std::logic_error("speaker_notes: no lesson runs");
  const LessonRun& run = *ui.lesson;
  const auto& steps = run.lesson.steps;
  const LessonStep& step = steps[static_cast<std::size_t>(run.step)];
  SpeakerNotes n;
  n.lesson = run.lesson.title;
  n.position = "step " + std::to_string(run.step + 1) + " of " + std::to_string(steps.size());
  n.title = step.title;
  n.slide = step.slide;
  n.note = step.note;
  n.next = run.step + 1 < static_cast<int>(steps.size())
               ? "next: " + steps[static_cast<std::size_t>(run.step) + 1].title
               : std::string("last step");
  if (const auto question = predict_question(shown, step.scenario)) {
    n.question = question->text;
    n.answer = answer_lines(shown);
  }
  n.clock = clock_text(run.started < 0 ? 0 : now - run.started) + " since the lesson started";
  return n;
}

}  // namespace warplens::app
