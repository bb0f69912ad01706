#include "presenter.h"

#include <algorithm>
#include <cmath>
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

namespace {

// The strip's measures: its arrows, the least a badge takes, the "P: full panel" button.
struct StripMeasures {
  float arrow, arrows, badge_least, picker_least, button_w;
};

StripMeasures strip_measures(const UiState& ui, float s) {
  const ImGuiStyle& style = ImGui::GetStyle();
  StripMeasures m{};
  m.arrow = ImGui::GetFrameHeight();
  m.arrows = 2 * m.arrow + 2 * style.ItemSpacing.x + 24 * s;
  m.badge_least = ImGui::CalcTextSize("no GPU").x + 26 * s;
  m.picker_least = ImGui::CalcTextSize("0123456789ab").x + m.arrow;
  m.button_w = ui.interactive
                   ? ImGui::CalcTextSize("P: full panel").x + 2 * style.FramePadding.x + 24 * s
                   : 0.0f;
  return m;
}

float picker_width_for(const std::string& title, const StripMeasures& m) {
  return ImGui::CalcTextSize(title.c_str()).x + m.arrow + 2 * ImGui::GetStyle().FramePadding.x;
}

std::string strip_fitted_for(const UiState& ui, float width) {
  return std::to_string(ui.scenario) + "@" + std::to_string(width);
}

}  // namespace

int presenter_strip_lines(const UiState& ui, float width) {
  // Decided by the last frames' strip for this scenario and width (draw_presenter_strip).
  return ui.strip_fitted_for == strip_fitted_for(ui, width) && ui.strip_two_lines ? 2 : 1;
}

float presenter_strip_height(int lines) {
  return static_cast<float>(lines) * ImGui::GetFrameHeight() +
         static_cast<float>(lines - 1) * ImGui::GetStyle().ItemSpacing.y +
         2 * ImGui::GetStyle().WindowPadding.y;
}

