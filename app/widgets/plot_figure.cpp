#include "plot_figure.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "figure_parts.h"
#include "plot.h"

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

constexpr float kPlotHeight = 340;

struct Range {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();
  void add(double v, bool log) {
    if (!std::isfinite(v) || (log && v <= 0)) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  [[nodiscard]] bool empty() const { return lo > hi; }
};

// The y range of a plot: its data and reference lines, from 0 on a linear axis; a log axis
// spans whole decades around them. An empty plot gets [0, 1] (log: [1, 10]).
void y_range(const FigurePlot& plot, double& lo, double& hi) {
  Range r;
  for (const FigureSeries& s : plot.series) {
    for (double v : s.y) r.add(v, plot.log_y);
    for (double v : s.y_high) r.add(v, plot.log_y);
    for (double v : s.y_low) r.add(v, plot.log_y);
  }
  for (const FigureReference& ref : plot.references) r.add(ref.y, plot.log_y);
  if (plot.log_y) {
    lo = r.empty() ? 1 : std::pow(10.0, std::floor(std::log10(r.lo)));
    hi = r.empty() ? 10 : std::pow(10.0, std::ceil(std::log10(r.hi * 1.001)));
    if (hi <= lo) hi = lo * 10;
    return;
  }
  lo = 0;
  hi = r.empty() || r.hi <= 0 ? 1 : r.hi * 1.08;
  const auto ticks = viz::nice_ticks(0, hi, 6);
  if (!ticks.empty()) hi = std::max(hi, ticks.back());
}

// Ticks of the x axis: the plot's own (kept apart by `min_gap` figure units), or automatic ones.
std::vector<double> x_ticks(const FigurePlot& plot, const std::function<float(double)>& X,
                            float min_gap) {
  std::vector<double> given = plot.x_ticks;
  if (given.empty())
    given = plot.log_x ? viz::log_ticks(plot.x_min, plot.x_max)
                       : viz::nice_ticks(plot.x_min, plot.x_max, 8);
  std::vector<double> kept;
  for (double v : given) {
    if (v < plot.x_min || v > plot.x_max) continue;
    if (!kept.empty() && X(v) - X(kept.back()) < min_gap) continue;
    kept.push_back(v);
  }
  return kept;
}

// One plot: its title, the y label over the frame, the frame, then the legend; returns the
// bottom reached.
float add_plot(Pen& pen, const Page& page, const viz::Theme& theme, const FigurePlot& plot,
               float y) {
  if (!plot.title.empty()) {
    pen.text(page.left, y + 0.5f * kFont, plot.title, FigureRole::Header, FigureFont::Bold,
             0.95f * kFont, theme.text);
    y += 1.4f * kFont;
  }
  double y_lo = 0, y_hi = 1;
  y_range(plot, y_lo, y_hi);
  const float tick_size = 0.8f * kFont;
  std::vector<double> y_ticks =
      plot.log_y ? viz::log_ticks(y_lo, y_hi) : viz::nice_ticks(0, y_hi, 6);
  float tick_w = 0;
  for (const double v : y_ticks)
    tick_w = std::max(tick_w, pen.width(FigureFont::Regular, tick_size, viz::tick_label(v)));
  const float px0 = page.left + 0.6f * kFont + tick_w + 8, px1 = page.right - 8;
  pen.text(page.left, y + 0.5f * kFont, plot.y_label, FigureRole::Label, FigureFont::Regular,
           0.8f * kFont, theme.text);
  y += 1.5f * kFont;
  const float py0 = y, py1 = y + kPlotHeight;
  const auto frac = [](double v, double lo, double hi, bool log) {
    if (log)
      return (std::log(std::max(v, lo * 1e-3)) - std::log(lo)) / (std::log(hi) - std::log(lo));
    return (v - lo) / (hi - lo);
  };
  const auto X = [&](double v) {
    return px0 + static_cast<float>(frac(v, plot.x_min, plot.x_max, plot.log_x)) * (px1 - px0);
  };
  const auto Y = [&](double v) {
    return py1 - static_cast<float>(frac(v, y_lo, y_hi, plot.log_y)) * (py1 - py0);
  };
  const auto inside_y = [&](double v) { return v >= y_lo * 0.999 && v <= y_hi * 1.001; };

  // Grid, ticks and axes.
  for (const double v : y_ticks) {
    pen.line(px0, Y(v), px1, Y(v), FigureRole::Axis,
             figure_parts::mix(theme.background, theme.rule, 0.5f), 0.8f);
    pen.text(px0 - 6, Y(v), viz::tick_label(v), FigureRole::Axis, FigureFont::Regular, tick_size,
             theme.muted_text, FigureAnchor::Right);
  }
  const float label_gap = pen.width(FigureFont::Regular, tick_size, "00000") + 6;
  for (const double v : x_ticks(plot, X, label_gap)) {
    pen.line(X(v), py1, X(v), py1 + 5, FigureRole::Axis, theme.muted_text, 1);
    pen.text(X(v), py1 + 5 + 0.6f * tick_size, viz::tick_label(v), FigureRole::Axis,
             FigureFont::Regular, tick_size, theme.muted_text, FigureAnchor::Center);
  }
  pen.line(px0, py0, px0, py1, FigureRole::Axis, theme.muted_text, 1.2f);
  pen.line(px0, py1, px1, py1, FigureRole::Axis, theme.muted_text, 1.2f);
  pen.text(0.5f * (px0 + px1), py1 + 5 + 1.8f * tick_size, plot.x_label, FigureRole::Label,
           FigureFont::Regular, 0.9f * kFont, theme.text, FigureAnchor::Center);

  std::vector<LegendEntry> legend;
  // The model's vertical marks, then the reference lines (labelled at their right end).
  for (const FigureXMark& m : plot.x_marks) {
    if (m.x < plot.x_min || m.x > plot.x_max) continue;
    const Rgb c = figure_color(m.color, theme);
    pen.line(X(m.x), py0, X(m.x), py1, FigureRole::Series, c, 1.4f, 4);
    legend.push_back({LegendEntry::Swatch::Fill, c, m.label + " (dashed, vertical)"});
  }
  for (const FigureReference& ref : plot.references) {
    if (!inside_y(ref.y)) continue;
    const Rgb c = figure_color(ref.color, theme);
    pen.line(px0, Y(ref.y), px1, Y(ref.y), FigureRole::Series, c, 1.2f, 6);
    pen.text(px1 - 4, Y(ref.y) - 0.6f * tick_size, ref.label, FigureRole::Value,
             FigureFont::Regular, tick_size, c, FigureAnchor::Right);
    legend.push_back({LegendEntry::Swatch::Fill, c, ref.label});
  }
  // The series: lines, whiskers, markers, the ringed point.
  for (const FigureSeries& s : plot.series) {
    const Rgb c = figure_color(s.color, theme);
    const std::size_t n = std::min(s.x.size(), s.y.size());
    const bool shown = n > 0;
    if (s.lines)
      for (std::size_t i = 1; i < n; ++i)
        if (inside_y(s.y[i - 1]) && inside_y(s.y[i]))
          pen.line(X(s.x[i - 1]), Y(s.y[i - 1]), X(s.x[i]), Y(s.y[i]), FigureRole::Series, c,
                   s.model ? 2.2f : 1.8f, s.dashed ? 6 : 0);
    for (std::size_t i = 0; i < n; ++i) {
      if (!inside_y(s.y[i])) continue;
      const float px = X(s.x[i]), py = Y(s.y[i]);
      if (i < s.y_low.size() && i < s.y_high.size() && s.y_high[i] > s.y_low[i])
        pen.line(px, Y(std::max(s.y_low[i], y_lo)), px, Y(std::min(s.y_high[i], y_hi)),
                 FigureRole::Series, c, 1.2f);
      const float r = 3.5f;
      if (s.markers) pen.fill({px - r, py - r, px + r, py + r}, FigureRole::Point, c);
      if (static_cast<int>(i) == s.highlight)
        pen.frame({px - 2.4f * r, py - 2.4f * r, px + 2.4f * r, py + 2.4f * r}, FigureRole::Point,
                  theme.text, 1.5f);
    }
    if (shown || s.model)
      legend.push_back({LegendEntry::Swatch::Fill, c,
                        s.label + (s.dashed && s.lines && n > 1 ? " (dashed)" : "")});
  }
  y = py1 + 5 + 2.8f * tick_size + 0.5f * kFont;
  y = figure_parts::add_legend(pen, theme, legend, page.left, y, page.right);
  return y + 0.6f * kFont;
}

}  // namespace

