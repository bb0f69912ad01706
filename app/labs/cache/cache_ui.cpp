// The cache lab's UI entry points: the parameter panel, the big view (which hands each section
// to its own file, cache_ui_<section>.cpp), the status line and the colour and label helpers the
// cache_ui*.cpp files share (cache_ui_internal.h). The numbers table is in cache_ui_numbers.cpp.
#include "cache_ui.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "cache_knobs.h"
#include "cache_ui_internal.h"
#include "knob_widgets.h"
#include "lab_panel.h"
#include "layout_audit.h"
#include "legend_slot.h"
#include "ui_widgets.h"

namespace warplens::app {

namespace cache_ui_detail {

std::string kib(std::int64_t bytes) {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0)
    return std::to_string(bytes / (1024 * 1024)) + " MiB";
  if (bytes % 1024 == 0) return std::to_string(bytes / 1024) + " KiB";
  return format("%.1f KiB", static_cast<double>(bytes) / 1024.0);
}

const char* path_label(gpu::ReadPath p) {
  switch (p) {
    case gpu::ReadPath::Plain: return "plain load";
    case gpu::ReadPath::Ldg: return "__ldg";
    case gpu::ReadPath::Texture: return "texture";
  }
  return "?";
}

const char* pattern_footprint(gpu::ReadPattern p) {
  switch (p) {
    case gpu::ReadPattern::Scattered: return "scattered";
    case gpu::ReadPattern::Local2D:
    case gpu::ReadPattern::Morton: return "window, warp 16\u00d72";
    case gpu::ReadPattern::ColumnTile:
    case gpu::ReadPattern::ColumnTileMorton: return "4\u00d74 tile, warp 1\u00d732";
  }
  return "?";
}
const char* pattern_layout(gpu::ReadPattern p) {
  return gpu::reads_morton(p) ? "Morton" : "row-major";
}
std::string pattern_label(gpu::ReadPattern p) {
  if (p == gpu::ReadPattern::Scattered) return pattern_footprint(p);
  return std::string(pattern_footprint(p)) + ", " + pattern_layout(p);
}

std::string hit_text(const L1HitRate& rate) {
  return rate.percent ? format("%.0f %%", *rate.percent) : std::string("n/a");
}

void text_centered(ImDrawList* draw, ImVec2 center, ImU32 color, const std::string& text) {
  const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
  draw->AddText({center.x - 0.5f * ts.x, center.y - 0.5f * ts.y}, color, text.c_str());
}

std::string no_gpu_note(const CacheSession& session) {
  if (session.state().section != CacheSection::ReadPath) return session.no_gpu_text();
  return "GB/s and L1 hit rates need a GPU (" + session.device().reason +
         "); the bars are the model's sectors and lines per warp load.";
}

MeasureProgress measure_progress(const CacheSession& session, const CacheResults& r) {
  return {session.gpu_mode(), no_gpu_note(session), r.busy, r.done, r.total,
          r.status,           session.error()};
}

CacheAside::Note measured_state_note(const CacheSession& session, const CacheResults& r,
                                     bool have) {
  return app::measured_state_note(measure_progress(session, r), have);
}

}  // namespace cache_ui_detail

using namespace cache_ui_detail;

namespace {

const char* section_label(CacheSection s) {
  switch (s) {
    case CacheSection::Carveout: return "Carveout";
    case CacheSection::L1: return "L1 sweep";
    case CacheSection::Constant: return "Constant";
    case CacheSection::ReadPath: return "Read path";
  }
  return "?";
}

}  // namespace

viz::Rgb cache_series_color(const viz::Theme& theme, int i, int n) {
  // Light: skip the palest yellows; dark: skip the darkest purples.
  const int first = theme.name == viz::ThemeName::Dark ? 8 : 2;
  const int lane = n <= 1 ? first + 4 : first + i * 22 / (n - 1);
  return theme.lanes[std::clamp(lane, 0, 31)];
}

std::string carveout_text(int carveout) {
  if (carveout == gpu::kCarveoutDefault) return "default (-1)";
  if (carveout == gpu::kCarveoutMaxL1) return "0 % (max L1)";
  if (carveout == gpu::kCarveoutMaxShared) return "100 % (max shared)";
  return std::to_string(carveout) + " %";
}

