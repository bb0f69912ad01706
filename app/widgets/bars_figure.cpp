#include "bars_figure.h"

#include <algorithm>

#include "figure_parts.h"

namespace warplens::app {

using figure_parts::kFont;
using figure_parts::Page;
using figure_parts::Pen;
using viz::FigureFont;
using viz::FigureRole;

viz::Figure bars_figure(const FigurePanelData& data, const viz::Theme& theme,
                        const std::string& source, viz::FigureMeasure measure) {
  Page page(theme);
  Pen pen(page.figure, measure);
  float y = figure_parts::add_title(pen, page, theme, data.access);
  const bool model =
      std::any_of(data.bars.begin(), data.bars.end(), [](const FigureBar& b) { return b.model; });
  if (model) {
    // The model's bars: said first, as a plot of the model's lines says it.
    y = figure_parts::add_wrapped(
        pen,
        "model only: the bars are the model's" +
            (data.measured_absent.empty() ? std::string() : "; " + data.measured_absent),
        page.left, y, page.right, FigureRole::ModelOnly, FigureFont::Bold, 0.9f * kFont,
        theme.warning);
  }
  if (!data.bars_title.empty())
    y = figure_parts::add_wrapped(pen, data.bars_title, page.left, y, page.right, FigureRole::Note,
                                  FigureFont::Regular, 0.9f * kFont, theme.muted_text);
  y += 0.4f * kFont;
  double top = 0;
  float name_w = 0, text_w = 0;
  for (const FigureBar& b : data.bars) {
    top = std::max(top, b.value);
    name_w = std::max(name_w, pen.width(FigureFont::Regular, kFont, b.name));
    text_w = std::max(text_w, pen.width(FigureFont::Regular, kFont, b.text) + 10 +
                                  pen.width(FigureFont::Regular, 0.9f * kFont, b.note));
  }
  const float bar_x = page.left + name_w + 12;
  const float bar_max = std::max(60.0f, page.right - bar_x - text_w - 12);
  const float row_h = 1.9f * kFont;
  for (const FigureBar& b : data.bars) {
    const float mid = y + 0.5f * row_h;
    pen.text(page.left, mid, b.name, FigureRole::Label, FigureFont::Regular, kFont, theme.text);
    const float w = top > 0 ? static_cast<float>(b.value / top) * bar_max : 0;
    if (w > 0 && b.model) {
      // The model's bar: tinted and outlined in the model's colour (the window's model bars).
      const viz::Rect r{bar_x, y + 3, bar_x + w, y + row_h - 5};
      const viz::Rgb tint = {0.8f * theme.background.r + 0.2f * theme.overfetch.r,
                             0.8f * theme.background.g + 0.2f * theme.overfetch.g,
                             0.8f * theme.background.b + 0.2f * theme.overfetch.b};
      pen.fill(r, FigureRole::Bar, tint);
      pen.frame(r, FigureRole::Bar, b.highlight ? theme.text : theme.overfetch,
                b.highlight ? 3.0f : 2.0f);
    } else if (w > 0) {
      pen.fill({bar_x, y + 3, bar_x + w, y + row_h - 5}, FigureRole::Bar,
               b.highlight ? theme.lanes[20] : theme.sector);
    }
    const float tx = bar_x + bar_max + 10;
    const float tw =
        pen.text(tx, mid, b.text, FigureRole::Value, FigureFont::Regular, kFont, theme.text);
    if (!b.note.empty())
      pen.text(tx + tw + 10, mid, b.note, FigureRole::Note, FigureFont::Regular, 0.9f * kFont,
               b.note == "WRONG RESULT" ? theme.conflict : theme.muted_text);
    y += row_h;
  }
  return page.finish(pen, theme, source, y);
}

}  // namespace warplens::app
