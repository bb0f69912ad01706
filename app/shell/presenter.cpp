#include "presenter.h"

#include <imgui_internal.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <utility>

#include "app_ui.h"
#include "layout_audit.h"
#include "number_text.h"
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

// The width of a two-line picker's arrow: the font's, with half a frame's padding either side.
float tall_picker_arrow() {
  return ImGui::GetFontSize() + ImGui::GetStyle().FramePadding.y;
}

// The picker's width for the title over two lines (half a frame's padding either side).
float two_line_picker_width(const std::string& title) {
  const auto [first, second] = viz::two_lines(title);
  return std::max(ImGui::CalcTextSize(first.c_str()).x, ImGui::CalcTextSize(second.c_str()).x) +
         tall_picker_arrow() + ImGui::GetStyle().FramePadding.x;
}

// The height of the picker holding two lines of the title (little padding: every pixel the
// strip takes, the view loses).
float tall_picker_height() {
  return 2 * ImGui::GetTextLineHeight() + 0.4f * ImGui::GetStyle().FramePadding.y;
}

// The gap between the strip's lines and the padding over and under them: half the usual under a
// two-line title, so that the strip is no taller than with a one-line title.
float strip_line_gap(bool title_tall) {
  return (title_tall ? 0.5f : 1.0f) * ImGui::GetStyle().ItemSpacing.y;
}
float strip_padding(bool title_tall) {
  return (title_tall ? 0.5f : 1.0f) * ImGui::GetStyle().WindowPadding.y;
}

// The picker as a box `size` high holding the title's two lines (each cut at the box's arrow),
// drawn as ImGui draws a combo; a click opens the scenarios' list under it. It takes a frame's
// height in the line's layout (the arrows and knobs beside it), reaching over and under it into
// the strip's padding, so the row's other widgets centre on it.
void draw_tall_picker(UiState& ui, const std::pair<std::string, std::string>& title, ImVec2 size) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float frame_h = ImGui::GetFrameHeight(), arrow_w = tall_picker_arrow();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const ImVec2 p{at.x, at.y - 0.5f * (size.y - frame_h)}, q{p.x + size.x, p.y + size.y};
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  const ImGuiID id = window->GetID("##scenario-tall");
  const ImRect box(p, q);
  ImGui::ItemSize(ImVec2{size.x, frame_h});
  if (!ImGui::ItemAdd(box, id)) return;
  bool hovered = false, held = false;
  const bool clicked = ImGui::ButtonBehavior(box, id, &hovered, &held);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(p, q,
                      ImGui::GetColorU32(hovered ? ImGuiCol_FrameBgHovered : ImGuiCol_FrameBg),
                      style.FrameRounding);
  draw->AddRectFilled({q.x - arrow_w, p.y}, q,
                      ImGui::GetColorU32(hovered ? ImGuiCol_ButtonHovered : ImGuiCol_Button),
                      style.FrameRounding, ImDrawFlags_RoundCornersRight);
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  ImGui::RenderArrow(
      draw,
      {q.x - arrow_w + 0.5f * style.FramePadding.y, p.y + 0.5f * (size.y - ImGui::GetFontSize())},
      text, ImGuiDir_Down, 1.0f);
  if (style.FrameBorderSize > 0)
    draw->AddRect(p, q, ImGui::GetColorU32(ImGuiCol_Border), style.FrameRounding, 0,
                  style.FrameBorderSize);
  const float line = ImGui::GetTextLineHeight();
  const ImVec4 clip{p.x, p.y, q.x - arrow_w, q.y};
  const float x = p.x + 0.5f * style.FramePadding.x, y = p.y + 0.5f * (size.y - 2 * line);
  draw->AddText(ImGui::GetFont(), ImGui::GetFontSize(), {x, y}, text, title.first.c_str(), nullptr,
                0, &clip);
  draw->AddText(ImGui::GetFont(), ImGui::GetFontSize(), {x, y + line}, text, title.second.c_str(),
                nullptr, 0, &clip);
  if (clicked && ui.interactive) ImGui::OpenPopup("##scenario-list");
  ImGui::SetNextWindowPos({p.x, q.y});
  ImGui::SetNextWindowSizeConstraints({size.x, 0},
                                      {FLT_MAX, 20 * ImGui::GetTextLineHeightWithSpacing()});
  if (ImGui::BeginPopup("##scenario-list")) {
    draw_scenario_list(ui);
    ImGui::EndPopup();
  }
}

