#include "figure_parts.h"

#include <algorithm>
#include <utility>

namespace warplens::app::figure_parts {

using viz::FigureAnchor;
using viz::FigureFont;
using viz::FigureRole;
using viz::Rect;
using viz::Rgb;

Rgb mix(Rgb a, Rgb b, float t) {
  return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t};
}

void Pen::fill(const Rect& r, FigureRole role, Rgb color) {
  figure_.add(viz::FigureRect{r, role, true, color, 0, {}});
}

void Pen::frame(const Rect& r, FigureRole role, Rgb color, float width) {
  figure_.add(viz::FigureRect{r, role, false, {}, width, color});
}

void Pen::line(float x0, float y0, float x1, float y1, FigureRole role, Rgb color, float width,
               float dash) {
  figure_.add(viz::FigureLine{x0, y0, x1, y1, role, color, width, dash});
}

void Pen::hatch(const Rect& r, FigureRole role, std::vector<Rgb> colors, float spacing) {
  figure_.add(viz::FigureHatch{r, role, std::move(colors), spacing});
}

float Pen::text(float x, float y, const std::string& t, FigureRole role, FigureFont font,
                float size, Rgb color, FigureAnchor anchor) {
  figure_.add(viz::FigureText{x, y, t, role, font, size, color, anchor});
  return width(font, size, t);
}

float Pen::fit(FigureFont font, const std::string& t, float room, float max_size,
               float min_size) const {
  const float w = width(font, max_size, t);
  if (w <= room) return max_size;
  const float size = max_size * room / w;
  return size >= min_size ? size : 0.0f;
}

float add_legend(Pen& pen, const viz::Theme& theme, const std::vector<LegendEntry>& entries,
                 float x, float y, float right) {
  const float size = kFont * 0.9f, sw = 1.8f * kFont, sh = 1.05f * kFont, line_h = 1.5f * kFont;
  float cx = x, cy = y;
  for (const LegendEntry& e : entries) {
    const float item_w = sw + 0.5f * kFont + pen.width(FigureFont::Regular, size, e.label);
    if (cx > x && cx + item_w > right) {
      cx = x;
      cy += line_h;
    }
    const Rect box{cx, cy, cx + sw, cy + sh};
    switch (e.swatch) {
      case LegendEntry::Swatch::Fill: pen.fill(box, FigureRole::Legend, e.color); break;
      case LegendEntry::Swatch::Lanes:
        for (int i = 0; i < 8; ++i) {
          const float x0 = box.x0 + sw * static_cast<float>(i) / 8.0f;
          pen.fill({x0, box.y0, x0 + sw / 8.0f, box.y1}, FigureRole::Legend,
                   theme.lanes[static_cast<std::size_t>(i * 31 / 7)]);
        }
        break;
      case LegendEntry::Swatch::Hatch:
        pen.hatch(box, FigureRole::Legend, {e.color, mix(e.color, theme.untouched, 0.55f)}, 3.5f);
        break;
      case LegendEntry::Swatch::ConflictFrame:
        pen.fill(box, FigureRole::Legend, mix(theme.untouched, e.color, 0.16f));
        pen.frame(box, FigureRole::Legend, e.color, 2.5f);
        break;
      case LegendEntry::Swatch::BroadcastRing:
        pen.hatch(box, FigureRole::Legend, {theme.lanes[0], theme.lanes[9], theme.lanes[18]}, 4);
        pen.frame(box, FigureRole::Legend, e.color, 3);
        break;
      case LegendEntry::Swatch::Number:
        pen.fill(box, FigureRole::Legend, e.color);
        pen.text(0.5f * (box.x0 + box.x1), 0.5f * (box.y0 + box.y1), "2", FigureRole::Legend,
                 FigureFont::Mono, size, viz::text_on(e.color), FigureAnchor::Center);
        break;
    }
    pen.text(box.x1 + 0.5f * kFont, 0.5f * (box.y0 + box.y1), e.label, FigureRole::Legend,
             FigureFont::Regular, size, theme.text);
    cx += item_w + 1.3f * kFont;
  }
  return cy + sh;
}

float add_source_line(Pen& pen, const viz::Theme& theme, const std::string& source, float x,
                      float y, float right) {
  if (source.empty()) return y;
  const float size = kFont * 0.8f, line_h = 1.35f * size;
  const std::string sep = " \u2022 ";
  std::vector<std::string> parts;
  for (std::size_t start = 0;;) {
    const std::size_t at = source.find(sep, start);
    parts.push_back(source.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) break;
    start = at + sep.size();
  }
  std::string line;
  float cy = y + 0.5f * line_h;
  for (const std::string& part : parts) {
    const std::string longer = line.empty() ? part : line + sep + part;
    if (!line.empty() && x + pen.width(FigureFont::Regular, size, longer) > right) {
      pen.text(x, cy, line, FigureRole::Source, FigureFont::Regular, size, theme.muted_text);
      cy += line_h;
      line = part;
    } else {
      line = longer;
    }
  }
  pen.text(x, cy, line, FigureRole::Source, FigureFont::Regular, size, theme.muted_text);
  return cy + 0.5f * line_h;
}

float add_wrapped(Pen& pen, const std::string& text, float x, float y, float right, FigureRole role,
                  FigureFont font, float size, Rgb color) {
  const float line_h = 1.35f * size;
  std::string line;
  float cy = y + 0.5f * line_h;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    const std::string longer = line.empty() ? word : line + " " + word;
    if (!line.empty() && x + pen.width(font, size, longer) > right) {
      pen.text(x, cy, line, role, font, size, color);
      cy += line_h;
      line = word;
    } else {
      line = longer;
    }
    start = end + 1;
  }
  if (!line.empty()) pen.text(x, cy, line, role, font, size, color);
  return cy + 0.5f * line_h;
}

Page::Page(const viz::Theme& theme, float width) {
  figure.width = width;
  figure.background = theme.background;
  right = width - kMargin;
}

viz::Figure Page::finish(Pen& pen, const viz::Theme& theme, const std::string& source,
                         float bottom) {
  if (!source.empty()) bottom = add_source_line(pen, theme, source, left, bottom + 8, right);
  figure.height = bottom + kMargin;
  return std::move(figure);
}

float add_title(Pen& pen, const Page& page, const viz::Theme& theme, const std::string& access) {
  if (access.empty()) return kMargin;
  return add_wrapped(pen, access, page.left, kMargin, page.right, viz::FigureRole::Title,
                     viz::FigureFont::Bold, kFont, theme.text);
}

}  // namespace warplens::app::figure_parts
