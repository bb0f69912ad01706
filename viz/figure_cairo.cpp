#include "figure_cairo.h"

#include <cairo-ft.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo.h>
#include <ft2build.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include FT_FREETYPE_H

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "atomic_file.h"
#include "font_paths.h"

namespace warplens::viz {

namespace {

// --- fonts -------------------------------------------------------------------------------------

// The three DejaVu faces, loaded once through FreeType and kept for the process's life (cairo's
// font faces hold the FT_Face).
struct Fonts {
  FT_Library library = nullptr;
  cairo_font_face_t* faces[3] = {};
};

const Fonts& fonts() {
  static std::mutex mutex;
  static std::unique_ptr<Fonts> loaded;
  const std::lock_guard lock(mutex);
  if (loaded) return *loaded;
  auto f = std::make_unique<Fonts>();
  if (FT_Init_FreeType(&f->library) != 0) throw std::runtime_error("FreeType failed to start");
  const std::string paths[3] = {regular_font_path(), bold_font_path(), mono_font_path()};
  for (int i = 0; i < 3; ++i) {
    FT_Face face = nullptr;
    if (!std::filesystem::exists(paths[i]) ||
        FT_New_Face(f->library, paths[i].c_str(), 0, &face) != 0) {
      throw std::runtime_error("figure font " + paths[i] +
                               " cannot be read (install fonts-dejavu-core)");
    }
    f->faces[i] = cairo_ft_font_face_create_for_ft_face(face, 0);
  }
  loaded = std::move(f);
  return *loaded;
}

cairo_font_face_t* face_of(FigureFont font) {
  return fonts().faces[static_cast<int>(font)];
}

// Unhinted outlines and metrics: text measures the same on every surface and at every size, so
// a layout decided by measure_figure_text holds in the SVG, the PDF and the PNG.
cairo_font_options_t* font_options() {
  static cairo_font_options_t* options = [] {
    cairo_font_options_t* o = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(o, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(o, CAIRO_HINT_STYLE_NONE);
    return o;
  }();
  return options;
}

// --- drawing -----------------------------------------------------------------------------------

void set_source(cairo_t* cr, Rgb c) {
  cairo_set_source_rgb(cr, c.r, c.g, c.b);
}

void draw_rect(cairo_t* cr, const FigureRect& r) {
  const Rect& b = r.rect;
  if (r.filled) {
    cairo_rectangle(cr, b.x0, b.y0, b.x1 - b.x0, b.y1 - b.y0);
    set_source(cr, r.fill);
    cairo_fill(cr);
  }
  if (r.stroke_width > 0) {  // inside the edges
    const double h = 0.5 * r.stroke_width;
    cairo_rectangle(cr, b.x0 + h, b.y0 + h, std::max(0.0, b.x1 - b.x0 - 2 * h),
                    std::max(0.0, b.y1 - b.y0 - 2 * h));
    set_source(cr, r.stroke);
    cairo_set_line_width(cr, r.stroke_width);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER);
    cairo_stroke(cr);
  }
}

void draw_line(cairo_t* cr, const FigureLine& l) {
  cairo_move_to(cr, l.x0, l.y0);
  cairo_line_to(cr, l.x1, l.y1);
  set_source(cr, l.color);
  cairo_set_line_width(cr, l.width);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
  if (l.dash > 0) {
    const double dash = l.dash;
    cairo_set_dash(cr, &dash, 1, 0);
  }
  cairo_stroke(cr);
  cairo_set_dash(cr, nullptr, 0, 0);
}

// Diagonal stripes as a repeating pattern: a period of colors.size() stripes along x + y, drawn
// once into a recording surface (vector in SVG and PDF) and tiled over the rectangle from its
// top-left corner. For the PNG the tile is built in device pixels, a whole number of them (an
// image surface replays a tile at its own size: a fractional one would leave seams).
void draw_hatch(cairo_t* cr, const FigureHatch& h, double unit, bool raster) {
  if (h.colors.empty()) return;
  const int n = static_cast<int>(h.colors.size());
  const double tile_scale = raster ? unit : 1.0;  // tile coordinates per figure unit
  double period = std::max(0.5, static_cast<double>(h.spacing)) * n * tile_scale;
  if (raster) period = std::max<double>(n, std::round(period));
  const double s = period / n;
  cairo_rectangle_t extents{0, 0, period, period};
  cairo_surface_t* tile = cairo_recording_surface_create(CAIRO_CONTENT_COLOR, &extents);
  cairo_t* t = cairo_create(tile);
  set_source(t, h.colors[0]);
  cairo_paint(t);
  for (int k = 0; k < 2 * n; ++k) {  // bands of x + y in [k s, (k + 1) s)
    const double a = k * s, b = (k + 1) * s;
    cairo_move_to(t, a, 0);
    cairo_line_to(t, b, 0);
    cairo_line_to(t, b - period, period);
    cairo_line_to(t, a - period, period);
    cairo_close_path(t);
    set_source(t, h.colors[static_cast<std::size_t>(k % n)]);
    cairo_fill(t);
  }
  cairo_destroy(t);
  cairo_pattern_t* pattern = cairo_pattern_create_for_surface(tile);
  cairo_pattern_set_extend(pattern, CAIRO_EXTEND_REPEAT);
  cairo_matrix_t m;  // user space to tile space: from the rectangle's corner, scaled
  cairo_matrix_init_scale(&m, tile_scale, tile_scale);
  cairo_matrix_translate(&m, -h.rect.x0, -h.rect.y0);
  cairo_pattern_set_matrix(pattern, &m);
  cairo_rectangle(cr, h.rect.x0, h.rect.y0, h.rect.x1 - h.rect.x0, h.rect.y1 - h.rect.y0);
  cairo_set_source(cr, pattern);
  cairo_fill(cr);
  cairo_pattern_destroy(pattern);
  cairo_surface_destroy(tile);
}

void draw_text(cairo_t* cr, const FigureText& t) {
  if (t.text.empty()) return;
  cairo_set_font_face(cr, face_of(t.font));
  cairo_set_font_size(cr, t.size);
  cairo_text_extents_t e;
  cairo_text_extents(cr, t.text.c_str(), &e);
  const double x = t.anchor == FigureAnchor::Left     ? t.x
                   : t.anchor == FigureAnchor::Center ? t.x - 0.5 * e.x_advance
                                                      : t.x - e.x_advance;
  cairo_move_to(cr, x, t.y + 0.36 * t.size);
  set_source(cr, t.color);
  cairo_show_text(cr, t.text.c_str());
  cairo_new_path(cr);
}

// `with_text` false: the shapes only (the SVG's text goes in as <text> elements, below).
void draw(cairo_t* cr, const Figure& figure, double unit, bool raster, bool with_text) {
  cairo_scale(cr, unit, unit);
  cairo_set_font_options(cr, font_options());
  cairo_rectangle(cr, 0, 0, figure.width, figure.height);
  set_source(cr, figure.background);
  cairo_fill(cr);
  for (const FigureItem& item : figure.items) {
    std::visit(
        [&](const auto& p) {
          using T = std::decay_t<decltype(p)>;
          if constexpr (std::is_same_v<T, FigureRect>) draw_rect(cr, p);
          if constexpr (std::is_same_v<T, FigureLine>) draw_line(cr, p);
          if constexpr (std::is_same_v<T, FigureHatch>) draw_hatch(cr, p, unit, raster);
          if constexpr (std::is_same_v<T, FigureText>) {
            if (with_text) draw_text(cr, p);
          }
        },
        item);
  }
}

cairo_status_t append(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

void check(cairo_status_t status, const char* what) {
  if (status != CAIRO_STATUS_SUCCESS)
    throw std::runtime_error(std::string("cairo: ") + what + ": " + cairo_status_to_string(status));
}

// --- SVG text ----------------------------------------------------------------------------------

// A number for an SVG attribute: three decimals, trailing zeros dropped.
std::string svg_number(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f", v);
  std::string out = buffer;
  out.erase(out.find_last_not_of('0') + 1);
  if (out.back() == '.') out.pop_back();
  return out == "-0" ? "0" : out;
}

// A colour as cairo's SVG surface writes it: rgb(r%,g%,b%).
std::string svg_color(Rgb c) {
  const auto percent = [](float v) { return svg_number(100.0 * std::clamp(v, 0.0f, 1.0f)) + "%"; };
  return "rgb(" + percent(c.r) + "," + percent(c.g) + "," + percent(c.b) + ")";
}

const xmlChar* xml(const char* text) {
  return reinterpret_cast<const xmlChar*>(text);
}

void set(xmlNode* node, const char* name, const std::string& value) {
  xmlNewProp(node, xml(name), xml(value.c_str()));
}

// Puts every FigureText of `figure` into cairo's SVG (which holds the shapes only) as a <text>
// element: DejaVu Sans (bold) or DejaVu Sans Mono, the size, colour, anchor and baseline
// draw_text uses, in page points (`unit` per figure unit). The texts form one group after the
// shapes (the builders draw text over the shapes it labels, never a shape over text), in the
// figure's order. The XML is edited through libxml2, so the text is escaped as XML needs.
std::string svg_with_text(const std::string& svg, const Figure& figure, double unit) {
  xmlDoc* doc = xmlReadMemory(svg.data(), static_cast<int>(svg.size()), "figure.svg", "UTF-8",
                              XML_PARSE_NONET | XML_PARSE_NOBLANKS);
  if (!doc) throw std::runtime_error("cairo's SVG does not parse as XML");
  const std::unique_ptr<xmlDoc, void (*)(xmlDoc*)> owned(doc, xmlFreeDoc);
  xmlNode* root = xmlDocGetRootElement(doc);
  if (!root) throw std::runtime_error("cairo's SVG has no root element");
  xmlNode* group = xmlNewChild(root, nullptr, xml("g"), nullptr);  // in the root's namespace
  set(group, "id", "text");
  for (const FigureText* t : figure.texts()) {
    if (t->text.empty()) continue;
    xmlNode* node = xmlNewTextChild(group, nullptr, xml("text"), xml(t->text.c_str()));
    xmlNodeSetSpacePreserve(node, 1);
    set(node, "x", svg_number(t->x * unit));
    set(node, "y", svg_number((t->y + 0.36 * t->size) * unit));
    set(node, "font-family",
        t->font == FigureFont::Mono ? "DejaVu Sans Mono, monospace" : "DejaVu Sans, sans-serif");
    if (t->font == FigureFont::Bold) set(node, "font-weight", "bold");
    set(node, "font-size", svg_number(t->size * unit));
    if (t->anchor != FigureAnchor::Left)
      set(node, "text-anchor", t->anchor == FigureAnchor::Center ? "middle" : "end");
    set(node, "fill", svg_color(t->color));
  }
  xmlChar* out = nullptr;
  int size = 0;
  xmlDocDumpFormatMemoryEnc(doc, &out, &size, "UTF-8", 1);
  if (!out) throw std::runtime_error("the SVG cannot be written by libxml2");
  std::string bytes(reinterpret_cast<const char*>(out), static_cast<std::size_t>(size));
  xmlFree(out);
  return bytes;
}

}  // namespace

FigureFormat parse_figure_format(std::string_view text) {
  if (text == "svg") return FigureFormat::Svg;
  if (text == "pdf") return FigureFormat::Pdf;
  if (text == "png") return FigureFormat::Png;
  throw std::invalid_argument("format must be svg, pdf or png (got \"" + std::string(text) + "\")");
}

FigurePage figure_page(const Figure& figure, double width_mm) {
  FigurePage page;
  const double units = std::max(1.0f, figure.width);
  page.pt_per_unit = width_mm / 25.4 * 72.0 / units;
  page.px_per_unit = width_mm / 25.4 * kFigurePngDpi / units;
  page.width_pt = units * page.pt_per_unit;
  page.height_pt = figure.height * page.pt_per_unit;
  page.width_px = static_cast<int>(std::lround(units * page.px_per_unit));
  page.height_px = static_cast<int>(std::lround(figure.height * page.px_per_unit));
  return page;
}

std::string render_figure(const Figure& figure, FigureFormat format, double width_mm) {
  (void)fonts();  // a missing font is an error before any surface exists
  const FigurePage page = figure_page(figure, width_mm);
  std::string bytes;
  cairo_surface_t* surface = nullptr;
  double unit = page.pt_per_unit;
  switch (format) {
    case FigureFormat::Svg:
      surface = cairo_svg_surface_create_for_stream(append, &bytes, page.width_pt, page.height_pt);
      break;
    case FigureFormat::Pdf:
      surface = cairo_pdf_surface_create_for_stream(append, &bytes, page.width_pt, page.height_pt);
      cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "WarpLens");
      break;
    case FigureFormat::Png:
      surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, std::max(1, page.width_px),
                                           std::max(1, page.height_px));
      unit = page.px_per_unit;
      break;
  }
  check(cairo_surface_status(surface), "cannot create the surface");
  cairo_t* cr = cairo_create(surface);
  draw(cr, figure, unit, format == FigureFormat::Png, format != FigureFormat::Svg);
  const cairo_status_t drawn = cairo_status(cr);
  cairo_destroy(cr);
  if (drawn != CAIRO_STATUS_SUCCESS) {
    cairo_surface_destroy(surface);
    check(drawn, "drawing failed");
  }
  if (format == FigureFormat::Png) {
    const cairo_status_t written = cairo_surface_write_to_png_stream(surface, append, &bytes);
    cairo_surface_destroy(surface);
    check(written, "cannot write the PNG");
  } else {
    cairo_surface_finish(surface);  // flushes the document into `bytes`
    const cairo_status_t finished = cairo_surface_status(surface);
    cairo_surface_destroy(surface);
    check(finished, "cannot finish the document");
  }
  if (format == FigureFormat::Svg) return svg_with_text(bytes, figure, unit);
  return bytes;
}

