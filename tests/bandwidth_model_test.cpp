// The bandwidth model (kernels/bandwidth_model.h): its DRAM traffic against Nsight Compute's
// counters, its time rules and the calibration fit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "bandwidth_model.h"

namespace warplens {
namespace {

// DRAM bytes recorded with Nsight Compute on an H100 (dram__bytes_read.sum /
// dram__bytes_write.sum, one launch of the pattern copy over 400 MiB buffers, 2026-11-22).
struct NcuRecord {
  gpu::CopyParams params;
  double read_bytes, write_bytes;
};

TEST(BandwidthModel, DramTrafficRulesMatchTheHardwareCounters) {
  const std::int64_t buffer = std::int64_t{400} << 20;
  gpu::CopyParams store2;
  store2.stride = 2;
  store2.side = gpu::PatternSide::Write;
  gpu::CopyParams store8 = store2;
  store8.stride = 8;
  const NcuRecord records[] = {
      {{4, 0, 1, 256}, 419464704, 403309568},  {{4, 0, 2, 256}, 419493888, 199792896},
      {{4, 0, 4, 256}, 419435776, 99464704},   {{4, 0, 16, 256}, 419443200, 25832448},
      {{4, 0, 24, 256}, 279628032, 17702144},  {{4, 0, 32, 256}, 209729536, 13320192},
      {{4, 0, 64, 256}, 104868608, 7064576},   {{4, 1, 1, 256}, 419461888, 403727872},
      {{16, 0, 2, 256}, 419449088, 193947392}, {{8, 0, 8, 256}, 419469824, 49339136},
      {store2, 622789888, 414668544},          {store8, 465258240, 409152512},
  };
  for (const auto& r : records) {
    const auto plan = gpu::plan_copy(r.params, buffer);
    const auto t = gpu::copy_dram_traffic(r.params, plan);
    // Writes: L2 (50 MiB) still holds some written lines when the launch ends, and small launches
    // carry a fixed overhead: allow 7 % or 20 MiB, whichever is larger.
    EXPECT_NEAR(t.read_bytes, r.read_bytes, 0.03 * r.read_bytes)
        << "W=" << r.params.word_bytes << " S=" << r.params.stride << " "
        << gpu::to_string(r.params.side);
    EXPECT_NEAR(t.write_bytes, r.write_bytes, std::max(0.07 * r.write_bytes, 20.0 * (1 << 20)))
        << "W=" << r.params.word_bytes << " S=" << r.params.stride << " "
        << gpu::to_string(r.params.side);
  }
}

TEST(BandwidthModel, PredictionFollowsTheSlowerOfIssueAndDram) {
  gpu::Calibration c;
  c.memcpy_gbps = 3000;
  c.coalesced_gbps[4] = 2000;
  c.sparse_exponent = 0.25;  // knee 64 bytes; overlap exponent 0: the plain max
  gpu::CopyParams p;
  const auto plan1 = gpu::plan_copy(p, gpu::kModelBufferBytes);
  EXPECT_NEAR(gpu::predict_copy_gbps(p, plan1, c), 2000, 1);  // issue-bound at stride 1
  p.stride = 4;  // 16 B of DRAM read + 4 written per 8 B asked: 3000 x 8 / 20
  EXPECT_NEAR(gpu::predict_copy_gbps(p, gpu::plan_copy(p, gpu::kModelBufferBytes), c), 1200, 1);
  p.stride = 64;  // 256 B gap: 64 B read at (64/256)^0.25 of 3000, 4 B written at 3000
  EXPECT_NEAR(gpu::predict_copy_gbps(p, gpu::plan_copy(p, gpu::kModelBufferBytes), c),
              3000.0 * 8 / (4 + 64 / std::pow(0.25, 0.25)), 1);
  p.word_bytes = 8;  // no calibration for 8-byte words: no prediction
  EXPECT_EQ(gpu::predict_copy_gbps(p, gpu::plan_copy(p, gpu::kModelBufferBytes), c), 0);
}

TEST(BandwidthModel, NearBothLimitsTheTimesCombineAsASmoothMax) {
  gpu::Calibration c;
  c.memcpy_gbps = 4000;
  c.coalesced_gbps[4] = 2600;
  c.overlap_exponent = 4;
  gpu::CopyParams p;
  // Stride 1 still predicts what the coalesced copy measured.
  EXPECT_NEAR(gpu::predict_copy_gbps(p, gpu::plan_copy(p, gpu::kModelBufferBytes), c), 2600, 1);
  // Stride 2: issue (2600 less its DRAM share) and DRAM (12 B per 8 asked) combine.
  p.stride = 2;
  const double t1 = 1 / 2600.0, d1 = 1 / 4000.0;
  const double issue = std::pow(std::pow(t1, 4) - std::pow(d1, 4), 0.25);
  const double dram = 12.0 / 8 / 4000;
  const double expected = 1 / std::pow(std::pow(issue, 4) + std::pow(dram, 4), 0.25);
  EXPECT_NEAR(gpu::predict_copy_gbps(p, gpu::plan_copy(p, gpu::kModelBufferBytes), c), expected, 1);
  EXPECT_LT(expected, std::min(2600.0, 4000.0 * 8 / 12));  // below both ceilings
}

TEST(BandwidthModel, TheFitRecoversTheTermsThatMadeItsProbes) {
  const std::int64_t buffer = gpu::kModelBufferBytes;
  gpu::Calibration truth;
  truth.memcpy_gbps = 4100;
  truth.coalesced_gbps = {{4, 2640}, {16, 4200}};
  truth.sparse_knee_bytes = 80;
  truth.sparse_exponent = 0.34;
  truth.overlap_exponent = 4.2;
  const auto measure = [&](const gpu::CopyParams& p) {
    return gpu::predict_copy_gbps(p, gpu::plan_copy(p, buffer), truth);
  };
  gpu::Calibration c;
  c.memcpy_gbps = truth.memcpy_gbps;
  c.coalesced_gbps = truth.coalesced_gbps;
  c.sparse_near_gbps = measure(gpu::sparse_near_probe());
  c.sparse_far_gbps = measure(gpu::sparse_far_probe());
  c.overlap_gbps = measure(gpu::overlap_probe());
  gpu::fit_calibration(c, buffer);
  // The sparse probes are taken as DRAM-bound; at 16-byte words the issue time is nil.
  EXPECT_NEAR(c.sparse_knee_bytes, 80, 0.5);
  EXPECT_NEAR(c.sparse_exponent, 0.34, 0.005);
  EXPECT_NEAR(c.overlap_exponent, 4.2, 0.01);
  // A device without a sparse loss: efficiency 1 everywhere; an overlap beyond the range: kept.
  truth.sparse_exponent = 0;
  c.sparse_near_gbps = measure(gpu::sparse_near_probe());
  c.sparse_far_gbps = measure(gpu::sparse_far_probe());
  c.overlap_gbps = 1e6;
  gpu::fit_calibration(c, buffer);
  EXPECT_EQ(gpu::sparse_efficiency(4096, c), 1.0);
  EXPECT_EQ(c.overlap_exponent, 8);
}

}  // namespace
}  // namespace warplens