void draw_cache_parameters(CacheSession& session, const CacheResults& r, const viz::Theme& theme,
                           ImVec2 pos, ImVec2 size, bool interactive,
                           const std::function<void()>& header) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin("Parameters##cache", nullptr, kPanelFlags);
  if (header) header();
  CacheState st = session.state();
  const CacheModel& m = session.model();
  label("Cache lab");
  const float half = 0.5f * (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x);
  for (auto sec :
       {CacheSection::Carveout, CacheSection::L1, CacheSection::Constant, CacheSection::ReadPath}) {
    if (sec != CacheSection::Carveout && sec != CacheSection::Constant) ImGui::SameLine();
    if (section_button(section_label(sec), st.section == sec, half)) st.section = sec;
  }
  ImGui::Separator();
  ImGui::TextDisabled("%s", m.device_text.c_str());
  switch (st.section) {
    case CacheSection::Carveout: {
      label("Carveout (% of the largest shared capacity)");
      ImGui::SetNextItemWidth(-1);
      ImGui::SliderInt("##carveout", &st.carveout, -1, 100,
                       st.carveout < 0 ? "-1 (driver default)" : "%d %%");
      radio_row<int>("carveout-presets", st.carveout,
                     {{-1, "default"}, {0, "0"}, {50, "50"}, {100, "100"}});
      label("Dynamic shared memory per block (KiB)");
      int dyn_kib = static_cast<int>(st.dynamic_shared_bytes / 1024);
      ImGui::SetNextItemWidth(-1);
      if (ImGui::SliderInt("##dyn", &dyn_kib, 0, static_cast<int>(m.optin_limit_bytes / 1024),
                           "%d KiB"))
        st.dynamic_shared_bytes = std::int64_t{dyn_kib} * 1024;
      ImGui::TextWrapped("Capacity %d KiB, L1 left %d KiB, %d blocks/SM predicted.",
                         m.current.choice.shared_kib, m.current.choice.l1_kib,
                         m.current.blocks_per_sm);
      break;
    }
    case CacheSection::L1: {
      label("Working set per block (the ringed point)");
      const auto& sets = l1_working_sets();
      int index = 0;
      for (std::size_t i = 0; i < sets.size(); ++i)
        if (sets[i] == st.working_set_bytes) index = static_cast<int>(i);
      ImGui::SetNextItemWidth(-1);
      if (ImGui::SliderInt("##ws", &index, 0, static_cast<int>(sets.size()) - 1,
                           kib(sets[static_cast<std::size_t>(index)]).c_str()))
        st.working_set_bytes = sets[static_cast<std::size_t>(index)];
      ImGui::TextWrapped("The sweep times every working set at carveouts default, 0, 50 and 100.");
      break;
    }
    case CacheSection::Constant:
      label("k: distinct addresses per warp (1 = broadcast)");
      ImGui::SetNextItemWidth(-1);
      ImGui::SliderInt("##k", &st.k, 1, 32);
      break;
    case CacheSection::ReadPath: {
      label("Load path (the ringed bar)");
      radio_row<gpu::ReadPath>("path", st.read.path,
                               {{gpu::ReadPath::Plain, "plain"},
                                {gpu::ReadPath::Ldg, "__ldg"},
                                {gpu::ReadPath::Texture, "texture"}});
      label("Access pattern");
      radio_row<gpu::ReadPattern>("pattern", st.read.pattern,
                                  {{gpu::ReadPattern::Scattered, "scattered"},
                                   {gpu::ReadPattern::Local2D, "window"},
                                   {gpu::ReadPattern::Morton, "Morton"}});
      radio_row<gpu::ReadPattern>("pattern-tile", st.read.pattern,
                                  {{gpu::ReadPattern::ColumnTile, "4\u00d74 tile"},
                                   {gpu::ReadPattern::ColumnTileMorton, "tile, Morton"}});
      label("Image side (pixels)");
      int log_side = static_cast<int>(std::lround(std::log2(st.read.side)));
      ImGui::SetNextItemWidth(-1);
      if (ImGui::SliderInt("##side", &log_side, 6, 13, std::to_string(st.read.side).c_str()))
        st.read.side = 1 << log_side;
      label("Window radius (window patterns)");
      ImGui::SetNextItemWidth(-1);
      ImGui::SliderInt("##radius", &st.read.radius, 0, 4);
      label("Reads per thread (scattered)");
      ImGui::SetNextItemWidth(-1);
      ImGui::SliderInt("##reads", &st.read.scattered_reads, 1, 32);
      break;
    }
  }
  if (!(st == session.state())) session.set(st);
  ImGui::Separator();
  if (draw_measure_footer(measure_progress(session, r), theme, interactive)) session.remeasure();
  ImGui::End();
}

void draw_cache_view(CacheSession& session, const CacheResults& r, const viz::ImGuiLayer& layer,
                     const viz::Theme& theme, ImVec2 pos, ImVec2 size, bool interactive,
                     CacheAside& aside) {
  aside = {};
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  // In the presenter layout the strip names the scenario and the heading the section: the
  // title bar's line goes to the picture.
  ImGui::Begin("Cache lab##cache-view", nullptr,
               kPanelFlags | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse |
                   (open_legend_slot() ? ImGuiWindowFlags_NoTitleBar : 0));
  switch (session.state().section) {
    case CacheSection::Carveout:
      draw_carveout_view(session, r, layer, theme, interactive, aside);
      break;
    case CacheSection::L1: draw_l1_view(session, r, layer, theme, interactive, aside); break;
    case CacheSection::Constant:
      draw_constant_view(session, r, layer, theme, interactive, aside);
      break;
    case CacheSection::ReadPath:
      draw_read_path_view(session, r, layer, theme, interactive, aside);
      break;
  }
  ImGui::End();
  // The presenter layout draws no numbers panel: what the view set aside goes beside it.
  if (LegendSlot* slot = open_legend_slot(); slot && !aside.empty())
    aside.hand_to(*slot, theme, layer.scale());
}

namespace {

// The lab's knobs with the dynamic shared memory's range set to a device's opt-in limit per
// block, which the table cannot know: made once per limit, not every frame (the UI's thread).
const std::vector<Knob<CacheState>>& strip_knobs(std::int64_t limit_kib) {
  static std::vector<Knob<CacheState>> knobs;
  static std::int64_t made_for = -1;
  if (made_for != limit_kib) {
    knobs = cache_knobs();
    for (auto& k : knobs)
      if (k.key == "dynamic_shared_kib")
        k.strip_range = [limit_kib](const CacheState&) {
          return std::pair<std::int64_t, std::int64_t>{0, limit_kib};
        };
    made_for = limit_kib;
  }
  return knobs;
}

}  // namespace

void draw_cache_knobs(CacheSession& session, float s) {
  CacheState st = session.state();
  // The section's knobs (their `strip` in cache_knobs.cpp).
  draw_strip_knobs(strip_knobs(session.model().optin_limit_bytes / 1024), st, 8 * s);
  if (!(st == session.state())) session.set(st);
}

std::string cache_status_text(const CacheSession& session, const CacheResults& r) {
  return sectioned_status_text("cache lab", to_string(session.state().section),
                               session.model().device_text, session.gpu_mode(), r.busy, r.status);
}

}  // namespace warplens::app