std::string render_pdf_pages(const std::vector<Figure>& pages, double width_mm,
                             const std::string& title) {
  if (pages.empty()) throw std::invalid_argument("a PDF needs at least one page");
  (void)fonts();
  std::string bytes;
  const FigurePage first = figure_page(pages.front(), width_mm);
  cairo_surface_t* surface =
      cairo_pdf_surface_create_for_stream(append, &bytes, first.width_pt, first.height_pt);
  check(cairo_surface_status(surface), "cannot create the surface");
  cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "WarpLens");
  cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, title.c_str());
  cairo_status_t drawn = CAIRO_STATUS_SUCCESS;
  for (const Figure& figure : pages) {
    const FigurePage page = figure_page(figure, width_mm);
    cairo_pdf_surface_set_size(surface, page.width_pt, page.height_pt);
    cairo_t* cr = cairo_create(surface);
    draw(cr, figure, page.pt_per_unit, false, true);
    cairo_show_page(cr);
    drawn = cairo_status(cr);
    cairo_destroy(cr);
    if (drawn != CAIRO_STATUS_SUCCESS) break;
  }
  if (drawn != CAIRO_STATUS_SUCCESS) {
    cairo_surface_destroy(surface);
    check(drawn, "drawing failed");
  }
  cairo_surface_finish(surface);
  const cairo_status_t finished = cairo_surface_status(surface);
  cairo_surface_destroy(surface);
  check(finished, "cannot finish the document");
  return bytes;
}

void write_figure(const Figure& figure, FigureFormat format, double width_mm,
                  const std::string& path) {
  write_file_atomically(path, render_figure(figure, format, width_mm));
}

float measure_figure_text(FigureFont font, float size, const std::string& text) {
  static std::mutex mutex;
  const std::lock_guard lock(mutex);
  cairo_matrix_t font_matrix, ctm;
  cairo_matrix_init_scale(&font_matrix, size, size);
  cairo_matrix_init_identity(&ctm);
  cairo_scaled_font_t* scaled =
      cairo_scaled_font_create(face_of(font), &font_matrix, &ctm, font_options());
  cairo_text_extents_t e{};
  cairo_scaled_font_text_extents(scaled, text.c_str(), &e);
  cairo_scaled_font_destroy(scaled);
  return static_cast<float>(e.x_advance);
}

std::string cairo_version_text() {
  return cairo_version_string();
}

}  // namespace warplens::viz
