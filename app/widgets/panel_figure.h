// One entry to every panel's figure builder: the CLI (render --panel, --all) and the window's
// "Export figure…" build a panel's figure through panel_figure, so both draw the same thing.
#pragma once

#include <string>

#include "figure.h"
#include "figure_panel.h"
#include "theme.h"

namespace warplens::app {

/// The figure of `data` by its panel's builder (bank_figure.h, warp_figure.h, array_figure.h,
/// heatmap_figure.h, sweep_figure.h, bars_figure.h, plot_figure.h, numbers_figure.h). `source`: the
/// source line (empty leaves it out).
viz::Figure panel_figure(const FigurePanelData& data, const viz::Theme& theme,
                         const std::string& source);

}  // namespace warplens::app
