// The bank grid's legend (bank_panel.h): lane colour, wavefront, conflict, broadcast, idle lane,
// each with the swatch the grid draws for it.
#pragma once

#include <imgui.h>

#include "theme.h"

namespace warplens::app::bank_detail {

/// Rows the legend takes at `width` px (UI scale `scale`), with the short labels or the full ones.
int legend_rows(float width, float scale, bool short_labels);

/// Which of the entries that only some accesses show the grid draws.
struct LegendShown {
  bool conflict = true;
  bool broadcast = true;
  bool idle = true;
  bool wavefront = true;  ///< a cell carries the number of the wavefront that serves it
};

/// The legend, flowing left to right in the current ImGui window; `column`: one entry per line,
/// its text wrapped (the presenter's legend slot beside the view). Either way of the entries
/// the grid draws (`shown`) only (the layout under the picture passes all): a short projector
/// column keeps the ones it needs in sight. `mono`: the
/// font of the wavefront swatch's number.
void draw_legend(const viz::Theme& theme, float s, const ImFont* mono, bool short_labels,
                 bool column = false, LegendShown shown = {});

}  // namespace warplens::app::bank_detail
