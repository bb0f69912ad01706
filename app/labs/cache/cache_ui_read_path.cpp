// The cache lab's Read path section: GB/s bars of the plain, __ldg and texture loads grouped
// by access pattern, each with its L1 hit rate from the hardware counters, and their legend.
#include "cache_ui_internal.h"

#include <imgui.h>

#include <algorithm>
#include <string>
#include <vector>

#include "plot.h"
#include "ui_widgets.h"

namespace warplens::app::cache_ui_detail {

void draw_read_path_view(CacheSession& session, const CacheResults& r, const viz::ImGuiLayer& layer,
                         const viz::Theme& theme, bool interactive) {
  const float s = layer.scale();
  const CacheState& st = session.state();
  const auto& paths = read_paths();
  const auto& patterns = read_patterns();
  const int n_paths = static_cast<int>(paths.size());
  const int n_groups = static_cast<int>(patterns.size());
  heading(layer, format("Read path: %d\u00d7%d image of 32-bit pixels, GB/s the program asked for",
                        st.read.side, st.read.side));
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled(
      "Bars grouped by access pattern: each thread's footprint, the shape of a warp's centres, the "
      "layout. A texture over a cudaArray has its own 2D layout, so its Morton bars repeat the "
      "row-major reads. Inside a bar: its L1 hit rate from the hardware counters.");
  ImGui::PopTextWrapPos();
  measured_state_line(session, r, theme, !r.read.empty());
  if (!r.read_hit_note.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, color4(theme.warning));
    ImGui::TextUnformatted(("L1 hit rate: " + r.read_hit_note).c_str());
    ImGui::PopStyleColor();
  }
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("##bars", {avail.x, std::max(avail.y - 4 * s, 160 * s)});
  const bool hovered = interactive && ImGui::IsItemHovered();
  const float font = ImGui::GetFontSize();
  const float h = std::max(avail.y - 4 * s, 160 * s);
  double top_value = 0;
  for (const auto& m : r.read) top_value = std::max(top_value, m.gbps);
  std::vector<double> ticks = viz::nice_ticks(0, top_value > 0 ? top_value * 1.1 : 100, 5);
  const double y_max = ticks.empty() ? 100 : std::max(ticks.back(), top_value * 1.1);
  float tick_w = 0;
  for (double v : ticks)
    tick_w = std::max(tick_w, ImGui::CalcTextSize(viz::tick_label(v).c_str()).x);
  const float left = o.x + tick_w + 14 * s, right = o.x + avail.x - 10 * s;
  const float top = o.y + font + 10 * s;
  const float legend_h = font * 1.6f;
  const float bottom = o.y + h - font * 3.0f - legend_h;  // two lines of group labels
  const auto py = [&](double v) { return bottom - to_f(v / y_max) * (bottom - top); };
  const ImU32 text = to_imgui_color(theme.text);
  const ImU32 muted = to_imgui_color(theme.muted_text);
  draw->AddRectFilled({left, top}, {right, bottom}, to_imgui_color(theme.background));
  for (double v : ticks) {
    const float y = py(v);
    draw->AddLine({left, y}, {right, y}, to_imgui_color(theme.untouched), 1.0f);
    const std::string t = viz::tick_label(v);
    draw->AddText({left - ImGui::CalcTextSize(t.c_str()).x - 6 * s, y - 0.5f * font}, text,
                  t.c_str());
  }
  draw->AddText({o.x, o.y}, muted, "GB/s (10\u2079 B/s requested)");
  const float group_w = (right - left) / static_cast<float>(n_groups);
  const float bar_w = group_w * 0.84f / static_cast<float>(n_paths);
  for (int gi = 0; gi < n_groups; ++gi) {
    const gpu::ReadPattern pattern = patterns[static_cast<std::size_t>(gi)];
    const float gx = left + group_w * static_cast<float>(gi) + group_w * 0.08f;
    const float gc = gx + 0.5f * bar_w * static_cast<float>(n_paths);
    text_centered(draw, {gc, bottom + 6 * s + 0.5f * font}, text, pattern_footprint(pattern));
    if (pattern != gpu::ReadPattern::Scattered)
      text_centered(draw, {gc, bottom + 8 * s + 1.5f * font}, muted, pattern_layout(pattern));
    for (int pi = 0; pi < n_paths; ++pi) {
      const gpu::ReadPath path = paths[static_cast<std::size_t>(pi)];
      const float bx = gx + static_cast<float>(pi) * bar_w;
      const viz::Rgb c = series_color(theme, pi, n_paths);
      const gpu::ReadPathMeasurement* m = nullptr;
      for (const auto& x : r.read)
        if (x.params.path == path && x.params.pattern == pattern) m = &x;
      const ReadHitPoint* hit = nullptr;
      for (const auto& x : r.read_hit)
        if (x.params.path == path && x.params.pattern == pattern) hit = &x;
      const bool chosen = st.read.path == path && st.read.pattern == pattern;
      if (m) {
        const float y = py(m->gbps);
        draw->AddRectFilled({bx + 2 * s, y}, {bx + bar_w - 2 * s, bottom}, to_imgui_color(c));
        text_centered(draw, {bx + 0.5f * bar_w, y - 0.5f * font - 2 * s}, text,
                      format("%.0f", m->gbps));
        if (hit && hit->rate.percent) {
          // The hit rate inside the bar's foot, or above the value when the bar is too short.
          const std::string t = hit_text(hit->rate);
          const bool inside =
              bottom - y > font * 1.6f && ImGui::CalcTextSize(t.c_str()).x < bar_w - 6 * s;
          text_centered(draw,
                        inside ? ImVec2{bx + 0.5f * bar_w, bottom - 0.7f * font}
                               : ImVec2{bx + 0.5f * bar_w, y - 1.5f * font - 4 * s},
                        inside ? to_imgui_color(viz::text_on(c)) : muted, t);
        }
        if (hovered && ImGui::IsMouseHoveringRect({bx, top}, {bx + bar_w, bottom}))
          ImGui::SetTooltip(
              "%s, %s\n%.1f GB/s, median %.3f ms\nL1 hit rate %s%s\n%s", path_label(path),
              pattern_label(pattern).c_str(), m->gbps, m->timing.median_ms,
              hit ? hit_text(hit->rate).c_str() : "not read",
              hit && !hit->rate.percent ? (" (" + hit->rate.unavailable + ")").c_str() : "",
              m->verified ? "checksum verified" : m->check.c_str());
      }
      if (chosen)
        draw->AddRect({bx, m ? py(m->gbps) - font - 6 * s : top}, {bx + bar_w, bottom + 1 * s},
                      text, 3 * s, 0, 2.5f * s);
    }
  }
  draw->AddLine({left, bottom}, {right, bottom}, to_imgui_color(theme.rule), 1.5f * s);
  float lx = left;
  const float ly = o.y + h - legend_h + 4 * s;
  for (int pi = 0; pi < n_paths; ++pi) {
    const viz::Rgb c = series_color(theme, pi, n_paths);
    const char* label = path_label(paths[static_cast<std::size_t>(pi)]);
    draw->AddRectFilled({lx, ly + 2 * s}, {lx + font, ly + font}, to_imgui_color(c), 2 * s);
    draw->AddText({lx + font + 6 * s, ly}, text, label);
    lx += font + 26 * s + ImGui::CalcTextSize(label).x;
  }
}

}  // namespace warplens::app::cache_ui_detail
