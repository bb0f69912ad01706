// A view as a figure for course notes: the panel laid out ONCE as a list of primitives
// (rectangles, lines, hatched areas, text), each with its role (a lane number, a bank number,
// a conflict mark, the caption...), which a renderer then draws. The layout builders are
// app/widgets/*_figure.cpp, one per panel (bank, warp, tile, heatmap, sweep, bars, plot, numbers:
// from the data the window's views draw), chosen by panel_figure.h; the renderer is cairo
// (figure_cairo.h: SVG, PDF, PNG).
//
// Still to do (issue 14): the window's GL views draw with their own shaders (bank_view.h,
// warp_view.h), not from this list. Drawing the list through GL too, so that the window and the
// figure share one layout, is the next increment; until then a figure follows the GL view's
// layout (layout_bank_view, layout_warp_view) and its colour rules, re-stated in the builders.
// tests/figure_gl_parity_test.cpp holds the bank figure to the GL bank view cell by cell.
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "theme.h"
#include "warp_view.h"  // Rect

namespace warplens::viz {

/// What a primitive shows: tests count them, and a renderer may style by it.
enum class FigureRole {
  LaneBox,        ///< a lane's box in the lane row (lane colour, or idle)
  LaneNumber,     ///< the lane's number on its box
  Label,          ///< a row's name ("lane", "bank", "words") or a byte offset
  PhaseBracket,   ///< the bracket over a phase's lanes
  PhaseTitle,     ///< a phase grid's caption line
  BankHeader,     ///< a bank's header box
  BankNumber,     ///< the bank's number in its header
  Cell,           ///< a bank-width word of the grid (touched or not)
  Wavefront,      ///< the wavefront that serves a touched word
  ConflictMark,   ///< the frame around a conflicting bank's column
  Broadcast,      ///< the ring around a word several lanes read
  Count,          ///< distinct words per bank (the count row)
  ConflictCount,  ///< "×n" on a conflicting bank's count
  Connector,      ///< the line from a lane to its bytes
  Requested,      ///< bytes a lane asked for (lane colour)
  Overfetch,      ///< bytes moved that no lane asked for (hatched)
  Untouched,      ///< bytes or sectors nothing moved
  SectorMoved,    ///< a 32-byte sector (or a historical transaction's piece) the request moves
  Rule,           ///< sector and line rules, frames, gap marks
  ByteOffset,     ///< a byte offset under the strip
  Title,          ///< the figure's caption line (what is shown)
  Total,          ///< the total line (wavefronts, sectors)
  Legend,         ///< a legend swatch or its text
  Source,         ///< where the numbers come from (device or host model, date, scenario)
  Header,         ///< a table's column heading or a section's heading
  Value,          ///< a value in a table, or a bar's or point's value
  Mark,           ///< the trace's ✓ or "✗ differs" beside its value
  Note,           ///< a line of explanation under a table or plot
  ModelOnly,      ///< the line saying the figure shows the model only (nothing measured)
  Element,        ///< a tile's word as stored (bank tint, or a lane's colour)
  HeatCell,       ///< a heatmap column (one or more sectors)
  Axis,           ///< a plot's axes, ticks and tick labels
  Series,         ///< a plot's line between points
  Point,          ///< a plot's marker at a measured or predicted point
  Bar,            ///< a measured bar
};

enum class FigureFont { Regular, Bold, Mono };
enum class FigureAnchor { Left, Center, Right };

/// A rectangle: filled, stroked (inside its edges), or both.
struct FigureRect {
  Rect rect;
  FigureRole role = FigureRole::Cell;
  bool filled = true;
  Rgb fill;
  float stroke_width = 0;  ///< 0: no stroke
  Rgb stroke;
};

struct FigureLine {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  FigureRole role = FigureRole::Rule;
  Rgb color;
  float width = 1;
  float dash = 0;  ///< dash length; 0: solid
};

/// A rectangle filled with diagonal stripes (a cairo pattern when rendered): `colors` repeat in
/// turn, each stripe `spacing` wide (over-fetch: the over-fetch colour and a pale tint of it;
/// a broadcast word: the colours of the lanes reading it).
struct FigureHatch {
  Rect rect;
  FigureRole role = FigureRole::Overfetch;
  std::vector<Rgb> colors;
  float spacing = 4;
};

/// One line of text. `y` is the middle of its digits and capitals (the baseline lies
/// 0.36 x size below it), so text centred in a box sets y to the box's middle.
struct FigureText {
  float x = 0, y = 0;
  std::string text;  ///< UTF-8
  FigureRole role = FigureRole::Label;
  FigureFont font = FigureFont::Regular;
  float size = 10;  ///< em size, in figure units
  Rgb color;
  FigureAnchor anchor = FigureAnchor::Left;
};

using FigureItem = std::variant<FigureRect, FigureLine, FigureHatch, FigureText>;

/// A panel's figure: `width` x `height` figure units (the GL view's pixels at UI scale 1; the
/// renderer scales them to the page), the background, and the primitives in drawing order.
struct Figure {
  float width = 0, height = 0;
  Rgb background;
  std::vector<FigureItem> items;

  /// Appends a primitive, built in place (moving a variant of a known kind through push_back
  /// trips GCC 12's -Wmaybe-uninitialized on the other kinds).
  template <typename Primitive>
  void add(Primitive&& primitive) {
    items.emplace_back(std::in_place_type<std::decay_t<Primitive>>,
                       std::forward<Primitive>(primitive));
  }
  /// Primitives of `role` (of any kind).
  [[nodiscard]] std::size_t count(FigureRole role) const;
  /// The texts of `role`, in drawing order.
  [[nodiscard]] std::vector<const FigureText*> texts(FigureRole role) const;
  /// Every text, in drawing order.
  [[nodiscard]] std::vector<const FigureText*> texts() const;
};

/// The width of `text` at `size` in `font` (figure units): the renderer's own measure
/// (figure_cairo.h), so that layout decisions match what is drawn.
using FigureMeasure = float (*)(FigureFont font, float size, const std::string& text);

}  // namespace warplens::viz
