// The Little's-law models against measurements, host only (no GPU):
//  - the linear model (L0 x (1 + X / peak) + tau x b, tau from the one-block copies) against two
//    full H100 runs of `warplens measure --lab flight --section all --format json` (H100 80GB
//    HBM3, 2026-11-27, shared/measurements/2026-11-27/h100-flight-run{1,2}.json, from before the
//    loaded-latency probe): inputs from run 1, judged on run 2's 32 Little's-law copies;
//  - the loaded-latency model (the probe's curves, flight_lab.h) on probe points built by hand,
//    where the answer is known in closed form;
//  - the checker (flight_check.h) on measure documents built from those runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "flight_check.h"
#include "flight_lab.h"

namespace warplens {
namespace {

struct Copy {
  int word_bytes, loads, warps_per_sm, blocks_per_sm;
  long long bytes_in_flight_per_sm;
  double gbps;
};
struct Run {
  double memcpy_gbps, latency_ns;
  std::vector<Copy> copies;
};

constexpr int kSms = 132;

// Run 1: cudaMemcpy 2889.6 GB/s, warp chase DRAM plateau 533.55 ns.
const Run kRun1 = {2889.6342,
                   533.5546,
                   {
                       {4, 1, 8, 1, 1024, 419.6},      {4, 1, 16, 2, 2048, 763.0},
                       {4, 1, 32, 4, 4096, 1336.4},    {4, 1, 64, 8, 8192, 2306.8},
                       {4, 2, 8, 1, 2048, 732.3},      {4, 2, 16, 2, 4096, 1277.8},
                       {4, 2, 32, 4, 8192, 2133.4},    {4, 2, 64, 8, 16384, 2739.1},
                       {4, 4, 8, 1, 4096, 1221.9},     {4, 4, 16, 2, 8192, 2054.0},
                       {4, 4, 32, 4, 16384, 2673.7},   {4, 4, 64, 8, 32768, 2899.6},
                       {4, 8, 8, 1, 8192, 1890.0},     {4, 8, 16, 2, 16384, 2494.0},
                       {4, 8, 32, 4, 32768, 2800.9},   {4, 8, 64, 8, 65536, 2767.6},
                       {16, 1, 8, 1, 4096, 1203.0},    {16, 1, 16, 2, 8192, 2018.4},
                       {16, 1, 32, 4, 16384, 2643.3},  {16, 1, 64, 8, 32768, 2905.6},
                       {16, 2, 8, 1, 8192, 1925.8},    {16, 2, 16, 2, 16384, 2581.9},
                       {16, 2, 32, 4, 32768, 2910.2},  {16, 2, 64, 8, 65536, 2901.1},
                       {16, 4, 8, 1, 16384, 2521.8},   {16, 4, 16, 2, 32768, 2877.2},
                       {16, 4, 32, 4, 65536, 2897.6},  {16, 4, 64, 8, 131072, 2857.6},
                       {16, 8, 8, 1, 32768, 2696.0},   {16, 8, 16, 2, 65536, 2900.1},
                       {16, 8, 32, 4, 131072, 2866.4}, {16, 8, 48, 6, 196608, 2861.5},
                   }};

// Run 2: cudaMemcpy 2896.6 GB/s, warp chase DRAM plateau 533.84 ns.
const Run kRun2 = {2896.6189,
                   533.8438,
                   {
                       {4, 1, 8, 1, 1024, 419.5},      {4, 1, 16, 2, 2048, 764.2},
                       {4, 1, 32, 4, 4096, 1334.3},    {4, 1, 64, 8, 8192, 2267.8},
                       {4, 2, 8, 1, 2048, 728.7},      {4, 2, 16, 2, 4096, 1269.6},
                       {4, 2, 32, 4, 8192, 2120.5},    {4, 2, 64, 8, 16384, 2725.8},
                       {4, 4, 8, 1, 4096, 1212.5},     {4, 4, 16, 2, 8192, 2045.8},
                       {4, 4, 32, 4, 16384, 2659.3},   {4, 4, 64, 8, 32768, 2877.2},
                       {4, 8, 8, 1, 8192, 1888.1},     {4, 8, 16, 2, 16384, 2569.3},
                       {4, 8, 32, 4, 32768, 2859.6},   {4, 8, 64, 8, 65536, 2868.4},
                       {16, 1, 8, 1, 4096, 1232.7},    {16, 1, 16, 2, 8192, 2060.3},
                       {16, 1, 32, 4, 16384, 2661.4},  {16, 1, 64, 8, 32768, 2885.2},
                       {16, 2, 8, 1, 8192, 1924.4},    {16, 2, 16, 2, 16384, 2594.3},
                       {16, 2, 32, 4, 32768, 2892.6},  {16, 2, 64, 8, 65536, 2900.6},
                       {16, 4, 8, 1, 16384, 2505.2},   {16, 4, 16, 2, 32768, 2842.2},
                       {16, 4, 32, 4, 65536, 2817.3},  {16, 4, 64, 8, 131072, 2874.8},
                       {16, 8, 8, 1, 32768, 2701.6},   {16, 8, 16, 2, 65536, 2890.6},
                       {16, 8, 32, 4, 131072, 2873.3}, {16, 8, 48, 6, 196608, 2838.3},
                   }};

std::vector<gpu::StreamMeasurement> measurements(const Run& run) {
  std::vector<gpu::StreamMeasurement> v;
  for (const auto& c : run.copies) {
    gpu::StreamMeasurement m;
    m.params.word_bytes = c.word_bytes;
    m.params.loads_per_thread = c.loads;
    m.residency.warps_per_sm = c.warps_per_sm;
    m.residency.blocks_per_sm = c.blocks_per_sm;
    m.bytes_in_flight_per_sm = c.bytes_in_flight_per_sm;
    m.gbps = c.gbps;
    m.verified = true;
    v.push_back(m);
  }
  return v;
}

struct Worst {
  double below = 0, above = 0;
};
/// The worst |error| of the model (inputs `latency_ns`, `peak`, `tau`) on `run`, split by the
/// knee of those inputs, in %: (measured - model) / model, as `warplens measure` reports it.
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

TEST(FlightModelData, TauComesFromTheOneBlockCopiesAndHoldsAcrossRuns) {
  const auto tau1 =
      gpu::batch_ns_per_byte(measurements(kRun1), kSms, kRun1.latency_ns, kRun1.memcpy_gbps);
  const auto tau2 =
      gpu::batch_ns_per_byte(measurements(kRun2), kSms, kRun2.latency_ns, kRun2.memcpy_gbps);
  ASSERT_TRUE(tau1 && tau2);
  EXPECT_NEAR(*tau1, 0.190, 0.001);  // 128 .. 512 B per warp, 8 warps, below the 5.8 KiB knee
  EXPECT_NEAR(*tau2, 0.180, 0.001);
  // Without two one-block copies of different warp bytes there is nothing to measure.
  auto few = measurements(kRun1);
  few.erase(std::remove_if(few.begin(), few.end(),
                           [](const auto& m) { return m.params.loads_per_thread != 1; }),
            few.end());
  few.erase(std::remove_if(few.begin(), few.end(),
                           [](const auto& m) { return m.params.word_bytes != 4; }),
            few.end());
  EXPECT_FALSE(gpu::batch_ns_per_byte(few, kSms, kRun1.latency_ns, kRun1.memcpy_gbps));
}

TEST(FlightModelData, RunTwoWithRunOnesInputs) {
  const double tau =
      *gpu::batch_ns_per_byte(measurements(kRun1), kSms, kRun1.latency_ns, kRun1.memcpy_gbps);
  const Worst refined = worst_errors(kRun2, kRun1.latency_ns, kRun1.memcpy_gbps, tau);
  const Worst old = worst_errors(kRun2, kRun1.latency_ns, kRun1.memcpy_gbps, 0);
  // Below the knee: the goal is 10 %; the old model missed by 11.7 %, the refined one by 2.0 %.
  EXPECT_GT(old.below, 11);
  EXPECT_LE(refined.below, 2.5);
  // Above it the goal of 5 % is NOT met: 16.9 % -> 11.1 %. What is left is the approach to the
  // peak between 2 and 3 knees (16 KiB per SM: 4-byte x 8 loads x 16 warps 2569 GB/s against the
  // cap of 2890), where the measured copies bend before the model's hard cap (docs/flight.md).
  EXPECT_GT(old.above, 16);
  EXPECT_LE(refined.above, 11.5);
  EXPECT_GT(refined.above, 5);  // so that meeting the goal updates this test and the docs
}

TEST(FlightModelData, RunOneInSample) {
  const double tau =
      *gpu::batch_ns_per_byte(measurements(kRun1), kSms, kRun1.latency_ns, kRun1.memcpy_gbps);
  const Worst refined = worst_errors(kRun1, kRun1.latency_ns, kRun1.memcpy_gbps, tau);
  EXPECT_LE(refined.below, 1.5);
  EXPECT_LE(refined.above, 14);
}

TEST(FlightModelData, FatterWarpsLoseAtTheSameBytesInFlight) {
  // 16 KiB per SM, run 1's inputs: 64 warps x 2 x 4 B (256 B per warp) above 8 warps x 4 x 16 B
  // (2 KiB per warp), as measured (2726 and 2505 GB/s in run 2).
  const double tau = 0.19;
  const double thin =
      gpu::littles_law_gbps(16384, kSms, kRun1.latency_ns, kRun1.memcpy_gbps, 256, tau);
  const double fat =
      gpu::littles_law_gbps(16384, kSms, kRun1.latency_ns, kRun1.memcpy_gbps, 2048, tau);
  EXPECT_GT(thin, fat);
  EXPECT_NEAR(fat, 2509, 2);  // run 2 measured 2505 (the old model: the cap, 2890)
  EXPECT_DOUBLE_EQ(gpu::batch_latency_ns(533.6, 2048, 0.19), 533.6 + 0.19 * 2048);
  // tau = 0 is the old model.
  EXPECT_DOUBLE_EQ(gpu::littles_law_gbps(8192, kSms, 536, 2896, 1024, 0),
                   gpu::littles_law_gbps(8192, kSms, 536, 2896));
}

// --- the loaded-latency model --------------------------------------------------------------------

gpu::LoadedLatencyPoint probe_point(int load, int batch, double ns, double gbps,
                                    bool verified = true, int copy_loads = 1) {
  gpu::LoadedLatencyPoint p;
  p.copy_blocks_per_sm = load;
  p.copy_loads_per_thread = copy_loads;
  p.batch_bytes = batch;
  p.ns_per_load = ns;
  p.copy_gbps = gbps;
  p.verified = verified;
  return p;
}

TEST(FlightLoadedModel, CurvesGoThroughTheProbesPointsAndNeverFall) {
  const std::vector<gpu::LoadedLatencyPoint> points = {
      probe_point(0, 0, 500, 0),
      probe_point(2, 0, 700, 1000),
      probe_point(7, 0, 1500, 2800),
      probe_point(4, 0, 650, 2000),  // under its left one
      probe_point(0, 512, 300, 0),
      probe_point(0, 2048, 330.72, 0),
      probe_point(7, 512, 1000, 2790),
      probe_point(7, 2048, 1460.8, 2810),
      probe_point(2, 2048, 9999, 1000, false)};  // unverified: left out (no pair at 2 either)
  const auto m = gpu::loaded_latency_model(points);
  ASSERT_TRUE(m);
  ASSERT_EQ(m->latency.gbps.size(), 4u);
  EXPECT_DOUBLE_EQ(m->top_gbps, 2810);  // the fastest verified copy; the unverified 1000 is not
  EXPECT_DOUBLE_EQ(m->latency.at(0), 500);
  EXPECT_DOUBLE_EQ(m->latency.at(500), 600);    // halfway to (1000, 700)
  EXPECT_DOUBLE_EQ(m->latency.at(2000), 700);   // 650 is noise under 700: held at 700
  EXPECT_DOUBLE_EQ(m->latency.at(2400), 1100);  // halfway from (2000, 700) to (2800, 1500)
  EXPECT_DOUBLE_EQ(m->latency.at(3000), 1700);  // the last segment continues
  // tau: (L(2048) - L(512)) / 1536 at each load, at the mean of the two copies' rates.
  ASSERT_EQ(m->batch.gbps.size(), 2u);
  EXPECT_NEAR(m->batch.at(0), 0.02, 1e-12);
  EXPECT_DOUBLE_EQ(m->batch.gbps[1], 2800);
  EXPECT_NEAR(m->batch.at(2800), 0.3, 1e-12);
  EXPECT_NEAR(m->batch.at(1400), 0.16, 1e-12);
  // The ladder's L0 in place of the probe's idle point: the curve starts there.
  const auto with_l0 = gpu::loaded_latency_model(points, 540);
  ASSERT_TRUE(with_l0);
  EXPECT_DOUBLE_EQ(with_l0->latency.at(0), 540);
  EXPECT_DOUBLE_EQ(with_l0->latency.at(500), 620);  // halfway from 540 to 700
  EXPECT_DOUBLE_EQ(with_l0->latency.at(2400), 1100);
  // Without an idle or a loaded warp chase there is no curve.
  EXPECT_FALSE(gpu::loaded_latency_model({probe_point(0, 0, 500, 0)}));
  EXPECT_FALSE(gpu::loaded_latency_model({probe_point(7, 0, 1500, 2800)}));
  EXPECT_FALSE(
      gpu::loaded_latency_model({probe_point(0, 0, 500, 0, false), probe_point(7, 0, 1500, 2800)}));
}

TEST(FlightLoadedModel, BatchesPairOnlyBesideTheSameCopy) {
  // At 7 blocks per SM the one-load and the four-load copies are two loads: each pairs its own
  // 512 and 2048 B chases, never one with the other.
  const std::vector<gpu::LoadedLatencyPoint> points = {
      probe_point(0, 0, 500, 0),
      probe_point(7, 0, 1500, 2200),
      probe_point(7, 512, 1000, 2200),
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

TEST(FlightLoadedModel, LittlesLawWithTheMeasuredLatencySolvesForTheRate) {
  // A flat latency of 500 ns and no batch cost: X = 2 x SMs x bytes / 500, until the peak.
  gpu::LoadedLatencyModel flat;
  flat.latency.gbps = {0, 1000};
  flat.latency.value = {500, 500};
  EXPECT_NEAR(gpu::littles_law_loaded_gbps(4096, kSms, flat, 3000, 1024), 2.0 * kSms * 4096 / 500,
              1e-6);
  EXPECT_DOUBLE_EQ(gpu::littles_law_loaded_gbps(65536, kSms, flat, 3000, 1024), 3000);
  // The latency L0 x (1 + X / peak) as a curve is the linear model without its batch term.
  gpu::LoadedLatencyModel linear;
  linear.latency.gbps = {0, 2896};
  linear.latency.value = {533.8, 2 * 533.8};
  for (double bif : {1024.0, 4096.0, 6000.0, 9000.0})
    EXPECT_NEAR(gpu::littles_law_loaded_gbps(bif, kSms, linear, 2896, 512),
                gpu::littles_law_gbps(bif, kSms, 533.8, 2896), 1e-6)
        << bif;
  // A batch cost: fatter blocks get less at the same bytes in flight, and the rate solves
  // X x (L0 + tau(X) x B) x L(X) / L0 = 2 x SMs x bytes.
  gpu::LoadedLatencyModel batch = linear;
  batch.batch.gbps = {0, 2896};
  batch.batch.value = {0.01, 0.03};
  const double thin = gpu::littles_law_loaded_gbps(16384, kSms, batch, 2896, 2048);
  const double fat = gpu::littles_law_loaded_gbps(16384, kSms, batch, 2896, 16384);
  EXPECT_GT(thin, fat);
  EXPECT_NEAR(fat * (533.8 + batch.batch.at(fat) * 16384) * batch.latency.at(fat) / 533.8,
              2.0 * kSms * 16384, 1e-3);
  // A probe copy that tops out at half the peak: the copies' X reads its curve at X / 2.
  gpu::LoadedLatencyModel half = batch;
  half.top_gbps = 2896 / 2.0;
  const double x = gpu::littles_law_loaded_gbps(8192, kSms, half, 2896, 4096);
  EXPECT_NEAR(x * (533.8 + half.batch.at(x / 2) * 4096) * half.latency.at(x / 2) / 533.8,
              2.0 * kSms * 8192, 1e-3);
  EXPECT_GT(x, gpu::littles_law_loaded_gbps(8192, kSms, batch, 2896, 4096));
  EXPECT_EQ(gpu::littles_law_loaded_gbps(4096, kSms, gpu::LoadedLatencyModel{}, 2896, 128), 0);
}

TEST(FlightLoadedModel, ProbeLoadsLeaveRoomForTheChase) {
  const auto loads = gpu::probe_copy_blocks(gpu::model_sm_limits());  // 2048 threads per SM
  EXPECT_EQ(loads, (std::vector<int>{0, 1, 2, 4, 7}));
  gpu::SmLimits small = gpu::model_sm_limits();
  small.max_threads_per_sm = 1024;  // 4 blocks of 256: 3 beside the chase
  EXPECT_EQ(gpu::probe_copy_blocks(small), (std::vector<int>{0, 1, 2, 3}));
}

// --- the checker ------------------------------------------------------------------------------

nlohmann::json measure_document(const Run& run) {
  nlohmann::json doc = {
      {"sm_count", kSms}, {"memcpy_gbps", run.memcpy_gbps}, {"model_latency_ns", run.latency_ns}};
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& c : run.copies)
    rows.push_back({{"section", "littles-law"},
                    {"word_bytes", c.word_bytes},
                    {"loads_per_thread", c.loads},
                    {"warps_per_sm", c.warps_per_sm},
                    {"blocks_per_sm", c.blocks_per_sm},
                    {"bytes_in_flight_per_sm", c.bytes_in_flight_per_sm},
                    {"gbps", c.gbps},
                    {"verified", true}});
  doc["rows"] = rows;
  return doc;
}

TEST(FlightCheck, RunTwoWithRunOnesInputsAsTheLinearModelSaysWithoutAProbe) {
  const auto c = app::check_flight_model(measure_document(kRun2), measure_document(kRun1));
  EXPECT_EQ(c.model, "linear");
  EXPECT_EQ(c.probe_points, 0);
  EXPECT_EQ(c.below + c.above, 32);
  EXPECT_EQ(c.below, 7);
  const double tau =
      *gpu::batch_ns_per_byte(measurements(kRun1), kSms, kRun1.latency_ns, kRun1.memcpy_gbps);
  const Worst w = worst_errors(kRun2, kRun1.latency_ns, kRun1.memcpy_gbps, tau);
  EXPECT_NEAR(c.worst_below_pct, w.below, 1e-9);
  EXPECT_NEAR(c.worst_above_pct, w.above, 1e-9);
  EXPECT_DOUBLE_EQ(c.linear_worst_above_pct, c.worst_above_pct);
  EXPECT_FALSE(c.meets_goals());
  EXPECT_EQ(c.lines.size(), 32u);
}

TEST(FlightCheck, WithAProbeTheLoadedModelJudgesTheCopies) {
  // Run 1's inputs plus probe rows that make the latency L0 x (1 + X / peak) exactly and no
  // batch cost: the loaded model is then the linear one with tau = 0 (within the bisection).
  nlohmann::json inputs = measure_document(kRun1);
  const double p = kRun1.memcpy_gbps, l0 = kRun1.latency_ns;
  const auto row = [](int load, int batch, double ns, double gbps) {
    return nlohmann::json{{"section", "loaded-latency"}, {"copy_blocks_per_sm", load},
                          {"batch_bytes", batch},        {"ns_per_load", ns},
                          {"copy_gbps", gbps},           {"verified", true}};
  };
  for (int batch : {0, 512, 2048}) {
    inputs["rows"].push_back(row(0, batch, l0, 0));
    inputs["rows"].push_back(row(7, batch, 2 * l0, p));
  }
  const auto c = app::check_flight_model(measure_document(kRun2), inputs);
  EXPECT_EQ(c.model, "loaded-latency probe");
  EXPECT_EQ(c.probe_points, 6);
  const Worst untaued = worst_errors(kRun2, l0, p, 0);
  EXPECT_NEAR(c.worst_below_pct, untaued.below, 1e-4);
  EXPECT_NEAR(c.worst_above_pct, untaued.above, 1e-4);
  // A document without what the model needs is refused.
  EXPECT_THROW(app::check_flight_model(measure_document(kRun2), nlohmann::json::object()),
               std::invalid_argument);
  EXPECT_THROW(app::check_flight_model(nlohmann::json{{"rows", nlohmann::json::array()}}, inputs),
               std::invalid_argument);
}

}  // namespace
}  // namespace warplens

namespace warplens {
namespace {

// The first H100 run with the loaded-latency probe (H100 80GB HBM3, driver 580.159.04,
// 2026-11-27, commit e48fb83a753f; tests/data/h100-flight-run3.json): the checker reads its 15
// probe points and judges the model on its own points. The probe's first model (tau per byte of a
// warp's batch, the probe's idle point, the probe's GB/s as the copies') missed by 30.4 % below
// the knee and 20.1 % above. Issue 31's (flight_lab.h, littles_law_loaded_gbps): 9.0 % and
// 15.1 %, the 15.1 % one copy (16 B x 4 loads x 32 warps: 2443 GB/s, where runs 1 and 2
// measured 2898 and 2817); the linear model on the same inputs 2.4 % and 15.1 %.
nlohmann::json run3_document() {
  std::ifstream in(std::string(WARPLENS_SOURCE_DIR) + "/tests/data/h100-flight-run3.json");
  EXPECT_TRUE(in) << "tests/data/h100-flight-run3.json";
  return in ? nlohmann::json::parse(in) : nlohmann::json::object();
}

TEST(FlightModelData, TheFirstRunWithTheLoadedLatencyProbeIsReadAndJudged) {
  const auto doc = run3_document();
  const auto c = app::check_flight_model(doc, doc);
  EXPECT_EQ(c.model, "loaded-latency probe");
  EXPECT_EQ(c.probe_points, 15);
  EXPECT_EQ(c.below, 7);
  EXPECT_EQ(c.above, 25);
  EXPECT_NEAR(c.worst_below_pct, 9.0, 0.1);
  EXPECT_NEAR(c.worst_above_pct, 15.1, 0.1);
  EXPECT_NEAR(c.linear_worst_below_pct, 2.4, 0.1);
  EXPECT_NEAR(c.linear_worst_above_pct, 15.1, 0.1);
  EXPECT_FALSE(c.meets_goals());
}

// Out of sample: run 3's ladder, cudaMemcpy and probe judge runs 1 and 2 (their copies were
// measured before the probe existed). Run 2: both goals met; run 1: below, not above (its 4 B x
// 8 loads x 16 warps copy, 2494 GB/s, ran 3 % under runs 2 and 3's 2569 and 2566).
TEST(FlightModelData, RunThreesProbeJudgesRunsOneAndTwo) {
  const auto inputs = run3_document();
  const auto two = app::check_flight_model(measure_document(kRun2), inputs);
  EXPECT_EQ(two.model, "loaded-latency probe");
  EXPECT_NEAR(two.worst_below_pct, 8.1, 0.1);
  EXPECT_NEAR(two.worst_above_pct, 4.5, 0.1);
  EXPECT_TRUE(two.meets_goals());
  EXPECT_LT(two.worst_above_pct, two.linear_worst_above_pct);
  const auto one = app::check_flight_model(measure_document(kRun1), inputs);
  EXPECT_NEAR(one.worst_below_pct, 7.5, 0.1);
  EXPECT_NEAR(one.worst_above_pct, 7.3, 0.1);
  EXPECT_FALSE(one.meets_goals());
}

// What separates fat warps from thin ones at the same bytes in flight is not on the load side of
// one warp: the batch chase (one warp, 4 x 512 B against 1 x 512 B of contiguous 16-byte loads,
// as a copy warp's batch lies) pays 0.022-0.024 ns per byte at every load, an eighth of the
// 0.18-0.19 ns per byte of a warp's batch that the one-block copies of runs 1 and 2 show. A copy
// block's 8 warps issue their batches together and the block ends with its last byte, so the
// block's bytes queue on one SM's path: 8 x the chase's cost per byte is the copies' tau within
// 5 % (docs/flight.md, "What separates fat warps"). A probe that measured a different cost, or
// copies that showed another tau, fail this.
TEST(FlightModelData, TheBatchChaseTimesTheWarpsOfABlockIsTheCopiesTau) {
  const auto doc = run3_document();
  ASSERT_TRUE(doc.contains("rows"));
  std::vector<gpu::LoadedLatencyPoint> probe;
  for (const auto& r : doc.at("rows")) {
    if (r.value("section", "") != "loaded-latency") continue;
    probe.push_back(probe_point(r.at("copy_blocks_per_sm").get<int>(),
                                r.at("batch_bytes").get<int>(), r.at("ns_per_load").get<double>(),
                                r.at("copy_gbps").get<double>(), r.at("verified").get<bool>()));
  }
  const auto m = gpu::loaded_latency_model(probe);
  ASSERT_TRUE(m);
  ASSERT_EQ(m->batch.gbps.size(), 5u);  // idle and 4 loads
  constexpr int kWarpsPerBlock = 256 / 32;
  for (double x : {1356.0, 2132.0, 2290.0}) {  // the loaded points' rates
    const double per_warp_byte = kWarpsPerBlock * m->batch.at(x);
    for (const auto* run : {&kRun1, &kRun2}) {
      const auto tau =
          gpu::batch_ns_per_byte(measurements(*run), kSms, run->latency_ns, run->memcpy_gbps);
      ASSERT_TRUE(tau);
      EXPECT_NEAR(per_warp_byte / *tau, 1.0, 0.05) << x << " GB/s: " << per_warp_byte;
    }
  }
}

}  // namespace
}  // namespace warplens