std::string strip_fitted_for(const UiState& ui, float width) {
  return std::to_string(ui.scenario) + "@" + std::to_string(width);
}

bool strip_settled(const UiState& ui, float width) {
  return ui.strip_fitted_for == strip_fitted_for(ui, width);
}

}  // namespace

int presenter_strip_lines(const UiState& ui, float width) {
  // Decided by the last frames' strip for this scenario and width (draw_presenter_strip).
  return strip_settled(ui, width) && ui.strip_two_lines ? 2 : 1;
}

bool presenter_strip_title_tall(const UiState& ui, float width) {
  return strip_settled(ui, width) && ui.strip_title_tall;
}

float presenter_strip_height(int lines, bool title_tall) {
  return static_cast<float>(lines) * ImGui::GetFrameHeight() +
         static_cast<float>(lines - 1) * strip_line_gap(title_tall) +
         2 * strip_padding(title_tall) +
         (title_tall ? tall_picker_height() - ImGui::GetFrameHeight() : 0.0f);
}

namespace {
// Where the title's row's widgets start (a frame high, centred on a two-line picker's row).
float strip_row_top(bool title_tall) {
  return strip_padding(title_tall) +
         (title_tall ? 0.5f * (tall_picker_height() - ImGui::GetFrameHeight()) : 0.0f);
}
}  // namespace

