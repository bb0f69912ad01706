// The bytes-in-flight lab's plots as data (FigurePlot, figure_panel.h): the latency ladder and
// Little's law. The window's views draw them (flight_ui_views.cpp) and the figures export them
// (flight_figures.cpp) from these same functions.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "flight_ui_internal.h"
#include "ui_widgets.h"

namespace warplens::app::flight_ui_detail {

FigurePlot latency_plot(const FlightSession& session, const FlightResults& r) {
  const FlightModel& m = session.model();
  FigurePlot plot;
  plot.title = "latency ladder: one dependent load after another";
  plot.x_label = "working set (KiB, log scale)";
  plot.y_label = "ns per dependent load (log scale)";
  plot.log_x = true;
  plot.log_y = true;
  plot.x_min = 3;
  plot.x_max = static_cast<double>(m.working_sets.back()) / 1024.0 * 1.3;
  plot.x_ticks = viz::log_ticks(4, plot.x_max);
  plot.value_unit = "ns";
  const auto& rows = ladder_rows();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    FigureSeries se;
    se.label = ladder_row_label(rows[i]);
    se.color = {FigureColor::Kind::Series, static_cast<int>(i), static_cast<int>(rows.size())};
    se.dashed = rows[i].lanes != 1;
    for (const auto& p : ladder_row(r, rows[i])) {
      if (p.params.working_set_bytes == session.state().working_set_bytes)
        se.highlight = static_cast<int>(se.x.size());
      se.x.push_back(static_cast<double>(p.params.working_set_bytes) / 1024.0);
      se.y.push_back(p.ns_per_load);
    }
    plot.series.push_back(std::move(se));
  }
  const auto& pl = m.plateaus;
  if (plot.measured_points() == 0) {
    // No ladder measured: the model's three plateaus (an H100's default, 1-lane row, assumed)
    // as a step over the levels' sizes, so the chart shows what the lesson names.
    FigureSeries model;
    model.label = "model: an H100's plateaus (default, 1 lane), assumed";
    model.color = {FigureColor::Kind::Model};
    model.model = true;
    model.markers = false;
    const double l1 = static_cast<double>(m.levels.l1_bytes) / 1024.0;
    const double l2 = static_cast<double>(m.levels.l2_bytes) / 1024.0;
    model.x = {plot.x_min, l1, l1, l2, l2, plot.x_max};
    model.y = {kAssumedLadderL1Ns, kAssumedLadderL1Ns,   kAssumedLadderL2Ns,
               kAssumedLadderL2Ns, kAssumedLadderDramNs, kAssumedLadderDramNs};
    plot.series.push_back(std::move(model));
  }
  // The plateaus by name: the chart's label adds the value and unit ("DRAM 307 ns"; the name had
  // carried it too, "DRAM: 307 ns 307 ns" on the GPU, and "L1 (256 KiB): 20 ns 19.7 ns").
  if (pl.l1_ns)
    plot.references.push_back({format("L1 (%s)", kib_text(m.levels.l1_bytes).c_str()),
                               {FigureColor::Kind::Muted},
                               *pl.l1_ns});
  if (pl.l2_ns)
    plot.references.push_back({format("L2 (%s)", kib_text(m.levels.l2_bytes).c_str()),
                               {FigureColor::Kind::Model},
                               *pl.l2_ns});
  if (pl.dram_ns) plot.references.push_back({"DRAM", {FigureColor::Kind::Warning}, *pl.dram_ns});
  // The model's part of the ladder: where the levels end (this device's sizes, or an H100's).
  const std::string whose = m.from_device ? "this device's" : "an H100's, assumed";
  plot.x_marks.push_back(
      {format("model: L1 + shared %s (%s)", kib_text(m.levels.l1_bytes).c_str(), whose.c_str()),
       {FigureColor::Kind::Muted},
       static_cast<double>(m.levels.l1_bytes) / 1024.0,
       format("model: L1 + shared %s", kib_text(m.levels.l1_bytes).c_str()),
       {}});
  plot.x_marks.push_back(
      {format("model: L2 %s (%s)", kib_text(m.levels.l2_bytes).c_str(), whose.c_str()),
       {FigureColor::Kind::Model},
       static_cast<double>(m.levels.l2_bytes) / 1024.0,
       format("model: L2 %s", kib_text(m.levels.l2_bytes).c_str()),
       {}});
  return plot;
}

std::string model_line_label(const FlightModel& m) {
  // What the line assumes: the idle latency, its linear growth with the load, the batch's cost
  // and, once the probe measured, the latency near the wall. No-break spaces keep a number with
  // its unit where a legend wraps.
  std::string label = format(
      "model: Little's law, %.0f\u00a0ns \u00d7 (1 + GB/s \u00f7 cudaMemcpy) + %.2f\u00a0ns/B%s "
      "\u00d7 %.0f\u00a0B per warp",
      m.latency_ns, m.batch_ns_per_byte, m.batch_measured ? "" : " (assumed)", m.warp_batch_bytes);
  if (m.loaded) {
    const auto& lat = m.loaded->latency;
    label += format(
        "; near the wall the latency a 512\u00a0B batch chase measured beside a copy (%zu "
        "points, \u00d7%.1f at %.0f\u00a0GB/s)",
        lat.gbps.size(), lat.value.back() / lat.value.front(), lat.gbps.back());
  }
  return label;
}

