// The cache lab's Constant section: the warp's lanes coloured by the constant-cache read that
// serves them, and the measured cycles per request against k beside the model's k x broadcast.
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
                        const viz::Theme& theme, bool interactive) {
  const float s = layer.scale();
  const CacheModel& m = session.model();
  const int k = session.state().k;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  heading(layer, format("Constant cache: %d distinct address%s per warp request \u2192 %d "
                        "read%s, served one after another",
                        k, k == 1 ? "" : "es", k, k == 1 ? " (broadcast to all 32 lanes)" : "s"));
  ImGui::TextDisabled(
      "Lanes l, l + k, l + 2k, \u2026 read the same word of the __constant__ "
      "table; each colour is one constant-cache read.");
  const float width = ImGui::GetContentRegionAvail().x - 8 * s;
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const float gap = 3 * s;
  const float lane_w = (width - 31 * gap) / 32;
  const float lane_h = 44 * s;
  const float x0 = o.x + 4 * s, y0 = o.y + 6 * s;
  std::vector<int> group_of(32, 0);
  for (std::size_t g = 0; g < m.lane_groups.size(); ++g)
    for (int lane : m.lane_groups[g])
      group_of[static_cast<std::size_t>(lane)] = static_cast<int>(g);
  const int groups = static_cast<int>(m.lane_groups.size());
  for (int lane = 0; lane < 32; ++lane) {
    const int g = group_of[static_cast<std::size_t>(lane)];
    const viz::Rgb c = theme.lanes[groups <= 1 ? 12 : g * 31 / (groups - 1)];
    const float lx = x0 + static_cast<float>(lane) * (lane_w + gap);
    draw->AddRectFilled({lx, y0}, {lx + lane_w, y0 + lane_h}, to_imgui_color(c), 4 * s);
    text_centered(draw, {lx + 0.5f * lane_w, y0 + 0.5f * lane_h}, to_imgui_color(viz::text_on(c)),
                  std::to_string(lane));
    const std::string read = "r" + std::to_string(g);
    if (ImGui::CalcTextSize(read.c_str()).x < lane_w + gap)
      text_centered(draw, {lx + 0.5f * lane_w, y0 + lane_h + 4 * s + 0.5f * ImGui::GetFontSize()},
                    to_imgui_color(theme.muted_text), read);
  }
  ImGui::Dummy({width, lane_h + ImGui::GetFontSize() + 16 * s});
  measured_state_line(session, r, theme, !r.constant.empty());
  viz::PlotSeries se;
  se.label = "measured (median)";
  se.color = series_color(theme, 0, 4);
  viz::PlotSeries cycles;
  for (const auto& pt : r.constant) {
    if (pt.k == k) se.highlight = static_cast<int>(se.x.size());
    se.x.push_back(pt.k);
    se.y.push_back(pt.cycles_per_request);  // clock64: free of launch overhead
  }
  std::vector<viz::PlotSeries> series{se};
  // The model: one read per distinct address, k x the broadcast's time.
  if (!r.constant.empty() && r.constant.front().k == 1) {
    viz::PlotSeries model{
        "model: k \u00d7 the broadcast (k = 1)", theme.overfetch, {}, {}, {}, {}, true, false, -1};
    for (int kk = 1; kk <= 32; ++kk) {
      model.x.push_back(kk);
      model.y.push_back(kk * r.constant.front().cycles_per_request);
    }
    series.push_back(std::move(model));
  }
  viz::PlotSpec spec;
  spec.x_label = "k: distinct __constant__ addresses per warp request";
  spec.y_label = "SM clock cycles per warp request (clock64)";
  spec.x_min = 0;
  spec.x_max = 33;
  spec.x_ticks = {1, 4, 8, 12, 16, 20, 24, 28, 32};
  spec.value_unit = "cycles";
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  viz::draw_plot("constant", spec, series, {}, avail.x, std::max(avail.y - 4 * s, 160 * s), theme,
                 s, interactive);
}

}  // namespace warplens::app::cache_ui_detail
