// A/B compare: two instances of one lab side by side, both measured on the GPU, with the ratio
// of their headline numbers (bandwidth; throughput for the matrix multiply). The window's own
// instance is side B; the workbench makes side A the first time compare is switched on. The
// two sides' workers take turns on the GPU (gpu_turn.h), so neither is timed against the other.
// Any lab whose registry line names a compare ratio can be compared; the lab fills its column
// of the table (LabInstance::compare_column).
#pragma once

#include <imgui.h>

#include <string>

#include "imgui_layer.h"
#include "lab.h"
#include "legend_slot.h"
#include "theme.h"

namespace warplens::app {

/// The comparison under the two views, one column per side: the parameters, the model's cost
/// per warp request (sectors or wavefronts), the GPU's counters for the same, the measured
/// headline, then B / A in large type.
void draw_compare_numbers(const LabInfo& lab, const LabInstance& a, const LabInstance& b,
                          const viz::ImGuiLayer& layer, const viz::Theme& theme, ImVec2 pos,
                          ImVec2 size);

/// The presenter layout's A/B column beside the two views: B / A large (always first, on
/// screen), then each side's parameters and key numbers (model, counters, measured), the
/// scenario's `title` where non-empty (the strip cannot show it whole), then the views' legend
/// and the scenario's `look_for` (an A/B scenario's; empty: none).
/// `shown` ("A" or "B") where only that side's view is on screen: under the ratio a row per
/// side with its model's cost, the shown one highlighted, which a click flips (returned: the
/// side clicked, else nullptr), and the shown side's numbers alone; nullptr: both sides.
const char* draw_compare_key_numbers(const LabInfo& lab, const LabInstance& a, const LabInstance& b,
                                     const viz::ImGuiLayer& layer, const viz::Theme& theme,
                                     const LegendSlot& legend, ImVec2 pos, ImVec2 size,
                                     const char* shown = nullptr, const std::string& title = {},
                                     const std::string& look_for = {});

/// The presenter layout's A/B numbers as a band under two full-width views side by side: A's
/// parameters and key numbers under A's view, B / A large in the middle, B's under B's view,
/// then the views' legend and `look_for` (the band scrolls where it is short). A non-empty
/// `title` heads the band, as in draw_compare_key_numbers.
void draw_compare_band(const LabInfo& lab, const LabInstance& a, const LabInstance& b,
                       const viz::ImGuiLayer& layer, const viz::Theme& theme,
                       const LegendSlot& legend, ImVec2 pos, ImVec2 size,
                       const std::string& title = {}, const std::string& look_for = {});

}  // namespace warplens::app