void draw_presenter_strip(UiState& ui, LabInstance& lab, LabFrame& frame, ImVec2 pos, ImVec2 size) {
  const float s = frame.layer.scale();
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin(
      "##presenter-strip", nullptr,
      ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
  const ImGuiStyle& style = ImGui::GetStyle();
  const StripMeasures m = strip_measures(ui, s);
  const float arrow = m.arrow, arrows = m.arrows, badge_least = m.badge_least,
              picker_least = m.picker_least, button_w = m.button_w;
  // One line where the title, the knobs (as wide as the last frame drew them) and the device
  // fit, the knobs' labels given up first; else two (presenter_strip_lines, which sized the
  // strip): the title, the device and the way back on the first, the knobs on the second. In
  // A/B compare (its panes need the height) one line stays while it holds the device and a
  // dozen characters of the title; where even two lines are short, the picker narrows to a
  // dozen characters, then the device's words give way, then the knobs' labels (until the
  // scenario or the strip's width changes).
  const bool two_lines = size.y > presenter_strip_height(1) + 0.5f;
  const int count = catalog_size(ui);
  const std::string fitted_for = strip_fitted_for(ui, size.x);
  if (ui.strip_fitted_for != fitted_for) {
    ui.strip_fitted_for = fitted_for;
    ui.strip_knob_labels = true;
    ui.strip_knobs_width = 0;
    ui.strip_two_lines = false;
  }
  const float line_w = ImGui::GetContentRegionAvail().x;
  const float knobs_w = two_lines ? 0.0f : ui.strip_knobs_width;  // on the title's line
  const bool badge = arrows + picker_least + knobs_w + badge_least + button_w <= line_w;
  if (!badge && knobs_w > 0 && ui.strip_knob_labels &&
      arrows + arrow + knobs_w + button_w > line_w) {
    ui.strip_knob_labels = false;  // measured again without them on this frame
  }
  if (two_lines && ui.strip_knob_labels && ui.strip_knobs_width > line_w)
    ui.strip_knob_labels = false;
  if (ImGui::ArrowButton("##previous", ImGuiDir_Left) && ui.interactive)
    ui.pending_scenario = (ui.scenario + count - 1) % count;
  ImGui::SameLine();
  // The picker as wide as its title needs, within what the rest leaves.
  const std::string title = scenario_at(ui, ui.scenario).title;
  // Where not even a dozen characters are left, the picker is its arrow alone (the scenario's
  // title follows the numbers beside the view).
  const float picker_room = line_w - arrows - knobs_w - button_w - (badge ? badge_least : 0.0f);
  const float picker_w =
      picker_room < picker_least ? arrow : std::min(picker_width_for(title, m), picker_room);
  ImGui::SetNextItemWidth(picker_w);
  const float preview_room =
      picker_room < picker_least ? 0.0f : picker_w - arrow - 2 * style.FramePadding.x;
  ui.strip_title_whole = preview_room > 0 && ImGui::CalcTextSize(title.c_str()).x <= preview_room;
  // A lecture starts from the scenario's name and says what drew it: both on the strip.
  if (preview_room <= 0)
    audit_finding("missing",
                  "presenter strip: the title reduced to the picker's arrow (" + title + ")");
  else if (!ui.strip_title_whole)
    audit_finding("ellipsized", "presenter strip: the title cut in its picker (" + title + ")");
  if (!badge) audit_finding("missing", "presenter strip: the device or model-only badge left out");
  draw_scenario_combo(ui, preview_room);
  ImGui::SameLine();
  if (ImGui::ArrowButton("##next", ImGuiDir_Right) && ui.interactive)
    ui.pending_scenario = (ui.scenario + 1) % count;
  // Right end: the device (or the model-only / teaching-model badge), then the way back.
  const auto right_end = [&] {
    if (badge) {
      ImGui::SameLine();
      ImGui::AlignTextToFramePadding();
      draw_device_badge(lab, frame.layer, frame.theme,
                        ImGui::GetWindowContentRegionMax().x - button_w - 6 * s);
    }
    if (ui.interactive) {
      ImGui::SameLine(std::max(ImGui::GetCursorPosX() + 16 * s,
                               ImGui::GetWindowContentRegionMax().x - button_w + 24 * s));
      if (ImGui::SmallButton("P: full panel")) ui.presenter = false;
    }
  };
  if (two_lines) right_end();
  // The scenario's knobs, and "as stored" where a 2D array view had no room (key T).
  if (!two_lines) ImGui::SameLine(0, (ui.strip_knob_labels ? 24 : 8) * s);
  const float x0 = ImGui::GetCursorScreenPos().x;
  {
    const KnobLabels labels(ui.strip_knob_labels);
    // A/B compare where one view fits: the side it shows (and the knobs edit); with both on
    // screen keys A / B pick the side edited, the strip keeps its one line for their height.
    if (ui.compare && ui.compare_one_side) knob_side(ui.compare_edit_a);
    lab.draw_knobs(frame);
    // Only where it fits after the lab's own, the badge keeping its place (else key T alone
    // switches).
    const float check_w =
        ImGui::GetFrameHeight() + style.ItemInnerSpacing.x + ImGui::CalcTextSize("as stored").x;
    bool alone = ui.array_was_alone;
    if (ui.array_switch &&
        ImGui::GetContentRegionAvail().x >= check_w + button_w + (two_lines ? 0 : badge_least)) {
      if (knob_check("as stored", alone)) ui.array_alone = alone;
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "Show the tile or matrix as it lies in memory (rows, padding, banks) in the "
            "view's place, where it has no room beside it (key T)");
    }
  }
  // To the last knob's end (a lab's knobs may end their line rather than leave it open).
  ui.strip_knobs_width =
      std::max(ImGui::GetCursorScreenPos().x, ImGui::GetItemRectMax().x + 24 * s) - x0;
  // One line too short for the whole title and the device: the knobs' labels go first; then,
  // outside A/B compare, the knobs take a line of their own (with their labels) from the next
  // frame on: where the title fits whole on a line of its own, or one line would leave the
  // picker its arrow alone (else one line keeps the height, the title following the numbers).
  const float one_line =
      arrows + picker_width_for(title, m) + ui.strip_knobs_width + badge_least + button_w;
  const bool worth = one_line - ui.strip_knobs_width <= line_w ||
                     line_w - arrows - ui.strip_knobs_width - button_w - badge_least < picker_least;
  // A/B compare keeps one line for its panes' height while that line still holds the title's
  // dozen characters and the device; where it would not (the room, not the scale, decides),
  // the knobs take the second line there too, once their width has settled (their combos
  // narrow over a few frames).
  const bool settled = std::abs(ui.strip_knobs_width - knobs_w) < 0.5f;
  const bool loses_title_or_badge =
      arrows + picker_least + ui.strip_knobs_width + badge_least + button_w > line_w;
  if (!two_lines && !ui.strip_two_lines && ui.strip_knobs_width > 0 && one_line > line_w) {
    if (ui.strip_knob_labels) {
      ui.strip_knob_labels = false;
    } else if (ui.compare ? settled && loses_title_or_badge : worth) {
      ui.strip_two_lines = true;
      ui.strip_knob_labels = true;
    }
  }
  if (!two_lines) right_end();
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
                      ImVec2 size, bool with_title) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin("In numbers##presenter", nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoSavedSettings);
  std::vector<KeyNumber> numbers = lab.key_numbers();
  if (numbers.empty()) numbers = key_numbers_from(lab.compare_column());
  ImGui::PushTextWrapPos(0);
  // The first number's first line must be in the column, not below it (the audit).
  if (!numbers.empty() && ImGui::GetCursorScreenPos().y + ImGui::GetTextLineHeight() >
                              ImGui::GetWindowPos().y + ImGui::GetWindowHeight())
    audit_finding("missing", "presenter: the first key number is below the numbers' column");
  for (const KeyNumber& n : numbers) draw_key_number(n, layer);
  // The title after the numbers (as A/B's column has it): on a short projector screen it would
  // push the headline below the column.
  if (with_title && !scenario.title.empty()) {
    ImGui::Separator();
    text_wrapped_at_spaces(scenario.title);
    title_beside_drawn = true;
  }
  if (!scenario.look_for.empty()) {
    ImGui::Separator();
    ImGui::TextDisabled("Look for: %s", scenario.look_for.c_str());
  }
  ImGui::PopTextWrapPos();
  draw_legend_beside(legend);
  ImGui::End();
}

}  // namespace warplens::app
