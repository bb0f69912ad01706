#include "figure_panel.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace warplens::app {

const std::vector<FigurePanel>& all_figure_panels() {
  static const std::vector<FigurePanel> panels = {
      FigurePanel::Banks,   FigurePanel::Warp,        FigurePanel::Tile,
      FigurePanel::Heatmap, FigurePanel::OffsetSweep, FigurePanel::StrideSweep,
      FigurePanel::Bars,    FigurePanel::Plot,        FigurePanel::Numbers};
  return panels;
}

const char* to_string(FigurePanel panel) {
  switch (panel) {
    case FigurePanel::Banks: return "banks";
    case FigurePanel::Warp: return "warp";
    case FigurePanel::Tile: return "tile";
    case FigurePanel::Heatmap: return "heatmap";
    case FigurePanel::OffsetSweep: return "offset-sweep";
    case FigurePanel::StrideSweep: return "stride-sweep";
    case FigurePanel::Bars: return "bars";
    case FigurePanel::Plot: return "plot";
    case FigurePanel::Numbers: return "numbers";
  }
  return "?";
}

FigurePanel parse_figure_panel(const std::string& text) {
  for (const FigurePanel p : all_figure_panels())
    if (text == to_string(p)) return p;
  throw std::invalid_argument("panel must be one of " + figure_panel_list(all_figure_panels()) +
                              " (got \"" + text + "\")");
}

std::string figure_panel_list(const std::vector<FigurePanel>& panels) {
  if (panels.empty()) return "none";
  std::string out;
  for (const FigurePanel p : panels) out += (out.empty() ? "" : ", ") + std::string(to_string(p));
  return out;
}

viz::Rgb figure_color(const FigureColor& color, const viz::Theme& theme) {
  switch (color.kind) {
    case FigureColor::Kind::Series: {
      // Light: skip the palest yellows; dark: skip the darkest purples.
      const int first = theme.name == viz::ThemeName::Dark ? 8 : 2;
      const int lane = color.count <= 1 ? first + 4 : first + color.index * 22 / (color.count - 1);
      return theme.lanes[static_cast<std::size_t>(std::clamp(lane, 0, 31))];
    }
    case FigureColor::Kind::Model: return theme.overfetch;
    case FigureColor::Kind::Muted: return theme.muted_text;
    case FigureColor::Kind::Warning: return theme.warning;
    case FigureColor::Kind::Text: return theme.text;
  }
  return theme.text;
}

std::size_t FigurePlot::measured_points() const {
  std::size_t n = 0;
  for (const FigureSeries& s : series)
    if (!s.model) n += s.y.size();
  return n;
}

std::vector<viz::PlotSeries> plot_series(const FigurePlot& plot, const viz::Theme& theme) {
  std::vector<viz::PlotSeries> out;
  for (const FigureSeries& s : plot.series) {
    viz::PlotSeries p;
    p.label = s.label;
    p.color = figure_color(s.color, theme);
    p.x = s.x;
    p.y = s.y;
    p.y_low = s.y_low;
    p.y_high = s.y_high;
    p.dashed = s.dashed;
    p.markers = s.markers;
    p.highlight = s.highlight;
    p.lines = s.lines;
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<viz::ReferenceLine> plot_references(const FigurePlot& plot, const viz::Theme& theme) {
  std::vector<viz::ReferenceLine> out;
  for (const FigureReference& r : plot.references)
    out.push_back({r.label, figure_color(r.color, theme), r.y});
  return out;
}

std::vector<viz::XMark> plot_x_marks(const FigurePlot& plot, const viz::Theme& theme) {
  std::vector<viz::XMark> out;
  for (const FigureXMark& m : plot.x_marks)
    out.push_back(
        {m.tag.empty() ? m.label : m.tag, figure_color(m.color, theme), m.x, m.tag_short});
  return out;
}

viz::PlotSpec plot_spec(const FigurePlot& plot) {
  viz::PlotSpec spec;
  spec.x_label = plot.x_label;
  spec.y_label = plot.y_label;
  spec.log_y = plot.log_y;
  spec.log_x = plot.log_x;
  spec.x_min = plot.x_min;
  spec.x_max = plot.x_max;
  spec.x_ticks = plot.x_ticks;
  if (!plot.value_unit.empty()) spec.value_unit = plot.value_unit;
  return spec;
}

std::vector<FigurePanel> numbers_and_measured_bars(bool bars_measured) {
  std::vector<FigurePanel> panels;
  if (bars_measured) panels.push_back(FigurePanel::Bars);
  panels.push_back(FigurePanel::Numbers);
  return panels;
}

std::optional<FigurePanelData> measured_bars_panel(std::vector<FigureBar> bars, std::string access,
                                                   std::string title, std::string source) {
  if (bars.empty()) return std::nullopt;
  FigurePanelData d;
  d.panel = FigurePanel::Bars;
  d.bars = std::move(bars);
  d.access = std::move(access);
  d.bars_title = std::move(title);
  d.gpu_trace = true;
  d.source = std::move(source);
  return d;
}

std::optional<FigurePanelData> model_bars_panel(std::vector<FigureBar> bars, std::string access,
                                                std::string title, std::string why) {
  if (bars.empty()) return std::nullopt;
  FigurePanelData d;
  d.panel = FigurePanel::Bars;
  d.bars = std::move(bars);
  d.access = std::move(access);
  d.bars_title = std::move(title);
  d.gpu_trace = false;
  d.source = "host model";
  d.measured_absent = std::move(why);
  return d;
}

void set_measured_source(FigurePanelData& d, bool gpu_mode, const std::string& device_name,
                         const std::string& no_device_reason, bool busy) {
  if (d.measured.empty() && !gpu_mode) {
    d.measured_absent = "measurements need a CUDA device" +
                        (no_device_reason.empty() ? std::string() : ": " + no_device_reason);
  } else if (d.measured.empty()) {
    d.measured_absent = busy ? "the measurement is still running" : "not measured yet";
  }
  d.gpu_trace = !d.measured.empty();
  d.source = !d.gpu_trace          ? std::string("host model")
             : device_name.empty() ? std::string("measured")
                                   : "measured on " + device_name;
}

}  // namespace warplens::app
