// The window's content, drawn with ImGui: header with the device (or the model-only banner),
// parameter panel, warp view, statistics. The same code draws the interactive window and the
// headless figures, so a figure is exactly what the window shows.
#pragma once

#include <optional>
#include <string>

#include "imgui_layer.h"
#include "lab.h"
#include "scenarios.h"
#include "theme.h"
#include "workbench.h"

namespace warplens::app {

enum class BottomView { Numbers, Heatmap, OffsetSweep, StrideSweep };

struct UiState {
  int scenario = 0;              ///< index into the catalog: builtin_scenarios(), then `loaded`
  std::vector<Scenario> loaded;  ///< presets the user loaded from files, after the built-ins
  std::string preset_path;       ///< the window's preset-file field
  std::string preset_message;    ///< the last load's result (an error names file and line)
  bool preset_error = false;
  bool preset_requested = false;  ///< Load pressed: draw_app loads ui.preset_path
  /// Set by the scenario picker; draw_app applies it (to whichever session the scenario's lab
  /// uses) after the frame's panels are drawn.
  int pending_scenario = -1;
  Lab lab = Lab::Global;  ///< the lab shown
  viz::ThemeName theme = viz::ThemeName::Light;
  bool theme_changed = false;  ///< set by the panel; the caller re-styles ImGui
  /// UI scale chosen in the window (x the monitor's content scale); scale_changed asks the
  /// caller to rebuild the fonts between frames.
  float ui_scale = 1.0f;
  bool scale_changed = false;
  bool show_keys = false;  ///< the keyboard help overlay ("?")
  /// Select the transpose lab's view tab from the state on the next frame (keys, scenarios).
  bool select_transpose_view = true;
  bool interactive = true;  ///< false for headless figures (no hover tooltips, no buttons)
  BottomView bottom = BottomView::Numbers;
  bool select_bottom = false;  ///< select `bottom`'s tab on the next frame (startup, figures)
  int sweep_word_bytes = 4;
  bool log_y = false;
  std::string message;  ///< last export result
  /// A/B compare (compare.h): the shown lab's views side by side, A left, B right. The
  /// parameter panel edits A when compare_edit_a is set, else B.
  bool compare = false;
  bool compare_edit_a = false;
  std::string compare_error;  ///< why compare could not start (status bar)
  /// The command line's --model: shown instead of each applied scenario's own memory model
  /// while set (figures; the window applies it to its first scenario only).
  std::optional<model::HardwareModel> model_override;
};

/// Draws one frame's UI covering `width` x `height` pixels: the header (one button per lab of
/// the registry), the shown lab's parameter panel, view(s) and numbers — or, while comparing,
/// both sides' views and the A/B table — and the status bar. Call between
/// ImGuiLayer::begin_frame and end_frame with the GL context current; makes the shown lab's
/// instances on first use.
void draw_app(UiState& ui, Workbench& labs, const viz::ImGuiLayer& layer, int width, int height);

/// Scenario `index` of the window's catalog (built-ins, then loaded presets).
const Scenario& scenario_at(const UiState& ui, int index);
int catalog_size(const UiState& ui);

/// Loads a preset file into the catalog and applies it; a bad file leaves everything as it was
/// and sets ui.preset_message. Returns whether it loaded.
bool load_preset(UiState& ui, Workbench& labs, const std::string& path);

/// Applies scenario `index` of the catalog: shows its lab and gives that lab the scenario's
/// parameters. A scenario with `compare_with` switches A/B compare on (A: that scenario, B:
/// this one); any other scenario switches it off.
void apply_scenario(UiState& ui, Workbench& labs, int index);

/// Switches A/B compare on: side A starts as a copy of B's parameters (the window's own lab),
/// and the panel edits B, so what the user changes next shows against where they started.
void start_compare(UiState& ui, Workbench& labs);

/// The scenario combo with the scenario's explanation under it (any lab); a choice lands in
/// ui.pending_scenario.
void draw_scenario_picker(UiState& ui);

}  // namespace warplens::app
