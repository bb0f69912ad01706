// Small ImGui helpers both labs' panels use: number formatting and the model-vs-trace row.
#pragma once

#include <imgui.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "counter_service.h"
#include "layout_audit.h"
#include "memory_model.h"
#include "number_text.h"
#include "theme.h"

namespace warplens::app {

/// A fixed panel of a lab's window: not moved, resized, collapsed or saved by the user.
inline constexpr ImGuiWindowFlags kPanelFlags =
    ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
    ImGuiWindowFlags_NoSavedSettings;

/// printf into a std::string, as long as the text is (a longer paragraph is not cut short).
template <typename... Args>
std::string format(const char* fmt, Args... args) {
  char buf[256];
  const int n = std::snprintf(buf, sizeof buf, fmt, args...);
  if (n < 0) return {};
  if (static_cast<std::size_t>(n) < sizeof buf)
    return std::string(buf, static_cast<std::size_t>(n));
  std::string out(static_cast<std::size_t>(n) + 1, '\0');
  std::snprintf(out.data(), out.size(), fmt, args...);
  out.resize(static_cast<std::size_t>(n));
  return out;
}

/// 1234567 -> "1,234,567".
std::string with_thousands(std::int64_t v);
std::string bytes_text(std::int64_t bytes);  ///< "128 B"
std::string percent_text(double fraction);   ///< 0.5 -> "50.0 %"

/// A muted caption over a control.
inline void label(const char* text) {
  ImGui::TextDisabled("%s", text);
}

/// Radio buttons over `values` on one line (ImGui ids scoped by `id`); returns true when the
/// choice changed.
template <typename T>
bool radio_row(const char* id, T& value, std::initializer_list<std::pair<T, const char*>> values) {
  bool changed = false;
  ImGui::PushID(id);
  bool first = true;
  for (const auto& [v, text] : values) {
    if (!first) ImGui::SameLine();
    first = false;
    if (ImGui::RadioButton(text, value == v)) {
      changed = !(value == v);
      value = v;
    }
  }
  ImGui::PopID();
  return changed;
}

/// The first of `titles` (longest first) whose text fits a window title bar `width` pixels
/// wide, else the last.
std::string fitting_title(std::initializer_list<std::string> titles, float width);

inline ImVec4 color4(viz::Rgb c) {
  return {c.r, c.g, c.b, 1.0f};
}

/// One row of a 3-column table: name (with tooltip), the model's value, the trace's value
/// followed by a check mark when they agree or "differs" when they do not.
void stat_row(const char* name, const std::string& model, const std::string& traced,
              bool show_traced, const char* tooltip);
/// The same for a row built by number_text.h: its mark decides ✓, ✗ differs or none (a
/// historical model's number beside what this GPU does).
void stat_row(const StatText& row, bool show_traced);

/// Width of the numbers' left part (the model-vs-trace table) out of `avail` pixels: half, more
/// where half would cut the table's widest header or cell, at most about two thirds.
float stat_table_width(float avail, float scale);

/// Opens the 3-column model-vs-trace table ("per warp request", model, GPU trace) with its
/// header row; true when the caller must fill it and call ImGui::EndTable. `shown`: the model
/// the table's middle column follows (a historical one renames the trace column).
bool begin_stat_table(const char* id, bool show_traced,
                      model::HardwareModel shown = model::HardwareModel::Modern);

/// The rows of one warp's global request, model beside trace (`traced`: nullopt without one),
/// as global_stat_texts builds them: requests, lanes, sectors, a historical model's
/// transactions, lines, bytes requested and moved, efficiency, loads per KiB. The global lab and
/// the transpose's global read and write show the same rows.
void global_stat_rows(const model::GlobalAnalysis& predicted,
                      const std::optional<model::GlobalAnalysis>& traced);

/// The hardware-counter line under a lab's per-request table: the model's and the GPU's own
/// figure per request over the whole launch (`unit`: "sectors" or "wavefronts") with an
/// agree/differs mark and a tooltip naming the CUPTI metrics; or the one-line reason the
/// counters could not be read; or that they are being read. `current`: the counters belong to
/// what is shown now (stale ones are drawn greyed). The counters are always compared with the
/// modern model; under a historical `shown` model the line says so (number_text.h).
void draw_counter_line(const std::optional<LabCounters>& counters, bool current, bool busy,
                       bool gpu_mode, const char* unit,
                       model::HardwareModel shown = model::HardwareModel::Modern);

/// The same counters as one short text for the A/B table: "5.00 sectors (model 5.00) ✓",
/// the reason they are missing, "reading…" while busy, or "—".
std::string counters_summary(const std::optional<LabCounters>& counters, bool busy,
                             const char* unit,
                             model::HardwareModel shown = model::HardwareModel::Modern);

/// A headline number as the A/B table shows it: "2179 GB/s", its note, "measuring…" or
/// "—". (`value`, `unit`, `note`, `busy` as in lab.h's Headline.)
std::string headline_text(const std::optional<double>& value, const std::string& unit,
                          const std::string& note, bool busy);

/// An integer slider whose grab is a thin bar at the value, whatever the range: ImGui's own
/// SliderInt makes its grab 1/(high - low + 1) of the slider, which covered the value written
/// across it ("access 2 of 2" under a half-width grab at 3x). `text` is drawn as given (no
/// printf conversions). True when the user changed `value`.
bool slider_int_thin(const char* id, int& value, int low, int high, const std::string& text);

// --- presenter strip knobs ---------------------------------------------------------------------
// Compact controls on one line of the presenter strip: a muted label, then the control, then
// room before the next knob. Each returns true when the user changed the value.

/// An integer slider `width_chars` characters wide (the value shown inside it).
bool knob_int(const char* label, int& value, int low, int high, float width_chars = 6);
/// A choice among `count` names, as a combo as wide as the longest name.
bool knob_choice(const char* label, int& index, const char* const* names, int count);
/// A row of `count` buttons, one per name, the one at `index` lit (a struct's field x, y, z: narrow
/// enough for the strip at 3x); `tips` (or nullptr) the tooltip of each. Its label stays on a
/// short strip too, as a checkbox's does.
bool knob_buttons(const char* label, int& index, const char* const* names, int count,
                  const char* const* tips = nullptr);
/// A checkbox.
bool knob_check(const char* label, bool& value);
/// A/B compare's side in the strip: "side (A) (B)", `side_a` the side the knobs edit (and the
/// view shows, where only one fits); true when it changed.
bool knob_side(bool& side_a);

/// While one is alive, the knobs above draw their labels only if `on` (a short presenter strip
/// keeps the values and drops the words; a checkbox keeps its label).
class KnobLabels {
 public:
  explicit KnobLabels(bool on);
  ~KnobLabels();
  KnobLabels(const KnobLabels&) = delete;
  KnobLabels& operator=(const KnobLabels&) = delete;

 private:
  bool previous_;
};

// --- the field's words ---------------------------------------------------------------------

/// Where the mouse is over the rectangle `min`..`max` (screen px) of a text that uses terms of
/// the glossary (glossary.h: "wavefront", "B/clk/SM", "TMA", ...), a tooltip says what each
/// means and where the meaning comes from. The text is what is drawn there.
void glossary_tooltip(std::string_view text, ImVec2 min, ImVec2 max);
/// The same over the last item drawn.
void glossary_tooltip(std::string_view text);

}  // namespace warplens::app
