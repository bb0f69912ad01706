// The spread of timed launches on the GPU (ctest label "gpu", skipped without a CUDA device): the
// labs' timed launches carry their quartiles and outlier counts, ordered as the window shows
// them. No timing thresholds: performance goes to the bench.
#include <gtest/gtest.h>

#include "gpu.h"
#include "number_text.h"
#include "shared_lab.h"

namespace warplens::app {
namespace {

void expect_ordered(const gpu::Timing& t, int runs) {
  EXPECT_EQ(t.runs, runs);
  EXPECT_LE(t.min_ms, t.p25_ms);
  EXPECT_LE(t.p25_ms, t.median_ms);
  EXPECT_LE(t.median_ms, t.p75_ms);
  EXPECT_LE(t.p75_ms, t.max_ms);
  EXPECT_LE(t.slow_runs + t.fast_runs, t.runs);
  EXPECT_GT(t.min_ms, 0);
}

TEST(SpreadGpu, BankProbeLaunchesCarryTheirQuartiles) {
  const gpu::DeviceQuery query = gpu::query_device();
  if (!query.device) GTEST_SKIP() << "no CUDA device: " << query.reason;
  gpu::SharedLab lab(*query.device);
  gpu::BankProbeParams p;
  p.index.stride = 2;
  const auto m = lab.measure_bank(p, 0, 7, 1);
  expect_ordered(m.timing, 7);
  const GbpsRange r = iqr_gbps(m.timing, 1e9);
  EXPECT_LE(r.low, r.high);
  EXPECT_EQ(spread_text(m.timing, 1e9).rfind("IQR ", 0), 0u);
}

}  // namespace
}  // namespace warplens::app
