// The window's content, drawn with ImGui: header with the device (or the model-only banner),
// parameter panel, warp view, statistics. The same code draws the interactive window and the
// headless figures, so a figure is exactly what the window shows.
#pragma once

#include <optional>
#include <string>

#include "bank_view.h"
#include "cache_session.h"
#include "compare.h"
#include "copy_session.h"
#include "heat_strip.h"
#include "imgui_layer.h"
#include "scenarios.h"
#include "shared_session.h"
#include "theme.h"
#include "warp_view.h"

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

/// Draws one frame's UI covering `width` x `height` pixels. Call between
/// ImGuiLayer::begin_frame and end_frame, with the session's GL context current.
/// `global_view` is the shared session's warp view (the transpose lab's global accesses).
/// Without `cache` there is no cache lab; without `compare` no A/B compare (the window's own
/// sessions are side B, `compare` holds side A).
void draw_app(UiState& ui, CopySession& session, SharedSession& shared, viz::WarpView& view,
              viz::BankView& bank_view, viz::WarpView& global_view, viz::HeatStrip& heat,
              const viz::ImGuiLayer& layer, int width, int height, CacheSession* cache = nullptr,
              CompareSlot* compare = nullptr);

/// Scenario `index` of the window's catalog (built-ins, then loaded presets).
const Scenario& scenario_at(const UiState& ui, int index);
int catalog_size(const UiState& ui);

/// Loads a preset file into the catalog and applies it; a bad file leaves everything as it was
/// and sets ui.preset_message. Returns whether it loaded.
bool load_preset(UiState& ui, CopySession& session, SharedSession& shared, const std::string& path,
                 CacheSession* cache = nullptr, CompareSlot* compare = nullptr);

/// Applies scenario `index` of the catalog: picks its lab and sets that lab's session.
/// A cache-lab scenario needs `cache`; without one the lab stays as it was. A scenario with
/// `compare_with` switches A/B compare on (A: that scenario, B: this one) when `compare` is
/// given; any other scenario switches it off.
void apply_scenario(UiState& ui, CopySession& session, SharedSession& shared, int index,
                    CacheSession* cache = nullptr, CompareSlot* compare = nullptr);

/// Switches A/B compare on: side A starts as a copy of B's parameters (the window's sessions),
/// and the panel edits B, so what the user changes next shows against where they started.
void start_compare(UiState& ui, CopySession& session, SharedSession& shared, CompareSlot& compare);

/// The global copy as one line of CUDA-like code, e.g. "out[i] = in[1 + 2\u00d7i]".
std::string kernel_text(const gpu::CopyParams& p);

/// The scenario combo with the scenario's explanation under it (any lab); a choice lands in
/// ui.pending_scenario.
void draw_scenario_picker(UiState& ui);

}  // namespace warplens::app