void draw_presenter_strip(UiState& ui, LabInstance& lab, LabFrame& frame, ImVec2 pos, ImVec2 size) {
  const float s = frame.layer.scale();
  // As app_ui sized the strip (before a new scenario or width resets the state below).
  const bool two_lines = presenter_strip_lines(ui, size.x) == 2;
  const bool tall = presenter_strip_title_tall(ui, size.x);
  const bool badge_below = two_lines && ui.strip_badge_below;
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding,
                      {ImGui::GetStyle().WindowPadding.x, strip_padding(tall)});
  ImGui::Begin(
      "##presenter-strip", nullptr,
      ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
  ImGui::PopStyleVar();
  const ImGuiStyle& style = ImGui::GetStyle();
  const StripMeasures m = strip_measures(ui, s);
  const float arrow = m.arrow, arrows = m.arrows, badge_least = m.badge_least,
              picker_least = m.picker_least, button_w = m.button_w;
  // One line where the title, the knobs (as wide as the last frame drew them) and the device
  // fit, the knobs' labels given up first; else two (presenter_strip_lines, which sized the
  // strip): the title, the device and the way back on the first, the knobs on the second. A
  // title too wide for the first line takes two lines of text in its picker, or the device moves
  // to the knobs' line, whichever keeps it whole (one line of text first). In A/B compare (its
  // panes need the height) one line stays while it holds the device and a dozen characters of
  // the title; where even two lines are short, the picker narrows to a dozen characters, then
  // the device's words give way, then the knobs' labels (until the scenario or the strip's
  // width changes).
  const int count = catalog_size(ui);
  const std::string fitted_for = strip_fitted_for(ui, size.x);
  if (ui.strip_fitted_for != fitted_for) {
    ui.strip_fitted_for = fitted_for;
    ui.strip_knob_labels = true;
    ui.strip_knobs_width = 0;
    ui.strip_two_lines = false;
    ui.strip_title_tall = false;
    ui.strip_badge_below = false;
  }
  const float line_w = ImGui::GetContentRegionAvail().x;
  const float knobs_w = two_lines ? 0.0f : ui.strip_knobs_width;  // on the title's line
  const std::string title = scenario_at(ui, ui.scenario).title;
  const float one = picker_width_for(title, m), two = two_line_picker_width(title);
  // What a two-line title may take beyond the picker's usual room: the reserves that `arrows`,
  // `badge_least` and the knobs' measured width keep beyond the gaps really drawn (the arrows'
  // halved beside it, draw_device_badge's least), a pixel short of all of them. (The knobs'
  // gap as the labels begin the frame: where they give way below, it only narrows.)
  const float tall_extra =
      (two_lines ? 24 * s : 48 * s - (ui.strip_knob_labels ? 24 : 8) * s) - 1 * s;
  // The least the picker takes beside the badge: a dozen characters, or a two-line title.
  const float picker_need = tall ? std::min(picker_least, two - tall_extra) : picker_least;
  const bool badge =
      !badge_below && arrows + picker_need + knobs_w + badge_least + button_w <= line_w;
  if (!badge && !badge_below && knobs_w > 0 && ui.strip_knob_labels &&
      arrows + arrow + knobs_w + button_w > line_w) {
    ui.strip_knob_labels = false;  // measured again without them on this frame
  }
  if (two_lines && ui.strip_knob_labels && ui.strip_knobs_width > line_w)
    ui.strip_knob_labels = false;
  // The title's row: as high as the picker, the other widgets centred on it.
  const float row_h = tall ? tall_picker_height() : arrow;
  ImGui::SetCursorPosY(strip_row_top(tall));
  if (ImGui::ArrowButton("##previous", ImGuiDir_Left) && ui.interactive)
    ui.pending_scenario = (ui.scenario + count - 1) % count;
  // Beside a two-line title the arrows keep half the usual gap.
  const float arrow_gap = (tall ? 0.5f : 1.0f) * style.ItemSpacing.x;
  ImGui::SameLine(0, arrow_gap);
  // The picker as wide as its title needs, within what the rest leaves.
  // Where not even a dozen characters are left, the picker is its arrow alone (the scenario's
  // title follows the numbers beside the view).
  const float picker_room = line_w - arrows - knobs_w - button_w - (badge ? badge_least : 0.0f) +
                            (tall ? tall_extra : 0.0f);
  float preview_room = 0;
  if (tall) {
    const auto lines = viz::two_lines(title);
    const float needed = two;
    draw_tall_picker(ui, lines, {std::min(needed, picker_room), row_h});
    ui.strip_title_whole = needed <= picker_room;
    preview_room = picker_room - arrow - 2 * style.FramePadding.x;
  } else {
    const float picker_w =
        picker_room < picker_least ? arrow : std::min(picker_width_for(title, m), picker_room);
    ImGui::SetNextItemWidth(picker_w);
    preview_room = picker_room < picker_least ? 0.0f : picker_w - arrow - 2 * style.FramePadding.x;
    ui.strip_title_whole = preview_room > 0 && ImGui::CalcTextSize(title.c_str()).x <= preview_room;
    draw_scenario_combo(ui, preview_room);
  }
  // A lecture starts from the scenario's name and says what drew it: both on the strip.
  if (preview_room <= 0)
    audit_finding_in("title", "missing",
                     "presenter strip: the title reduced to the picker's arrow (" + title + ")");
  else if (!ui.strip_title_whole)
    audit_finding_in("title", "ellipsized",
                     "presenter strip: the title cut in its picker (" + title + ")");
  if (!badge && !badge_below)
    audit_finding("missing", "presenter strip: the device or model-only badge left out");
  ImGui::SameLine(0, arrow_gap);
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
  if (two_lines) {
    right_end();
    ImGui::SetCursorPosY(strip_padding(tall) + row_h + strip_line_gap(tall));
  }
  // The scenario's knobs, and "as stored" where a 2D array view had no room (key T).
  const float knob_gap = (ui.strip_knob_labels ? 24 : 8) * s;
  if (!two_lines) ImGui::SameLine(0, knob_gap);
  const float x0 = ImGui::GetCursorScreenPos().x;
  {
    const KnobLabels labels(ui.strip_knob_labels);
    // A/B compare where one view fits: the side it shows (and the knobs edit); with both on
    // screen keys A / B pick the side edited, the strip keeps its one line for their height.
    if (ui.compare && ui.compare_one_side) knob_side(ui.compare_edit_a);
    // A slider's thumb a thin bar: a wide one covered the value written across the slider
    // ("128 KiB" under the thumb at 3x).
    ImGui::PushStyleVar(ImGuiStyleVar_GrabMinSize, 4 * s);
    if (LabPresenter* p = lab.presenter()) p->draw_knobs(frame);
    ImGui::PopStyleVar();
    // Only where it fits after the lab's own, the badge keeping its place (else key T alone
    // switches).
    const float check_w =
        ImGui::GetFrameHeight() + style.ItemInnerSpacing.x + ImGui::CalcTextSize("as stored").x;
    bool alone = ui.array_was_alone;
    // On the line the knobs end on, which a lab's knobs may have closed (the own-kernel lab's
    // step control): then measured from the last item's end.
    const bool line_closed = ImGui::GetCursorScreenPos().y >= ImGui::GetItemRectMax().y - 0.5f;
    const float check_room = line_closed
                                 ? ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x -
                                       (ImGui::GetItemRectMax().x + knob_gap)
                                 : ImGui::GetContentRegionAvail().x;
    // Not beside A/B's two panes: their two grids side by side are that lesson, and the check
    // would take the title's room (key T still switches).
    const bool two_panes = ui.compare && !ui.compare_one_side;
    if (ui.array_switch && !two_panes &&
        check_room >= check_w + button_w + (two_lines && !badge_below ? 0 : badge_least)) {
      if (line_closed) ImGui::SameLine(0, knob_gap);
      if (knob_check("as stored", alone)) ui.array_alone = alone;
      glossary_tooltip("as stored");
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "Show the tile or matrix as it lies in memory (rows, padding, banks) in the "
            "view's place, where it has no room beside it (key T)");
    }
  }
  // To the last knob's end (a lab's knobs may end their line rather than leave it open).
  ui.strip_knobs_width =
      std::max(ImGui::GetCursorScreenPos().x, ImGui::GetItemRectMax().x + 24 * s) - x0;
  if (badge_below) {
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    draw_device_badge(lab, frame.layer, frame.theme, ImGui::GetWindowContentRegionMax().x - 6 * s);
  }
  // One line too short for the whole title and the device: the knobs' labels go first; then
  // the title takes two lines of text where they fit beside the knobs (the strip is no taller
  // for it); then, outside A/B compare, the knobs take a line of their own (with their labels)
  // from the next frame on: where the title fits whole on a line of its own (in one line of
  // text or two), or one line would leave the picker its arrow alone (else one line keeps the
  // height, the title following the numbers).
  const float rest = arrows + ui.strip_knobs_width + badge_least + button_w;
  const float one_line = rest + one;
  const bool tall_fits = (!ui.strip_knob_labels || ui.strip_knobs_width <= 0) &&
                         rest + two <= line_w + 47 * s - knob_gap;
  if (!two_lines && !ui.strip_two_lines) ui.strip_title_tall = one_line > line_w && tall_fits;
  const float own_line = line_w - arrows - button_w;  // the title's room on a line of its own
  const float beside = own_line - badge_least, tall_beside = beside + 23 * s;
  const bool worth = one_line - ui.strip_knobs_width <= line_w || two <= own_line ||
                     line_w - arrows - ui.strip_knobs_width - button_w - badge_least < picker_least;
  // A/B compare keeps one line for its panes' height while that line still holds the title's
  // dozen characters and the device; where it would not (the room, not the scale, decides),
  // the knobs take the second line there too, once their width has settled (their combos
  // narrow over a few frames).
  const bool settled = std::abs(ui.strip_knobs_width - knobs_w) < 0.5f;
  const bool loses_title_or_badge =
      arrows + picker_least + ui.strip_knobs_width + badge_least + button_w > line_w;
  if (!two_lines && !ui.strip_two_lines && ui.strip_knobs_width > 0 && one_line > line_w &&
      !tall_fits) {
    if (ui.strip_knob_labels) {
      ui.strip_knob_labels = false;
    } else if (ui.compare ? settled && loses_title_or_badge : worth) {
      ui.strip_two_lines = true;
      ui.strip_knob_labels = true;
      // The title's lines known before the knobs' line is measured (below).
      ui.strip_title_tall = one > beside && two <= tall_beside;
    }
  }
  // On two lines, for the next frame: the title on one line of text beside the device; else on
  // one with the device on the knobs' line (where it fits there); else on two lines of text
  // beside the device; else on two with the device below. Where none keeps it whole, one line
  // of text, cut (the title follows the numbers).
  if (two_lines && ui.strip_knobs_width > 0) {
    const bool below_fits = ui.strip_knobs_width + badge_least <= line_w;
    ui.strip_badge_below = false;
    ui.strip_title_tall = false;
    if (one <= beside) {
    } else if (below_fits && one <= own_line) {
      ui.strip_badge_below = true;
    } else if (two <= tall_beside) {
      ui.strip_title_tall = true;
    } else if (below_fits && two <= own_line + 23 * s) {
      ui.strip_title_tall = ui.strip_badge_below = true;
    }
  }
  if (!two_lines) right_end();
  ImGui::End();
}

