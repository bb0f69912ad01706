// The sector heatmap as a course-note figure: per 32-byte sector of the first kHeatSectors
// sectors of the copy's buffer, how many warp requests of the whole launch moved it (top row:
// the sector colour, darker towards the text colour on a log scale that reaches it at 32
// requests) and how much of it the lanes used (bottom row: a bar of used bytes per byte moved,
// the rest hatched over-fetch), with the totals line the window writes over it. Follows
// shaders/heat_strip.frag's colour rules and global_panels.cpp's labels, laid out once as
// primitives (viz/figure.h); runs of equal sectors are one rectangle.
#pragma once

#include <string>

#include "figure.h"
#include "figure_cairo.h"
#include "figure_panel.h"
#include "theme.h"

namespace warplens::app {

/// The heatmap figure of `data` (a FigurePanel::Heatmap panel). `source`: the source line
/// (empty: none).
viz::Figure heatmap_figure(const FigurePanelData& data, const viz::Theme& theme,
                           const std::string& source,
                           viz::FigureMeasure measure = viz::measure_figure_text);

/// The totals line over the heatmap, as the window writes it: "64 sectors moved by 64 warp
/// requests (up to 1 per sector); 2048 of 2048 bytes moved were asked for (100.0 %)."
std::string heatmap_totals_text(const SectorHeatmap& heat);

}  // namespace warplens::app
