// The measured variants as a course-note figure: one horizontal bar per transpose, multiply or
// reduction variant, scaled to the largest, its value and note beside it, the shown variant in
// the highlight colour, the line the window writes over them. Follows the window's bars
// (shared_ui.cpp draw_bars), laid out once as primitives (viz/figure.h). Bars exist only where
// they were measured, so the figure never has an empty measured series; or they are the model's
// (FigureBar::model: the read path's sectors and lines), tinted and outlined in the model's
// colour under a line saying the figure shows the model only.
#pragma once

#include <string>

#include "figure.h"
#include "figure_cairo.h"
#include "figure_panel.h"
#include "theme.h"

namespace warplens::app {

/// The bars figure of `data` (a FigurePanel::Bars panel). `source`: the source line (empty:
/// none).
viz::Figure bars_figure(const FigurePanelData& data, const viz::Theme& theme,
                        const std::string& source,
                        viz::FigureMeasure measure = viz::measure_figure_text);

}  // namespace warplens::app