namespace {

// `text` wrapped to the window at its spaces only (ImGui's own wrapping also breaks after a '.',
// which splits "1.00" into "1." and "00"), never between a number and its unit; a word wider
// than the line stays whole. `muted`: in the theme's muted colour.
// `continue_line`: the first word goes on the line of the item before it where it fits.
void text_wrapped_at_spaces(const std::string& raw, bool muted = false, bool spaced = true,
                            bool continue_line = false) {
  const std::string text = keep_units_together(raw);
  if (muted) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  const float right = ImGui::GetWindowPos().x + ImGui::GetContentRegionMax().x;
  const float space = ImGui::CalcTextSize(" ").x;
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, {ImGui::GetStyle().ItemSpacing.x, 0});
  bool first = !continue_line;
  bool new_line = false;  // after a '\n' in the text: the next word starts a line
  ImVec2 block_min(FLT_MAX, FLT_MAX), block_max(-FLT_MAX, -FLT_MAX);  // for the glossary
  for (std::size_t at = 0; at <= text.size();) {
    std::size_t end = text.find_first_of(" \n", at);
    if (end == std::string::npos) end = text.size();
    if (end > at) {
      const std::string word = text.substr(at, end - at);
      const float w = ImGui::CalcTextSize(word.c_str()).x;
      // On the same line when it fits (decided before SameLine, so no phantom overflow).
      if (!first && !new_line && ImGui::GetItemRectMax().x + space + w <= right)
        ImGui::SameLine(0, space);
      ImGui::TextUnformatted(word.c_str());
      block_min = ImMin(block_min, ImGui::GetItemRectMin());
      block_max = ImMax(block_max, ImGui::GetItemRectMax());
      first = false;
      new_line = false;
    }
    if (end < text.size() && text[end] == '\n') new_line = true;
    at = end + 1;
  }
  ImGui::PopStyleVar();
  if (muted) ImGui::PopStyleColor();
  if (block_min.x <= block_max.x) glossary_tooltip(text, block_min, block_max);
  if (spaced) ImGui::Spacing();
}

}  // namespace