viz::Figure plot_figure(const FigurePanelData& data, const viz::Theme& theme,
                        const std::string& source, viz::FigureMeasure measure) {
  Page page(theme);
  Pen pen(page.figure, measure);
  float y = figure_parts::add_title(pen, page, theme, data.access);
  if (!data.access.empty()) y += 0.4f * kFont;
  if (data.measured.empty()) {
    // Model only: the model's lines are drawn, nothing measured is; say so first.
    y = figure_parts::add_wrapped(
        pen,
        "model only: the lines are the model's" +
            (data.measured_absent.empty() ? std::string() : "; " + data.measured_absent),
        page.left, y, page.right, FigureRole::ModelOnly, FigureFont::Bold, 0.9f * kFont,
        theme.warning);
    y += 0.4f * kFont;
  } else if (!data.measured_title.empty()) {
    std::string line = data.measured_title + ":";
    for (const FigureValue& v : data.measured) line += " " + v.name + " " + v.value + ";";
    line.pop_back();
    y = figure_parts::add_wrapped(pen, line, page.left, y, page.right, FigureRole::Note,
                                  FigureFont::Regular, 0.85f * kFont, theme.muted_text);
    y += 0.4f * kFont;
  }
  for (const FigurePlot& plot : data.plots) y = add_plot(pen, page, theme, plot, y);
  for (const std::string& note : data.notes)
    y = figure_parts::add_wrapped(pen, note, page.left, y, page.right, FigureRole::Note,
                                  FigureFont::Regular, 0.85f * kFont, theme.muted_text);
  return page.finish(pen, theme, source, y);
}

}  // namespace warplens::app
