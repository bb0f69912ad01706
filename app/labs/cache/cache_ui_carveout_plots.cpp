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
  const float lead = font * 1.6f + ImGui::CalcTextSize("0000").x + 20 * s;
  const auto y_room = [&](float w) { return w - font * 1.6f - 4 * s; };
  // The three plots' data (cache_plots.cpp): occupancy, kernel time, resident blocks.
  const std::vector<FigurePlot> data = carveout_plots(session, r);
  const std::vector<viz::PlotSeries> occ = plot_series(data[0], theme);
  const std::vector<viz::ReferenceLine> occ_refs = plot_references(data[0], theme);
  const std::vector<viz::PlotSeries> times = plot_series(data[1], theme);
  const std::vector<viz::PlotSeries> blocks = plot_series(data[2], theme);
  const double x_max = m.table.max_capacity_kib();

  // The capacity axis's ticks: evenly spaced (0, 50, 100, ... KiB), as many as keep their labels
  // apart. The table's capacities (0, 8, 16, 32, 64, 100, 132, ...) thinned to fit read as an
  // uneven scale at 2x (0, 64, 132, 196); the points still sit at the capacities.
  const auto capacity_ticks = [&](float w) {
    const float px_per_kib = (w - lead) / static_cast<float>(std::max(x_max + 12, 1.0));
    const float label_w = ImGui::CalcTextSize("000").x + 8 * s;
    std::vector<double> ticks;
    for (int target = 8; target >= 1; --target) {
      ticks = viz::nice_ticks(0, x_max, target);
      if (ticks.size() < 2 || static_cast<float>(ticks[1] - ticks[0]) * px_per_kib >= label_w)
        break;
    }
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
  // The kernel time is measured only (the model predicts blocks, not milliseconds): without a
  // measurement its chart would be an empty frame, so it stays out and a quiet note says why.
  if (std::none_of(times.begin(), times.end(), [](const auto& se) { return !se.x.empty(); })) {
    cells.erase(cells.begin() + 1);
    aside.notes.push_back(
        {"Kernel time per carveout: a GPU's measurement (the model predicts blocks, not ms).",
         false});
  }
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
