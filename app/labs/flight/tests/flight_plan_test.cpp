// The bytes-in-flight lab's host side (no GPU): checks, the ladder's working sets and cycle,
// plateau detection, residency, the Little's-law model, the SM picture, the async refusals, and
// the session's model-only path.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <stdexcept>

#include "flight_lab.h"
#include "flight_session.h"
#include "flight_ui.h"

namespace warplens {
namespace {

using gpu::ChaseParams;
using gpu::LoadPath;
using gpu::StreamParams;

TEST(FlightPlan, ChaseChecks) {
  EXPECT_NO_THROW(gpu::check_chase({4096, LoadPath::Default, 1}, 1 << 20));
  EXPECT_THROW(gpu::check_chase({2048, LoadPath::Default, 1}, 1 << 20), std::invalid_argument);
  EXPECT_THROW(gpu::check_chase({4096 + 64, LoadPath::Default, 1}, 1 << 20), std::invalid_argument);
  EXPECT_THROW(gpu::check_chase({2 << 20, LoadPath::Default, 1}, 1 << 20), std::invalid_argument);
  EXPECT_THROW(gpu::check_chase({4096, LoadPath::ReadOnly, 1}, 1 << 20), std::invalid_argument);
  EXPECT_THROW(gpu::check_chase({4096, LoadPath::Default, 8}, 1 << 20), std::invalid_argument);
}

TEST(FlightPlan, LadderSpansFourKibToFourL2) {
  const std::int64_t l2 = std::int64_t{50} << 20;
  const auto sets = gpu::ladder_working_sets(l2);
  ASSERT_GE(sets.size(), 30u);
  EXPECT_EQ(sets.front(), 4096);
  EXPECT_EQ(sets.back(), 4 * l2);
  for (std::size_t i = 1; i < sets.size(); ++i) {
    EXPECT_GT(sets[i], sets[i - 1]);
    EXPECT_EQ(sets[i] % gpu::kChaseLineBytes, 0);
  }
}

TEST(FlightPlan, CycleVisitsEveryLineOnce) {
  for (std::uint32_t nodes : {2u, 32u, 1000u, 4096u}) {
    const auto next = gpu::chase_cycle(nodes, 7);
    std::set<std::uint32_t> seen;
    std::uint32_t at = 0;
    for (std::uint32_t i = 0; i < nodes; ++i) {
      EXPECT_TRUE(seen.insert(at).second) << "line " << at << " twice, nodes " << nodes;
      at = next[at];
    }
    EXPECT_EQ(at, 0u);
    EXPECT_EQ(seen.size(), nodes);
  }
}

gpu::LatencyPoint point(std::int64_t ws, double ns) {
  gpu::LatencyPoint p;
  p.params.working_set_bytes = ws;
  p.ns_per_load = ns;
  p.cycles_per_load = ns * 2;
  return p;
}

TEST(FlightPlan, PlateausFromTheDevicesSizes) {
  const gpu::LadderLevels lv{256 * 1024, std::int64_t{50} << 20};
  std::vector<gpu::LatencyPoint> row;
  for (auto ws : gpu::ladder_working_sets(lv.l2_bytes)) {
    double ns = ws <= lv.l1_bytes ? 30 : ws <= lv.l2_bytes ? 250 : 700;
    if (ws > std::int64_t{160} << 20) ns = 900;  // a TLB step
    row.push_back(point(ws, ns));
  }
  const auto p = gpu::find_plateaus(row, lv);
  ASSERT_TRUE(p.l1_ns && p.l2_ns && p.dram_ns);
  EXPECT_DOUBLE_EQ(*p.l1_ns, 30);
  EXPECT_DOUBLE_EQ(*p.l2_ns, 250);
  EXPECT_DOUBLE_EQ(*p.dram_ns, 700);
  EXPECT_DOUBLE_EQ(*p.l1_cycles, 60);
  ASSERT_TRUE(p.tlb_step_bytes);
  EXPECT_GT(*p.tlb_step_bytes, std::int64_t{160} << 20);
  EXPECT_FALSE(gpu::find_plateaus({}, lv).l1_ns);
}

TEST(FlightPlan, StreamChecks) {
  StreamParams p;
  EXPECT_NO_THROW(gpu::check_stream(p, 227 * 1024));
  for (auto bad : {[] {
                     StreamParams q;
                     q.word_bytes = 2;
                     return q;
                   }(),
                   [] {
                     StreamParams q;
                     q.loads_per_thread = 3;
                     return q;
                   }(),
                   [] {
                     StreamParams q;
                     q.block_threads = 96;
                     return q;
                   }(),
                   [] {
                     StreamParams q;
                     q.dynamic_shared_bytes = -1;
                     return q;
                   }(),
                   [] {
                     StreamParams q;
                     q.dynamic_shared_bytes = 230 * 1024;
                     return q;
                   }()})
    EXPECT_THROW(gpu::check_stream(bad, 227 * 1024), std::invalid_argument);
  try {
    StreamParams q;
    q.dynamic_shared_bytes = 230 * 1024;
    gpu::check_stream(q, 227 * 1024);
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("227 KiB"), std::string::npos) << e.what();
  }
}

TEST(FlightPlan, ResidencyLimits) {
  const gpu::SmLimits l = gpu::model_sm_limits();
  StreamParams p;  // 256 threads, 4 B, 1 load: 8 blocks by threads
  auto r = gpu::predict_residency(p, l, gpu::estimated_stream_registers(p));
  EXPECT_EQ(r.blocks_per_sm, 8);
  EXPECT_EQ(r.warps_per_sm, 64);
  EXPECT_EQ(r.limiter, "threads");
  p.dynamic_shared_bytes = 100 * 1024;  // 228 / 101 KiB: 2 blocks
  r = gpu::predict_residency(p, l, 20);
  EXPECT_EQ(r.blocks_per_sm, 2);
  EXPECT_EQ(r.limiter, "shared memory");
  p.dynamic_shared_bytes = 0;
  r = gpu::predict_residency(p, l, 64);  // 64 registers x 256 threads: 4 blocks
  EXPECT_EQ(r.blocks_per_sm, 4);
  EXPECT_EQ(r.limiter, "registers");
  EXPECT_EQ(gpu::shared_for_blocks(l, 256, 2), 113 * 1024);
  EXPECT_EQ(gpu::shared_for_blocks(l, 256, 8), 0);
}

TEST(FlightPlan, LittlesLaw) {
  // 64 warps x 32 lanes x 1 x 4 B = 8 KiB per SM.
  EXPECT_EQ(gpu::bytes_in_flight_per_sm(64, 1, 4), 8192);
  EXPECT_EQ(gpu::bytes_in_flight_per_sm(16, 8, 16), 65536);
  // The H100's numbers (2026-11-26): cudaMemcpy 2896 GB/s, the warp chase's DRAM plateau 536 ns.
  // One float per thread, 8 warps per SM (1 KiB): the idle line 2 x 132 x 1024 / 536 = 504 GB/s;
  // with the load's own latency X = 2896 / 2 x (sqrt(1 + 4 x 504 / 2896) - 1) = 438 GB/s, where
  // the H100 measured 421.
  const double one_kib = gpu::littles_law_gbps(1024, 132, 536, 2896);
  EXPECT_NEAR(one_kib, 438.1, 0.5);
  EXPECT_NEAR(one_kib * (1 + one_kib / 2896), 2.0 * 132 * 1024 / 536, 1e-6);  // X (1 + X/P) = N
  // 8 KiB per SM: 2264 GB/s (the H100 measured 1906-2307 for the six ways to hold 8 KiB).
  EXPECT_NEAR(gpu::littles_law_gbps(8192, 132, 536, 2896), 2264, 1);
  EXPECT_DOUBLE_EQ(gpu::littles_law_gbps(65536, 132, 536, 2896), 2896);  // capped at the peak
  EXPECT_DOUBLE_EQ(gpu::littles_law_gbps(8192, 132, 0, 2896), 0);
  EXPECT_DOUBLE_EQ(gpu::littles_law_gbps(8192, 132, 536, 0), 0);
  // The knee: the idle line meets the peak there; the model is at 62 % of it, at the peak at 2x.
  const double knee = gpu::knee_bytes_per_sm(132, 536, 2896);
  EXPECT_NEAR(2.0 * 132 * knee / 536, 2896, 1e-6);
  EXPECT_NEAR(gpu::littles_law_gbps(knee, 132, 536, 2896), 2896 * (std::sqrt(5.0) - 1) / 2, 1e-6);
  EXPECT_NEAR(gpu::littles_law_gbps(2 * knee, 132, 536, 2896), 2896, 1e-6);
  EXPECT_LT(gpu::littles_law_gbps(1.9 * knee, 132, 536, 2896), 2896);
}

TEST(FlightPlan, SmPicture) {
  StreamParams p;
  p.word_bytes = 16;
  p.loads_per_thread = 4;
  gpu::Residency r;
  r.blocks_per_sm = 2;
  r.warps_per_sm = 16;
  const auto pic = gpu::sm_picture(p, r);
  EXPECT_EQ(pic.warps, 16);
  EXPECT_EQ(pic.loads_per_warp, 4);
  EXPECT_EQ(pic.bytes_per_load, 512);
  EXPECT_EQ(pic.bytes_in_flight, 16 * 4 * 512);
  EXPECT_EQ(pic.warps_per_block, 8);
}

TEST(FlightPlan, AsyncNeedsItsComputeCapability) {
  EXPECT_FALSE(gpu::async_unsupported(gpu::AsyncKind::CpAsync, 8, 0));
  EXPECT_FALSE(gpu::async_unsupported(gpu::AsyncKind::Tma, 9, 0));
  EXPECT_EQ(gpu::async_unsupported(gpu::AsyncKind::Tma, 8, 6).value_or(""),
            "needs CC 9.0 (this GPU is 8.6)");
  EXPECT_EQ(gpu::async_unsupported(gpu::AsyncKind::CpAsync, 7, 5).value_or(""),
            "needs CC 8.0 (this GPU is 7.5)");
  EXPECT_EQ(gpu::async_block_bytes_in_flight(gpu::AsyncKind::Tma), 4 * 16 * 1024);
  EXPECT_GT(gpu::async_block_shared_bytes(gpu::AsyncKind::CpAsync),
            gpu::async_block_bytes_in_flight(gpu::AsyncKind::CpAsync));
}

TEST(FlightSession, ModelOnlyDrawsTheModelAndRefusesBadParameters) {
  app::FlightSession s(false);
  EXPECT_FALSE(s.gpu_mode());
  EXPECT_TRUE(s.idle());
  const auto& m = s.model();
  EXPECT_FALSE(m.latency_measured);
  EXPECT_FALSE(m.peak_measured);
  EXPECT_EQ(m.picture.bytes_in_flight, 8192);
  EXPECT_GT(m.predicted_gbps, 0);
  app::FlightState st = s.state();
  st.stream.word_bytes = 3;
  s.set(st);
  EXPECT_NE(s.error().find("word size"), std::string::npos) << s.error();
  EXPECT_EQ(s.state().stream.word_bytes, 4);
  st.stream.word_bytes = 16;
  st.stream.loads_per_thread = 4;
  s.set(st);
  EXPECT_TRUE(s.error().empty()) << s.error();
  EXPECT_EQ(s.model().picture.bytes_in_flight, 64 * 32 * 4 * 16);
}

TEST(FlightSession, MeasuredLatencyAndMemcpyFeedTheModel) {
  app::FlightSession s(false);
  app::FlightResults r;
  gpu::MemcpyMeasurement mc;
  mc.gbps = 2800;
  r.memcpy = mc;
  const std::int64_t l2 = std::int64_t{50} << 20;
  // One lane's chase reaches DRAM in 310 ns, a warp's in 650: the model takes the warp's.
  for (auto ws : gpu::ladder_working_sets(l2)) {
    r.ladder.push_back(point(ws, ws > l2 ? 310 : 40));
    gpu::LatencyPoint warp = point(ws, ws > l2 ? 650 : 60);
    warp.params.lanes = gpu::kChaseWarpLanes;
    r.ladder.push_back(warp);
  }
  s.inject_results_for_test(r);
  const auto& m = s.model();
  EXPECT_TRUE(m.latency_measured);
  EXPECT_DOUBLE_EQ(m.latency_ns, 650);
  EXPECT_DOUBLE_EQ(m.peak_gbps, 2800);
  // No one-block copies measured yet: tau is the H100's, shown as assumed; one float per
  // thread is a batch of 128 B per warp.
  EXPECT_FALSE(m.batch_measured);
  EXPECT_DOUBLE_EQ(m.warp_batch_bytes, 128);
  EXPECT_DOUBLE_EQ(m.predicted_gbps,
                   gpu::littles_law_gbps(8192, 132, 650, 2800, 128, app::kAssumedBatchNsPerByte));
  // Little's law with the round time L0 (1 + X / peak) + tau x b.
  const double round_ns = 650 * (1 + m.predicted_gbps / 2800) + 128 * app::kAssumedBatchNsPerByte;
  EXPECT_NEAR(m.predicted_gbps * round_ns, 2.0 * 132 * 8192, 1e-6);

  // The probe, its idle warp chase at the ladder's L0: the line takes its wall.
  const double linear_gbps = m.predicted_gbps;
  const auto probe = [](int blocks, int batch, double ns, double gbps) {
    gpu::LoadedLatencyPoint p;
    p.copy_blocks_per_sm = blocks;
    p.batch_bytes = batch;
    p.ns_per_load = ns;
    p.copy_gbps = gbps;
    p.verified = true;
    return p;
  };
  r.probe = {probe(0, 0, 655, 0), probe(0, gpu::kProbeBatchSmall, 560, 0),
             probe(4, gpu::kProbeBatchSmall, 900, 2000),
             probe(4, gpu::kProbeBatchSmall, 2500, 2800)};
  s.inject_results_for_test(r);
  ASSERT_TRUE(s.model().loaded);
  EXPECT_DOUBLE_EQ(s.model().predicted_gbps,
                   gpu::littles_law_loaded_gbps(8192, 132, 650, 2800, 128,
                                                app::kAssumedBatchNsPerByte, *s.model().loaded));
  // A probe whose idle chase hit L2 (190 ns against 650) is not the line's.
  r.probe[0].ns_per_load = 190;
  s.inject_results_for_test(r);
  EXPECT_FALSE(s.model().loaded);
  EXPECT_DOUBLE_EQ(s.model().predicted_gbps, linear_gbps);
}

TEST(FlightSession, TheHeadlineIsMeasuredOnceThePanelsOwnPointIsInWhileTheSectionGoesOn) {
  app::FlightSession s(false);
  app::FlightResults r;
  r.busy = true;  // the section's job runs: the model's inputs and the grid are still to come
  s.inject_results_for_test(r);
  EXPECT_FALSE(app::flight_headline(s, s.measured()).value);
  EXPECT_TRUE(app::flight_headline(s, s.measured()).busy);
  gpu::StreamMeasurement own;
  own.params = s.state().stream;
  own.gbps = 2500;
  own.verified = true;
  r.stream.push_back(own);
  s.inject_results_for_test(r);
  const app::Headline h = app::flight_headline(s, s.measured());
  ASSERT_TRUE(h.value);
  EXPECT_DOUBLE_EQ(*h.value, 2500);
  EXPECT_FALSE(h.busy) << "a restarted window waited for the whole section (5.8 s on an H100)";
}

TEST(FlightSession, SectionsAndGrid) {
  EXPECT_EQ(app::parse_flight_section("littles-law"), app::FlightSection::LittlesLaw);
  EXPECT_THROW(app::parse_flight_section("tlb"), std::invalid_argument);
  const auto grid = app::littles_law_grid(gpu::model_sm_limits());
  EXPECT_EQ(grid.size(), 32u);
  for (const auto& p : grid) EXPECT_NO_THROW(gpu::check_stream(p, 227 * 1024));
}

// The per-block timeline's analysis on made-up stamps (2 cycles per ns): one SM running three
// blocks one after the other, another running two at once whose successors start after them.
gpu::BlockStamps stamps(unsigned sm, unsigned long long entry, unsigned long long issued,
                        unsigned long long arrived, unsigned long long stored) {
  gpu::BlockStamps b;
  b.smid = sm;
  b.entry = entry;
  b.issued = issued;
  b.arrived = arrived;
  b.stored = stored;
  b.thread0_entry_clock = entry;
  b.thread0_stored_clock = stored;
  b.thread0_entry_ns = 5000 + entry / 2;  // the global timer: another origin, half the rate
  b.thread0_stored_ns = 5000 + stored / 2;
  return b;
}

TEST(FlightTimeline, TheRoundsTermsFromConsecutiveBlocksOnAnSm) {
  // SM 3: blocks of issue 100, wait 1000, store 200 cycles, 300 cycles from one's last store to
  // the next one's entry (the tail); the last block has no successor and does not count.
  std::vector<gpu::BlockStamps> b = {stamps(3, 0, 100, 1100, 1300),
                                     stamps(3, 1600, 1700, 2700, 2900),
                                     stamps(3, 3200, 3300, 4300, 4500)};
  // SM 7: two blocks at once (entries 0 and 40); each one's successor is the first block to
  // start after its last store: the third block for both (the fourth starts after both too).
  b.push_back(stamps(7, 0, 100, 1100, 1300));
  b.push_back(stamps(7, 40, 140, 1140, 1340));
  b.push_back(stamps(7, 1500, 1600, 2600, 2800));  // tails 200 and 160
  b.push_back(stamps(7, 1540, 1640, 2640, 2840));  // no one's successor
  const gpu::BlockTimeline t = gpu::block_timeline_from_stamps(b);
  EXPECT_EQ(t.sms, 2);
  EXPECT_EQ(t.rounds, 4);  // SM 3's first two, SM 7's first two
  EXPECT_NEAR(t.sm_clock_ghz, 2.0, 1e-9);
  EXPECT_NEAR(t.issue_ns, 50, 1e-9);
  EXPECT_NEAR(t.wait_ns, 500, 1e-9);
  EXPECT_NEAR(t.store_ns, 100, 1e-9);
  // Tails (cycles) 300, 300, 200, 160 -> ns 150, 150, 100, 80: median (nearest rank) 150.
  EXPECT_NEAR(t.tail_ns, 150, 1e-9);
  EXPECT_NEAR(t.tail_p10_ns, 80, 1e-9);
  EXPECT_NEAR(t.tail_p90_ns, 150, 1e-9);
  // Rounds (cycles) 1600, 1600, 1500, 1460 -> ns 730, 750, 800, 800: median (nearest rank) 800.
  EXPECT_NEAR(t.round_ns, 800, 1e-9);
}

TEST(FlightTimeline, NoSuccessorNoRound) {
  const gpu::BlockTimeline t =
      gpu::block_timeline_from_stamps({stamps(0, 0, 10, 20, 30), stamps(1, 0, 10, 20, 30)});
  EXPECT_EQ(t.sms, 2);
  EXPECT_EQ(t.rounds, 0);
  EXPECT_EQ(t.tail_ns, 0);
}

// The window's line for one block per SM takes the measured gap (gpu::one_block_wall_gbps) and
// its note says so; with two blocks per SM, or before the timelines are measured, it does not.
TEST(FlightSession, OneBlockPerSmTakesTheTimelinesGapAndSaysIt) {
  app::FlightSession s(false);
  app::FlightState st = s.state();
  st.section = app::FlightSection::LittlesLaw;
  st.stream.word_bytes = 16;
  st.stream.loads_per_thread = 8;  // 32 KiB per SM with one block of 8 warps
  st.stream.dynamic_shared_bytes = gpu::shared_for_blocks(gpu::model_sm_limits(), 256, 1);
  s.set(st);
  ASSERT_TRUE(s.error().empty()) << s.error();
  ASSERT_EQ(s.model().residency.blocks_per_sm, 1);
  app::FlightResults r;
  gpu::MemcpyMeasurement mc;
  mc.gbps = 2889;
  r.memcpy = mc;
  s.inject_results_for_test(r);
  EXPECT_DOUBLE_EQ(s.model().block_gap_ns, 0);
  EXPECT_EQ(app::flight_line_extras_text(s.model()).find("one block per SM"), std::string::npos);
  const double without = s.model().predicted_gbps;
  EXPECT_DOUBLE_EQ(without, 2889);  // the linear line is at the wall at 32 KiB per SM
  gpu::BlockTimeline t;
  t.params = st.stream;
  t.residency.blocks_per_sm = 1;
  t.rounds = 100;
  t.store_ns = 58;
  t.tail_ns = 202;
  t.verified = true;
  r.timelines = {t};
  s.inject_results_for_test(r);
  EXPECT_DOUBLE_EQ(s.model().block_gap_ns, 260);
  EXPECT_NEAR(s.model().predicted_gbps, gpu::one_block_wall_gbps(32768, 132, 2889, 260), 1e-9);
  EXPECT_LT(s.model().predicted_gbps, 0.93 * without);
  EXPECT_NE(app::flight_line_extras_text(s.model()).find("less the 260 ns its SM holds no load"),
            std::string::npos)
      << app::flight_line_extras_text(s.model());
  // Two blocks per SM cover each other's gap.
  st.stream.dynamic_shared_bytes = gpu::shared_for_blocks(gpu::model_sm_limits(), 256, 2);
  s.set(st);
  ASSERT_EQ(s.model().residency.blocks_per_sm, 2);
  EXPECT_DOUBLE_EQ(s.model().block_gap_ns, 0);
}
}  // namespace
}  // namespace warplens
