#include "flight_figures.h"

#include <cstdint>
#include <string>

#include "flight_ui_internal.h"
#include "ui_widgets.h"

namespace warplens::app {

using namespace flight_ui_detail;

namespace {

// What the figure's title says is shown: the section and the state's knobs, and whose limits.
std::string access_text(const FlightSession& session) {
  const FlightState& st = session.state();
  const std::string device = " \u2022 " + session.model().device_text;
  switch (st.section) {
    case FlightSection::Latency:
      return "bytes in flight, latency ladder \u2022 working set " +
             kib_text(st.working_set_bytes) + device;
    case FlightSection::LittlesLaw:
      return format(
                 "bytes in flight, Little's law \u2022 copy %d B \u00d7 %d load%s per thread, "
                 "%d threads per block%s",
                 st.stream.word_bytes, st.stream.loads_per_thread,
                 st.stream.loads_per_thread == 1 ? "" : "s", st.stream.block_threads,
                 st.stream.grid_stride ? ", grid-stride" : "") +
             device;
    case FlightSection::Async: return kAsyncTitle + device;
  }
  return "bytes in flight";
}

std::string source_text(const FlightSession& session, bool measured) {
  if (!measured) return "host model";
  return session.gpu_mode() ? "measured on " + session.device().device->name
                            : std::string("measured");
}

// The async view's bars that have a measurement (or the GPU's refusal); none before any copy was
// measured.
std::vector<FigureBar> async_figure_bars(const FlightSession& session, const FlightResults& r) {
  std::vector<FigureBar> bars;
  bool measured = false;
  for (const AsyncBar& b : async_bars(session, r)) {
    if (b.gbps > 0) {
      measured = true;
      bars.push_back({b.name, b.gbps, format("%.0f GB/s", b.gbps),
                      kib_text(b.bytes_in_flight) + " in flight/SM", false});
    } else if (!b.unsupported.empty()) {
      bars.push_back({b.name, 0, "n/a", b.unsupported, false});
    }
  }
  if (!measured) bars.clear();
  return bars;
}

FigurePanelData numbers_panel(const FlightSession& session, const FlightResults& r) {
  FigurePanelData d;
  d.panel = FigurePanel::Numbers;
  d.access = access_text(session);
  FigureTable& table = d.tables.emplace_back();  // the window's: two columns, no header
  for (const NumberRow& row : flight_number_rows(session, r)) {
    table.rows.push_back({{row.what, false}, {row.value, false}});
    if (row.measured) d.measured.push_back({row.what, row.value});
  }
  d.measured_title = "measured on the GPU";
  set_measured_source(d, session.gpu_mode(),
                      session.gpu_mode() ? session.device().device->name : std::string(),
                      session.device().reason, r.busy);
  return d;
}

// The section's plot (the latency ladder, or Little's law with its predicted line): the model's
// lines always, the measured points where measured, and what was measured in one line.
FigurePanelData plot_panel(const FlightSession& session, const FlightResults& r) {
  FigurePanelData d;
  d.panel = FigurePanel::Plot;
  d.access = access_text(session);
  const FlightModel& m = session.model();
  if (session.state().section == FlightSection::Latency) {
    d.plots.push_back(latency_plot(session, r));
    // Until the ladder measures it, the idle latency the Little's-law model assumes (an H100's
    // warp chase), as the model's line.
    if (!m.latency_measured)
      d.plots.back().references.push_back(
          {format("model: a warp's DRAM latency %.0f ns (assumed, an H100's)", m.latency_ns),
           {FigureColor::Kind::Model},
           m.latency_ns});
    if (!r.ladder.empty()) d.measured.push_back({"chases", format("%zu", r.ladder.size())});
    if (m.plateaus.dram_ns)
      d.measured.push_back({"DRAM plateau (1 lane)", format("%.0f ns", *m.plateaus.dram_ns)});
  } else {
    d.plots.push_back(littles_law_plot(session, r));
    if (!r.stream.empty()) d.measured.push_back({"copies", format("%zu", r.stream.size())});
    if (m.peak_measured) d.measured.push_back({"cudaMemcpy", format("%.0f GB/s", m.peak_gbps)});
    // In pieces: format() holds 255 characters.
    d.notes.push_back(
        format("The model: 2 \u00d7 SMs \u00d7 bytes in flight \u00f7 latency, the latency %.0f "
               "ns%s idle (a warp's chase), ",
               m.latency_ns, m.latency_measured ? "" : " (assumed, an H100's)") +
        format("twice that at cudaMemcpy's rate %.0f GB/s%s, + %.2f ns%s per byte a warp waits "
               "for at once",
               m.peak_gbps, m.peak_measured ? "" : " (assumed, an H100's)", m.batch_ns_per_byte,
               m.batch_measured ? "" : " (assumed, an H100's)") +
        flight_line_extras_text(m) + format("; knee %s.", flight_knee_text(m).c_str()));
  }
  d.measured_title = "measured on the GPU";
  set_measured_source(d, session.gpu_mode(),
                      session.gpu_mode() ? session.device().device->name : std::string(),
                      session.device().reason, r.busy);
  return d;
}

}  // namespace

std::vector<FigurePanel> flight_figure_panels(const FlightSession& session,
                                              const FlightResults& r) {
  if (session.state().section != FlightSection::Async)
    return {FigurePanel::Plot, FigurePanel::Numbers};
  // Bars exist once a copy was measured on a GPU (the window outlines the rest, unmeasured).
  return numbers_and_measured_bars(!async_figure_bars(session, r).empty());
}

std::optional<FigurePanelData> flight_figure_panel(const FlightSession& session,
                                                   const FlightResults& r, FigurePanel panel) {
  if (panel == FigurePanel::Numbers) return numbers_panel(session, r);
  if (panel == FigurePanel::Plot) {
    if (session.state().section == FlightSection::Async) return std::nullopt;
    return plot_panel(session, r);
  }
  if (panel != FigurePanel::Bars || session.state().section != FlightSection::Async)
    return std::nullopt;
  return measured_bars_panel(async_figure_bars(session, r),
                             std::string(kAsyncTitle) + " \u2022 " + session.model().device_text,
                             "bars: GB/s \u2022 beside each, the bytes it keeps in flight per SM",
                             source_text(session, true));
}

}  // namespace warplens::app
