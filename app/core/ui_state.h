// What the window remembers between frames and what the labs' panels may change in it: the
// scenario shown, the loaded presets, the lab, theme and scale, A/B compare, the global lab's
// bottom tab. The shell owns it (app_ui.h); the labs see it through LabFrame (lab.h).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lab_id.h"
#include "memory_model.h"
#include "predict.h"
#include "scenario.h"
#include "theme.h"

namespace warplens::app {

enum class BottomView { Numbers, Heatmap, OffsetSweep, StrideSweep };

struct LessonRun;  // app/shell/lesson_mode.h

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
  Lab lab = kFirstLab;  ///< the lab shown
  viz::ThemeName theme = viz::ThemeName::Light;
  bool theme_changed = false;  ///< set by the panel; the caller re-styles ImGui
  /// UI scale chosen in the window (x the monitor's content scale); scale_changed asks the
  /// caller to rebuild the fonts between frames.
  float ui_scale = 1.0f;
  bool scale_changed = false;
  bool show_keys = false;  ///< the keyboard help overlay ("?")
  /// The presenter layout (key P, --presenter, a preset's `presenter`): the view fills the
  /// window, a strip of the scenario's knobs replaces the parameter panel, the key numbers sit
  /// beside the view, large. Unset: automatic, on when the scale leaves the normal layout too
  /// little room (app_ui.h: presenter_layout).
  std::optional<bool> presenter;
  bool presenter_shown = false;  ///< the layout the last frame drew (set by the shell)
  /// Select the transpose lab's view tab from the state on the next frame (keys, scenarios).
  bool select_transpose_view = true;
  /// Key T, the presenter strip's "as stored", render --as-stored: where a 2D array view (a
  /// shared tile, a global matrix) and its bank grid or warp view do not fit side by side,
  /// whether the array view stands in their place (app/widgets/array_panel.h). Unset: the view's
  /// own choice (a shared tile stays, with the grid's count; a matrix gives way).
  std::optional<bool> array_alone;
  bool array_left_out = false;     ///< this frame's views had no room for an array view beside
  bool array_shown_alone = false;  ///< ... and drew it alone, in the picture's place
  bool array_switch = false;       ///< the last frame's views had no room: the strip offers T
  bool array_was_alone = false;    ///< the last frame's drew the array view alone
  /// The presenter strip's knobs as wide as the last frame drew them (pixels; 0: not yet), and
  /// whether with their labels: those give way on a short strip until the scenario or the
  /// strip's width (`strip_fitted_for`) changes (presenter.h).
  float strip_knobs_width = 0;
  bool strip_knob_labels = true;
  /// Whether the strip takes a second line for the knobs: where the title, the device and the
  /// knobs without their labels do not fit on one (outside A/B compare, whose panes need the
  /// height; its title then follows the numbers).
  bool strip_two_lines = false;
  /// On a two-line strip: whether the title takes two lines of text in its picker (too wide for
  /// one), and whether the device badge moved to the knobs' line to leave the title its room.
  bool strip_title_tall = false;
  bool strip_badge_below = false;
  std::string strip_fitted_for;
  /// This frame's presenter strip showed the scenario's title whole in its picker; where it did
  /// not, the numbers beside the view start with it.
  bool strip_title_whole = true;
  bool interactive = true;  ///< false for headless figures (no hover tooltips, no buttons)
  BottomView bottom = BottomView::Numbers;
  bool select_bottom = false;  ///< select `bottom`'s tab on the next frame (startup, figures)
  int sweep_word_bytes = 4;
  bool log_y = false;
  std::string message;  ///< last export result
  /// A GPU fault's line (the window restarted after it, or could not): the status bar says it
  /// while no lab error is shown, until `gpu_notice_until` (ImGui time, seconds).
  std::string gpu_notice;
  double gpu_notice_until = 0;
  /// A/B compare (compare.h): the shown lab's views side by side, A left, B right. The
  /// parameter panel edits A when compare_edit_a is set, else B.
  bool compare = false;
  bool compare_edit_a = false;
  /// The presenter layout had room for one of A/B compare's views only (this frame): the strip
  /// offers the side switch, the view shows the side edited.
  bool compare_one_side = false;
  std::string compare_error;  ///< why compare could not start (status bar)
  /// The command line's --model: shown instead of each applied scenario's own memory model
  /// while set (figures; the window applies it to its first scenario only).
  std::optional<model::HardwareModel> model_override;

  // --- stepping through the access shown (keys . , and space; app/widgets/view_step.h) -------
  /// The wavefronts served / sectors moved so far; -1: the whole access (not stepping).
  int view_step = -1;
  bool step_playing = false;  ///< space: one step every kStepPace seconds (class_mode.h)
  double step_due = 0;        ///< ImGui time of the next step while playing
  int view_steps = 0;         ///< the steps the last frame's views reported
  std::string step_unit;      ///< "wavefront" or "sector" (the last frame's views)
  Lab step_lab = kFirstLab;   ///< stepping ends when the shown lab changes
  /// A step back into the previous stage of a sequence: show its last step once its views have
  /// reported their steps (class_mode.h: steps_drawn).
  bool step_to_last = false;

  // --- predict, then reveal (key Q; predict.h) ---------------------------------------------
  std::optional<Prediction> predict;              ///< the class mode; nullopt: off
  std::string guess_count_text, guess_gbps_text;  ///< the panel's fields
  std::string predict_message;  ///< why a guess was refused, or why the lab asks nothing

  /// Lesson mode (`--lesson`; app/shell/lesson_mode.h): the lesson taught and its step shown;
  /// null: none (the arrows move through the catalog).
  std::shared_ptr<LessonRun> lesson;
};

}  // namespace warplens::app
