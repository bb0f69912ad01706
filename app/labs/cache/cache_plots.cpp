// The cache lab's plots as data (FigurePlot, figure_panel.h): the carveout section's three
// plots, the L1 sweep (time per access, and the L1 hit rate once read), the constant cache's
// cycles per request. The window's views draw them (cache_ui_carveout_plots.cpp, cache_ui_l1.cpp,
// cache_ui_constant.cpp) and the figures export them (cache_figures.cpp) from these functions.
#include <algorithm>
#include <climits>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "cache_ui_internal.h"
#include "ui_widgets.h"

namespace warplens::app::cache_ui_detail {

namespace {

FigureColor series_slot(int i, int n) {
  return {FigureColor::Kind::Series, i, n};
}

FigureSeries make_series(std::string label, FigureColor color, bool dashed, bool markers,
                         bool model) {
  FigureSeries se;
  se.label = std::move(label);
  se.color = color;
  se.dashed = dashed;
  se.markers = markers;
  se.model = model;
  return se;
}

// A count that holds from one point to the next and then jumps (blocks per SM: whole blocks,
// between carveouts no capacity exists) drawn as steps, not slopes: before each point whose
// value differs, a point at its x with the value before. Markers off (the added corners are not
// samples); the highlighted point keeps its place.
void as_steps(FigureSeries& se) {
  FigureSeries out = se;
  out.x.clear();
  out.y.clear();
  for (std::size_t i = 0; i < se.x.size(); ++i) {
    if (i > 0 && se.y[i] != se.y[i - 1]) {
      out.x.push_back(se.x[i]);
      out.y.push_back(se.y[i - 1]);
    }
    if (static_cast<int>(i) == se.highlight) out.highlight = static_cast<int>(out.x.size());
    out.x.push_back(se.x[i]);
    out.y.push_back(se.y[i]);
  }
  out.markers = false;
  se = std::move(out);
}

}  // namespace

std::vector<FigurePlot> carveout_plots(const CacheSession& session, const CacheResults& r) {
  const CacheModel& m = session.model();
  const CacheState& st = session.state();
  const int warps = std::max(m.threads_per_block / 32, 1);
  const int max_warps = std::max(m.max_threads_per_sm / 32, 1);
  const int full = max_warps / warps;  // blocks per SM at 100 % occupancy
  const bool have_carveout =
      r.carveout_of && same_cache_measurement(CacheSection::Carveout, *r.carveout_of, st);
  const FigureColor model_color{FigureColor::Kind::Model};
  const FigureColor api_color = series_slot(0, 3), seen_color = series_slot(2, 3);
  const std::string carveout_name = carveout_text(st.carveout);

  // (a) Occupancy against dynamic shared memory, at the chosen carveout.
  FigurePlot occ;
  occ.title = "occupancy against dynamic shared memory";
  occ.x_label = "dynamic shared memory per block (KiB)";
  occ.y_label = format("blocks per SM (%d = 100 %%), carveout %s", full, carveout_name.c_str());
  occ.x_min = 0;
  occ.x_max = std::max(8.0, static_cast<double>(m.optin_limit_bytes) / 1024.0 + 4);
  occ.x_ticks = viz::nice_ticks(0, occ.x_max - 4, 5);
  occ.value_unit = "blocks/SM";
  // The model at every KiB the knob offers (and the state's own size), so each step sits where
  // the count changes: drawn through the GPU's sample sizes alone (0, 8, 16, 24, ... KiB) the
  // line read 7 blocks at 20 KiB, where the model and the headline say 6.
  FigureSeries occ_model = make_series("model", model_color, true, false, true);
  std::vector<std::int64_t> sizes;
  for (std::int64_t kib = 0; kib * 1024 <= m.optin_limit_bytes; ++kib) sizes.push_back(kib * 1024);
  if (st.dynamic_shared_bytes % 1024 != 0) {
    sizes.push_back(st.dynamic_shared_bytes);
    std::sort(sizes.begin(), sizes.end());
  }
  // A point where the count changes (and the first, the last and the state's): the line's
  // dashes run on along a flat stretch instead of restarting every KiB.
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const std::int64_t bytes = sizes[i];
    const double blocks = predict_occupancy(m, st.carveout, bytes).blocks_per_sm;
    const bool state = bytes == st.dynamic_shared_bytes;
    if (i > 0 && i + 1 < sizes.size() && !state && blocks == occ_model.y.back()) continue;
    if (state) occ_model.highlight = static_cast<int>(occ_model.x.size());
    occ_model.x.push_back(static_cast<double>(bytes) / 1024.0);
    occ_model.y.push_back(blocks);
  }
  as_steps(occ_model);
  // The API's answers at the sizes asked, as points: a line through them would say what lies
  // between (slopes where the count steps).
  FigureSeries occ_api = make_series("occupancy API", api_color, false, true, false);
  occ_api.lines = false;
  for (const auto& o : r.occupancy) {
    if (o.carveout != st.carveout || !have_carveout) continue;
    occ_api.x.push_back(static_cast<double>(o.dynamic_shared_bytes) / 1024.0);
    occ_api.y.push_back(o.blocks_per_sm);
  }
  occ.series = {occ_model, occ_api};
  occ.references = {{"100 % occupancy", {FigureColor::Kind::Muted}, static_cast<double>(full)}};

