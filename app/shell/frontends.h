// The entry points behind the CLI verbs that open GL: the interactive window and headless
// rendering. Both draw the same UI (app_ui.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app_ui.h"
#include "theme.h"

namespace warplens::app {

struct ViewOptions {
  std::string scenario = "aligned";
  /// A user's preset file to start with instead of `scenario` (render: a bad file is an error;
  /// the window opens anyway and says what is wrong with it).
  std::string preset;
  /// --set KEY=VALUE...: knobs of the starting scenario (or preset) changed as its preset would
  /// write them (scenarios.h: with_settings); render: a bad one is an error, the window opens on
  /// the scenario as it is and says what is wrong.
  std::vector<std::string> settings;
  viz::ThemeName theme = viz::ThemeName::Light;
  float scale = 1.0f;                     ///< UI scale on top of the monitor's content scale
  bool use_gpu = true;                    ///< false: model only, even with a GPU
  BottomView view = BottomView::Numbers;  ///< a sweep view starts that sweep (GPU only)
  int sweep_word_bytes = 4;
  model::HardwareModel model = model::HardwareModel::Modern;  ///< the memory model shown
  /// render --audit: report what the layout could not show whole (layout_audit.h) as JSON on
  /// stdout; the PNG is optional then.
  bool audit = false;
  /// --presenter / --no-presenter: the layout (presenter.h); unset: automatic.
  std::optional<bool> presenter;
  /// render --as-stored (key T): a tile or matrix as stored in place of its bank grid or warp
  /// view where the two do not fit side by side (array_panel.h).
  bool array_alone = false;
  /// --lesson NAME|FILE: teach this lesson (lesson_mode.h): its first step instead of `scenario`.
  std::string lesson;
  /// --speaker-view: the lesson's speaker view open from the start (a window of its own with two
  /// monitors, else over the lesson window; with two monitors it opens anyway).
  bool speaker_view = false;
  /// render --kernel: the preset must be of this lab (a ScenarioError otherwise).
  std::optional<Lab> preset_lab;
  /// render --step K: in the own-kernel lab the access shown (1-based, LabInstance::go_to_step);
  /// in the other labs the view's step (view_step.h): K wavefronts served or sectors moved.
  std::optional<int> step;
  /// render --animate: every step of the view's access, 0 .. its steps, as one animated GIF or
  /// as numbered PNGs (OUT-00.png, OUT-01.png, ... for --out OUT.png).
  enum class Animation { None, Gif, PngSequence };
  Animation animate = Animation::None;
  /// render --predict STAGE [--guess N] [--guess-gbps G]: the class mode (predict.h) at that
  /// stage; guessed and revealed need --guess (revealed without one: the class gave up).
  std::optional<PredictStage> predict;
  std::optional<double> guess, guess_gbps;
  /// The window restarted itself after this GPU fault (gpu_restart.h; `--after-gpu-fault`, set by
  /// the restart): said in the status bar until the first measurement of the new process.
  std::string after_gpu_fault;
  /// Restarts after GPU faults so far in a row (`--gpu-restarts`, set by the restart).
  int gpu_restarts = 0;
};

/// The UI state `options` start with: the scenario or preset applied to its lab in `labs`
/// (render: a bad preset throws ScenarioError; the window shows the problem instead).
UiState initial_ui(const ViewOptions& options, Workbench& labs, bool interactive);

/// The UI state a headless walk over every scenario (render --all) starts from: `options`' theme,
/// layout and memory model; not interactive; no scenario applied yet.
UiState catalog_ui(const ViewOptions& options);

/// Parses hidden | guessed | revealed; throws std::invalid_argument.
PredictStage parse_predict_stage(const std::string& text);

/// Parses numbers | offset-sweep | stride-sweep; throws std::invalid_argument.
BottomView parse_bottom_view(const std::string& text);

/// `warplens render`: draws the window's content offscreen through EGL and writes a PNG.
/// Returns the process exit code; prints one line to stdout on success, stderr on failure.
/// With options.audit, prints the audit's JSON (figures.h) to stdout instead, writes the PNG
/// only when `out_path` is not empty, and returns 1 when a finding fails the audit.
int render_png(const ViewOptions& options, const std::string& out_path, int width, int height);

/// The interactive window. With `screenshot_path`, saves the frame after `frames` frames and
/// exits (used by the window test under Xvfb). Returns the exit code.
int run_window(const ViewOptions& options, const std::optional<std::string>& screenshot_path,
               int frames);

}  // namespace warplens::app
