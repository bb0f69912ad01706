// A panel a lab offers for export as a course-note figure (`warplens render --panel`): which
// view it is and the data that view draws (the trace and the model's analysis), handed from the
// lab to the figure builders (app/widgets/bank_figure.h, warp_figure.h) through
// LabInstance::figure_panel (lab.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "index_math.h"
#include "memory_model.h"

namespace warplens::app {

/// banks: the bank view of the shared access a scenario shows; warp: the warp view of a global
/// access.
enum class FigurePanel { Banks, Warp };

/// "banks" or "warp".
const char* to_string(FigurePanel panel);
/// Parses "banks" or "warp"; throws std::invalid_argument otherwise.
FigurePanel parse_figure_panel(const std::string& text);
/// "banks, warp", "banks", ... ("none" for an empty list): for error messages.
std::string figure_panel_list(const std::vector<FigurePanel>& panels);

/// What one panel draws: the view's trace, the model's analysis of it (the GPU trace's when
/// the trace came from the GPU) and the lines of text the view shows beside the picture.
struct FigurePanelData {
  FigurePanel panel = FigurePanel::Banks;
  /// Banks: warp slot 0 is the shown warp. Warp: every traced warp slot, side by side.
  TraceRecords trace{};
  model::SharedAnalysis shared;  ///< banks
  model::GlobalAnalysis global;  ///< warp (of slot 0); historical models draw its transactions
  int first_warp = 0;            ///< warp number of slot 0
  /// What the panel shows, e.g. "warp 0 of a 32×32 block • tile[ty][tx] read by column".
  std::string access;
  /// Where the trace came from: "host model" or "GPU trace on NVIDIA H100 ...".
  std::string source;
  bool gpu_trace = false;
};

}  // namespace warplens::app
