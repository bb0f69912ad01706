// `warplens render --panel banks|warp`: one panel of a scenario as a course-note figure (SVG,
// PDF or PNG through cairo), laid out once as primitives (viz/figure.h) by the panel's figure
// builder (app/widgets/bank_figure.h, warp_figure.h) from the data the lab's view draws
// (LabInstance::figure_panel). The window's "Export figure..." is still to do (issue 14).
#pragma once

#include <string>

#include "figure_cairo.h"
#include "figure_panel.h"
#include "frontends.h"

namespace warplens::app {

struct FigureExportOptions {
  FigurePanel panel = FigurePanel::Banks;
  viz::FigureFormat format = viz::FigureFormat::Svg;
  std::string out;        ///< the file to write
  double width_mm = 160;  ///< the figure's width on the page
  bool caption = true;    ///< the source line (device or host model, date, scenario)
};

/// The format named by `out`'s extension (.svg, .pdf, .png); throws std::invalid_argument.
viz::FigureFormat figure_format_of(const std::string& out);

/// The source line: "host model • 2025-01-31 • scenario bank-stride-32 • WarpLens". The date
/// is today's (UTC), or SOURCE_DATE_EPOCH's when set (reproducible figures).
std::string figure_source_line(const FigurePanelData& data, const std::string& scenario);

/// Renders the panel of the scenario (or preset) `options` name. Returns the exit code: 0;
/// 1 a GL, GPU, cairo or file failure; 2 bad input (an unknown scenario, a bad preset, a panel
/// the scenario does not have: the message names the panels it has).
int render_figure(const ViewOptions& options, const FigureExportOptions& figure);

}  // namespace warplens::app