float draw_legend_beside(const LegendSlot& legend, const std::function<bool()>& before_notes,
                         bool flow) {
  if (legend.has_legend()) {
    ImGui::Separator();
    legend.draw(flow);
  }
  // (The cursor stands an item's spacing below the last line.)
  const float legend_end = ImGui::GetCursorPosY() - ImGui::GetStyle().ItemSpacing.y;
  const bool between = before_notes && before_notes();
  if (!between && !legend.has_legend() && !legend.empty()) ImGui::Separator();
  legend.draw_notes();
  return legend_end;
}

void draw_key_number(const KeyNumber& n, const viz::ImGuiLayer& layer, bool compact) {
  // Nothing measured ("—"): one quiet line, not a large dash over two lines of text.
  if (n.value == "\u2014") {
    text_wrapped_at_spaces(n.label + (n.note.empty() ? ": not measured yet" : ": " + n.note), true);
    return;
  }
  if (compact && !n.value.empty()) {
    // One flow: the value in bold, what it is and its note after it on the same line.
    if (layer.fonts().bold) ImGui::PushFont(layer.fonts().bold);
    text_wrapped_at_spaces(n.value, false, false);
    if (layer.fonts().bold) ImGui::PopFont();
    const std::string rest = n.label + (n.label.empty() || n.note.empty() ? "" : ", ") + n.note;
    text_wrapped_at_spaces(rest, true, true, true);
    return;
  }
  // The number first, large: on a short screen it is what must not scroll away.
  if (!n.value.empty()) {
    if (layer.fonts().bold) ImGui::PushFont(layer.fonts().bold);
    text_wrapped_at_spaces(n.value);
    if (layer.fonts().bold) ImGui::PopFont();
  }
  // What it is and its note as one block, the space after it.
  if (!n.label.empty()) text_wrapped_at_spaces(n.label, true, n.note.empty());
  if (!n.note.empty()) text_wrapped_at_spaces(n.note, true);
}