  // The carveout sweep: x is the capacity a carveout asks for (the table's rounding, before a
  // block too large for it makes the driver raise it); the driver default (-1) has no request,
  // so its point sits at the capacity the model assumes for it.
  const auto x_of = [&](int carveout, const gpu::CarveoutChoice& choice) {
    return carveout == gpu::kCarveoutDefault ? choice.shared_kib : choice.rounded_kib;
  };
  const double x_max = m.table.max_capacity_kib();
  const int chosen = [&] {
    for (const auto& p : m.carveout_sweep)
      if (p.carveout == st.carveout) return st.carveout;
    return INT_MIN;
  }();
  const bool sweep_shown = have_carveout || (r.busy && !r.carveout_of);
  std::vector<double> capacities;
  for (int c : m.table.capacities_kib) capacities.push_back(c);

  // (b) Time against the capacity asked for.
  FigurePlot time_plot;
  time_plot.title = "kernel time against the capacity each carveout asks for";
  time_plot.x_label = "capacity the carveout asks for (KiB)";
  time_plot.y_label =
      format("kernel time, ms (%s per block)", kib(st.dynamic_shared_bytes).c_str());
  time_plot.x_min = -6;
  time_plot.x_max = x_max + 6;
  time_plot.x_ticks = capacities;
  time_plot.value_unit = "ms";
  FigureSeries time = make_series("median, min\u2013max", api_color, false, true, false);
  FigureSeries def = make_series("default (-1)", seen_color, false, true, false);
  for (const auto& h_m : r.hungry_sweep) {
    if (!sweep_shown) break;
    FigureSeries& se = h_m.occupancy.carveout == gpu::kCarveoutDefault ? def : time;
    if (h_m.occupancy.carveout == chosen) se.highlight = static_cast<int>(se.x.size());
    se.x.push_back(x_of(h_m.occupancy.carveout, h_m.occupancy.model));
    se.y.push_back(h_m.timing.median_ms);
    se.y_low.push_back(h_m.timing.min_ms);
    se.y_high.push_back(h_m.timing.max_ms);
  }
  time_plot.series = {time, def};

