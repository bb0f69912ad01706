#include "panel_figure.h"

#include "array_figure.h"
#include "bank_figure.h"
#include "bars_figure.h"
#include "heatmap_figure.h"
#include "numbers_figure.h"
#include "plot_figure.h"
#include "sweep_figure.h"
#include "warp_figure.h"

namespace warplens::app {

viz::Figure panel_figure(const FigurePanelData& data, const viz::Theme& theme,
                         const std::string& source) {
  switch (data.panel) {
    case FigurePanel::Banks: return bank_figure(data, theme, source);
    case FigurePanel::Warp: return warp_figure(data, theme, source);
    case FigurePanel::Tile: return tile_figure(data, theme, source);
    case FigurePanel::Heatmap: return heatmap_figure(data, theme, source);
    case FigurePanel::OffsetSweep:
    case FigurePanel::StrideSweep: return sweep_figure(data, theme, source);
    case FigurePanel::Bars: return bars_figure(data, theme, source);
    case FigurePanel::Plot: return plot_figure(data, theme, source);
    case FigurePanel::Numbers: return numbers_figure(data, theme, source);
  }
  return numbers_figure(data, theme, source);
}

}  // namespace warplens::app
