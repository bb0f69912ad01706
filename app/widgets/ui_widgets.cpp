#include "ui_widgets.h"

#include <imgui_internal.h>

#include "glossary.h"
#include "layout_audit.h"

#include <algorithm>
#include <cmath>

namespace warplens::app {

std::string with_thousands(std::int64_t v) {
  std::string digits = std::to_string(v), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0 && digits[i - 1] != '-') out += ',';
    out += digits[i];
  }
  return out;
}

std::string bytes_text(std::int64_t bytes) {
  return format("%lld B", static_cast<long long>(bytes));
}

std::string percent_text(double fraction) {
  return format("%.1f %%", 100.0 * fraction);
}

void stat_row(const char* name, const std::string& model, const std::string& traced,
              bool show_traced, const char* tooltip) {
  stat_row({name, model, traced, model == traced ? TraceMark::Agrees : TraceMark::Differs, tooltip},
           show_traced);
}

void stat_row(const StatText& row, bool show_traced) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(row.name.c_str());
  if (row.tooltip && ImGui::IsItemHovered())
    ImGui::SetTooltip("%s", row.tooltip);
  else if (!row.tooltip)
    glossary_tooltip(row.name);
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(row.model.c_str());
  ImGui::TableNextColumn();
  if (!show_traced) {
    ImGui::TextDisabled("\u2014");
    return;
  }
  ImGui::TextUnformatted(row.traced.c_str());
  const bool hovered = ImGui::IsItemHovered();
  switch (row.mark) {
    case TraceMark::Agrees:
      ImGui::SameLine();
      ImGui::TextDisabled("\u2713");
      break;
    case TraceMark::Differs:
      ImGui::SameLine();
      ImGui::TextColored({0.85f, 0.2f, 0.1f, 1}, "\u2717 differs");
      break;
    case TraceMark::ThisGpu:
      if (hovered)
        ImGui::SetTooltip(
            "what this GPU does (CC \u2265 7.0 rules); the teaching model's number is not "
            "checked against it");
      break;
  }
}

void draw_counter_line(const std::optional<LabCounters>& counters, bool current, bool busy,
                       bool gpu_mode, const char* unit, model::HardwareModel shown) {
  ImGui::Spacing();
  if (!gpu_mode) {
    ImGui::TextDisabled("hardware counters: need a CUDA device");
    return;
  }
  if (!counters || (!current && busy)) {
    ImGui::TextDisabled("hardware counters: %s", busy ? "reading\u2026" : "\u2014");
    return;
  }
  if (!counters->check || !counters->check->hardware) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored({0.85f, 0.45f, 0.1f, 1}, "%s",
                       counters->unavailable.empty() ? "hardware counters: not read"
                                                     : counters->unavailable.c_str());
    ImGui::PopTextWrapPos();
    return;
  }
  const CounterCheck& c = *counters->check;
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("%s", counter_title_text(shown).c_str());
  ImGui::PopTextWrapPos();
  const bool hovered_title = ImGui::IsItemHovered();
  const std::string text = counter_line_text(c, shown, unit);
  if (current) {
    ImGui::TextUnformatted(text.c_str());
  } else {
    ImGui::TextDisabled("%s", text.c_str());
  }
  const bool hovered_text = ImGui::IsItemHovered();
  ImGui::SameLine();
  if (c.agree) {
    ImGui::TextColored({0.1f, 0.55f, 0.25f, 1}, "\u2713 agrees");
  } else {
    ImGui::TextColored({0.85f, 0.2f, 0.1f, 1}, "\u2717 differs");
  }
  if (hovered_title || hovered_text || ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "CUPTI range profiler, a dedicated launch (not the timed one):\n%s\n"
        "%d pass%s, read in %.0f ms%s%s",
        c.metric.c_str(), c.passes, c.passes == 1 ? "" : "es", c.readout_ms,
        c.note.empty() ? "" : "\n", c.note.c_str());
  }
}

std::string fitting_title(std::initializer_list<std::string> titles, float width) {
  const float room =
      width - 2 * ImGui::GetStyle().FramePadding.x - 2 * ImGui::GetStyle().WindowBorderSize;
  for (const std::string& t : titles)
    if (ImGui::CalcTextSize(t.c_str()).x <= room) return t;
  return *(titles.end() - 1);
}

float stat_table_width(float avail, float scale) {
  const ImGuiStyle& style = ImGui::GetStyle();
  // The widest label, model value and trace header the tables show, with the cells' padding.
  const float need = ImGui::CalcTextSize("sectors, 3 loads, distinct").x +
                     ImGui::CalcTextSize("100.0 % (the minimum)").x +
                     ImGui::CalcTextSize("GPU trace (no GPU)").x + 6 * style.CellPadding.x +
                     style.ScrollbarSize + 8 * scale;
  const float room = avail - 16 * scale;
  return std::clamp(need, 0.5f * room, 0.68f * room);
}

