// Stepping through one access (issue 14): the shell opens a ViewStep for the frame's views (keys
// `.` / `,`, space to play, `render --step K`); the bank panel then serves the request's
// wavefronts up to the step (the words of wavefront k light up at step k, the counts and the
// conflict marks follow), and the warp panel moves its 32-byte sectors up to the step, in address
// order. Each view drawn reports how many steps its access has, so the shell can say "wavefront
// k of N" and stop at the last. A view drawn without an open ViewStep (figures, tests) shows the
// whole access.
#pragma once

#include <string>

#include "open_scope.h"

namespace warplens::app {

class ViewStep {
 public:
  /// `step`: the wavefronts served or the sectors moved so far (0 .. a view's steps); -1: the
  /// whole access (no stepping).
  /// `hide_answer` (predict, then reveal: the class's guess is not in yet): the views show step 0
  /// (nothing served or moved) and write "?" for their totals.
  explicit ViewStep(int step, bool hide_answer = false)
      : step_(hide_answer ? 0 : step), hide_answer_(hide_answer) {}

  /// Makes a step the open one for the scope's lifetime (the UI thread; one at a time).
  using Scope = OpenScope<ViewStep>;

  [[nodiscard]] int step() const { return step_; }
  [[nodiscard]] bool hide_answer() const { return hide_answer_; }
  /// A view with `steps` steps of `unit` ("wavefront", "sector") was drawn. With several (A/B),
  /// the most steps and the first view's unit are kept.
  void report(int steps, const char* unit);
  [[nodiscard]] int steps() const { return steps_; }
  /// "wavefront", "sector", or empty when no view that steps was drawn.
  [[nodiscard]] const std::string& unit() const { return unit_; }

 private:
  int step_ = -1;
  bool hide_answer_ = false;
  int steps_ = 0;
  std::string unit_;
};

/// The open step, or nullptr (views show the whole access).
[[nodiscard]] ViewStep* open_view_step();

/// The open step's step, or -1 (the whole access) when none is open.
[[nodiscard]] int open_step();
/// Whether the open step hides the answer (predict, then reveal); false when none is open.
[[nodiscard]] bool answer_hidden();

}  // namespace warplens::app
