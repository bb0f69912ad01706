// The cache lab's Constant section: the warp's lanes coloured by the constant-cache read that
// serves them, and the measured cycles per request against k beside the model's k x broadcast.
// The lane row numbers every lane where the numbers fit and every few lanes where they do not;
// the plot takes the height the notes leave it.
#include "cache_ui_internal.h"

#include <imgui.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "plot.h"
#include "ui_widgets.h"

namespace warplens::app::cache_ui_detail {

void draw_constant_view(CacheSession& session, const CacheResults& r, const viz::ImGuiLayer& layer,
                        const viz::Theme& theme, bool interactive, CacheAside& aside) {
  const float s = layer.scale();
  const CacheModel& m = session.model();
  const int k = session.state().k;
  const float font = ImGui::GetFontSize();
  const float width = ImGui::GetContentRegionAvail().x;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float lane_h = std::max(1.5f * font, 28 * s);
  const float under_h = font + 8 * s;  // the reads, or the lane axis
  // The heading: long, short, or none where even the short one leaves the lanes and the plot
  // (one at a time, picked) too little.
  const float spacing = ImGui::GetStyle().ItemSpacing.y;
  const float lanes_h = 4 * s + lane_h + under_h;
  {
    const std::vector<CacheLegendEntry> probe(
        2, CacheLegendEntry{"model: k \u00d7 the broadcast (k = 1)", theme.text, false, false});
    const float both = lanes_h + spacing + plot_min_height(probe, width, s);
    const std::string title_long = format(
        "Constant cache: %d distinct address%s per warp request \u2192 %d read%s, "
        "served one after another",
        k, k == 1 ? "" : "es", k, k == 1 ? " (broadcast to all 32 lanes)" : "s");
    const std::string title_short =
        format("Constant cache: k = %d \u2192 %d read%s in turn", k, k, k == 1 ? "" : "s");
    const float room = ImGui::GetContentRegionAvail().y;
    const float one =
        ImGui::GetFrameHeightWithSpacing() + std::max(lanes_h, plot_least_height(probe, width, s));
    const auto leaves = [&](const std::string& t) {
      return room - heading_height(layer, t, width);
    };
    heading(layer, leaves(title_long) >= both                   ? title_long
                   : leaves(title_short) >= std::min(both, one) ? title_short
                                                                : std::string());
  }

  // The lane row: 32 lanes, each coloured by its read; its number inside and its read under it
  // when they fit, else a lane axis every few lanes.
  const float lane_room = width - 8 * s;
  const float gap = std::min(3 * s, lane_room / 32 * 0.15f);
  const float lane_w = (lane_room - 31 * gap) / 32;
  const bool numbered = ImGui::CalcTextSize("31").x + 2 * s <= lane_w;
  const bool reads_named =
      ImGui::CalcTextSize(("r" + std::to_string(std::max(k - 1, 0))).c_str()).x <= lane_w + gap;
  const auto draw_lanes = [&] {
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const float x0 = o.x + 4 * s, y0 = o.y + 4 * s;
    std::vector<int> group_of(32, 0);
    for (std::size_t g = 0; g < m.lane_groups.size(); ++g)
      for (int lane : m.lane_groups[g])
        group_of[static_cast<std::size_t>(lane)] = static_cast<int>(g);
    const int groups = static_cast<int>(m.lane_groups.size());
    const ImU32 muted = to_imgui_color(theme.muted_text);
    // Lane axis ticks: as many of 0, 4, 8, ... 28, 31 (or every 8) as have room.
    const int tick_step = ImGui::CalcTextSize("28").x + 6 * s <= 4 * (lane_w + gap) ? 4 : 8;
    for (int lane = 0; lane < 32; ++lane) {
      const int g = group_of[static_cast<std::size_t>(lane)];
      const viz::Rgb c = theme.lanes[groups <= 1 ? 12 : g * 31 / (groups - 1)];
      const float lx = x0 + static_cast<float>(lane) * (lane_w + gap);
      const float cx = lx + 0.5f * lane_w;
      draw->AddRectFilled({lx, y0}, {lx + lane_w, y0 + lane_h}, to_imgui_color(c),
                          std::min(4 * s, 0.3f * lane_w));
      if (numbered)
        text_centered(draw, {cx, y0 + 0.5f * lane_h}, to_imgui_color(viz::text_on(c)),
                      std::to_string(lane));
      const float uy = y0 + lane_h + 4 * s + 0.5f * font;
      if (reads_named) {
        text_centered(draw, {cx, uy}, muted, "r" + std::to_string(g));
      } else if (!numbered && (lane % tick_step == 0 || lane == 31)) {
        text_centered(draw, {cx, uy}, muted, std::to_string(lane));
      }
    }
    ImGui::Dummy({width, lanes_h});
  };

  // The explanation and the measured part's state under the row, as room allows; the plot keeps
  // at least its least height.
  // Before cycles are measured (no GPU), the model's reads per request: k, one after another.
  const FigurePlot data = constant_plot(session, r, /*reads_without_cycles=*/true);
  const bool cycles = data.value_unit == "cycles";
  std::vector<viz::PlotSeries> series = plot_series(data, theme);
  if (r.constant.empty())  // no measured line to name in the legend
    std::erase_if(series, [](const viz::PlotSeries& se) { return se.x.empty(); });
  const std::vector<CacheAside::Note> notes = {
      measured_state_note(session, r, !r.constant.empty()),
      {std::string("Lanes i, i + k, i + 2k, \u2026 read the same word of the __constant__ table; "
                   "each colour is one constant-cache read") +
           (reads_named ? " (r0, r1, \u2026 under the lanes)." : "."),
       false}};
  const float lead = font * 1.6f + ImGui::CalcTextSize("0000").x + 20 * s;
  viz::PlotSpec spec;
  spec.x_label = fitting({"k: distinct __constant__ addresses per warp request",
                          "k: distinct addresses per request", "k"},
                         width - lead);
  const float y_room = width - font * 1.6f - 4 * s;
  spec.y_label = cycles ? fitting({"SM clock cycles per warp request (clock64)",
                                   "cycles per warp request", "cycles / request"},
                                  y_room)
                        : fitting({"constant-cache reads per warp request (model; cycles need a "
                                   "GPU)",
                                   "reads per warp request (model)", "reads / request"},
                                  y_room);
  spec.x_min = 0;
  spec.x_max = 33;
  spec.x_ticks = width - lead > 9 * ImGui::CalcTextSize("28").x * 1.8f
                     ? std::vector<double>{1, 4, 8, 12, 16, 20, 24, 28, 32}
                     : std::vector<double>{1, 8, 16, 24, 32};
  spec.value_unit = data.value_unit;
  const auto draw_cycles = [&](float w, float h) {
    draw_wrapped_plot("constant", cycles ? "cycles per request" : "reads per request", spec, series,
                      {}, w, h, theme, s, interactive, aside);
  };
  // The lanes, the notes as room allows, the plot under them with at least its least height;
  // where the room holds not both, one at a time.
  const float plot_min = plot_min_height(legend_entries(series, {}), width, s);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  if (lanes_h + spacing + plot_min <= avail.y) {
    draw_lanes();
    float notes_h = 0;
    for (const auto& n :
         fit_notes(notes, ImGui::GetContentRegionAvail().y - plot_min, width, aside, notes_h))
      draw_note(n, theme);
    const ImVec2 rest = ImGui::GetContentRegionAvail();
    draw_cycles(rest.x, std::max(rest.y, 1.0f));
    return;
  }
  const std::vector<PlotCell> cells = {
      {"lanes and reads",
       {},
       [&](float, float h) {
         draw_lanes();
         float notes_h = 0;
         for (const auto& n : fit_notes(notes, h - lanes_h - spacing, width, aside, notes_h))
           draw_note(n, theme);
       },
       "lanes",
       [&](float) { return lanes_h; }},
      {cycles ? "cycles per request" : "reads per request",
       legend_entries(series, {}),
       draw_cycles,
       cycles ? "cycles" : "reads",
       {}}};
  if (ImGui::GetStateStorage()->GetInt(ImGui::GetID("constant-pictures"), 0) != 0)
    aside.notes.insert(aside.notes.end(), notes.begin(), notes.end());
  draw_plot_grid("constant-pictures", cells, avail.x, avail.y, s, true);
}

}  // namespace warplens::app::cache_ui_detail
