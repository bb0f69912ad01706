// The bytes-in-flight lab's panels, drawn with ImGui: the parameters, the big view (the latency
// ladder; Little's law's plot beside the SM picture; the staged copies' bars) and the numbers
// under it. The layout helpers are the shared ones (view_layout.h).
#pragma once

#include <imgui.h>

#include <functional>
#include <string>
#include <vector>

#include "flight_session.h"
#include "imgui_layer.h"
#include "lab.h"
#include "theme.h"
#include "view_layout.h"

namespace warplens::app {

/// Each function draws from `results`: one FlightSession::measured() copy per frame.
///
/// The parameter panel: `header` (the scenario picker) first, then the section and its knobs.
void draw_flight_parameters(FlightSession& session, const FlightResults& results,
                            const viz::Theme& theme, ImVec2 pos, ImVec2 size, bool interactive,
                            const std::function<void()>& header = {});

/// The big area. Latency: ns per load against the working set (log x), one line per row
/// (default / __ldcg, one lane / one warp), the plateaus as lines labelled from the device's L1
/// and L2 sizes. Little's law: GB/s against bytes in flight per SM (log x) for every point
/// measured, the current one ringed, the model line, cudaMemcpy and the theoretical peak; beside
/// it one SM's resident warps as rows, their loads in flight as boxes. Async: bars of the plain
/// copies, cp.async, TMA and cudaMemcpy, each with the bytes it keeps in flight per SM, or why the
/// GPU cannot run it. What does not fit goes to `aside`. `side_name` ("A", "B" in A/B compare)
/// prefixes the title and keeps the two sides' windows apart.
void draw_flight_view(FlightSession& session, const FlightResults& results,
                      const viz::ImGuiLayer& layer, const viz::Theme& theme, ImVec2 pos,
                      ImVec2 size, bool interactive, ViewAside& aside,
                      const char* side_name = nullptr);

/// The numbers: what the view set aside, then the model next to the measurement.
void draw_flight_numbers(const FlightSession& session, const FlightResults& results,
                         const viz::Theme& theme, ImVec2 pos, ImVec2 size, const ViewAside& aside,
                         float scale);

/// The presenter strip's knobs (word size and loads per thread; the working set; none for async).
void draw_flight_knobs(FlightSession& session, float scale);

/// The presenter layout's key numbers for the section.
std::vector<KeyNumber> flight_key_numbers(const FlightSession& session,
                                          const FlightResults& results);

/// The status bar's line.
std::string flight_status_text(const FlightSession& session, const FlightResults& results);

/// The current point's headline for A/B compare: its measured GB/s (read + write).
Headline flight_headline(const FlightSession& session, const FlightResults& results);

}  // namespace warplens::app