FigurePlot littles_law_plot(const FlightSession& session, const FlightResults& r) {
  const FlightModel& m = session.model();
  const FlightState& st = session.state();
  FigurePlot plot;
  plot.title = "Little's law: bandwidth = bytes in flight \u00f7 latency";
  plot.x_label = "bytes in flight per SM (KiB, log scale)";
  plot.y_label = "GB/s (read + write, 10\u2079 B/s)";
  plot.log_x = true;
  plot.x_min = 0.5;
  plot.x_max = 600;
  plot.x_ticks = {1, 4, 16, 64, 256};
  plot.value_unit = "GB/s";
  int i = 0;
  for (int word : {4, 8, 16}) {
    FigureSeries se;
    se.label = format("measured, %d-byte words", word);
    se.color = {FigureColor::Kind::Series, i++, 3};
    se.lines = false;
    std::vector<const gpu::StreamMeasurement*> pts;
    for (const auto& p : r.stream)
      if (p.params.word_bytes == word) pts.push_back(&p);
    std::sort(pts.begin(), pts.end(), [](auto* a, auto* b) {
      return a->bytes_in_flight_per_sm < b->bytes_in_flight_per_sm;
    });
    for (const auto* p : pts) {
      if (p->params == st.stream) se.highlight = static_cast<int>(se.x.size());
      se.x.push_back(static_cast<double>(p->bytes_in_flight_per_sm) / 1024.0);
      se.y.push_back(p->gbps);
    }
    if (!se.x.empty()) plot.series.push_back(std::move(se));
  }
  // The predicted line holds the current point's warp batch: at the same bytes in flight,
  // fatter warps wait longer for their last byte (flight_lab.h).
  FigureSeries model_line;
  model_line.label = model_line_label(m);
  model_line.color = {FigureColor::Kind::Model};
  model_line.dashed = true;
  model_line.markers = false;
  model_line.model = true;
  for (double x = 0.5; x <= 600; x *= 1.25) {
    model_line.x.push_back(x);
    model_line.y.push_back(flight_line_gbps(m, x * 1024));
  }
  plot.series.push_back(std::move(model_line));
  // Little's law at the idle latency: the straight line whose meeting with cudaMemcpy is the
  // knee (drawn to it), so the knee's mark stands where two lines cross, not beside the curve.
  if (m.knee_bytes > 0 && m.peak_gbps > 0) {
    FigureSeries idle;
    idle.label = "model: Little's law at the idle latency (meets cudaMemcpy at the knee)";
    idle.color = {FigureColor::Kind::Text};
    idle.dashed = true;
    idle.markers = false;
    idle.model = true;
    const double knee_kib = m.knee_bytes / 1024.0;
    for (double x = 0.5; x < knee_kib; x *= 1.25) {
      idle.x.push_back(x);
      idle.y.push_back(m.peak_gbps * x / knee_kib);
    }
    idle.x.push_back(knee_kib);
    idle.y.push_back(m.peak_gbps);
    plot.series.push_back(std::move(idle));
  }
  FigureSeries current;  // the model's point for the current knobs
  current.label = "current point (model)";
  current.color = {FigureColor::Kind::Text};
  current.x = {m.bytes_in_flight / 1024.0};
  current.y = {m.predicted_gbps};
  current.highlight = 0;
  current.lines = false;
  current.model = true;
  plot.series.push_back(std::move(current));
  plot.references = {{m.peak_measured ? "cudaMemcpy" : "cudaMemcpy (assumed)",
                      {FigureColor::Kind::Muted},
                      m.peak_gbps},
                     {"theoretical peak", {FigureColor::Kind::Warning}, m.theoretical_gbps}};
  plot.x_marks.push_back(
      {format("model: knee %s per SM (the idle-latency line meets cudaMemcpy)",
              kib_text(static_cast<std::int64_t>(m.knee_bytes)).c_str()),
       {FigureColor::Kind::Text},
       m.knee_bytes / 1024.0,
       format("knee %s", kib_text(static_cast<std::int64_t>(m.knee_bytes)).c_str()),
       {}});
  // Where the drawn curve, its latency growing with the load, reaches the cap: later.
  const double meets = flight_line_meets_peak_bytes(m);
  plot.x_marks.push_back({format("model: the curve meets cudaMemcpy at %s per SM",
                                 kib_text(static_cast<std::int64_t>(meets)).c_str()),
                          {FigureColor::Kind::Muted},
                          meets / 1024.0,
                          format("meets at %s", kib_text(static_cast<std::int64_t>(meets)).c_str()),
                          {}});
  return plot;
}

}  // namespace warplens::app::flight_ui_detail
