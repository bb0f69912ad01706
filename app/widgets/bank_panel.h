// The bank view's ImGui panel: the GL picture (viz::BankView) placed in the current window, with
// its text labels (bank numbers, row offsets, wavefront numbers, conflict and broadcast counts,
// phase captions), a tooltip for every lane box, cell, bank header and count, and a legend.
#pragma once

#include "bank_view.h"
#include "imgui_layer.h"
#include "index_math.h"
#include "memory_model.h"
#include "theme.h"

namespace warplens::app {

/// Draws the bank view of warp slot 0 of `trace` (the CPU copy of what the view's trace buffer
/// holds) and its `analysis` into the available region of the current ImGui window: the picture
/// on top, a legend under it. `caption` (may be null) says which warp and pattern is shown.
/// With `interactive`, hovering a lane box, cell, bank number or count shows a tooltip. Without
/// `with_legend` the picture takes the legend's room too (A/B compare at presenter scales).
void draw_bank_view(viz::BankView& view, const TraceRecords& trace,
                    const model::SharedAnalysis& analysis, const viz::ImGuiLayer& layer,
                    const viz::Theme& theme, bool interactive, const char* caption,
                    bool with_legend = true);

}  // namespace warplens::app
