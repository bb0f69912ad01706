// The cache lab's panels as course-note figures' data (render --panel, figure_panel.h): the
// section's plots (carveout, L1 sweep, constant-cache cycles) as the window draws them
// (cache_plots.cpp), the model's lines always and the measured points where measured; the
// numbers (the section's tables as the window's numbers panel shows them, the highlighted rows'
// measured values, or "model only") and, once the read paths were measured, their bars. Both
// copy the window's own data (cache_numbers_tables, read_path_bars in cache_ui_tables.cpp).
#pragma once

#include <optional>
#include <vector>

#include "cache_session.h"
#include "figure_panel.h"

namespace warplens::app {

/// The panels the state offers: the plots (carveout, L1, constant) or the read path's bars once
/// measured, and the numbers.
std::vector<FigurePanel> cache_figure_panels(const CacheSession& session, const CacheResults& r);

/// The data of `panel`; nullopt for a panel the state does not offer.
std::optional<FigurePanelData> cache_figure_panel(const CacheSession& session,
                                                  const CacheResults& r, FigurePanel panel);

}  // namespace warplens::app
