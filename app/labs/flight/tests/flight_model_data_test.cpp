// The linear Little's-law model against measurements, host only (no GPU):
//  - the linear model (L0 x (1 + X / peak) + tau x b, tau from the one-block copies) against full
//    H100 runs of `warplens measure --lab flight --section all --format json` (flight_runs_data.h):
//    inputs from run 1, judged on run 2's 32 Little's-law copies;
//  - the checker (flight_check.h) without a probe, and on run 3 (tests/data/h100-flight-run3.json),
//    whose probe chased lines in L2 and is refused;
//  - how far the runs themselves scatter at the same copy.
// The line with the probe's wall, and issue 31's goal, are in flight_model_wall_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "flight_check.h"
#include "flight_lab.h"
#include "flight_runs_data.h"

namespace warplens {
namespace {

using namespace flight_runs;  // NOLINT(google-build-using-namespace): the tests' data

struct Worst {
  double below = 0, above = 0;
};
/// The worst |error| of the linear model (inputs `latency_ns`, `peak`, `tau`) on `run`, split by
/// the knee of those inputs, in %: (measured - model) / model, as `warplens measure` reports it.
Worst worst_errors(const Run& run, double latency_ns, double peak, double tau) {
  const double knee = gpu::knee_bytes_per_sm(kSms, latency_ns, peak);
  Worst w;
  for (const auto& c : run.copies) {
    const auto bif = static_cast<double>(c.bytes_in_flight_per_sm);
    const double model =
        gpu::littles_law_gbps(bif, kSms, latency_ns, peak, 32.0 * c.loads * c.word_bytes, tau);
    const double err = 100 * std::abs(c.gbps - model) / model;
    double& worst = bif < knee ? w.below : w.above;
    worst = std::max(worst, err);
  }
  return w;
}

double tau_of(const Run& run) {
  return *gpu::batch_ns_per_byte(measurements(run), kSms, run.latency_ns, run.memcpy_gbps);
}

TEST(FlightModelData, TauComesFromTheOneBlockCopiesAndHoldsAcrossRuns) {
  const auto tau1 =
      gpu::batch_ns_per_byte(measurements(kRun1), kSms, kRun1.latency_ns, kRun1.memcpy_gbps);
  const auto tau2 =
      gpu::batch_ns_per_byte(measurements(kRun2), kSms, kRun2.latency_ns, kRun2.memcpy_gbps);
  ASSERT_TRUE(tau1 && tau2);
  EXPECT_NEAR(*tau1, 0.264, 0.001);  // 128 .. 512 B per warp, 8 warps, below the 5.8 KiB knee
  EXPECT_NEAR(*tau2, 0.250, 0.001);
  EXPECT_NEAR(tau_of(kRun5), 0.244, 0.001);
  // Without two one-block copies of different warp bytes there is nothing to measure.
  auto few = measurements(kRun1);
  few.erase(std::remove_if(few.begin(), few.end(),
                           [](const auto& m) {
                             return m.params.loads_per_thread != 1 || m.params.word_bytes != 4;
                           }),
            few.end());
  EXPECT_FALSE(gpu::batch_ns_per_byte(few, kSms, kRun1.latency_ns, kRun1.memcpy_gbps));
}

TEST(FlightModelData, RunTwoWithRunOnesInputs) {
  const double tau = tau_of(kRun1);
  const Worst refined = worst_errors(kRun2, kRun1.latency_ns, kRun1.memcpy_gbps, tau);
  const Worst old = worst_errors(kRun2, kRun1.latency_ns, kRun1.memcpy_gbps, 0);
  // Below the knee: the goal is 10 %; without tau 11.7 %, with it 1.7 % (2.0 % when tau x b
  // grew with the load as L0 does).
  EXPECT_GT(old.below, 11);
  EXPECT_NEAR(refined.below, 1.7, 0.1);
  // Above it the linear model alone misses 5 %: 16.8 % -> 11.1 %. What is left is the approach
  // to the peak between 2 and 3 knees (16 KiB per SM: 4-byte x 8 loads x 16 warps 2569 GB/s
  // against the cap of 2890), where the copies bend before the linear growth's hard cap; the
  // probe's wall takes it (flight_model_wall_test.cpp).
  EXPECT_GT(old.above, 16);
  EXPECT_NEAR(refined.above, 11.1, 0.1);
}

TEST(FlightModelData, RunOneInSample) {
  const Worst refined = worst_errors(kRun1, kRun1.latency_ns, kRun1.memcpy_gbps, tau_of(kRun1));
  EXPECT_LE(refined.below, 1.0);
  EXPECT_LE(refined.above, 14);
}

TEST(FlightModelData, FatterWarpsLoseAtTheSameBytesInFlight) {
  // 16 KiB per SM, run 1's inputs: 64 warps x 2 x 4 B (256 B per warp) above 8 warps x 4 x 16 B
  // (2 KiB per warp), as measured (2726 and 2505 GB/s in run 2).
  const double tau = 0.26;
  const double thin =
      gpu::littles_law_gbps(16384, kSms, kRun1.latency_ns, kRun1.memcpy_gbps, 256, tau);
  const double fat =
      gpu::littles_law_gbps(16384, kSms, kRun1.latency_ns, kRun1.memcpy_gbps, 2048, tau);
  EXPECT_GT(thin, fat);
  EXPECT_DOUBLE_EQ(thin, kRun1.memcpy_gbps);  // the linear growth's hard cap (run 2: 2726)
  EXPECT_NEAR(fat, 2749, 1);                  // run 2 measured 2505: the wall bends earlier
  EXPECT_DOUBLE_EQ(gpu::batch_latency_ns(533.6, 2048, 0.26), 533.6 + 0.26 * 2048);
  // tau = 0 is the model without the batch.
  EXPECT_DOUBLE_EQ(gpu::littles_law_gbps(8192, kSms, 536, 2896, 1024, 0),
                   gpu::littles_law_gbps(8192, kSms, 536, 2896));
}

TEST(FlightModelData, TheLinearLineSolvesLittlesLawWithTheBatchOutsideTheLoad) {
  // X x (L0 (1 + X / peak) + tau b) = 2 x SMs x bytes, below the cap.
  for (double bif : {1024.0, 4096.0, 8192.0, 12000.0})
    for (double b : {128.0, 1024.0, 4096.0}) {
      const double x = gpu::littles_law_gbps(bif, kSms, 533.6, 2890, b, 0.26);
      ASSERT_LT(x, 2890) << bif << " " << b;
      EXPECT_NEAR(x * (533.6 * (1 + x / 2890) + 0.26 * b), 2.0 * kSms * bif, 1e-6 * bif);
    }
  EXPECT_DOUBLE_EQ(gpu::littles_law_gbps(65536, kSms, 533.6, 2890, 512, 0.26), 2890);
  EXPECT_EQ(gpu::littles_law_gbps(4096, kSms, 0, 2890, 512, 0.26), 0);
}

// --- the checker ------------------------------------------------------------------------------

TEST(FlightCheck, RunTwoWithRunOnesInputsAsTheLinearModelSaysWithoutAProbe) {
  const auto c = app::check_flight_model(measure_document(kRun2), measure_document(kRun1));
  EXPECT_EQ(c.model, "linear");
  EXPECT_EQ(c.probe_points, 0);
  EXPECT_EQ(c.below + c.above, 32);
  EXPECT_EQ(c.below, 7);
  const double tau = tau_of(kRun1);
  const Worst w = worst_errors(kRun2, kRun1.latency_ns, kRun1.memcpy_gbps, tau);
  EXPECT_NEAR(c.worst_below_pct, w.below, 1e-9);
  EXPECT_NEAR(c.worst_above_pct, w.above, 1e-9);
  EXPECT_NEAR(c.linear_worst_below_pct, w.below, 1e-9);  // the line is the linear model
  EXPECT_NEAR(c.linear_worst_above_pct, w.above, 1e-9);
  EXPECT_NEAR(c.tau_ns_per_byte, tau, 1e-12);
  EXPECT_FALSE(c.probe_model);
  EXPECT_FALSE(c.meets_goals());
  EXPECT_EQ(c.lines.size(), 32u);
  // A document without what the model needs is refused.
  EXPECT_THROW(app::check_flight_model(measure_document(kRun2), nlohmann::json::object()),
               std::invalid_argument);
  EXPECT_THROW(app::check_flight_model(nlohmann::json{{"rows", nlohmann::json::array()}},
                                       measure_document(kRun1)),
               std::invalid_argument);
}

// The first H100 run with the loaded-latency probe (H100 80GB HBM3, driver 580.159.04,
// 2026-11-27, commit e48fb83a753f; tests/data/h100-flight-run3.json): its probe chased, launch
// after launch, lines still in L2 (idle warp chase 190 ns against the ladder's 534), so the
// checker refuses its curve and judges the linear line: 2.4 % below the knee, 15.1 % above (one
// copy, 16 B x 4 loads x 32 warps: 2443 GB/s, where runs 1 and 2 measured 2898 and 2817).
nlohmann::json run_document(const std::string& name) {
  std::ifstream in(std::string(WARPLENS_SOURCE_DIR) + "/tests/data/" + name);
  EXPECT_TRUE(in) << "tests/data/" << name;
  return in ? nlohmann::json::parse(in) : nlohmann::json::object();
}
nlohmann::json run3_document() {
  return run_document("h100-flight-run3.json");
}

TEST(FlightModelData, RunThreesProbeChasedL2AndIsRefused) {
  const auto doc = run3_document();
  const auto c = app::check_flight_model(doc, doc);
  EXPECT_EQ(c.model, "linear");
  EXPECT_FALSE(c.probe_model);
  EXPECT_EQ(c.probe_points, 15);
  EXPECT_EQ(c.below, 7);
  EXPECT_EQ(c.above, 25);
  EXPECT_NEAR(c.worst_below_pct, 2.4, 0.1);
  EXPECT_NEAR(c.worst_above_pct, 15.1, 0.1);
  EXPECT_FALSE(c.meets_goals());
}

// A fresh H100 run of the whole section (H100 80GB HBM3, driver 580.159.04, 2026-11-27, commit
// 0d3eec88b075; tests/data/h100-flight-run8.json), judged on its own ladder, probe and copies as
// the window judges it: the probe's line meets both goals, 1.3 % below the knee and 4.9 % above
// (the linear line beside it 10.8 % above). The run before it (6aa41ec, its JSON not kept) read
// 0.9 % / 7.0 %: its one-block 16 B x 8 x 8 copy at 32 KiB per SM ran 7 % under the wall.
TEST(FlightModelData, RunEightsLineMeetsBothGoals) {
  const auto doc = run_document("h100-flight-run8.json");
  ASSERT_TRUE(doc.contains("rows"));
  const auto c = app::check_flight_model(doc, doc);
  EXPECT_TRUE(c.probe_model);
  EXPECT_EQ(c.below, 7);
  EXPECT_EQ(c.above, 25);
  EXPECT_NEAR(c.worst_below_pct, 1.3, 0.1);
  EXPECT_NEAR(c.worst_above_pct, 4.9, 0.1);
  EXPECT_TRUE(c.meets_goals());
}

// The batch chase (one warp, 4 x 512 B against 1 x 512 B of contiguous 16-byte loads, as a copy
// warp's batch lies) pays 0.022-0.024 ns per byte at every load of run 3's probe. A copy block's
// 8 warps issue their batches together and the block ends with its last byte, so the block's
// bytes queue on one SM's path: 8 x the chase's cost per byte is about 70 % of the copies' tau
// (0.26 ns/B in runs 1 and 2; it matched the tau of the earlier form, (L0 + tau b)(1 + X / peak),
// within 5 %). The rest of tau, about 0.08 ns/B, is not measured by the probe (docs/flight.md).
TEST(FlightModelData, TheBatchChaseTimesTheWarpsOfABlockIsMostOfTheCopiesTau) {
  const auto doc = run3_document();
  ASSERT_TRUE(doc.contains("rows"));
  std::vector<gpu::LoadedLatencyPoint> probe;
  for (const auto& r : doc.at("rows")) {
    if (r.value("section", "") != "loaded-latency") continue;
    probe.push_back(probe_point(r.at("copy_blocks_per_sm").get<int>(),
                                r.at("batch_bytes").get<int>(), r.at("ns_per_load").get<double>(),
                                r.at("copy_gbps").get<double>(), r.at("verified").get<bool>()));
  }
  const auto m = gpu::loaded_latency_model(probe);  // no L0 to check its idle state against
  ASSERT_TRUE(m);
  ASSERT_EQ(m->batch.gbps.size(), 5u);  // idle and 4 loads
  constexpr int kWarpsPerBlock = 256 / 32;
  for (double x : {1356.0, 2132.0, 2290.0}) {  // the loaded points' rates
    const double per_warp_byte = kWarpsPerBlock * m->batch.at(x);
    for (const auto* run : {&kRun1, &kRun2}) {
      const double share = per_warp_byte / tau_of(*run);
      EXPECT_GT(share, 0.65) << x << " GB/s: " << per_warp_byte;
      EXPECT_LT(share, 0.78) << x << " GB/s: " << per_warp_byte;
    }
  }
}

// How much of the 5 % the runs leave a model: run 1's own GB/s as the prediction of the same copy
// in runs 2 and 5 misses by up to 3.6 % and 3.4 % above the knee (4 B x 8 loads x 64 warps: 2768
// in run 1, 2868 and 2862 after), 2.5 % and 2.1 % below it.
TEST(FlightModelData, TheRunsScatterAtTheSameCopy) {
  const double knee = gpu::knee_bytes_per_sm(kSms, kRun1.latency_ns, kRun1.memcpy_gbps);
  for (const auto& [run, below, above] :
       {std::tuple{&kRun2, 2.5, 3.6}, std::tuple{&kRun5, 2.1, 3.4}}) {
    Worst w;
    ASSERT_EQ(run->copies.size(), kRun1.copies.size());
    for (std::size_t i = 0; i < kRun1.copies.size(); ++i) {
      const Copy& a = kRun1.copies[i];
      const Copy& b = run->copies[i];
      ASSERT_EQ(a.bytes_in_flight_per_sm, b.bytes_in_flight_per_sm);
      ASSERT_EQ(a.warps_per_sm, b.warps_per_sm);
      const double err = 100 * std::abs(b.gbps - a.gbps) / a.gbps;
      double& worst = static_cast<double>(a.bytes_in_flight_per_sm) < knee ? w.below : w.above;
      worst = std::max(worst, err);
    }
    EXPECT_NEAR(w.below, below, 0.1);
    EXPECT_NEAR(w.above, above, 0.1);
  }
}

}  // namespace
}  // namespace warplens
