// The bytes-in-flight lab's Little's-law view on headless EGL, with measurements injected as an
// H200 measured them (2026-11-29, commit cadebb6: cudaMemcpy 3492 GB/s, theoretical peak
// 4814 GB/s, the copies' plateau up to 3775 GB/s), laid out as the presenter layout lays it out
// on a projector (1920x1080 at 2x and 3x): every dashed line's label stands on its line in the
// chart, none goes aside. The GPU's audit of that commit found the theoretical peak's label
// without a place at 3x (flight-four-floats, flight-volkov).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "flight_scenario.h"
#include "flight_session.h"
#include "flight_ui.h"
#include "gl_program.h"
#include "headless_gl_test.h"
#include "imgui_layer.h"
#include "layout_audit.h"
#include "legend_slot.h"
#include "scenarios.h"
#include "theme.h"
#include "view_layout.h"

namespace warplens::app {
namespace {

// The copies of the window's sweep as the H200 measured them: 4-byte words from 1 KiB in flight
// per SM, 16-byte words from 4 KiB, rising to the cudaMemcpy line and a little over it.
FlightResults h200_like(const FlightState& current) {
  FlightResults r;
  r.limits = gpu::FlightDeviceLimits{};
  r.limits->sm = gpu::model_sm_limits();
  r.limits->levels = {256 * 1024, std::int64_t{60} << 20};
  r.limits->cc_major = 9;
  r.limits->theoretical_gbps = 4814;
  r.memcpy = gpu::MemcpyMeasurement{};
  r.memcpy->gbps = 3492;
  for (const auto& row : ladder_rows())
    for (auto ws : gpu::ladder_working_sets(r.limits->levels.l2_bytes)) {
      gpu::LatencyPoint p;
      p.params = {ws, row.path, row.lanes};
      p.ns_per_load = ws <= 128 * 1024 ? 20 : ws <= (std::int64_t{30} << 20) ? 200 : 555;
      p.verified = true;
      r.ladder.push_back(p);
    }
  for (const int word : {4, 16})
    for (const int loads : {1, 2, 4, 8})
      for (const int warps : {8, 16, 32, 64}) {
        gpu::StreamMeasurement m;
        m.params.word_bytes = word;
        m.params.loads_per_thread = loads;
        m.params.block_threads = 256;
        m.residency.warps_per_sm = warps;
        m.residency.blocks_per_sm = warps / 8;
        m.bytes_in_flight_per_sm = std::int64_t{32} * word * loads * warps;
        const double kib = static_cast<double>(m.bytes_in_flight_per_sm) / 1024;
        m.gbps = std::min(3492.0 + 40 * loads, 200.0 * kib);
        m.verified = true;
        r.stream.push_back(m);
      }
  // The current point, as measured: over cudaMemcpy (its ring above the line).
  gpu::StreamMeasurement cur;
  cur.params = current.stream;
  cur.residency.warps_per_sm = 16;
  cur.residency.blocks_per_sm = 2;
  cur.bytes_in_flight_per_sm =
      std::int64_t{32} * current.stream.word_bytes * current.stream.loads_per_thread * 16;
  cur.gbps = 3775;
  cur.verified = true;
  r.stream.push_back(cur);
  return r;
}

class FlightUiRender : public test::HeadlessGlTest {};

TEST_F(FlightUiRender, EveryDashedLineOfLittlesLawIsLabelledOnItsLineOnAProjector) {
  for (const char* name : {"flight-volkov", "flight-four-floats"}) {
    FlightSession session(false);
    const FlightState state = flight_scenario(find_scenario(name));
    session.set(state);
    session.inject_results_for_test(h200_like(state));
    for (const float scale : {2.0f, 3.0f}) {
      const int w = 1920, h = 1080;
      viz::ImGuiLayer layer(nullptr, scale, viz::ThemeName::Light);
      const viz::Theme& theme = viz::theme(viz::ThemeName::Light);
      viz::RenderTarget target;
      LayoutAudit audit;
      for (int frame = 0; frame < 2; ++frame) {
        audit.clear();
        LayoutAudit::Scope scope(audit);
        target.bind(w, h);
        layer.begin_frame(w, h, 1.0f / 60.0f);
        // The presenter layout: the view takes the window's height less the strip of knobs and
        // the status line, the numbers stand beside it (as cache_ui_test lays it out).
        const float fw = static_cast<float>(w), fh = static_cast<float>(h);
        const float view_w = fw - presenter_numbers_width(fw, scale) - 8 * scale;
        const float view_h =
            fh - 2 * ImGui::GetFrameHeight() - 2 * ImGui::GetStyle().WindowPadding.y - 16 * scale;
        LegendSlot legend;
        LegendSlot::Scope beside(legend);
        ViewAside aside;
        const FlightResults results = session.measured();
        draw_flight_view(session, results, layer, theme, {0, 0}, {view_w, view_h}, false, aside);
        layer.end_frame();
      }
      for (const auto& f : audit.findings())
        EXPECT_EQ(f.text.find("dashed line"), std::string::npos)
            << name << " at " << scale << "x: " << f.text;
    }
  }
}

}  // namespace
}  // namespace warplens::app
