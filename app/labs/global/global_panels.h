// The global-memory lab's ImGui panels: the parameter panel, the warp view window and the tabs
// under it (numbers, the sector heatmap of the whole launch, the offset and stride sweeps).
#pragma once

#include <imgui.h>

#include <string>

#include "copy_session.h"
#include "heat_strip.h"
#include "imgui_layer.h"
#include "lab.h"
#include "theme.h"
#include "ui_state.h"
#include "warp_view.h"

namespace warplens::app {

struct UiState;

/// The parameter panel (the shell's scenario picker on top); sets the session.
void draw_global_parameters(LabFrame& frame, CopySession& session, ImVec2 pos, ImVec2 size);

/// The warp view window: the traced (or modelled) lanes over sectors and lines. `side_name`
/// ("A" or "B" in A/B compare) prefixes the title and keeps the windows apart.
void draw_global_view(UiState& ui, CopySession& session, viz::WarpView& view,
                      const viz::ImGuiLayer& layer, const viz::Theme& theme, ImVec2 pos,
                      ImVec2 size, const char* side_name = nullptr);

/// The tabs under the view: numbers, sector heatmap, offset sweep, stride sweep (ui.bottom).
void draw_global_bottom(UiState& ui, CopySession& session, viz::HeatStrip& heat,
                        const viz::ImGuiLayer& layer, const viz::Theme& theme, ImVec2 pos,
                        ImVec2 size);

/// The global copy as one line of CUDA-like code, e.g. "out[i] = in[1 + 2\u00d7i]".
std::string kernel_text(const gpu::CopyParams& p);

/// "warp 0" or "warps 0–3".
std::string warps_text(const CopyState& state);

/// A struct layout's field shown, "field y (2 of 3)"; empty without a struct layout.
/// (field_text lives in global_lab.cpp.)
std::string field_text(const CopyState& state);

}  // namespace warplens::app
