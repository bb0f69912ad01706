// The Little's-law line with the probe's wall (gpu::loaded_latency_model, littles_law_loaded_gbps;
// docs/flight.md, "The line near the wall"), host only (no GPU):
//  - the probe's curve on probe points built by hand, where the answer is known: the lower
//    envelope of the 512-B batch chase, the idle check against the ladder's L0, the solve;
//  - issue 31's goal on the H100 (<= 10 % below the knee, <= 5 % above): inputs from run 1 (its
//    ladder's L0, cudaMemcpy and tau from its one-block copies) and run 5's probe (runs 1 and 2
//    predate the probe), judged on runs 2 and 5 (flight_runs_data.h), per copy.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <vector>

#include "flight_check.h"
#include "flight_lab.h"
#include "flight_runs_data.h"

namespace warplens {
namespace {

using namespace flight_runs;  // NOLINT(google-build-using-namespace): the tests' data

TEST(FlightWallModel, TheCurveIsTheSmallBatchChasesLowerEnvelope) {
  const std::vector<gpu::LoadedLatencyPoint> points = {
      probe_point(0, 0, 540, 0),  // the idle warp chase: checked against L0, not in the curve
      probe_point(0, gpu::kProbeBatchSmall, 460, 0),
      probe_point(1, gpu::kProbeBatchSmall, 630, 1350),
      probe_point(7, gpu::kProbeBatchSmall, 1060, 2260),  // at its copy's wall: above 852
      probe_point(4, gpu::kProbeBatchSmall, 852, 2263),
      probe_point(1, gpu::kProbeBatchSmall, 1170, 2628, true, gpu::kProbeCopyLoadsMany),
      probe_point(4, gpu::kProbeBatchSmall, 2167, 2939, true, gpu::kProbeCopyLoadsMany),
      probe_point(2, gpu::kProbeBatchSmall, 1765, 2997, true, gpu::kProbeCopyLoadsMany),
      probe_point(2, gpu::kProbeBatchSmall, 100, 1000, false),  // unverified: left out
      probe_point(7, 0, 2012, 2236),                            // the warp chase: not in the curve
      probe_point(7, gpu::kProbeBatchLarge, 1100, 3300)};       // the top, not in the curve
  const auto m = gpu::loaded_latency_model(points, 533.4);
  ASSERT_TRUE(m);
  EXPECT_DOUBLE_EQ(m->idle_warp_ns, 540);
  EXPECT_DOUBLE_EQ(m->top_gbps, 3300);
  const std::vector<double> gbps = {0, 1350, 2260, 2263, 2628, 2939, 2997};
  const std::vector<double> ns = {460, 630, 852, 852, 1170, 1765, 1765};
  EXPECT_EQ(m->latency.gbps, gbps);
  EXPECT_EQ(m->latency.value, ns);
  EXPECT_DOUBLE_EQ(m->latency.at(675), 545);  // halfway from (0, 460) to (1350, 630)
  // Without an idle and a loaded small batch chase there is no curve.
  EXPECT_FALSE(gpu::loaded_latency_model({probe_point(0, gpu::kProbeBatchSmall, 460, 0)}));
  EXPECT_FALSE(gpu::loaded_latency_model({probe_point(4, gpu::kProbeBatchSmall, 852, 2263)}));
}

TEST(FlightWallModel, AProbeThatDidNotChaseDramIsRefused) {
  std::vector<gpu::LoadedLatencyPoint> points = {probe_point(0, gpu::kProbeBatchSmall, 235, 0),
                                                 probe_point(4, gpu::kProbeBatchSmall, 856, 2293)};
  EXPECT_TRUE(gpu::loaded_latency_model(points));          // nothing to check it against
  EXPECT_FALSE(gpu::loaded_latency_model(points, 533.9));  // and no idle warp chase
  points.push_back(probe_point(0, 0, 190, 0));             // run 3's: an L2 hit
  EXPECT_FALSE(gpu::loaded_latency_model(points, 533.9));
  points.back().ns_per_load = 533.9 * (1 + gpu::kProbeIdleTolerance) - 0.1;
  EXPECT_TRUE(gpu::loaded_latency_model(points, 533.9));
  points.back().ns_per_load = 533.9 * (1 - gpu::kProbeIdleTolerance) - 0.1;
  EXPECT_FALSE(gpu::loaded_latency_model(points, 533.9));
}

TEST(FlightWallModel, BatchesPairOnlyBesideTheSameCopy) {
  // At 7 blocks per SM the one-load and the four-load copies are two loads: each pairs its own
  // 512 and 2048 B chases, never one with the other.
  const std::vector<gpu::LoadedLatencyPoint> points = {
      probe_point(0, gpu::kProbeBatchSmall, 460, 0), probe_point(7, 512, 1000, 2200),
      probe_point(7, 2048, 1030.72, 2200),
      probe_point(7, 512, 1200, 2800, true, gpu::kProbeCopyLoadsMany),
      probe_point(7, 2048, 1292.16, 2800, true, gpu::kProbeCopyLoadsMany)};
  const auto m = gpu::loaded_latency_model(points);
  ASSERT_TRUE(m);
  ASSERT_EQ(m->batch.gbps.size(), 2u);
  EXPECT_DOUBLE_EQ(m->batch.gbps[0], 2200);
  EXPECT_NEAR(m->batch.value[0], 0.02, 1e-12);
  EXPECT_DOUBLE_EQ(m->batch.gbps[1], 2800);
  EXPECT_NEAR(m->batch.value[1], 0.06, 1e-12);
}

TEST(FlightWallModel, TheLatencyIsTheLargerOfTheLinearGrowthAndTheProbesCurve) {
  constexpr double kL0 = 533.6, kPeak = 2890, kTau = 0.26;
  // A curve that rises less than L0 x (1 + X / peak) everywhere: the linear line.
  gpu::LoadedLatencyModel low;
  low.latency.gbps = {0, 2890};
  low.latency.value = {460, 460 * 1.5};
  for (double bif : {1024.0, 8192.0, 16384.0, 65536.0})
    EXPECT_NEAR(gpu::littles_law_loaded_gbps(bif, kSms, kL0, kPeak, 512, kTau, low),
                gpu::littles_law_gbps(bif, kSms, kL0, kPeak, 512, kTau), 1e-6)
        << bif;
  // No curve: the linear line.
  EXPECT_DOUBLE_EQ(
      gpu::littles_law_loaded_gbps(8192, kSms, kL0, kPeak, 512, kTau, gpu::LoadedLatencyModel{}),
      gpu::littles_law_gbps(8192, kSms, kL0, kPeak, 512, kTau));
  // A curve that rises to 4 x its idle at the peak: X x T(X) = 2 x SMs x bytes with
  // T(X) = max(L0 (1 + X / peak), L0 x Lp(X) / Lp(0)) + tau x b, short of the cap.
  gpu::LoadedLatencyModel wall;
  wall.latency.gbps = {0, 2000, 2890};
  wall.latency.value = {460, 460 * 1.6, 460 * 4};
  const double x = gpu::littles_law_loaded_gbps(16384, kSms, kL0, kPeak, 512, kTau, wall);
  EXPECT_LT(x, gpu::littles_law_gbps(16384, kSms, kL0, kPeak, 512, kTau));
  const double round = std::max(kL0 * (1 + x / kPeak), kL0 * wall.latency.at(x) / 460) + kTau * 512;
  EXPECT_NEAR(x * round, 2.0 * kSms * 16384, 1e-3);
  EXPECT_DOUBLE_EQ(gpu::littles_law_loaded_gbps(1 << 22, kSms, kL0, kPeak, 512, kTau, wall), kPeak);
  EXPECT_EQ(gpu::littles_law_loaded_gbps(4096, kSms, kL0, 0, 512, kTau, wall), 0);
}

TEST(FlightWallModel, ProbeLoadsLeaveRoomForTheChase) {
  const auto loads = gpu::probe_copy_blocks(gpu::model_sm_limits());  // 2048 threads per SM
  EXPECT_EQ(loads, (std::vector<int>{0, 1, 2, 4, 7}));
  gpu::SmLimits small = gpu::model_sm_limits();
  small.max_threads_per_sm = 1024;  // 4 blocks of 256: 3 beside the chase
  EXPECT_EQ(gpu::probe_copy_blocks(small), (std::vector<int>{0, 1, 2, 3}));
}

// --- issue 31's goal on the H100 ---------------------------------------------------------------

std::vector<gpu::LoadedLatencyPoint> run5_probe(bool with_full_sm = true) {
  std::vector<gpu::LoadedLatencyPoint> v;
  for (const auto& p : kRun5Probe)
    if (with_full_sm || p.copy_blocks_per_sm != 7)
      v.push_back(
          probe_point(p.copy_blocks_per_sm, p.batch_bytes, p.ns, p.gbps, true, p.copy_loads));
  return v;
}

struct Judged {
  double below = 0, above = 0;  ///< worst |error| %, split by the inputs' knee
  double worst_gbps = 0;        ///< the copy of the worst error above the knee: measured GB/s
  int worst_blocks = 0;         ///< and its blocks per SM
};
/// The line with run 1's inputs and `probe`'s curve on `run`'s copies.
Judged judge(const Run& run, const std::vector<gpu::LoadedLatencyPoint>& probe) {
  const double l0 = kRun1.latency_ns, peak = kRun1.memcpy_gbps;
  const double tau = *gpu::batch_ns_per_byte(measurements(kRun1), kSms, l0, peak);  // 0.264 ns/B
  const auto wall = gpu::loaded_latency_model(probe, l0);
  EXPECT_TRUE(wall);
  const double knee = gpu::knee_bytes_per_sm(kSms, l0, peak);
  Judged j;
  for (const auto& c : run.copies) {
    const auto bif = static_cast<double>(c.bytes_in_flight_per_sm);
    const double b = 32.0 * c.loads * c.word_bytes;
    const double line = gpu::littles_law_loaded_gbps(bif, kSms, l0, peak, b, tau, *wall);
    const double err = 100 * std::abs(c.gbps - line) / line;
    if (bif < knee) {
      j.below = std::max(j.below, err);
    } else if (err > j.above) {
      j.above = err;
      j.worst_gbps = c.gbps;
      j.worst_blocks = c.blocks_per_sm;
    }
  }
  return j;
}

// Out of sample on run 2 (every input from runs 1 and 5), and on run 5 with run 1's ladder,
// cudaMemcpy and tau: within the goal below the knee; above it 6.3 % and 5.9 %, from one copy,
// the one block per SM of 32 KiB (16 B x 8 loads x 8 warps: 2702 and 2712 GB/s measured, 2890
// predicted; 0.94 of cudaMemcpy, which no input of the line measures). Every other copy is within
// 4.2 %. The linear model on the same inputs: 11.1 % and 11.5 % above. NOT met.
TEST(FlightModelData, RunsTwoAndFiveWithRunOnesInputsAndRunFivesProbe) {
  const Judged two = judge(kRun2, run5_probe());
  EXPECT_NEAR(two.below, 1.7, 0.1);
  EXPECT_NEAR(two.above, 6.3, 0.1);
  EXPECT_NEAR(two.worst_gbps, 2701.6, 0.05);
  EXPECT_EQ(two.worst_blocks, 1);
  const Judged five = judge(kRun5, run5_probe());
  EXPECT_NEAR(five.below, 1.4, 0.1);
  EXPECT_NEAR(five.above, 5.9, 0.1);
  EXPECT_NEAR(five.worst_gbps, 2712.1, 0.05);
  EXPECT_EQ(five.worst_blocks, 1);
  // Without that copy, the worst above the knee.
  for (const auto* run : {&kRun2, &kRun5}) {
    flight_runs::Run rest = *run;
    rest.copies.erase(std::remove_if(rest.copies.begin(), rest.copies.end(),
                                     [](const Copy& c) {
                                       return c.blocks_per_sm == 1 &&
                                              c.bytes_in_flight_per_sm == 32768;
                                     }),
                      rest.copies.end());
    EXPECT_LE(judge(rest, run5_probe()).above, 4.3);
  }
}

// The same through the checker: the line is the probe wall's, the linear model beside it.
TEST(FlightCheck, TheLineTakesTheProbesWallWhenTheProbeGivesACurve) {
  const auto inputs = measure_document(kRun1);
  const auto probe = run5_document(true);
  const auto two = app::check_flight_model(measure_document(kRun2), inputs, &probe);
  EXPECT_EQ(two.model, "probe wall");
  EXPECT_TRUE(two.probe_model);
  EXPECT_EQ(two.probe_points, 27);
  const Judged j = judge(kRun2, run5_probe());
  EXPECT_NEAR(two.worst_below_pct, j.below, 1e-9);
  EXPECT_NEAR(two.worst_above_pct, j.above, 1e-9);
  EXPECT_NEAR(two.linear_worst_below_pct, 1.7, 0.1);
  EXPECT_NEAR(two.linear_worst_above_pct, 11.1, 0.1);
  EXPECT_FALSE(two.meets_goals());
  // Run 5 in sample (its own L0, cudaMemcpy, tau and probe), as its `measure` would report it.
  const auto five = app::check_flight_model(probe, probe);
  EXPECT_EQ(five.model, "probe wall");
  EXPECT_NEAR(five.worst_below_pct, 1.5, 0.1);
  EXPECT_NEAR(five.worst_above_pct, 5.8, 0.1);  // the one-block 32 KiB copy again
  EXPECT_NEAR(five.linear_worst_above_pct, 11.1, 0.1);
}

// How much the result hangs on the probe's points at a copy's own wall: leaving out the points
// with 7 copy blocks per SM (the chase's SM full) instead of taking the lower envelope's reading
// would keep the four-load copy's 4-block point (2939 GB/s, 2167 ns) and meet the goal on both
// runs (3.6 % and 4.2 % above). That rule was found by looking at these runs, so the line does not
// use it; a fresh GPU run decides (docs/flight.md).
TEST(FlightModelData, TheWallPointsTheResultHangsOn) {
  EXPECT_NEAR(judge(kRun2, run5_probe(false)).above, 6.3, 0.1);  // the envelope already drops 7
  auto never_falling = run5_probe(false);
  // The old curve rule (ascending rate, a point below the one before taken as that one) keeps
  // 2167 ns from 2939 GB/s on: emulate it by lifting the 2-block four-load point to it.
  for (auto& p : never_falling)
    if (p.copy_loads_per_thread == gpu::kProbeCopyLoadsMany && p.copy_blocks_per_sm == 2 &&
        p.batch_bytes == gpu::kProbeBatchSmall)
      p.ns_per_load = 2166.812;
  EXPECT_NEAR(judge(kRun2, never_falling).above, 3.6, 0.1);
  EXPECT_NEAR(judge(kRun5, never_falling).above, 4.2, 0.1);
}

}  // namespace
}  // namespace warplens
