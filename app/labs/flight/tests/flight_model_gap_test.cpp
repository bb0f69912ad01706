// One block per SM near the wall (issue 31; flight_lab.h, gpu::one_block_wall_gbps): the gap the
// per-block timeline measures (store + tail), how the line takes it, and what it does to the
// H100's runs: run 10 (H100 80GB HBM3, driver 580.159.04, 2026-11-28, commit 93f2cf9;
// tests/data/h100-flight-run10.json, `--section all`, and h100-flight-run10-timeline.json,
// `--section timeline`, both from one call), with runs 1 and 2 (2026-11-27, flight_runs_data.h)
// and run 8 (tests/data).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <vector>

#include "flight_check.h"
#include "flight_lab.h"
#include "flight_runs_data.h"

namespace warplens {
namespace {

gpu::BlockTimeline timeline(int loads, int blocks_per_sm, double store_ns, double tail_ns,
                            bool verified = true) {
  gpu::BlockTimeline t;
  t.params.word_bytes = 16;
  t.params.loads_per_thread = loads;
  t.residency.blocks_per_sm = blocks_per_sm;
  t.rounds = 100;
  t.store_ns = store_ns;
  t.tail_ns = tail_ns;
  t.verified = verified;
  return t;
}

TEST(FlightGap, TheGapsAreStorePlusTailOfTheVerifiedOneBlockTimelines) {
  const auto g = gpu::block_gaps({timeline(4, 1, 49, 197), timeline(1, 1, 16, 198),
                                  timeline(1, 2, 16, 181), timeline(8, 1, 58, 202, false)});
  ASSERT_EQ(g.thread_bytes, (std::vector<double>{16, 64}));
  EXPECT_DOUBLE_EQ(g.gap_ns[0], 214);
  EXPECT_DOUBLE_EQ(g.gap_ns[1], 246);
  EXPECT_DOUBLE_EQ(g.at(16), 214);
  EXPECT_DOUBLE_EQ(g.at(40), 230);   // on the straight line between 16 and 64 bytes
  EXPECT_DOUBLE_EQ(g.at(4), 214);    // below the first: the first's
  EXPECT_DOUBLE_EQ(g.at(128), 246);  // past the last: the last's
  EXPECT_DOUBLE_EQ(gpu::BlockGaps{}.at(64), 0);
  EXPECT_TRUE(gpu::block_gaps({timeline(1, 2, 16, 181)}).empty());
}

TEST(FlightGap, OneBlockMovesItsBytesAtTheWallPlusTheGap) {
  // 16 KiB per SM on 132 SMs at 2889 GB/s: R = 2 x 132 x 16384 / 2889 = 1497 ns a round.
  const double r = 2.0 * 132 * 16384 / 2889;
  EXPECT_NEAR(gpu::one_block_wall_gbps(16384, 132, 2889, 246), 2889 * r / (r + 246), 1e-9);
  EXPECT_NEAR(gpu::one_block_wall_gbps(16384, 132, 2889, 246), 2481, 1);
  EXPECT_DOUBLE_EQ(gpu::one_block_wall_gbps(16384, 132, 2889, 0), 2889);
  EXPECT_EQ(gpu::one_block_wall_gbps(0, 132, 2889, 246), 0);
  EXPECT_EQ(gpu::one_block_wall_gbps(16384, 132, 0, 246), 0);
  // More bytes per round: the gap weighs less.
  EXPECT_GT(gpu::one_block_wall_gbps(32768, 132, 2889, 246),
            gpu::one_block_wall_gbps(16384, 132, 2889, 246));
}

TEST(FlightGap, TheLineCapsOnlyOneBlockPerSmAndOnlyWithGaps) {
  gpu::LittlesLawLine line;
  line.sms = 132;
  line.latency_ns = 535;
  line.peak_gbps = 2889;
  line.batch_ns_per_byte = 0.26;
  const double uncapped = line.gbps(32768, 4096, 1, 128);
  EXPECT_DOUBLE_EQ(uncapped, line.linear_gbps(32768, 4096));  // no probe, no gaps: linear
  EXPECT_DOUBLE_EQ(uncapped, 2889);
  line.gaps = gpu::block_gaps({timeline(8, 1, 58, 202)});
  EXPECT_NEAR(line.gbps(32768, 4096, 1, 128), gpu::one_block_wall_gbps(32768, 132, 2889, 260),
              1e-9);
  EXPECT_DOUBLE_EQ(line.gbps(32768, 4096, 2, 128), 2889);  // two blocks cover each other's gap
  EXPECT_DOUBLE_EQ(line.gbps(32768, 4096, 1, 0), 2889);    // thread bytes unknown
  // Below the knee the line is lower than the cap: unchanged.
  EXPECT_DOUBLE_EQ(line.gbps(4096, 512, 1, 16), line.linear_gbps(4096, 512));
}

nlohmann::json document(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  return in ? nlohmann::json::parse(in) : nlohmann::json::object();
}
nlohmann::json data(const std::string& name) {
  return document(std::string(WARPLENS_SOURCE_DIR) + "/tests/data/" + name);
}

// Run 10 in sample: the one-block 32 KiB copy (16 B x 8 loads x 8 warps, 2670 GB/s) was 7.6 %
// under the probe's line (at the wall, 2889); with its timeline's gap (58 + 202 ns) the line reads
// 2658 and the worst copy above the knee is another, 5.1 % (4 B x 8 loads x 16 warps, two blocks
// per SM, 2501 against 2635): the goal of 5 % is still missed, by the probe's line at 16 KiB per
// SM, not by one block per SM.
TEST(FlightModelData, RunTensOneBlockCopyWithItsGap) {
  const auto all = data("h100-flight-run10.json");
  const auto stamps = data("h100-flight-run10-timeline.json");
  const auto without = app::check_flight_model(all, all);
  EXPECT_EQ(without.model, "probe wall");
  EXPECT_NEAR(without.worst_above_pct, 7.6, 0.1);
  const auto with = app::check_flight_model(all, all, nullptr, &stamps);
  EXPECT_EQ(with.model, "probe wall, one-block gap");
  EXPECT_EQ(with.gap_points, 4);
  EXPECT_NEAR(with.worst_below_pct, 2.3, 0.1);
  EXPECT_NEAR(with.worst_above_pct, 5.1, 0.1);
  bool seen = false;
  for (const auto& l : with.lines)
    if (l.find("16 B x 8 loads,  8 warps/SM (1 blocks)") != std::string::npos) {
      seen = true;
      EXPECT_NE(l.find("measured   2670, line   2658 ( +0.5 %)"), std::string::npos) << l;
    }
  EXPECT_TRUE(seen);
}

// Out of sample: run 2's copies, run 1's ladder, cudaMemcpy and tau, run 10's probe and gaps:
// 1.7 % below the knee, 5.6 % above (6.3 % without the gaps); the worst is now the one-block 16
// KiB copy 5.6 % over the probe's line. Run 8 with run 10's gaps: 1.3 / 3.5 % (4.9 % without).
TEST(FlightModelData, OutOfSampleWithRunTensGaps) {
  const auto run10 = data("h100-flight-run10.json");
  const auto stamps = data("h100-flight-run10-timeline.json");
  const auto run1 = flight_runs::measure_document(flight_runs::kRun1);
  const auto run2 = flight_runs::measure_document(flight_runs::kRun2);
  const auto c = app::check_flight_model(run2, run1, &run10, &stamps);
  EXPECT_NEAR(c.worst_below_pct, 1.7, 0.1);
  EXPECT_NEAR(c.worst_above_pct, 5.6, 0.1);
  EXPECT_NEAR(app::check_flight_model(run2, run1, &run10).worst_above_pct, 6.3, 0.1);
  const auto run8 = data("h100-flight-run8.json");
  const auto eight = app::check_flight_model(run8, run8, nullptr, &stamps);
  EXPECT_NEAR(eight.worst_below_pct, 1.3, 0.1);
  EXPECT_NEAR(eight.worst_above_pct, 3.5, 0.1);
  EXPECT_TRUE(eight.meets_goals());
}

}  // namespace
}  // namespace warplens
