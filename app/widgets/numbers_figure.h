// The numbers panel as a course-note figure: the lab's per-request table (the window's rows,
// the model's value beside the GPU trace's with its ✓ or "✗ differs"), the lines the window
// writes under it, and what the GPU measured, or "model only" where nothing was measured (no
// empty measured column). Laid out once as primitives (viz/figure.h) for the cairo renderer.
#pragma once

#include <string>

#include "figure.h"
#include "figure_cairo.h"
#include "figure_panel.h"
#include "theme.h"

namespace warplens::app {

/// The numbers figure of `data` (a FigurePanel::Numbers panel). `source`: the source line
/// (empty leaves it out).
viz::Figure numbers_figure(const FigurePanelData& data, const viz::Theme& theme,
                           const std::string& source,
                           viz::FigureMeasure measure = viz::measure_figure_text);

/// The line a figure shows where nothing was measured: "model only: " and the reason.
std::string model_only_text(const FigurePanelData& data);

}  // namespace warplens::app