  // (c) Resident blocks against the capacity asked for: the occupancy API, the residency the
  // kernel saw (%smid counters) and the table's prediction.
  FigurePlot blocks_plot;
  blocks_plot.title = "resident blocks against the capacity each carveout asks for";
  blocks_plot.x_label = "capacity the carveout asks for (KiB)";
  blocks_plot.y_label = "resident blocks per SM";
  blocks_plot.x_min = -6;
  blocks_plot.x_max = x_max + 6;
  blocks_plot.x_ticks = capacities;
  blocks_plot.value_unit = "blocks/SM";
  FigureSeries blocks_model = make_series("model", model_color, true, false, true);
  for (const auto& p : m.carveout_sweep) {
    if (p.carveout == gpu::kCarveoutDefault) continue;
    if (p.carveout == chosen) blocks_model.highlight = static_cast<int>(blocks_model.x.size());
    blocks_model.x.push_back(x_of(p.carveout, p.choice));
    blocks_model.y.push_back(p.blocks_per_sm);
  }
  as_steps(blocks_model);
  FigureSeries api = make_series("occ. API", api_color, false, true, false);
  FigureSeries seen = make_series("seen (%smid)", seen_color, false, true, false);
  for (const auto& h_m : r.hungry_sweep) {
    if (!sweep_shown) break;
    if (h_m.occupancy.carveout == gpu::kCarveoutDefault) continue;  // in (b) and the table
    if (h_m.occupancy.carveout == chosen) seen.highlight = static_cast<int>(seen.x.size());
    const double x = x_of(h_m.occupancy.carveout, h_m.occupancy.model);
    api.x.push_back(x);
    api.y.push_back(h_m.occupancy.blocks_per_sm);
    seen.x.push_back(x);
    seen.y.push_back(h_m.observed_blocks_per_sm);
  }
  blocks_plot.series = {blocks_model, api, seen};
  return {occ, time_plot, blocks_plot};
}

std::vector<FigurePlot> l1_plots(const CacheSession& session, const CacheResults& r) {
  const CacheModel& m = session.model();
  const auto& sets = l1_working_sets();
  const auto& carveouts = l1_carveouts();
  FigurePlot time_plot;
  time_plot.title = "L1 gather: time per 4-byte access against the working set";
  time_plot.x_label = "working set per block (KiB, log scale)";
  time_plot.y_label = "ns per access (SM time per 4-byte lane access)";
  time_plot.log_x = true;
  time_plot.x_min = 6;
  time_plot.x_max = 1400;
  time_plot.x_ticks = {8, 16, 32, 64, 128, 256, 512, 1024};
  time_plot.value_unit = "ns";
  int highlight = -1;
  for (std::size_t i = 0; i < sets.size(); ++i)
    if (sets[i] == session.state().working_set_bytes) highlight = static_cast<int>(i);
  const int n = static_cast<int>(carveouts.size());
  for (std::size_t ci = 0; ci < carveouts.size(); ++ci) {
    const int carveout = carveouts[ci];
    gpu::CarveoutChoice left;
    try {
      left = gpu::carveout_capacity(m.table, carveout, m.reserved_bytes, 1);
    } catch (const std::exception&) {
    }
    FigureSeries se = make_series(
        carveout_text(carveout) + format(" \u2022 L1 %d KiB", left.l1_kib),
        series_slot(static_cast<int>(ci), n), carveout == gpu::kCarveoutDefault, true, false);
    se.highlight = highlight;
    for (const auto& pt : r.l1) {
      if (pt.carveout != carveout) continue;
      se.x.push_back(static_cast<double>(pt.working_set_bytes) / 1024.0);
      se.y.push_back(pt.ns_per_access);
    }
    time_plot.series.push_back(std::move(se));
    // The model: the knee where the working set outgrows the L1 this carveout leaves.
    time_plot.x_marks.push_back(
        {format("model: L1 %d KiB at %s", left.l1_kib, carveout_text(carveout).c_str()),
         series_slot(static_cast<int>(ci), n), static_cast<double>(left.l1_kib),
         // In the window: short, but tied to its carveout (three bare "model: N KiB" lines
         // left the class matching them to the carveouts by colour alone).
         carveout == gpu::kCarveoutDefault
             ? format("model: %d KiB (default carveout)", left.l1_kib)
             : format("model: %d KiB (carveout %d %%)", left.l1_kib, carveout),
         format("model: %d KiB", left.l1_kib)});
  }
  // The default last, dashed, so a line it coincides with still shows through its gaps.
  if (!time_plot.series.empty() && carveouts.front() == gpu::kCarveoutDefault)
    std::rotate(time_plot.series.begin(), time_plot.series.begin() + 1, time_plot.series.end());
  std::vector<FigurePlot> plots = {time_plot};
  if (r.l1_hit.empty()) return plots;
  FigurePlot hit = time_plot;
  hit.title = "L1 hit rate of the same launches (hardware counters)";
  hit.y_label = "L1 hit rate, % of sectors looked up (hardware counters)";
  hit.value_unit = "%";
  hit.series.clear();
  hit.x_marks.clear();
  hit.references = {{"all hits", {FigureColor::Kind::Muted}, 100.0}};
  for (std::size_t ci = 0; ci < carveouts.size(); ++ci) {
    const int carveout = carveouts[ci];
    FigureSeries se = make_series(carveout_text(carveout), series_slot(static_cast<int>(ci), n),
                                  carveout == gpu::kCarveoutDefault, true, false);
    for (const auto& pt : r.l1_hit) {
      if (pt.carveout != carveout || !pt.rate.percent) continue;
      if (pt.working_set_bytes == session.state().working_set_bytes)
        se.highlight = static_cast<int>(se.x.size());
      se.x.push_back(static_cast<double>(pt.working_set_bytes) / 1024.0);
      se.y.push_back(*pt.rate.percent);
    }
    hit.series.push_back(std::move(se));
  }
  if (!hit.series.empty() && carveouts.front() == gpu::kCarveoutDefault)
    std::rotate(hit.series.begin(), hit.series.begin() + 1, hit.series.end());
  plots.push_back(std::move(hit));
  return plots;
}

