// The cache lab's L1 section: time per access against the working set, one line per
// carveout, and beside or under it the L1 hit rate of the same launches from the hardware
// counters. The notes take what the plots leave at their least height.
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
                  const viz::Theme& theme, bool interactive, CacheAside& aside) {
  const float s = layer.scale();
  const float width = ImGui::GetContentRegionAvail().x;
  const float font = ImGui::GetFontSize();
  {
    const std::vector<CacheLegendEntry> probe(
        4, CacheLegendEntry{"100 % (max shared) \u2022 L1 28 KiB", theme.text, false, false});
    heading(layer,
            fitting_heading(
                layer,
                "L1 gather: time per 4-byte access vs the working set each block gathers "
                "from",
                "L1 gather: time per access vs working set", plot_min_height(probe, width, s), ""));
  }
  // The plots' data (cache_plots.cpp): time per access, and the L1 hit rate once read.
  const std::vector<FigurePlot> data = l1_plots(session, r);
  const std::vector<viz::PlotSeries> series = plot_series(data[0], theme);
  const float lead = font * 1.6f + ImGui::CalcTextSize("0000").x + 20 * s;
  viz::PlotSpec spec;
  spec.log_x = true;
  spec.x_min = 6;
  spec.x_max = 1400;
  spec.x_ticks = {8, 16, 32, 64, 128, 256, 512, 1024};
  spec.value_unit = "ns";
  spec.x_marks = plot_x_marks(data[0], theme);  // the model's knees, one per carveout
  const auto labels = [&](viz::PlotSpec& sp, float w, const std::string& y_long,
                          const std::string& y_short) {
    sp.x_label = fitting(
        {"working set per block (KiB, log scale)", "working set (KiB, log)", "KiB"}, w - lead);
    sp.y_label = fitting({y_long, y_short}, w - font * 1.6f - 4 * s);
    // Every other tick where the labels would touch.
    if ((w - lead) / 8 < ImGui::CalcTextSize("1024").x + 8 * s) sp.x_ticks = {8, 32, 128, 512};
  };

  // Under the time plot: the L1 hit rate of the same launches from the hardware counters, or the
  // one line saying why there is none.
  const bool hits = !r.l1_hit.empty();
  std::vector<CacheAside::Note> notes = {measured_state_note(session, r, !r.l1.empty())};
  if (!hits) {
    if (!r.l1_hit_note.empty()) {
      notes.push_back({"L1 hit rate: " + r.l1_hit_note, true});
    } else {
      notes.push_back({std::string("L1 hit rate (hardware counters): ") +
                           (!session.gpu_mode() ? "needs a GPU"
                            : r.busy            ? "read after the timed sweep"
                                                : "not read yet"),
                       false});
    }
  } else if (!r.l1_hit_note.empty()) {
    notes.push_back({"L1 hit rate stopped: " + r.l1_hit_note, true});
  }
  notes.push_back(
      {"One block of 1024 threads per SM reads random words of its own working set; "
       "the knee comes where the working set outgrows the L1 the carveout leaves.",
       false});

  std::vector<PlotCell> cells;
  cells.push_back({"time per access",
                   legend_entries(series, {}),
                   [&](float w, float h) {
                     viz::PlotSpec sp = spec;
                     labels(sp, w, "ns per access (SM time per 4-byte lane access)",
                            "ns per access");
                     draw_wrapped_plot("l1", "time per access", sp, series, {}, w, h, theme, s,
                                       interactive, aside);
                   },
                   "time",
                   {}});
  const std::vector<viz::PlotSeries> hit_series =
      data.size() > 1 ? plot_series(data[1], theme) : std::vector<viz::PlotSeries>{};
  const std::vector<viz::ReferenceLine> full = {{"all hits", theme.muted_text, 100.0}};
  if (hits) {
    cells.push_back({"L1 hit rate",
                     legend_entries(hit_series, full),
                     [&](float w, float h) {
                       viz::PlotSpec sp = spec;
                       sp.value_unit = "%";
                       labels(sp, w, "L1 hit rate, % of sectors looked up (hardware counters)",
                              "L1 hit rate (%)");
                       draw_wrapped_plot("l1-hit", "L1 hit rate", sp, hit_series, full, w, h, theme,
                                         s, interactive, aside);
                     },
                     "hit rate",
                     {}});
  }
  // The notes take what the plots leave at their least height (one at a time at worst).
  float plots_min = 0;
  for (const auto& c : cells) plots_min = std::max(plots_min, plot_min_height(c.legend, width, s));
  if (cells.size() > 1) plots_min += picker_height(cells, width);
  float notes_h = 0;
  for (const auto& n :
       fit_notes(notes, ImGui::GetContentRegionAvail().y - plots_min, width, aside, notes_h))
    draw_note(n, theme);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  draw_plot_grid("l1-plots", cells, avail.x, avail.y, s);
}

}  // namespace warplens::app::cache_ui_detail
