// A/B compare: both sides' warp views draw their memory strips at one byte scale, so 128 bytes
// are as wide in pane A as in pane B (kernel-soa: A's warp touches three 128-byte lines, B's one;
// drawn each over the whole width, B's one line looked as wide as A's three). The shell keeps a
// StripScale across frames and opens it around the two views; each warp panel shows at least as
// many lines as the wider side showed the frame before (the extra lines follow its last one,
// untouched), and reports how many its own accesses need.
#pragma once

#include "open_scope.h"

namespace warplens::app {

class StripScale {
 public:
  /// Makes `scale` the open one for the scope's lifetime (the UI thread; one at a time) and
  /// starts its frame: what the views report now is read in the next frame.
  class Scope : public OpenScope<StripScale> {
   public:
    explicit Scope(StripScale& scale) : OpenScope(scale) {
      scale.last_ = scale.now_;
      scale.now_ = 0;
    }
  };

  /// The least count of 128-byte lines a view shows this frame (0: no other view yet).
  [[nodiscard]] int least_lines() const { return last_; }
  /// A view's own count of lines (those its lanes touch, before any added for the other side).
  void report(int lines) {
    if (lines > now_) now_ = lines;
  }

 private:
  int last_ = 0, now_ = 0;
};

/// The open scale, or nullptr (a single view: its strip takes the lines it needs).
[[nodiscard]] StripScale* open_strip_scale();

}  // namespace warplens::app
