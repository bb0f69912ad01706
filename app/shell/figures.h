// Course-note figures: every built-in scenario rendered headless to a PNG, with the numbers the
// figure shows (model, GPU trace, measurements) beside it as JSON and CSV when a GPU measured
// them. Files are written atomically (temporary name, then rename), so an interrupted export
// never leaves a half-written file.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <string>

#include "app_ui.h"
#include "frontends.h"
#include "layout_audit.h"

namespace warplens::app {

/// The numbers behind a figure: scenario, lab, device, then what the shown lab adds (the
/// model's prediction and the trace's analysis, and what the GPU measured: an empty "measured"
/// without a GPU). While `ui` compares A with B, "compare" holds A's model and measurements,
/// both sides' headline numbers (lab.h) and B / A.
nlohmann::json figure_numbers(const Scenario& scenario, const UiState& ui, Workbench& labs);

/// The same as "key,value" lines (nested keys joined with '.').
std::string figure_numbers_csv(const nlohmann::json& numbers);

/// The audit's JSON: {"findings": [{"scenario", "panel", "kind", "text", "fails"}...],
/// "failing": N}, where a finding fails when it is in a view or in the numbers (a panel of
/// numbers that merely scrolls does not fail; the parameter panel, header and status may cut).
void add_audit_findings(nlohmann::json& report, const std::string& scenario,
                        const LayoutAudit& audit);
[[nodiscard]] bool audit_fails(const LayoutFinding& finding);

/// `warplens render --all --out-dir DIR`: DIR/NAME.png for every built-in scenario, and
/// DIR/NAME.json + DIR/NAME.csv when a GPU measured it. Creates DIR. Returns the exit code
/// (0; 1 GL/GPU/file failure; 2 bad options) and prints one line per file written. With
/// options.audit, audits every scenario instead: the JSON on stdout, the file lines on stderr,
/// and exit code 1 when any finding fails.
int render_all(const ViewOptions& options, const std::string& out_dir, int width, int height);

}  // namespace warplens::app
