// What the bytes-in-flight lab's UI files share (flight_ui*.cpp and flight_figures.cpp only):
// text helpers, the numbers' rows and the bars of the async view as data, and one draw function
// per section of the big view.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "figure_panel.h"
#include "flight_session.h"
#include "imgui_layer.h"
#include "theme.h"
#include "view_layout.h"

namespace warplens::app::flight_ui_detail {

using viz::to_imgui_color;

/// "48 KiB", "1.5 MiB", "512 B".
std::string kib_text(std::int64_t bytes);
/// "5.8 KiB per SM (idle-latency line; the curve meets cudaMemcpy at 11.6 KiB)": the knee where
/// the straight idle-latency line reaches the cap, and where the drawn curve, its latency growing
/// with the load, does; as the view and the figure say it.
std::string flight_knee_text(const FlightModel& m);

/// The measured part's one line: no GPU, running, or nothing yet; empty when `have`.
ViewAside::Note measured_note(const FlightSession& session, const FlightResults& r, bool have);

/// One bar of the async view.
struct AsyncBar {
  std::string name, brief;           ///< "plain, 4 B x 1 load", "4 B"
  double gbps = 0;                   ///< 0: not measured
  std::int64_t bytes_in_flight = 0;  ///< per SM
  std::string unsupported;           ///< why the GPU cannot run it (then no bar)
  std::string pending;               ///< "not measured yet", "needs a GPU"
};
std::vector<AsyncBar> async_bars(const FlightSession& session, const FlightResults& r);

/// The async view's heading.
inline constexpr const char* kAsyncTitle = "Asynchronous copies: few threads, many bytes in flight";

/// One row of the numbers panel: what, its value as the window shows it, and whether the GPU
/// measured that value (false: the model's or the device's, or what stands in: "—", "needs a
/// GPU").
struct NumberRow {
  std::string what, value;
  bool measured = false;
};
/// The numbers panel's rows for the state's section: Latency -> the plateaus and the device's
/// levels; Little's law -> residency, bytes in flight, the model's GB/s, the measured GB/s, the
/// knee, the points measured; Async -> one row per bar.
std::vector<NumberRow> flight_number_rows(const FlightSession& session, const FlightResults& r);

/// The latency ladder as data: one series per ladder row (measured, empty until measured), the
/// plateaus as reference lines once measured, the model's level sizes as vertical marks and,
/// until the ladder measures it, the idle latency the Little's-law model assumes.
FigurePlot latency_plot(const FlightSession& session, const FlightResults& r);
/// Little's law as data: the measured copies by word size, the model's predicted line (for the
/// state's warp batch) and current point, cudaMemcpy and the theoretical peak, the model's knee.
FigurePlot littles_law_plot(const FlightSession& session, const FlightResults& r);
/// The predicted line's legend: what it assumes (idle latency, ns per byte of a warp's batch).
std::string model_line_label(const FlightModel& m);

void draw_latency_view(const FlightSession& session, const FlightResults& r,
                       const viz::ImGuiLayer& layer, const viz::Theme& theme, bool interactive,
                       ViewAside& aside);
void draw_littles_law_view(const FlightSession& session, const FlightResults& r,
                           const viz::ImGuiLayer& layer, const viz::Theme& theme, bool interactive,
                           ViewAside& aside);
void draw_async_view(const FlightSession& session, const FlightResults& r,
                     const viz::ImGuiLayer& layer, const viz::Theme& theme, ViewAside& aside);

}  // namespace warplens::app::flight_ui_detail
