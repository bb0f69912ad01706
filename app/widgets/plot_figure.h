// A lab's plots as a course-note figure (FigurePanel::Plot): each plot of the panel one under
// another with its axes (linear or log, the window's ticks), the measured series as points and
// lines, the model's series dashed or solid as the window draws them, reference lines, the
// model's vertical marks (a cache level's capacity) and a legend that names every line, the
// model's as the model's. Nothing measured: the model's lines alone and one line saying "model
// only" and why. Laid out once as primitives (viz/figure.h) from the same FigurePlot the window's
// view draws with viz::draw_plot.
#pragma once

#include <string>

#include "figure.h"
#include "figure_cairo.h"
#include "figure_panel.h"
#include "theme.h"

namespace warplens::app {

/// The figure of a FigurePanel::Plot panel (`data.plots`, `data.measured`, `data.notes`).
/// `source`: the source line (empty: none).
viz::Figure plot_figure(const FigurePanelData& data, const viz::Theme& theme,
                        const std::string& source,
                        viz::FigureMeasure measure = viz::measure_figure_text);

}  // namespace warplens::app
