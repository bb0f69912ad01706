// What the panel figures share (bank_figure.h, warp_figure.h): a pen that adds primitives to a
// viz::Figure, label sizes fitted to their boxes, the legend row and the source line.
#pragma once

#include <string>
#include <vector>

#include "figure.h"
#include "theme.h"

namespace warplens::app::figure_parts {

/// Figure units across a panel figure: the GL view's pixels at UI scale 1 at the width of the
/// window's view, so the layout functions (layout_bank_view, layout_warp_view) lay it out as
/// the window would. The renderer scales the units to the page (--width-mm).
inline constexpr float kFigureWidth = 960;
/// The regular font's size, in figure units (the window's 17 px at scale 1).
inline constexpr float kFont = 17;
inline constexpr float kMargin = 14;

/// Mixes `a` towards `b` by `t` (GLSL's mix).
viz::Rgb mix(viz::Rgb a, viz::Rgb b, float t);

class Pen {
 public:
  Pen(viz::Figure& figure, viz::FigureMeasure measure) : figure_(figure), measure_(measure) {}

  void fill(const viz::Rect& r, viz::FigureRole role, viz::Rgb color);
  /// A frame inside `r`'s edges.
  void frame(const viz::Rect& r, viz::FigureRole role, viz::Rgb color, float width);
  void line(float x0, float y0, float x1, float y1, viz::FigureRole role, viz::Rgb color,
            float width, float dash = 0);
  void hatch(const viz::Rect& r, viz::FigureRole role, std::vector<viz::Rgb> colors, float spacing);
  /// One line of text with its vertical middle at `y`; returns its width.
  float text(float x, float y, const std::string& t, viz::FigureRole role, viz::FigureFont font,
             float size, viz::Rgb color, viz::FigureAnchor anchor = viz::FigureAnchor::Left);
  [[nodiscard]] float width(viz::FigureFont font, float size, const std::string& t) const {
    return measure_(font, size, t);
  }
  /// The largest size in [min_size, max_size] at which `t` fits `room`, or 0.
  [[nodiscard]] float fit(viz::FigureFont font, const std::string& t, float room, float max_size,
                          float min_size) const;

 private:
  viz::Figure& figure_;
  viz::FigureMeasure measure_;
};

/// One legend entry's swatch.
struct LegendEntry {
  enum class Swatch { Fill, Lanes, Hatch, ConflictFrame, BroadcastRing, Number };
  Swatch swatch = Swatch::Fill;
  viz::Rgb color;  ///< Fill, Hatch (over-fetch colour), ConflictFrame, BroadcastRing, Number's box
  std::string label;
};

/// The legend, flowing left to right from `x` and wrapping at `right`, its first line's top at
/// `y`; returns the bottom of its last line.
float add_legend(Pen& pen, const viz::Theme& theme, const std::vector<LegendEntry>& entries,
                 float x, float y, float right);

/// The source line (where the numbers come from), muted, its top at `y`, cut into lines at
/// " • " where it would pass `right`; returns its bottom. Nothing for an empty `source`.
float add_source_line(Pen& pen, const viz::Theme& theme, const std::string& source, float x,
                      float y, float right);

/// `text` at `size` in `font`, wrapped at spaces so that no line passes `right`, its first line's
/// top at `y`; returns the bottom of its last line.
float add_wrapped(Pen& pen, const std::string& text, float x, float y, float right,
                  viz::FigureRole role, viz::FigureFont font, float size, viz::Rgb color);

struct Page;
/// The panel's title line (what is shown, `access`: bold, wrapped) at the top of `page`; returns
/// its bottom, or the top margin for an empty `access`.
float add_title(Pen& pen, const Page& page, const viz::Theme& theme, const std::string& access);

/// A panel figure's frame: the title line (what is shown) at the top, and after the caller's
/// content the source line; `finish` sets the figure's height from the bottom reached.
struct Page {
  viz::Figure figure;
  float left = kMargin, right = kFigureWidth - kMargin;

  Page(const viz::Theme& theme, float width = kFigureWidth);
  /// Closes the figure at `bottom` (plus the source line, when there is one).
  viz::Figure finish(Pen& pen, const viz::Theme& theme, const std::string& source, float bottom);
};

}  // namespace warplens::app::figure_parts
