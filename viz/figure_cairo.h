// The figure renderer: one drawing code (cairo) for SVG (cairo_svg_surface), PDF
// (cairo_pdf_surface) and PNG (an image surface written by cairo_surface_write_to_png), text in
// the DejaVu fonts the window uses (font_paths.h, loaded through FreeType), hatching as cairo
// patterns.
//
// Text in the SVG: cairo's SVG surface writes every glyph as a path (a <symbol>, or in cairo
// 1.17.6+ a <g id="glyph-...">, used by <use>), never as <text>, in every release. So for the SVG
// cairo draws the shapes only, and each FigureText goes in afterwards as a real <text> element
// (libxml2 edits cairo's XML): font-family DejaVu Sans (bold weight) or DejaVu Sans Mono, the
// same size, colour, position and anchor (text-anchor). The SVG's words can be searched,
// selected and edited; a viewer without DejaVu substitutes a like font (sans-serif, monospace).
// The PDF keeps real text through cairo itself (pdftotext reads it back).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "figure.h"

namespace warplens::viz {

enum class FigureFormat { Svg, Pdf, Png };

/// Parses "svg", "pdf" or "png"; throws std::invalid_argument otherwise.
FigureFormat parse_figure_format(std::string_view text);

/// PNG resolution: pixels per inch of the page (the figure is `width_mm` wide).
inline constexpr double kFigurePngDpi = 300;

/// The page size of `figure` drawn `width_mm` wide, in points (1/72 inch; SVG and PDF), and
/// the PNG's size in pixels.
struct FigurePage {
  double width_pt = 0, height_pt = 0;
  int width_px = 0, height_px = 0;
  double pt_per_unit = 1;  ///< points per figure unit
  double px_per_unit = 1;  ///< PNG pixels per figure unit
};
FigurePage figure_page(const Figure& figure, double width_mm);

/// Draws `figure` `width_mm` wide into a file's bytes. Throws std::runtime_error when cairo
/// fails or a font file is missing (naming it: fonts-dejavu-core).
std::string render_figure(const Figure& figure, FigureFormat format, double width_mm);

/// A PDF of several pages, one per figure, each `width_mm` wide and as tall as its figure
/// (text stays text), with `title` in the document's metadata. Throws std::runtime_error as
/// render_figure does, and std::invalid_argument for no pages.
std::string render_pdf_pages(const std::vector<Figure>& pages, double width_mm,
                             const std::string& title);

/// render_figure, written atomically to `path` (atomic_file.h).
void write_figure(const Figure& figure, FigureFormat format, double width_mm,
                  const std::string& path);

/// The width of `text` in `font` at `size` (figure units), as cairo draws it (a FigureMeasure).
/// Throws std::runtime_error when the font file is missing.
float measure_figure_text(FigureFont font, float size, const std::string& text);

/// The cairo version this binary runs with (e.g. "1.16.0").
std::string cairo_version_text();

}  // namespace warplens::viz
