// Lessons: a lecture's order of scenarios, with what the lecturer says at each step and what
// they ask. A lesson is a TOML file (the built-in ones are assets/lessons/*.toml, embedded into
// the binary at build time; `--lesson FILE` reads any other): a title, an audience line and
// ordered steps, each a built-in scenario or a preset file with optional overrides of its lab's
// table, the step of the access to show, predict-then-reveal, the view, the handout's panels,
// a speaker note and the seed slide it follows. The format: docs/reference/lessons.md.
//
// The window's lesson mode (lesson_mode.h) and the handout (lesson_handout.h) read the Lesson
// made here; neither parses TOML.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "figure_panel.h"
#include "scenario.h"
#include "ui_state.h"

namespace warplens::app {

/// One step of a lesson: the scenario it shows and how.
struct LessonStep {
  /// The scenario, ready to apply: a built-in one, or a preset file, with the step's overrides
  /// merged into its lab's table, and the step's question, caption (its summary) and look_for
  /// where it has them. A scenario the step changed is named "<name>+stepK" (K: the step's
  /// 1-based number), so its figures do not pass for the built-in one; it must have a caption,
  /// and has no look_for but the step's.
  Scenario scenario;
  /// The built-in catalog's index of `scenario` when the step shows a built-in scenario
  /// unchanged (builtin_scenarios()); -1 for a preset file or a changed one.
  int builtin_index = -1;
  std::string title;  ///< `title`, else the scenario's title
  std::string slide;  ///< `slide`: the seed slide it follows, e.g. "000: Memory Coalescing"
  std::string note;   ///< `note`: the speaker note (a few sentences); may be empty
  /// `step = K`: the view's step (wavefronts served or sectors moved so far; the own-kernel lab:
  /// its K-th access, 1-based); nullopt: the whole access.
  std::optional<int> view_step;
  /// `predict = "hidden"`: the step opens in predict-then-reveal, the answer hidden.
  bool predict = false;
  /// `view = "heatmap"`: the global lab's view under the warp (numbers, heatmap, offset-sweep,
  /// stride-sweep); nullopt: the lab's own.
  std::optional<BottomView> view;
  /// `panels = ["warp", "numbers"]`: the handout's figures of the step; empty: every panel the
  /// lab offers for the step (LabInstance::figure_panels), in that order.
  std::vector<FigurePanel> panels;
  /// "FILE:LINE:COLUMN" of the step's [[step]] table, for errors found later (a panel the lab
  /// does not have, a step the view does not have).
  std::string where;
};

struct Lesson {
  std::string name;      ///< `name`, else the file's stem: what `--lesson NAME` and list show
  std::string title;     ///< one line, for the status bar and the handout's title page
  std::string audience;  ///< one line: who it is for and what they know already
  std::string deck;      ///< `deck`: the lecture slides it follows (one line); may be empty
  std::vector<LessonStep> steps;  ///< at least one, at most kMaxLessonSteps
  std::string origin;             ///< the file (or embedded asset) it came from
};

/// A lesson that cannot be used; what() is "FILE:LINE:COLUMN: what is wrong" (the line and
/// column of the value or table at fault; a file that cannot be read names the file alone).
class LessonError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr int kMaxLessonSteps = 200;

/// Parses a lesson from its text; `origin` names it in errors and is the folder a step's
/// relative `preset = "..."` path is read from. Every step's scenario is found (built-in) or
/// read (preset) and parsed with its overrides here, so a lesson that loads can be shown.
/// `fallback_name` is the name when the file has none. Throws LessonError.
Lesson parse_lesson(std::string_view toml_text, const std::string& origin,
                    const std::string& fallback_name);

/// Reads and parses a lesson file; its name defaults to the file's stem. Throws LessonError.
Lesson load_lesson_file(const std::string& path);

/// The built-in lessons (assets/lessons/*.toml, file-name order: one per seed deck).
const std::vector<Lesson>& builtin_lessons();

/// `--lesson NAME|FILE`: a built-in lesson's name, else a file's path (anything with a '/' or
/// ending in .toml is a path). Throws LessonError naming the built-in lessons when neither.
Lesson find_lesson(const std::string& name_or_path);

}  // namespace warplens::app
