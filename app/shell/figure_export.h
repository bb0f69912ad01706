// Course-note figures of one panel (SVG, PDF or PNG through cairo): `warplens render --panel`,
// `warplens render --all --format F`, and the window's "Export figure…" (app_ui's panel menu).
// Each panel is laid out once as primitives (viz/figure.h) by its builder (panel_figure.h) from
// the data the lab's view draws (LabInstance::figure_panel), and written by one function,
// export_panel_figure, whichever of the three asked.
#pragma once

#include <string>

#include "figure_cairo.h"
#include "figure_panel.h"
#include "frontends.h"
#include "lab.h"

namespace warplens::app {

struct FigureExportOptions {
  FigurePanel panel = FigurePanel::Banks;
  bool any_panel = false;  ///< --all without --panel: every panel each scenario has
  viz::FigureFormat format = viz::FigureFormat::Svg;
  std::string out;        ///< the file to write (--all: the folder)
  double width_mm = 160;  ///< the figure's width on the page
  bool caption = true;    ///< the source line (device or host model, date, scenario)
  int step = -1;          ///< the step a banks panel shows (FigurePanelData::step); -1 whole
};

/// The format named by `out`'s extension (.svg, .pdf, .png); throws std::invalid_argument.
viz::FigureFormat figure_format_of(const std::string& out);
/// "svg", "pdf" or "png".
const char* figure_extension(viz::FigureFormat format);
/// The default file name of a panel's figure: "<scenario>-<panel>.<ext>".
std::string figure_file_name(const std::string& scenario, FigurePanel panel,
                             viz::FigureFormat format);

/// Today's date (UTC) as YYYY-MM-DD, or SOURCE_DATE_EPOCH's when set (reproducible figures and
/// handouts).
std::string figure_date_text();

/// The source line: "host model • 2025-01-31 • scenario bank-stride-32 • WarpLens". The date
/// is today's (UTC), or SOURCE_DATE_EPOCH's when set (reproducible figures).
std::string figure_source_line(const FigurePanelData& data, const std::string& scenario);

/// What an export did: 0 and "wrote FILE (...)", or an exit code (exit_codes.h) and the reason.
struct FigureExportResult {
  int code = 0;
  std::string message;
};

/// The one export path: the figure of `options.panel` from `lab` (which shows that panel's data:
/// show_figure_panel first where it may not), of scenario `scenario`, written to `options.out`
/// in `theme`. Never throws: a panel the lab lacks is code 2 naming the panels it has; nothing
/// to draw, a cairo or file failure (a missing folder, no permission) is code 1 with the reason.
FigureExportResult export_panel_figure(const LabInstance& lab, Lab lab_id,
                                       const std::string& scenario,
                                       const FigureExportOptions& options, const viz::Theme& theme);

/// Renders the panel of the scenario (or preset) `options` name. Returns the exit code: 0;
/// 1 a GL, GPU, cairo or file failure; 2 bad input (an unknown scenario, a bad preset, a panel
/// the scenario does not have: the message names the panels it has).
int render_figure(const ViewOptions& options, const FigureExportOptions& figure);

/// `render --all --format F [--panel P]`: every built-in scenario x every panel it has (or only
/// `figure.panel`) into the folder `figure.out` as <scenario>-<panel>.<ext>, one line per file
/// written. Returns 0, or 1 when any failed (after writing the rest).
int render_all_figures(const ViewOptions& options, const FigureExportOptions& figure);

}  // namespace warplens::app