namespace {
bool title_beside_drawn = false;

// The numbers' column's text size: where its numbers, legend and look-for run below it (a short
// projector screen), the next frame draws them smaller, down to text as tall, for the screen's
// height, as 2× on a 1920×1080 screen (1.5× there at 2×; never under scale 1's): a projector's
// text reads by its share of the picture. Where the legend alone is still below the column
// there (a plot's long model line with a GPU's measured series), down to 1.5×'s share, so the
// class can read the picture's key. Only ever shrinks for one scenario, scale and column
// width (a fit that grew back would flip frame to frame); another scenario starts at full size
// again. One thread, the UI's.
struct ColumnFit {
  std::string key;
  float text_scale = 1.0f;
};
std::map<std::string, ColumnFit> column_fits;  // by the column's window name

float least_text_scale(float ui_scale, float screen_h, float share_of_1080) {
  const float least =
      std::max(1.0f, std::min(share_of_1080 * screen_h / 1080.0f, 0.75f * ui_scale));
  return std::min(1.0f, least / ui_scale);
}
}  // namespace

void begin_column_fit(const std::string& column, const std::string& key, float ui_scale) {
  ColumnFit& fit = column_fits[column];
  const std::string full_key =
      key + "\x1f" + std::to_string(ui_scale) + "\x1f" + std::to_string(ImGui::GetWindowWidth());
  if (fit.key != full_key) fit = {full_key, 1.0f};
  ImGui::SetWindowFontScale(fit.text_scale);
  // The gaps between its items shrink with the text: at 3× they are as tall as half a line.
  const ImVec2 spacing = ImGui::GetStyle().ItemSpacing;
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing,
                      {spacing.x * fit.text_scale, spacing.y * fit.text_scale});
}

void end_column_fit(const std::string& column, float legend_end, float ui_scale,
                    float look_for_end) {
  ColumnFit& fit = column_fits[column];
  // (The cursor stands an item's spacing below the last line.)
  const float used = ImGui::GetCursorPosY() - ImGui::GetStyle().ItemSpacing.y;
  const float room = ImGui::GetWindowHeight();
  if (used > room + 1.0f) {
    const float screen_h = ImGui::GetIO().DisplaySize.y;
    const float least = least_text_scale(ui_scale, screen_h, 2.0f);
    const float least_for_legend = least_text_scale(ui_scale, screen_h, 1.5f);
    // With a look-for (one quiet sentence after the legend), the column may go a little smaller
    // still for it (an A/B column with both sides' GPU numbers at 3x on 1920x1080 needed 1.45x's
    // share). One step to the size that fits both, as the render settles in a few frames.
    const float floor =
        look_for_end >= 0 ? least_text_scale(ui_scale, screen_h, 1.25f) : least_for_legend;
    const float must_end = std::max(legend_end, look_for_end);
    if (fit.text_scale > least)
      fit.text_scale = std::max(least, fit.text_scale * room / used * 0.98f);
    else if (must_end > room + 1.0f && fit.text_scale > floor)
      fit.text_scale = std::max(floor, fit.text_scale * room / must_end * 0.98f);
    else if (legend_end > room + 1.0f)
      audit_finding("hidden", format("presenter: the numbers' column runs %.0f px below its "
                                     "window, its legend out of sight",
                                     legend_end - room));
    else if (look_for_end > room + 1.0f)
      audit_finding("hidden", format("presenter: the numbers' column runs %.0f px below its "
                                     "window, its look-for out of sight",
                                     look_for_end - room));
  }
  ImGui::PopStyleVar();
  ImGui::SetWindowFontScale(1.0f);
}

bool draw_look_for(const std::string& look_for, float* end) {
  if (look_for.empty()) return false;
  ImGui::Separator();
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("Look for: %s", look_for.c_str());
  ImGui::PopTextWrapPos();
  // (The cursor stands an item's spacing below the last line.)
  if (end) *end = ImGui::GetCursorPosY() - ImGui::GetStyle().ItemSpacing.y;
  return true;
}

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
  std::vector<KeyNumber> numbers;
  if (const LabPresenter* p = lab.presenter()) numbers = p->key_numbers();
  if (numbers.empty()) numbers = key_numbers_from(lab.compare_column());
  begin_column_fit("In numbers", scenario.title, layer.scale());
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
  // The legend before the look-for: it is the picture's key, which the class reads. Then the
  // look-for, the lesson in a sentence: both stay on screen (the column's text shrinks for
  // them); the view's notes after them may scroll away on a short screen.
  ImGui::PopTextWrapPos();
  float look_for_end = -1;
  const float legend_end =
      draw_legend_beside(legend, [&] { return draw_look_for(scenario.look_for, &look_for_end); });
  end_column_fit("In numbers", legend_end, layer.scale(), look_for_end);
  ImGui::End();
}

}  // namespace warplens::app