bool begin_stat_table(const char* id, bool show_traced, model::HardwareModel shown) {
  if (!ImGui::BeginTable(id, 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH))
    return false;
  // Every column as wide as its header and cells (never ellipsized); the numbers' split
  // (stat_table_width) leaves room for them.
  ImGui::TableSetupColumn("per warp request", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("model (predicted)", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn(trace_column_title(show_traced, shown).c_str(),
                          ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableHeadersRow();
  return true;
}

void global_stat_rows(const model::GlobalAnalysis& p,
                      const std::optional<model::GlobalAnalysis>& t) {
  for (const StatText& row : global_stat_texts(p, t)) stat_row(row, t.has_value());
}

std::string counters_summary(const std::optional<LabCounters>& counters, bool busy,
                             const char* unit, model::HardwareModel shown) {
  if (!counters) return busy ? "reading\u2026" : "\u2014";
  if (!counters->unavailable.empty()) return counters->unavailable;
  if (!counters->check || !counters->check->hardware) return "\u2014";
  return counter_summary_text(*counters->check, shown, unit);
}

std::string headline_text(const std::optional<double>& value, const std::string& unit,
                          const std::string& note, bool busy) {
  if (value) return format("%.0f %s", *value, unit.c_str()) + (note.empty() ? "" : "  " + note);
  if (!note.empty()) return note;
  return busy ? "measuring\u2026" : "\u2014";
}

bool slider_int_thin(const char* id, int& value, int low, int high, const std::string& text) {
  // A float slider's grab is GrabMinSize wide; the value snaps to whole numbers, so the grab
  // does too once the frame has drawn.
  std::string shown;
  for (const char c : text) shown += c == '%' ? std::string("%%") : std::string(1, c);
  float f = static_cast<float>(value);
  const float grab_w = 0.25f * ImGui::GetFontSize();
  ImGui::PushStyleVar(ImGuiStyleVar_GrabMinSize, grab_w);
  // ImGui centres the value's text over the grab's track, so the grab's bar crossed it at the
  // middle values ("stri|de 32" at 3x): its text is drawn here instead, clear of the bar.
  ImVec4 hidden = ImGui::GetStyleColorVec4(ImGuiCol_Text);
  hidden.w = 0;
  ImGui::PushStyleColor(ImGuiCol_Text, hidden);
  const bool moved = ImGui::SliderFloat(id, &f, static_cast<float>(low), static_cast<float>(high),
                                        shown.c_str(), ImGuiSliderFlags_AlwaysClamp);
  ImGui::PopStyleColor();
  ImGui::PopStyleVar();
  if (!ImGui::TempInputIsActive(ImGui::GetItemID())) {  // not while Ctrl+click types a value
    // The grab's centre as ImGui's slider places it (2 px of padding each end, a float
    // slider's grab GrabMinSize wide), at the value drawn this frame.
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    const float pad_x = ImGui::GetStyle().FramePadding.x, track = b.x - a.x - 4 - grab_w;
    const float t = high > low ? (std::clamp(f, static_cast<float>(low), static_cast<float>(high)) -
                                  static_cast<float>(low)) /
                                     static_cast<float>(high - low)
                               : 0.0f;
    const float gx0 = a.x + 2 + t * track, gx1 = gx0 + grab_w;
    const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
    // Centred where that leaves the bar clear, else pressed to the end away from the bar.
    float x = 0.5f * (a.x + b.x - ts.x);
    const auto clear = [&](float x0) { return x0 + ts.x < gx0 - 2 || x0 > gx1 + 2; };
    if (!clear(x)) {
      const float left = a.x + pad_x, right = b.x - pad_x - ts.x;
      x = clear(left) ? left : clear(right) ? right : x;
    }
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->PushClipRect(a, b, true);
    const float y = 0.5f * (a.y + b.y - ts.y);
    // No room either side (a narrow strip knob): the text on the frame's colour, so the bar
    // shows above and below it, not through its letters.
    if (!clear(x))
      draw->AddRectFilled({x - 1, y}, {x + ts.x + 1, y + ts.y},
                          ImGui::GetColorU32(ImGui::IsItemActive()    ? ImGuiCol_FrameBgActive
                                             : ImGui::IsItemHovered() ? ImGuiCol_FrameBgHovered
                                                                      : ImGuiCol_FrameBg));
    draw->AddText({x, y}, ImGui::GetColorU32(ImGuiCol_Text), text.c_str());
    draw->PopClipRect();
  }
  const int v = std::clamp(static_cast<int>(std::lround(f)), low, high);
  if (!moved || v == value) return false;
  value = v;
  return true;
}

// --- presenter strip knobs ---------------------------------------------------------------------

namespace {

bool g_knob_labels = true;

void knob_label(const char* label) {
  if (!g_knob_labels) return;
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled("%s", label);
  ImGui::SameLine();
}

void knob_done() {
  ImGui::SameLine(0, (g_knob_labels ? 1.5f : 0.5f) * ImGui::GetFontSize());
}

}  // namespace

bool knob_int(const char* label, int& value, int low, int high, float width_chars) {
  knob_label(label);
  ImGui::PushID(label);
  // Without its label the slider says the label's last word beside its value ("pitch 33").
  const std::string text(label);
  const std::string word = g_knob_labels ? "" : text.substr(text.rfind(' ') + 1) + " ";
  ImGui::SetNextItemWidth(ImGui::CalcTextSize(word.c_str()).x +
                          width_chars * ImGui::CalcTextSize("0").x +
                          2 * ImGui::GetStyle().FramePadding.x);
  const bool changed = slider_int_thin("##knob", value, low, high, word + std::to_string(value));
  ImGui::PopID();
  knob_done();
  return changed;
}

bool knob_choice(const char* label, int& index, const char* const* names, int count) {
  knob_label(label);
  // As wide as the longest name, or (a short strip, labels off) as the name shown.
  float widest = 0;
  for (int i = 0; i < count; ++i)
    if (g_knob_labels || i == std::clamp(index, 0, count - 1))
      widest = std::max(widest, ImGui::CalcTextSize(names[i]).x);
  ImGui::PushID(label);
  ImGui::SetNextItemWidth(widest + ImGui::GetFrameHeight() + 2 * ImGui::GetStyle().FramePadding.x);
  bool changed = false;
  if (ImGui::BeginCombo("##knob", names[std::clamp(index, 0, count - 1)])) {
    for (int i = 0; i < count; ++i) {
      if (ImGui::Selectable(names[i], i == index)) {
        changed = i != index;
        index = i;
      }
    }
    ImGui::EndCombo();
  }
  ImGui::PopID();
  knob_done();
  return changed;
}

bool knob_side(bool& side_a) {
  knob_label("side");
  bool changed = false;
  if (ImGui::RadioButton("A##side", side_a) && !side_a) changed = side_a = true;
  ImGui::SameLine();
  if (ImGui::RadioButton("B##side", !side_a) && side_a) {
    side_a = false;
    changed = true;
  }
  knob_done();
  return changed;
}

KnobLabels::KnobLabels(bool on) : previous_(g_knob_labels) {
  g_knob_labels = on;
}
KnobLabels::~KnobLabels() {
  g_knob_labels = previous_;
}

bool knob_buttons(const char* label, int& index, const char* const* names, int count,
                  const char* const* tips) {
  // The buttons keep their label, as a checkbox does: "x y z" alone would not say what they pick.
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled("%s", label);
  ImGui::SameLine();
  ImGui::PushID(label);
  bool changed = false;
  for (int i = 0; i < count; ++i) {
    const bool lit = i == index;
    if (lit)
      ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    ImGui::PushID(i);
    if (ImGui::Button(names[i]) && !lit) {
      index = i;
      changed = true;
    }
    ImGui::PopID();
    if (lit) ImGui::PopStyleColor();
    if (tips && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tips[i]);
    if (i + 1 < count) ImGui::SameLine(0, 2);
  }
  ImGui::PopID();
  knob_done();
  return changed;
}

bool knob_check(const char* label, bool& value) {
  // A checkbox keeps its label: the box alone would say nothing.
  const bool changed = ImGui::Checkbox(label, &value);
  knob_done();
  return changed;
}

// --- the field's words ---------------------------------------------------------------------

void glossary_tooltip(std::string_view text, ImVec2 min, ImVec2 max) {
  if (!ImGui::IsWindowHovered(ImGuiHoveredFlags_AllowWhenBlockedByActiveItem) ||
      !ImGui::IsMouseHoveringRect(min, max))
    return;
  const std::vector<const GlossaryTerm*> terms = terms_in(text);
  if (terms.empty()) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32);
  for (std::size_t i = 0; i < terms.size(); ++i) {
    if (i > 0) ImGui::Separator();
    ImGui::TextUnformatted(terms[i]->term);
    ImGui::TextWrapped("%s", terms[i]->meaning);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", terms[i]->source);
    ImGui::PopStyleColor();
  }
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

void glossary_tooltip(std::string_view text) {
  glossary_tooltip(text, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
}

}  // namespace warplens::app