FigurePlot constant_plot(const CacheSession& session, const CacheResults& r,
                         bool reads_without_cycles) {
  const int k = session.state().k;
  FigurePlot plot;
  plot.title = "constant cache: cycles per warp request against k";
  plot.x_label = "k: distinct __constant__ addresses per warp request";
  plot.y_label = "SM clock cycles per warp request (clock64)";
  plot.x_min = 0;
  plot.x_max = 33;
  plot.x_ticks = {1, 4, 8, 12, 16, 20, 24, 28, 32};
  plot.value_unit = "cycles";
  FigureSeries se = make_series("measured (median)", series_slot(0, 4), false, true, false);
  for (const auto& pt : r.constant) {
    if (pt.k == k) se.highlight = static_cast<int>(se.x.size());
    se.x.push_back(pt.k);
    se.y.push_back(pt.cycles_per_request);  // clock64: free of launch overhead
  }
  plot.series.push_back(std::move(se));
  // The model: one read per distinct address, k x the broadcast's time.
  const bool broadcast = !r.constant.empty() && r.constant.front().k == 1;
  FigureSeries model = make_series("model: k \u00d7 the broadcast (k = 1)",
                                   {FigureColor::Kind::Model}, true, false, true);
  if (broadcast) {
    for (int kk = 1; kk <= 32; ++kk) {
      model.x.push_back(kk);
      model.y.push_back(kk * r.constant.front().cycles_per_request);
    }
  } else if (reads_without_cycles) {
    // Without the broadcast's cycles the model still counts the reads: k, one after another.
    plot.title = "constant cache: reads per warp request against k (model)";
    plot.y_label = "constant-cache reads per warp request (model; cycles need a GPU)";
    plot.value_unit = "reads";
    model.label = "model: k reads, served one after another";
    for (int kk = 1; kk <= 32; ++kk) {
      if (kk == k) model.highlight = static_cast<int>(model.x.size());
      model.x.push_back(kk);
      model.y.push_back(kk);
    }
    model.markers = true;
  }
  plot.series.push_back(std::move(model));
  return plot;
}

}  // namespace warplens::app::cache_ui_detail
