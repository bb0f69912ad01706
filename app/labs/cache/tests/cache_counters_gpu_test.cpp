// The cache lab's L1 hit rate through the counter checker on a real GPU (ctest label "gpu"): the
// checker's own CacheLab launches the kernels inside the profiled range; a working set
// far below the L1 the carveout leaves hits, one far above it misses. Skipped without a CUDA
// device or where the driver does not let this user read counters.
#include <gtest/gtest.h>

#include <cstdio>
#include <optional>
#include <string>

#include "counter_checks.h"
#include "counters.h"
#include "gpu.h"

namespace warplens::test {
namespace {

class CacheCountersGpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const gpu::DeviceQuery query = gpu::query_device();
    if (!query.device) GTEST_SKIP() << "no CUDA device: " << query.reason;
    device_ = *query.device;
    try {
      checker_.emplace(device_);
    } catch (const gpu::CountersUnavailable& e) {
      GTEST_SKIP() << e.what();
    }
  }
  static app::CacheCounterCase gather(int carveout, std::int64_t working_set_bytes) {
    app::CacheCounterCase c;
    c.kind = app::CacheCounterCase::Kind::L1Gather;
    c.carveout = carveout;
    c.working_set_bytes = working_set_bytes;
    return c;
  }
  gpu::DeviceInfo device_;
  std::optional<app::CounterChecker> checker_;
};

TEST_F(CacheCountersGpuTest, L1HitRateFallsWhenTheWorkingSetOutgrowsL1) {
  const app::L1HitRate small = checker_->l1_hit_rate(gather(gpu::kCarveoutMaxL1, 16 * 1024));
  ASSERT_TRUE(small.percent) << small.unavailable;
  const app::L1HitRate large =
      checker_->l1_hit_rate(gather(gpu::kCarveoutMaxShared, gpu::kGatherRegionBytes));
  ASSERT_TRUE(large.percent) << large.unavailable;
  std::printf("16 KiB at carveout 0: %.1f %% (%.0f hit, %.0f miss, %d passes, %.1f ms)\n",
              *small.percent, small.hit_sectors, small.miss_sectors, small.passes,
              small.readout_ms);
  std::printf("2 MiB at carveout 100: %.1f %% (%.0f hit, %.0f miss, %d passes, %.1f ms)\n",
              *large.percent, large.hit_sectors, large.miss_sectors, large.passes,
              large.readout_ms);
  EXPECT_GT(*small.percent, 80.0);
  EXPECT_LT(*large.percent, 50.0);
  EXPECT_GT(*small.percent - *large.percent, 40.0);
  // The checker stays usable for the catalog's cases after the cache lab's launches.
  app::CounterCase bank;
  bank.kind = app::CaseKind::Bank;
  const app::CounterCheck row = checker_->check(bank);
  EXPECT_TRUE(row.hardware.has_value()) << row.note;
}

TEST_F(CacheCountersGpuTest, EveryReadPathHasAHitRateOrSaysWhyNot) {
  for (auto path : {gpu::ReadPath::Plain, gpu::ReadPath::Ldg, gpu::ReadPath::Texture}) {
    for (auto pattern : {gpu::ReadPattern::Local2D, gpu::ReadPattern::ColumnTile,
                         gpu::ReadPattern::ColumnTileMorton}) {
      app::CacheCounterCase c;
      c.kind = app::CacheCounterCase::Kind::ReadPath;
      c.read.path = path;
      c.read.pattern = pattern;
      c.read.side = 2048;
      const app::L1HitRate r = checker_->l1_hit_rate(c);
      std::printf("%-7s %-18s %s\n", gpu::to_string(path), gpu::to_string(pattern),
                  r.percent ? std::to_string(*r.percent).c_str() : r.unavailable.c_str());
      if (path == gpu::ReadPath::Texture && !r.percent) {
        EXPECT_NE(r.unavailable.find("texture"), std::string::npos) << r.unavailable;
        continue;
      }
      ASSERT_TRUE(r.percent) << r.unavailable;
      EXPECT_GE(*r.percent, 0.0);
      EXPECT_LE(*r.percent, 100.0);
      EXPECT_GT(r.hit_sectors + r.miss_sectors, 0.0);
    }
  }
  // Refused parameters come back as a reason, not a throw.
  app::CacheCounterCase bad = gather(150, 16 * 1024);
  const app::L1HitRate refused = checker_->l1_hit_rate(bad);
  EXPECT_FALSE(refused.percent);
  EXPECT_NE(refused.unavailable.find("carveout 150"), std::string::npos) << refused.unavailable;
}

}  // namespace
}  // namespace warplens::test
