// The bank view as a course-note figure: the shared access of one warp over the 32 banks (lane
// row, one grid per phase with bank numbers, the words each lane touches in its colour, the
// wavefront that serves each word, conflicts framed, broadcasts ringed, the count row, the
// total and a legend), laid out once as primitives (viz/figure.h) for the cairo renderer.
//
// Layout and colours follow the window's bank view: the grid's geometry is layout_bank_view's
// (viz/bank_view.h) at the figure's width with every touched row shown, and the colour rules
// are shaders/bank_grid.frag's and the labels app/widgets/bank_panel.cpp's, re-stated here. Not
// drawn yet: the bridge between the two boxes of one lane's 8- or 16-byte word, and tooltips.
#pragma once

#include <string>

#include "figure.h"
#include "figure_cairo.h"
#include "figure_panel.h"
#include "theme.h"

namespace warplens::app {

/// The bank figure of `data` (a FigurePanel::Banks panel: warp slot 0's shared access and its
/// analysis). `source` is the source line at the bottom (device or host model, date,
/// scenario); empty leaves it out (--no-caption).
/// The height (pixels at scale 1) of the window's bank view whose layout the figure takes, at the
/// figure's width (figure_parts::kFigureWidth): the least that shows every touched row at a
/// readable height in the regular tier (or the tallest tried, if none does). A GL BankView drawn
/// kFigureWidth x this at scale 1 lays out its grid where the figure draws it.
int bank_figure_view_height(const TraceRecords& trace, const model::SharedAnalysis& analysis);

viz::Figure bank_figure(const FigurePanelData& data, const viz::Theme& theme,
                        const std::string& source,
                        viz::FigureMeasure measure = viz::measure_figure_text);

}  // namespace warplens::app
