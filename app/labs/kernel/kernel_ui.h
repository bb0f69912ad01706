// The own-kernel lab's panels, drawn with ImGui: the editor (launch, buffers, constants, the
// traced warp and the access rows), the view (the step control over the rows, then the shown
// access in the warp view for in/out or the bank view for the tile; or the generated source), the
// numbers (each row's model beside the GPU's trace, the launch's totals beside the counters, time
// and GB/s beside the bandwidth model), the presenter's knobs and key numbers and the status line.
#pragma once

#include <imgui.h>

#include <functional>
#include <string>
#include <vector>

#include "bank_view.h"
#include "imgui_layer.h"
#include "kernel_session.h"
#include "lab.h"
#include "theme.h"
#include "warp_view.h"

namespace warplens::app {

/// What the editor keeps between frames: where the user saves a preset, and what that said.
struct KernelEditor {
  char save_path[512] = "my-kernel.toml";
  std::string saved;  ///< "saved my-kernel.toml" or why not
};

/// Each function draws from `results`: one KernelSession::measured() copy per frame.
///
/// The parameter panel (kernel_ui_editor.cpp): `header` (the scenario picker) first.
void draw_kernel_parameters(KernelSession& session, const KernelResults& results,
                            KernelEditor& editor, const viz::Theme& theme, ImVec2 pos, ImVec2 size,
                            bool interactive, const std::function<void()>& header = {});

/// The view: the section buttons and the step control, then the shown access or the source.
/// A tile row with KernelState::tile_row set shows the tile as stored beside its banks
/// (array_panel.h), or in their place where the two do not fit (`ui`: key T, and what was left
/// out); ui.interactive: tooltips.
void draw_kernel_view(KernelSession& session, const KernelResults& results, viz::WarpView& warp,
                      viz::BankView& bank, const viz::ImGuiLayer& layer, const viz::Theme& theme,
                      ImVec2 pos, ImVec2 size, UiState& ui, const char* side_name = nullptr);

/// The numbers under the view.
void draw_kernel_numbers(const KernelSession& session, const KernelResults& results,
                         const viz::Theme& theme, ImVec2 pos, ImVec2 size, float scale);

/// The presenter strip: the step control.
void draw_kernel_knobs(KernelSession& session, float scale);

/// The presenter layout's key numbers: the shown access's cost (model, GPU trace), GB/s.
std::vector<KeyNumber> kernel_key_numbers(const KernelSession& session,
                                          const KernelResults& results);

/// The status bar's line.
std::string kernel_status_text(const KernelSession& session, const KernelResults& results);

/// The counters of the shown access's kind over the whole launch, per request, beside the
/// model's: "shared loads 32.00 per request (model 32.00) ✓"; why there are none; or "—".
std::string kernel_counters_summary(const KernelSession& session, const KernelResults& results);

/// The headline for A/B compare: the measured GB/s of what the program asks to read + write.
Headline kernel_headline(const KernelSession& session, const KernelResults& results);

/// The shown access in one line: "access 2 of 4: tile[ty*32+tx] = v (4 B), then __syncthreads()".
std::string kernel_access_title(const KernelState& state);

/// The shown row's cost in words: "32 sectors per request" / "1 wavefront per request", with
/// the out-of-range lanes when there are any.
std::string kernel_row_cost_text(const gpu::KernelRowModel& row);

}  // namespace warplens::app
