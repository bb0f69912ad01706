// The cache lab's L1 section: time per access against the working set, one line per
// carveout, and under it the L1 hit rate of the same launches from the hardware counters.
#include "cache_ui_internal.h"

#include <imgui.h>

#include <algorithm>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "plot.h"
#include "ui_widgets.h"

namespace warplens::app::cache_ui_detail {

void draw_l1_view(CacheSession& session, const CacheResults& r, const viz::ImGuiLayer& layer,
                  const viz::Theme& theme, bool interactive) {
  const float s = layer.scale();
  const CacheModel& m = session.model();
  heading(layer, "L1 gather: time per 4-byte access vs the working set each block gathers from");
  ImGui::TextDisabled(
      "One block of 1024 threads per SM reads random words of its own working set; "
      "the knee comes where the working set outgrows the L1 the carveout leaves.");
  measured_state_line(session, r, theme, !r.l1.empty());
  const auto& sets = l1_working_sets();
  const auto& carveouts = l1_carveouts();
  std::vector<viz::PlotSeries> series;
  int highlight = -1;
  for (std::size_t i = 0; i < sets.size(); ++i)
    if (sets[i] == session.state().working_set_bytes) highlight = static_cast<int>(i);
  for (std::size_t ci = 0; ci < carveouts.size(); ++ci) {
    const int carveout = carveouts[ci];
    gpu::CarveoutChoice left;
    try {
      left = gpu::carveout_capacity(m.table, carveout, m.reserved_bytes, 1);
    } catch (const std::exception&) {
    }
    viz::PlotSeries se;
    se.label = carveout_text(carveout) + format(" \u2022 L1 %d KiB", left.l1_kib);
    se.color = series_color(theme, static_cast<int>(ci), static_cast<int>(carveouts.size()));
    se.highlight = highlight;
    se.dashed = carveout == gpu::kCarveoutDefault;  // often on top of another carveout's line
    for (const auto& pt : r.l1) {
      if (pt.carveout != carveout) continue;
      se.x.push_back(static_cast<double>(pt.working_set_bytes) / 1024.0);
      se.y.push_back(pt.ns_per_access);
    }
    series.push_back(std::move(se));
  }
  // The default last, dashed, so a line it coincides with still shows through its gaps.
  if (!series.empty() && carveouts.front() == gpu::kCarveoutDefault)
    std::rotate(series.begin(), series.begin() + 1, series.end());
  viz::PlotSpec spec;
  spec.x_label = "working set per block (KiB, log scale)";
  spec.y_label = "ns per access (SM time per 4-byte lane access)";
  spec.log_x = true;
  spec.x_min = 6;
  spec.x_max = 1400;
  spec.x_ticks = {8, 16, 32, 64, 128, 256, 512, 1024};
  spec.value_unit = "ns";
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // Under the time plot: the L1 hit rate of the same launches from the hardware counters, or the
  // one line saying why there is none.
  const bool hits = !r.l1_hit.empty();
  const float font = ImGui::GetFontSize();
  const float hit_h = hits ? std::max(0.4f * avail.y, 150 * s) : font + 8 * s;
  viz::draw_plot("l1", spec, series, {}, avail.x, std::max(avail.y - hit_h - 8 * s, 160 * s), theme,
                 s, interactive);
  if (!hits) {
    if (!r.l1_hit_note.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, color4(theme.warning));
      ImGui::TextUnformatted(("L1 hit rate: " + r.l1_hit_note).c_str());
      ImGui::PopStyleColor();
    } else {
      ImGui::TextDisabled("L1 hit rate (hardware counters): %s", !session.gpu_mode() ? "needs a GPU"
                                                                 : r.busy
                                                                     ? "read after the timed sweep"
                                                                     : "not read yet");
    }
    return;
  }
  std::vector<viz::PlotSeries> hit_series;
  for (std::size_t ci = 0; ci < carveouts.size(); ++ci) {
    const int carveout = carveouts[ci];
    viz::PlotSeries se;
    se.label = carveout_text(carveout);
    se.color = series_color(theme, static_cast<int>(ci), static_cast<int>(carveouts.size()));
    se.dashed = carveout == gpu::kCarveoutDefault;
    for (const auto& pt : r.l1_hit) {
      if (pt.carveout != carveout || !pt.rate.percent) continue;
      if (pt.working_set_bytes == session.state().working_set_bytes)
        se.highlight = static_cast<int>(se.x.size());
      se.x.push_back(static_cast<double>(pt.working_set_bytes) / 1024.0);
      se.y.push_back(*pt.rate.percent);
    }
    hit_series.push_back(std::move(se));
  }
  if (!hit_series.empty() && carveouts.front() == gpu::kCarveoutDefault)
    std::rotate(hit_series.begin(), hit_series.begin() + 1, hit_series.end());
  viz::PlotSpec hit_spec = spec;
  hit_spec.y_label = "L1 hit rate, % of sectors looked up (hardware counters)";
  hit_spec.value_unit = "%";
  const std::vector<viz::ReferenceLine> full = {{"100 %", theme.muted_text, 100.0}};
  ImGui::Dummy({0, 4 * s});
  const float note_h = r.l1_hit_note.empty() ? 0.0f : font + 6 * s;
  viz::draw_plot("l1-hit", hit_spec, hit_series, full, avail.x, hit_h - 4 * s - note_h, theme, s,
                 interactive);
  if (!r.l1_hit_note.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, color4(theme.warning));
    ImGui::TextUnformatted(("L1 hit rate stopped: " + r.l1_hit_note).c_str());
    ImGui::PopStyleColor();
  }
}

}  // namespace warplens::app::cache_ui_detail
