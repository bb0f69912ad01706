// The warp view as a course-note figure: one or more warps' global access (lane row,
// connectors, the bytes of the lines touched with requested bytes in the lane's colour and
// over-fetch hatched, the sector row, sector and line rules, byte offsets, the sectors per
// request and a legend), laid out once as primitives (viz/figure.h) for the cairo renderer.
//
// The geometry is the window's (layout_warp_view, viz/warp_view.h) at the figure's width; the
// colour rules are shaders/memory_strip.frag's and the labels app/widgets/warp_panel.cpp's,
// re-stated here. Not drawn yet: historical models' "×n" repeated fetches over the transaction
// row (their transactions are drawn, for warp slot 0), and the hover read-out.
#pragma once

#include <string>

#include "figure.h"
#include "figure_cairo.h"
#include "figure_panel.h"
#include "theme.h"

namespace warplens::app {

/// The height (figure units) of the figure's view part, caption to byte offsets: the height
/// layout_warp_view lays the window's view out in for the figure (at its width, scale 1).
inline constexpr int kWarpFigureViewHeight = 330;

/// The warp figure of `data` (a FigurePanel::Warp panel: the traced warps' global access and
/// warp slot 0's analysis). `source`: the source line at the bottom; empty leaves it out.
viz::Figure warp_figure(const FigurePanelData& data, const viz::Theme& theme,
                        const std::string& source,
                        viz::FigureMeasure measure = viz::measure_figure_text);

}  // namespace warplens::app
