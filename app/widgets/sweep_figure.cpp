#include "sweep_figure.h"

#include <algorithm>
#include <cmath>

#include "figure_parts.h"
#include "plot.h"
#include "ui_widgets.h"

namespace warplens::app {

namespace {

using figure_parts::kFont;
using figure_parts::LegendEntry;
using figure_parts::Page;
using figure_parts::Pen;
using viz::FigureAnchor;
using viz::FigureFont;
using viz::FigureRole;
using viz::Rgb;

}  // namespace

viz::Figure sweep_figure(const FigurePanelData& data, const viz::Theme& theme,
                         const std::string& source, viz::FigureMeasure measure) {
  Page page(theme);
  Pen pen(page.figure, measure);
  float y = figure_parts::add_title(pen, page, theme, data.access);
  if (!data.access.empty()) y += 0.4f * kFont;
  const bool offset = data.panel == FigurePanel::OffsetSweep;
  double x_max = offset ? 32 : 64, y_max = std::max(data.memcpy_gbps, data.peak_gbps);
  for (const FigureSweepPoint& p : data.sweep) {
    x_max = std::max(x_max, p.x);
    y_max = std::max({y_max, p.high, p.measured, p.predicted});
  }
  if (y_max <= 0) y_max = 1;
  const auto y_ticks = viz::nice_ticks(0, y_max * 1.05, 6);
  y_max = std::max(y_max * 1.05, y_ticks.empty() ? 0.0 : y_ticks.back());
  const float tick_size = 0.8f * kFont;
  float tick_w = 0;
  for (const double v : y_ticks)
    tick_w = std::max(tick_w, pen.width(FigureFont::Regular, tick_size, viz::tick_label(v)));
  const float px0 = page.left + 1.4f * kFont + tick_w + 8, px1 = page.right - 8;
  // The y axis's name over it, then the plot.
  pen.text(page.left, y + 0.5f * kFont, "GB/s (read + write, 10\u2079 B/s)", FigureRole::Label,
           FigureFont::Regular, 0.8f * kFont, theme.text);
  y += 1.6f * kFont;
  const float py0 = y, py1 = y + 420;
  const auto X = [&](double v) { return px0 + static_cast<float>(v / x_max) * (px1 - px0); };
  const auto Y = [&](double v) { return py1 - static_cast<float>(v / y_max) * (py1 - py0); };

  // Axes, grid and ticks.
  for (const double v : y_ticks) {
    pen.line(px0, Y(v), px1, Y(v), FigureRole::Axis,
             figure_parts::mix(theme.background, theme.rule, 0.5f), 0.8f);
    pen.text(px0 - 6, Y(v), viz::tick_label(v), FigureRole::Axis, FigureFont::Regular, tick_size,
             theme.muted_text, FigureAnchor::Right);
  }
  for (const double v : viz::nice_ticks(0, x_max, 8)) {
    pen.line(X(v), py1, X(v), py1 + 5, FigureRole::Axis, theme.muted_text, 1);
    pen.text(X(v), py1 + 5 + 0.6f * tick_size, viz::tick_label(v), FigureRole::Axis,
             FigureFont::Regular, tick_size, theme.muted_text, FigureAnchor::Center);
  }
  pen.line(px0, py0, px0, py1, FigureRole::Axis, theme.muted_text, 1.2f);
  pen.line(px0, py1, px1, py1, FigureRole::Axis, theme.muted_text, 1.2f);
  pen.text(0.5f * (px0 + px1), py1 + 5 + 1.8f * tick_size, data.x_label, FigureRole::Label,
           FigureFont::Regular, 0.9f * kFont, theme.text, FigureAnchor::Center);
  // Reference lines.
  const auto reference = [&](double gbps, Rgb color, const std::string& label) {
    if (gbps <= 0) return;
    pen.line(px0, Y(gbps), px1, Y(gbps), FigureRole::Series, color, 1.2f, 6);
    pen.text(px1 - 4, Y(gbps) - 0.6f * tick_size, label + format(" %.0f", gbps), FigureRole::Value,
             FigureFont::Regular, tick_size, color, FigureAnchor::Right);
  };
  reference(data.memcpy_gbps, theme.sector, "cudaMemcpy D2D");
  reference(data.peak_gbps, theme.muted_text, "theoretical peak");

  // The model's prediction (dashed) and the measured medians with their IQR.
  const Rgb measured = theme.lanes[8], model_color = theme.overfetch;
  for (std::size_t i = 1; i < data.sweep.size(); ++i) {
    const auto& a = data.sweep[i - 1];
    const auto& b = data.sweep[i];
    pen.line(X(a.x), Y(a.predicted), X(b.x), Y(b.predicted), FigureRole::Series, model_color, 2, 5);
    pen.line(X(a.x), Y(a.measured), X(b.x), Y(b.measured), FigureRole::Series, measured, 2);
  }
  for (const FigureSweepPoint& p : data.sweep) {
    if (p.high > p.low)
      pen.line(X(p.x), Y(p.low), X(p.x), Y(p.high), FigureRole::Series, measured, 1.2f);
    const float r = 3.5f;
    pen.fill({X(p.x) - r, Y(p.measured) - r, X(p.x) + r, Y(p.measured) + r}, FigureRole::Point,
             measured);
    if (p.x == data.highlight_x)
      pen.frame({X(p.x) - 2.2f * r, Y(p.measured) - 2.2f * r, X(p.x) + 2.2f * r,
                 Y(p.measured) + 2.2f * r},
                FigureRole::Point, theme.text, 1.5f);
  }
  y = py1 + 5 + 2.8f * tick_size + 0.6f * kFont;
  // The worst prediction error, as the window writes it over the plot.
  double worst = 0, worst_x = 0;
  for (const FigureSweepPoint& p : data.sweep) {
    if (p.measured <= 0) continue;
    const double e = std::abs(p.predicted - p.measured) / p.measured;
    if (e > worst) {
      worst = e;
      worst_x = p.x;
    }
  }
  pen.text(page.left, y,
           format("%zu points \u2022 model vs measured: worst %.1f %% (at %s %g)",
                  data.sweep.size(), 100 * worst, offset ? "offset" : "stride", worst_x),
           FigureRole::Total, FigureFont::Regular, 0.9f * kFont, theme.text);
  y += 1.2f * kFont;
  y = figure_parts::add_legend(
      pen, theme,
      {{LegendEntry::Swatch::Fill, measured, "measured (median, IQR)"},
       {LegendEntry::Swatch::Fill, model_color, "model (DRAM bytes), dashed"},
       {LegendEntry::Swatch::Fill, theme.sector, "cudaMemcpy D2D"},
       {LegendEntry::Swatch::Fill, theme.muted_text, "theoretical peak"}},
      page.left, y, page.right);
  return page.finish(pen, theme, source, y);
}

}  // namespace warplens::app
