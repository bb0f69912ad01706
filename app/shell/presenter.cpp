#include "presenter.h"

#include <algorithm>
#include <string>
#include <utility>

#include "app_ui.h"
#include "layout_audit.h"
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
  const ImGuiStyle& style = ImGui::GetStyle();
  const float arrow = ImGui::GetFrameHeight();
  const char* full = "P: full panel";
  const float button_w =
      ui.interactive ? ImGui::CalcTextSize(full).x + 2 * style.FramePadding.x + 24 * s : 0.0f;
  // One line: the knobs come first (as wide as the last frame drew them). Where they and the
  // rest do not fit, the picker narrows to a dozen characters, then the device's words give
  // way, then the knobs' labels (until the scenario or the strip's width changes).
  const int count = catalog_size(ui);
  const std::string fitted_for = std::to_string(ui.scenario) + "@" + std::to_string(size.x);
  if (ui.strip_fitted_for != fitted_for) {
    ui.strip_fitted_for = fitted_for;
    ui.strip_knob_labels = true;
    ui.strip_knobs_width = 0;
  }
  const float line_w = ImGui::GetContentRegionAvail().x;
  const float arrows = 2 * arrow + 2 * style.ItemSpacing.x + 24 * s;
  const float badge_least = ImGui::CalcTextSize("no GPU").x + 26 * s;
  const float picker_least = ImGui::CalcTextSize("0123456789ab").x + arrow;
  const float knobs_w = ui.strip_knobs_width;
  const bool badge = arrows + picker_least + knobs_w + badge_least + button_w <= line_w;
  if (!badge && knobs_w > 0 && ui.strip_knob_labels &&
      arrows + arrow + knobs_w + button_w > line_w) {
    ui.strip_knob_labels = false;  // measured again without them on this frame
  }
  if (ImGui::ArrowButton("##previous", ImGuiDir_Left) && ui.interactive)
    ui.pending_scenario = (ui.scenario + count - 1) % count;
  ImGui::SameLine();
  // The picker as wide as its title needs, at most 40 % of the strip and what the rest leaves.
  const std::string title = scenario_at(ui, ui.scenario).title;
  // Where not even a dozen characters are left, the picker is its arrow alone (the scenario's
  // title is in the status line).
  const float picker_room = line_w - arrows - knobs_w - button_w - (badge ? badge_least : 0.0f);
  const float picker_w =
      picker_room < picker_least
          ? arrow
          : std::min({ImGui::CalcTextSize(title.c_str()).x + arrow + 2 * style.FramePadding.x,
                      0.4f * size.x, picker_room});
  ImGui::SetNextItemWidth(picker_w);
  const float preview_room =
      picker_room < picker_least ? 0.0f : picker_w - arrow - 2 * style.FramePadding.x;
  ui.strip_title_whole = preview_room > 0 && ImGui::CalcTextSize(title.c_str()).x <= preview_room;
  // A lecture starts from the scenario's name and says what drew it: both on the strip.
  if (preview_room <= 0)
    audit_finding("missing", "presenter strip: the scenario title reduced to the picker's arrow (" +
                                 title + ")");
  else if (!ui.strip_title_whole)
    audit_finding("ellipsized",
                  "presenter strip: the scenario title cut in its picker (" + title + ")");
  if (!badge) audit_finding("missing", "presenter strip: the device or model-only badge left out");
  draw_scenario_combo(ui, preview_room);
  ImGui::SameLine();
  if (ImGui::ArrowButton("##next", ImGuiDir_Right) && ui.interactive)
    ui.pending_scenario = (ui.scenario + 1) % count;
  // The scenario's knobs, and "as stored" where a 2D array view had no room (key T).
  ImGui::SameLine(0, (ui.strip_knob_labels ? 24 : 8) * s);
  const float x0 = ImGui::GetCursorScreenPos().x;
  {
    const KnobLabels labels(ui.strip_knob_labels);
    lab.draw_knobs(frame);
    // Only where it fits after the lab's own (else key T alone switches).
    const float check_w =
        ImGui::GetFrameHeight() + style.ItemInnerSpacing.x + ImGui::CalcTextSize("as stored").x;
    bool alone = ui.array_was_alone;
    if (ui.array_switch && ImGui::GetContentRegionAvail().x >= check_w + button_w &&
        knob_check("as stored", alone))
      ui.array_alone = alone;
  }
  // To the last knob's end (a lab's knobs may end their line rather than leave it open).
  ui.strip_knobs_width =
      std::max(ImGui::GetCursorScreenPos().x, ImGui::GetItemRectMax().x + 24 * s) - x0;
  // Right end: the device (or the model-only / teaching-model badge), then the way back.
  if (badge) {
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    draw_device_badge(lab, frame.layer, frame.theme,
                      ImGui::GetWindowContentRegionMax().x - button_w - 6 * s);
  }
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

namespace {
bool title_beside_drawn = false;
}  // namespace

void draw_title_beside(const std::string& title) {
  text_wrapped_at_spaces(title);
  ImGui::Separator();
  title_beside_drawn = !title.empty();
}

bool take_title_beside_drawn() {
  return std::exchange(title_beside_drawn, false);
}

void draw_key_numbers(const LabInstance& lab, const Scenario& scenario,
                      const viz::ImGuiLayer& layer, const LegendSlot& legend, ImVec2 pos,
                      ImVec2 size, bool title_first) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin("In numbers##presenter", nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoSavedSettings);
  if (title_first) draw_title_beside(scenario.title);
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
