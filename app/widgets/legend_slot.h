// Where the views put their legends. Normally under the picture; in the presenter layout the
// shell opens a LegendSlot for the frame, the warp and bank panels hand their legend to it
// instead (the picture keeps the height), and the shell draws it beside the view, under the key
// numbers, one entry per line.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "open_scope.h"

namespace warplens::app {

class LegendSlot {
 public:
  /// Makes a slot the open one for the scope's lifetime (the UI thread; one at a time).
  using Scope = OpenScope<LegendSlot>;

  /// A view's legend: `draw` draws it into the current ImGui window, one entry per line,
  /// wrapped to the window's width; `notes`, where given, the explanations the view had no room
  /// for, drawn after it (what may scroll away on a short screen; the legend may not). A later
  /// view's replace an earlier one's.
  void set(std::function<void()> draw, std::function<void()> notes = {}) {
    draw_ = nullptr;  // none handed in (notes alone): has_legend() is false
    if (draw) draw_ = [draw = std::move(draw)](bool) { draw(); };
    notes_ = std::move(notes);
    kind_ = nullptr;
  }
  /// A legend whose optional entries follow what its view draws: `shown` (a bit per optional
  /// entry) and `draw(shown, flow)` (`flow`: its entries left to right, wrapped, where the
  /// slot is a wide band rather than a column). A later view's of the same `kind` in the frame
  /// (A/B's other side) adds its entries to the earlier one's, so the legend keys every mark
  /// either side draws; another kind, or set(), replaces it.
  void set_union(const char* kind, unsigned shown, std::function<void(unsigned, bool)> draw,
                 std::function<void()> notes = {}) {
    if (draw_ && kind_ && std::string_view(kind_) == kind) shown |= shown_;
    kind_ = kind;
    shown_ = shown;
    draw_ = [draw = std::move(draw), shown](bool flow) { draw(shown, flow); };
    notes_ = std::move(notes);
  }
  [[nodiscard]] bool empty() const { return !draw_ && !notes_; }
  /// Whether a legend (not only notes) was handed in.
  [[nodiscard]] bool has_legend() const { return static_cast<bool>(draw_); }
  /// Draws the legend handed in (nothing when none was); `flow`: a wide band's, its entries
  /// left to right where the legend can (set_union's), else one per line.
  void draw(bool flow = false) const {
    if (draw_) draw_(flow);
  }
  /// Draws the notes handed in (nothing when none were).
  void draw_notes() const {
    if (notes_) notes_();
  }

 private:
  std::function<void(bool)> draw_;
  std::function<void()> notes_;
  const char* kind_ = nullptr;  ///< set_union's kind of the legend held, if it came from there
  unsigned shown_ = 0;
};

/// The open slot, or nullptr (legends go under their pictures).
[[nodiscard]] LegendSlot* open_legend_slot();

/// The ImGui window flags of a lab's view window: fixed in place, no scrollbar; in the
/// presenter layout (a slot is open) a single view (`side_name` null) also drops its title bar,
/// so the picture keeps that height (the strip and the numbers beside it say what it shows).
[[nodiscard]] int view_window_flags(const char* side_name);

/// A/B compare with both panes on screen: while its Scope is open, the pane of `side` ("A" or
/// "B") says in its title that the knobs edit it (the strip's "pitch 33" beside A's 32 x 32 tile
/// read as A's; issue 32).
struct KnobsEditSide {
  using Scope = OpenScope<KnobsEditSide>;
  const char* side;
};

/// The start of an A/B pane's title: "A • ", or "B (knobs) • " for the side the open
/// KnobsEditSide names; "" for a single view (`side_name` null).
[[nodiscard]] std::string pane_title_prefix(const char* side_name);

}  // namespace warplens::app
