#include "figure_panel.h"

#include <stdexcept>
#include <utility>

namespace warplens::app {

const std::vector<FigurePanel>& all_figure_panels() {
  static const std::vector<FigurePanel> panels = {
      FigurePanel::Banks,       FigurePanel::Warp,        FigurePanel::Tile, FigurePanel::Heatmap,
      FigurePanel::OffsetSweep, FigurePanel::StrideSweep, FigurePanel::Bars, FigurePanel::Numbers};
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
