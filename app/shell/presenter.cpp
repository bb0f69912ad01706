#include "presenter.h"

#include <algorithm>
#include <string>

#include "app_ui.h"
#include "ui_widgets.h"

namespace warplens::app {

bool presenter_layout(const UiState& ui, float width, float height, float scale) {
  if (ui.presenter) return *ui.presenter;
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float body_lines = (height - 2 * ImGui::GetFrameHeight() - 24 * scale) / line;
  return body_lines < 24 || width / scale < 1100;
}

void draw_presenter_strip(UiState& ui, LabInstance& lab, LabFrame& frame, ImVec2 pos, ImVec2 size) {
  const float s = frame.layer.scale();
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin(
      "##presenter-strip", nullptr,
      ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
  const int count = catalog_size(ui);
  if (ImGui::ArrowButton("##previous", ImGuiDir_Left) && ui.interactive)
    ui.pending_scenario = (ui.scenario + count - 1) % count;
  ImGui::SameLine();
  // The picker as wide as its title needs, at most 40 % of the strip (the knobs and the device
  // need the rest).
  const std::string title = scenario_at(ui, ui.scenario).title;
  const float arrow = ImGui::GetFrameHeight();
  const float picker_w =
      std::min(ImGui::CalcTextSize(title.c_str()).x + arrow + 2 * ImGui::GetStyle().FramePadding.x,
               0.4f * size.x);
  ImGui::SetNextItemWidth(picker_w);
  draw_scenario_combo(ui, picker_w - arrow - 2 * ImGui::GetStyle().FramePadding.x);
  ImGui::SameLine();
  if (ImGui::ArrowButton("##next", ImGuiDir_Right) && ui.interactive)
    ui.pending_scenario = (ui.scenario + 1) % count;
  ImGui::SameLine(0, 24 * s);
  lab.draw_knobs(frame);
  // Right end: the device (or the model-only / teaching-model badge), then the way back.
  const char* full = "P: full panel";
  const float button_w =
      ui.interactive ? ImGui::CalcTextSize(full).x + 2 * ImGui::GetStyle().FramePadding.x + 24 * s
                     : 0.0f;
  ImGui::SameLine();
  ImGui::AlignTextToFramePadding();
  draw_device_badge(lab, frame.layer, frame.theme,
                    ImGui::GetWindowContentRegionMax().x - button_w - 6 * s);
  if (ui.interactive) {
    ImGui::SameLine(std::max(ImGui::GetCursorPosX() + 16 * s,
                             ImGui::GetWindowContentRegionMax().x - button_w + 24 * s));
    if (ImGui::SmallButton(full)) ui.presenter = false;
  }
  ImGui::End();
}

namespace {

// `text` wrapped to the window at its spaces only (ImGui's own wrapping also breaks after a '.',
// which splits "1.00" into "1." and "00"); a word wider than the line stays whole.
void text_wrapped_at_spaces(const std::string& text) {
  const float right = ImGui::GetWindowPos().x + ImGui::GetContentRegionMax().x;
  const float space = ImGui::CalcTextSize(" ").x;
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, {ImGui::GetStyle().ItemSpacing.x, 0});
  bool first = true;
  for (std::size_t at = 0; at <= text.size();) {
    std::size_t end = text.find(' ', at);
    if (end == std::string::npos) end = text.size();
    if (end > at) {
      const std::string word = text.substr(at, end - at);
      const float w = ImGui::CalcTextSize(word.c_str()).x;
      // On the same line when it fits (decided before SameLine, so no phantom overflow).
      if (!first && ImGui::GetItemRectMax().x + space + w <= right) ImGui::SameLine(0, space);
      ImGui::TextUnformatted(word.c_str());
      first = false;
    }
    at = end + 1;
  }
  ImGui::PopStyleVar();
  ImGui::Spacing();
}

}  // namespace

void draw_legend_beside(const LegendSlot& legend) {
  if (legend.empty()) return;
  ImGui::Separator();
  legend.draw();
}

void draw_key_number(const KeyNumber& n, const viz::ImGuiLayer& layer) {
  // The number first, large: on a short screen it is what must not scroll away.
  if (!n.value.empty()) {
    if (layer.fonts().bold) ImGui::PushFont(layer.fonts().bold);
    text_wrapped_at_spaces(n.value);
    if (layer.fonts().bold) ImGui::PopFont();
  }
  ImGui::TextDisabled("%s", n.label.c_str());
  if (!n.note.empty()) ImGui::TextDisabled("%s", n.note.c_str());
  ImGui::Spacing();
}

std::vector<KeyNumber> key_numbers_from(const CompareColumn& c) {
  std::vector<KeyNumber> numbers;
  if (!c.model.empty())
    numbers.push_back(
        {"model, per warp request" + (c.access.empty() ? "" : " (" + c.access + ")"), c.model, ""});
  if (!c.counters.empty() && c.counters != "\u2014")
    numbers.push_back({"GPU counters, per request", c.counters,
                       c.counters_stale ? "from the previous parameters" : ""});
  const Headline& h = c.headline;
  const std::string what = h.what.empty() ? std::string("measured") : h.what;
  if (!h.value && !h.busy) {  // nothing measured: one quiet line, not a large dash
    numbers.push_back({what + ": " + (h.note.empty() ? "not measured yet" : h.note), "", ""});
  } else {
    numbers.push_back({what, headline_text(h.value, h.unit, "", h.busy), h.note});
  }
  return numbers;
}

void draw_key_numbers(const LabInstance& lab, const Scenario& scenario,
                      const viz::ImGuiLayer& layer, const LegendSlot& legend, ImVec2 pos,
                      ImVec2 size) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin("In numbers##presenter", nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoSavedSettings);
  std::vector<KeyNumber> numbers = lab.key_numbers();
  if (numbers.empty()) numbers = key_numbers_from(lab.compare_column());
  ImGui::PushTextWrapPos(0);
  for (const KeyNumber& n : numbers) draw_key_number(n, layer);
  if (!scenario.look_for.empty()) {
    ImGui::Separator();
    ImGui::TextDisabled("Look for: %s", scenario.look_for.c_str());
  }
  ImGui::PopTextWrapPos();
  draw_legend_beside(legend);
  ImGui::End();
}

}  // namespace warplens::app
