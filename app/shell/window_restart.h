// The window's side of the restart after a sticky GPU fault (gpu_restart.h): the lab shown is
// written as a preset (its scenario's texts and its current parameters), and WarpLens starts
// again in the same process id with that preset, the same scale, theme and layout, and the
// fault's line to show. A/B compare's side A, stepping and predict-then-reveal start afresh.
//
// The restart runs on the thread that met the fault (a lab's worker, usually): after a fault the
// GL thread's next frame can stall for seconds in the driver (seen on an H100), so the restart
// does not wait for it. What it needs is kept ready by the GL thread each frame (refresh()).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ui_state.h"
#include "workbench.h"

namespace warplens::app {

/// The preset text of the lab `ui` shows, as it is now (preset_writer.h).
std::string shown_preset_text(const UiState& ui, Workbench& labs);

/// Restarts in a row after which the window stops restarting itself: on the H100 a sticky fault
/// disturbed the GPU for every process for about 24 s (2026-11-27), and a window started in that
/// time can meet a fault of its own; a kernel that faults every time would otherwise loop.
inline constexpr int kMaxGpuRestarts = 3;

/// The command line of the restarted window: the program, `--preset preset_file`, the scale,
/// theme and layout `ui` has, `--after-gpu-fault fault` and `--gpu-restarts restarts`.
std::vector<std::string> window_restart_argv(const UiState& ui, const std::string& preset_file,
                                             const std::string& fault, int restarts = 1);

/// The window's registered restart, for as long as it lives. `restarts_so_far`: how many restarts
/// led to this window; from kMaxGpuRestarts on it does not restart again, says so, and goes on
/// with the labs' models.
class WindowRestart {
 public:
  explicit WindowRestart(int restarts_so_far);
  ~WindowRestart();  ///< unregisters
  WindowRestart(const WindowRestart&) = delete;
  WindowRestart& operator=(const WindowRestart&) = delete;

  /// On the GL thread, once a frame: keeps the preset and the command line ready for a restart
  /// from any thread, and puts a failed restart's line in ui.gpu_notice.
  void refresh(UiState& ui, Workbench& labs);

 private:
  struct Ready;
  std::shared_ptr<Ready> ready_;
};

}  // namespace warplens::app
