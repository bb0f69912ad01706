// A measured sweep (offset or stride) as a course-note figure: the copy kernel's measured GB/s
// at each point (median, with the interquartile range as a whisker), the model's prediction from
// DRAM bytes as a dashed line, cudaMemcpy's and the theoretical peak as reference lines, the
// shown state's point ringed. Follows the window's sweep plot (global_panels.cpp, viz/plot.h)
// on a linear axis, laid out once as primitives (viz/figure.h). A sweep exists only where it
// was measured, so the figure never has an empty measured series.
#pragma once

#include <string>

#include "figure.h"
#include "figure_cairo.h"
#include "figure_panel.h"
#include "theme.h"

namespace warplens::app {

/// The sweep figure of `data` (a FigurePanel::OffsetSweep or StrideSweep panel, its points in
/// `sweep`). `source`: the source line (empty: none).
viz::Figure sweep_figure(const FigurePanelData& data, const viz::Theme& theme,
                         const std::string& source,
                         viz::FigureMeasure measure = viz::measure_figure_text);

}  // namespace warplens::app
