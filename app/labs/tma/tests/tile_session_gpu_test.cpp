// The tile lab's session on the GPU (skipped without a device): for each built-in scenario the
// worker fills the tile, reads it back equal to the model's placement, times the read with its
// values checked, and reads wavefronts per request from the counters equal to the model's (the
// counters' part skipped where they are refused). A refused change leaves the session usable.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "scenarios.h"
#include "tile_scenario.h"
#include "tile_session.h"
#include "tile_ui.h"
#include "trace_sink.h"

namespace warplens::app {
namespace {

void wait_idle(const TileSession& session) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (!session.idle() && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_TRUE(session.idle()) << "the worker did not settle in 120 s";
}

TEST(TileSessionGpu, EachScenarioIsMeasuredAsTheModelSays) {
  const auto q = gpu::query_device();
  if (!q.device) GTEST_SKIP() << "no CUDA device: " << q.reason;
  HostSink<TraceRecords> banks;
  TileSession session(banks, true);
  session.show();  // as the window does when the lab comes on screen
  for (const Scenario& s : builtin_scenarios()) {
    if (s.lab != Lab::Tile) continue;
    session.set(tile_scenario(s));
    wait_idle(session);
    ASSERT_EQ(session.error(), "") << s.name;
    const auto r = session.current();
    ASSERT_TRUE(r) << s.name;
    if (r->unsupported) {
      std::printf("%s: not on this GPU (%s)\n", s.name.c_str(), r->unsupported->c_str());
      continue;
    }
    ASSERT_TRUE(r->placement && r->read) << s.name;
    EXPECT_TRUE(placement_matches(*r->placement, session.model())) << s.name;
    EXPECT_TRUE(r->read->values_ok) << s.name << ": " << r->read->check;
    EXPECT_GT(r->read->cycles_per_request, 0) << s.name;
    if (r->wavefronts_per_request) {
      EXPECT_TRUE(tile_counters_agree(session.model(), *r))
          << s.name << ": counted " << *r->wavefronts_per_request << ", model "
          << session.model().analysis.wavefronts;
    }
    std::printf("%s: model %d, counters %s, %.1f cycles per request\n", s.name.c_str(),
                session.model().analysis.wavefronts,
                r->wavefronts_per_request ? std::to_string(*r->wavefronts_per_request).c_str()
                                          : r->counters_unavailable.c_str(),
                r->read->cycles_per_request);
  }
  TileState bad = session.state();
  bad.tile.element_bytes = 3;
  session.set(bad);
  EXPECT_NE(session.error(), "");
  TileState good = session.state();
  good.read.kind = gpu::TileReadKind::Row;
  session.set(good);
  wait_idle(session);
  EXPECT_EQ(session.error(), "");
  EXPECT_TRUE(session.current() && session.current()->read);
}

}  // namespace
}  // namespace warplens::app
