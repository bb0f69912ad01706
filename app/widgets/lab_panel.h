// The parts every sectioned lab's parameter panel and status line share (the cache lab, the
// bytes-in-flight lab): the row of section buttons, the panel's foot (no GPU, progress, "Measure
// again", the last error) and the status line.
#pragma once

#include <string>

#include "theme.h"
#include "view_layout.h"

namespace warplens::app {

/// A section button `width` px wide, drawn pressed when it is the `current` section; true when
/// another section was clicked.
bool section_button(const char* label, bool current, float width);

/// Where a sectioned lab's measurement stands, read from its session and results: what the foot
/// of its panel and the note over its view say.
struct MeasureProgress {
  bool gpu_mode = false;
  std::string no_gpu_text;  ///< shown (muted) without a GPU
  bool busy = false;        ///< the worker measures: a progress bar of done / total jobs
  int done = 0, total = 0;
  std::string status;  ///< the worker's line, on the progress bar
  std::string error;   ///< the session's last error, in the theme's warning colour
};

/// Draws the foot; true when "Measure again" (shown when idle on a GPU, `interactive` only) was
/// clicked.
bool draw_measure_footer(const MeasureProgress& progress, const viz::Theme& theme,
                         bool interactive);

/// The note over a view: without a GPU why (quiet: the model still draws) unless the view `has`
/// numbers anyway (injected, a figure); while measuring "STATUS … done / total"; else "not measured
/// yet" until it has; empty once it has.
ViewAside::Note measured_state_note(const MeasureProgress& progress, bool has);

/// The status line of a sectioned lab: "LAB • SECTION • DEVICE", then "• model only" without a
/// GPU or "• STATUS" while the worker measures.
std::string sectioned_status_text(const std::string& lab, const std::string& section,
                                  const std::string& device_text, bool gpu_mode, bool busy,
                                  const std::string& status);

}  // namespace warplens::app
