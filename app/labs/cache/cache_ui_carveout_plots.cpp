// The cache lab's Carveout section, its plots: occupancy against dynamic shared memory at the
// chosen carveout, and the shared-hungry kernel's time and resident blocks against the capacity
// each carveout of the sweep asks for, side by side, in rows or one at a time as the room allows
// (the drawing over them is in cache_ui_carveout.cpp).
#include <imgui.h>

#include <algorithm>
#include <climits>
#include <string>
#include <utility>
#include <vector>

#include "cache_ui_internal.h"
#include "plot.h"
#include "ui_widgets.h"

namespace warplens::app::cache_ui_detail {

void draw_carveout_plots(const CacheSession& session, const CacheResults& r,
                         const viz::ImGuiLayer& layer, const viz::Theme& theme, bool interactive,
                         CacheAside& aside, float width, float height, const PlotCell* picture) {
  const float s = layer.scale();
  const float font = ImGui::GetFontSize();
  const CacheModel& m = session.model();
  const CacheState& st = session.state();
  const int warps = std::max(m.threads_per_block / 32, 1);
  const int max_warps = std::max(m.max_threads_per_sm / 32, 1);
  const int full = max_warps / warps;  // blocks per SM at 100 % occupancy
  const bool have_carveout =
      r.carveout_of && same_cache_measurement(CacheSection::Carveout, *r.carveout_of, st);
  const viz::Rgb model_color = theme.overfetch;
  const viz::Rgb api_color = series_color(theme, 0, 3);
  const viz::Rgb seen_color = series_color(theme, 2, 3);
  const float lead = font * 1.6f + ImGui::CalcTextSize("0000").x + 20 * s;
  const auto y_room = [&](float w) { return w - font * 1.6f - 4 * s; };

  // (a) Occupancy against dynamic shared memory, at the chosen carveout.
  viz::PlotSeries occ_model{"model", model_color, {}, {}, {}, {}, true, false, -1};
  for (std::size_t i = 0; i < m.sweep.size(); ++i) {
    const auto& row = m.sweep[i];
    if (row.dynamic_shared_bytes == st.dynamic_shared_bytes)
      occ_model.highlight = static_cast<int>(i);
    occ_model.x.push_back(static_cast<double>(row.dynamic_shared_bytes) / 1024.0);
    occ_model.y.push_back(row.blocks_per_sm);
  }
  viz::PlotSeries occ_api{"occupancy API", api_color, {}, {}, {}, {}, false, true, -1};
  for (const auto& o : r.occupancy) {
    if (o.carveout != st.carveout || !have_carveout) continue;
    occ_api.x.push_back(static_cast<double>(o.dynamic_shared_bytes) / 1024.0);
    occ_api.y.push_back(o.blocks_per_sm);
  }
  const std::vector<viz::PlotSeries> occ = {occ_model, occ_api};
  const std::vector<viz::ReferenceLine> occ_refs = {
      {"100 % occupancy", theme.muted_text, static_cast<double>(full)}};

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

  // (b) Time against the capacity asked for.
  viz::PlotSeries time{"median, min\u2013max", api_color, {}, {}, {}, {}, false, true, -1};
  viz::PlotSeries def{"default (-1)", seen_color, {}, {}, {}, {}, false, true, -1};
  for (const auto& h_m : r.hungry_sweep) {
    if (!sweep_shown) break;
    viz::PlotSeries& se = h_m.occupancy.carveout == gpu::kCarveoutDefault ? def : time;
    if (h_m.occupancy.carveout == chosen) se.highlight = static_cast<int>(se.x.size());
    se.x.push_back(x_of(h_m.occupancy.carveout, h_m.occupancy.model));
    se.y.push_back(h_m.timing.median_ms);
    se.y_low.push_back(h_m.timing.min_ms);
    se.y_high.push_back(h_m.timing.max_ms);
  }
  const std::vector<viz::PlotSeries> times = {time, def};

  // (c) Resident blocks against the capacity asked for: the occupancy API, the residency the
  // kernel saw (%smid counters) and the table's prediction.
  viz::PlotSeries blocks_model{"model", model_color, {}, {}, {}, {}, true, false, -1};
  for (const auto& p : m.carveout_sweep) {
    if (p.carveout == gpu::kCarveoutDefault) continue;
    if (p.carveout == chosen) blocks_model.highlight = static_cast<int>(blocks_model.x.size());
    blocks_model.x.push_back(x_of(p.carveout, p.choice));
    blocks_model.y.push_back(p.blocks_per_sm);
  }
  viz::PlotSeries api{"occ. API", api_color, {}, {}, {}, {}, false, true, -1};
  viz::PlotSeries seen{"seen (%smid)", seen_color, {}, {}, {}, {}, false, true, -1};
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
  const std::vector<viz::PlotSeries> blocks = {blocks_model, api, seen};

  // The capacity ticks: as many of the table's capacities as keep their labels apart.
  const auto capacity_ticks = [&](float w) {
    std::vector<double> ticks;
    const float px_per_kib = (w - lead) / static_cast<float>(std::max(x_max + 12, 1.0));
    const float label_w = ImGui::CalcTextSize("000").x + 8 * s;
    for (int c : m.table.capacities_kib)
      if (ticks.empty() || static_cast<float>(c - ticks.back()) * px_per_kib >= label_w)
        ticks.push_back(c);
    return ticks;
  };
  const std::string carveout_name = carveout_text(st.carveout);
  std::vector<PlotCell> cells = {
      {"occupancy",
       legend_entries(occ, occ_refs),
       [&](float w, float h) {
         viz::PlotSpec spec;
         spec.x_label = fitting(
             {"dynamic shared memory per block (KiB)", "shared per block (KiB)", "KiB / block"},
             w - lead);
         spec.y_label = fitting(
             {format("blocks per SM (%d = 100 %%), carveout %s", full, carveout_name.c_str()),
              format("blocks per SM, carveout %s", carveout_name.c_str()), "blocks per SM"},
             y_room(w));
         spec.x_min = 0;
         spec.x_max = std::max(8.0, static_cast<double>(m.optin_limit_bytes) / 1024.0 + 4);
         spec.x_ticks = viz::nice_ticks(
             0, spec.x_max - 4, (w - lead) > 6 * (ImGui::CalcTextSize("200").x + 12 * s) ? 5 : 3);
         spec.value_unit = "blocks/SM";
         draw_wrapped_plot("occupancy", "occupancy", spec, occ, occ_refs, w, h, theme, s,
                           interactive, aside);
       },
       "occupancy",
       {}},
      {"time",
       legend_entries(times, {}),
       [&](float w, float h) {
         viz::PlotSpec spec;
         spec.x_label = fitting(
             {"capacity the carveout asks for (KiB)", "capacity asked (KiB)", "KiB"}, w - lead);
         spec.y_label = fitting(
             {format("kernel time, ms (%s per block)", kib(st.dynamic_shared_bytes).c_str()),
              "kernel time, ms", "ms"},
             y_room(w));
         spec.x_min = -6;
         spec.x_max = x_max + 6;
         spec.x_ticks = capacity_ticks(w);
         spec.value_unit = "ms";
         draw_wrapped_plot("hungry-time", "kernel time", spec, times, {}, w, h, theme, s,
                           interactive, aside);
       },
       "time",
       {}},
      {"blocks per carveout",
       legend_entries(blocks, {}),
       [&](float w, float h) {
         viz::PlotSpec spec;
         spec.x_label = fitting(
             {"capacity the carveout asks for (KiB)", "capacity asked (KiB)", "KiB"}, w - lead);
         spec.y_label = fitting({"resident blocks per SM", "blocks per SM"}, y_room(w));
         spec.x_min = -6;
         spec.x_max = x_max + 6;
         spec.x_ticks = capacity_ticks(w);
         spec.value_unit = "blocks/SM";
         draw_wrapped_plot("hungry-blocks", "resident blocks", spec, blocks, {}, w, h, theme, s,
                           interactive, aside);
       },
       "blocks",
       {}},
  };
  if (!picture) {
    draw_plot_grid("carveout-plots", cells, width, height, s);
    return;
  }
  cells.insert(cells.begin(), *picture);
  draw_plot_grid("carveout-pictures", cells, width, height, s, true);
}

float carveout_plots_min_height(const viz::Theme& theme, float width, float s) {
  const std::vector<CacheLegendEntry> widest = {{"model", theme.overfetch, true, false},
                                                {"occupancy API", theme.text, false, false},
                                                {"100 % occupancy", theme.text, true, false}};
  std::vector<PlotCell> names;
  for (const auto& [name, short_name] :
       {std::pair<const char*, const char*>{"occupancy", "occupancy"},
        {"time", "time"},
        {"blocks per carveout", "blocks"}})
    names.push_back({name, {}, {}, short_name, {}});
  return plot_min_height(widest, width, s) + picker_height(names, width);
}

}  // namespace warplens::app::cache_ui_detail
