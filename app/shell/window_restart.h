// The window's side of the restart after a sticky GPU fault (gpu_restart.h): the lab shown is
// written as a preset (its scenario's texts and its current parameters), and WarpLens starts
// again in the same process id with that preset, the same scale, theme and layout, and the
// fault's line to show. A/B compare's side A, stepping and predict-then-reveal start afresh.
#pragma once

#include <string>
#include <vector>

#include "ui_state.h"
#include "workbench.h"

namespace warplens::app {

/// The preset text of the lab `ui` shows, as it is now (preset_writer.h).
std::string shown_preset_text(const UiState& ui, Workbench& labs);

/// The command line of the restarted window: the program, `--preset preset_file`, the scale,
/// theme and layout `ui` has, and `--after-gpu-fault fault`.
std::vector<std::string> window_restart_argv(const UiState& ui, const std::string& preset_file,
                                             const std::string& fault);

/// Registers the window's restart for as long as the window runs (`ui` and `labs` must outlive
/// it; set_gpu_restart({}) ends it). When the restart cannot happen, ui.gpu_notice says why. A
/// window that was itself started by a restart (`after_fault`) and faults again within its first
/// 30 s does not restart again (a preset whose kernel faults every time would loop): it says so
/// and goes on with the labs' models.
void register_window_restart(UiState& ui, Workbench& labs, bool after_fault);

}  // namespace warplens::app
