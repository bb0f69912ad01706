// The bytes-in-flight lab's panels as course-note figures' data (render --panel,
// figure_panel.h): the section's plot (the latency ladder; Little's law with its predicted line),
// the model's lines always and the measured points where measured, as the window draws them
// (latency_plot, littles_law_plot); the numbers (the section's rows as the window's numbers panel
// shows them, the values the GPU measured, or "model only") and, once a staged copy was measured,
// the async view's bars. Both copy the window's own data (flight_number_rows, async_bars).
#pragma once

#include <optional>
#include <vector>

#include "figure_panel.h"
#include "flight_session.h"

namespace warplens::app {

/// The panels the state offers: the plot (latency ladder, Little's law) or the async copies'
/// bars once measured, and the numbers.
std::vector<FigurePanel> flight_figure_panels(const FlightSession& session, const FlightResults& r);

/// The data of `panel`; nullopt for a panel the state does not offer.
std::optional<FigurePanelData> flight_figure_panel(const FlightSession& session,
                                                   const FlightResults& r, FigurePanel panel);

}  // namespace warplens::app
