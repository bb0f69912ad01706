// The tile view as a course-note figure: the shared tile as stored (rows of the row pitch, the
// padding columns hatched), each word tinted and numbered by its bank, the shown warp's lanes on
// the words they touch (lane colour and number), and a conflict frame on every touched word of
// a bank that serves several. Follows the window's array view (array_panel.cpp: its tint,
// bank_tint, and its rules), laid out once as primitives (viz/figure.h).
#pragma once

#include <string>

#include "figure.h"
#include "figure_cairo.h"
#include "figure_panel.h"
#include "theme.h"

namespace warplens::app {

/// The tile figure of `data` (a FigurePanel::Tile panel: warp slot 0's shared access of a 2D
/// tile, `tile_index`, and its analysis's banks). `source`: the source line (empty: none).
viz::Figure tile_figure(const FigurePanelData& data, const viz::Theme& theme,
                        const std::string& source,
                        viz::FigureMeasure measure = viz::measure_figure_text);

}  // namespace warplens::app
