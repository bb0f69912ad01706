// The shared-memory labs' panels (bank lab, transpose, matrix multiply, reduction), drawn with
// ImGui beside the bank view; app_ui.cpp lays them out when one of these labs is chosen.
#pragma once

#include <imgui.h>

#include <functional>
#include <string>

#include "bank_view.h"
#include "lab.h"
#include "shared_session.h"
#include "ui_state.h"
#include "warp_view.h"

namespace warplens::app {

/// The parameter panel of a shared lab: the scenario picker, the lab's own parameters
/// (`draw_lab_parameters`, one of the four below), then what the labs share (memory model,
/// Re-measure).
void draw_shared_parameters(LabFrame& frame, SharedSession& session, const viz::ImGuiLayer& layer,
                            ImVec2 pos, ImVec2 size,
                            const std::function<void(SharedState&)>& draw_lab_parameters);
void draw_bank_parameters(SharedState& state);
void draw_transpose_parameters(SharedState& state);
void draw_matmul_parameters(SharedState& state);
void draw_reduction_parameters(SharedState& state);

/// The bank view window: the access the lab's kernel makes, traced on the GPU when there is one.
/// The transpose lab adds tabs for the kernel's global read and write, drawn in `global_view`;
/// they follow the state while ui.select_transpose_view is set (draw_app clears it each frame).
/// `side_name` ("A" or "B" in A/B compare) prefixes the title and keeps the windows apart.
void draw_shared_view(UiState& ui, SharedSession& session, viz::BankView& view,
                      viz::WarpView& global_view, const viz::ImGuiLayer& layer,
                      const viz::Theme& theme, ImVec2 pos, ImVec2 size,
                      const char* side_name = nullptr);

/// Model vs trace for the shown access, and what the lab measured (bars relative to the
/// reference kernel for transpose, matmul and reduction).
void draw_shared_numbers(const SharedSession& session, const viz::ImGuiLayer& layer,
                         const viz::Theme& theme, ImVec2 pos, ImVec2 size);

/// One line for the status bar.
std::string shared_status_text(const SharedSession& session);

/// The measured bars under a transpose, multiply or reduction (its variants, the shown one
/// highlighted) and the line over them; none without a GPU or before the measurement of the
/// shown state is in. The numbers window and the bars figure both show these.
struct SharedBars {
  std::string title;
  std::vector<FigureBar> bars;
};
SharedBars shared_measured_bars(const SharedSession& session, const SharedSession::Measured& m);
/// Each lab's bars from its current measurement `m` of `state` (SharedKind::bars).
SharedBars transpose_bars(const SharedState& state, const SharedSession::Measured& m);
SharedBars matmul_bars(const SharedState& state, const SharedSession::Measured& m);
SharedBars reduction_bars(const SharedState& state, const SharedSession::Measured& m);

/// The bank view's caption of the access shown: "warp 3 of a 32×8 block • " and
/// shared_access_text, and " • transpose kernel" where a kernel's access is shown (the view and
/// its figure).
std::string shared_access_caption(const SharedState& state, const gpu::BankProbeParams& access);

/// Short description of the shown access, e.g. "tile[tx][ty] of float tile[32][33]".
std::string shared_access_text(const SharedState& state);

}  // namespace warplens::app
