// The refined Little's-law model (issue 31) against two full H100 runs of
// `warplens measure --lab flight --section all --format json` (H100 80GB HBM3, 2026-11-27,
// shared/measurements/2026-11-27/h100-flight-run{1,2}.json): the model's inputs (idle latency,
// cudaMemcpy, tau) come from run 1 only, and it is judged on run 2's 32 Little's-law copies.
// Host only, no GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

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

}  // namespace
}  // namespace warplens
