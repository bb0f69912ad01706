// Hardware counters on a real GPU (ctest label "gpu"): kernels whose request, sector and
// wavefront counts are known by construction must read exactly those counts. Skipped without a
// CUDA device or where the driver does not let this user read counters.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cache_lab.h"
#include "counters.h"
#include "gpu.h"

namespace warplens::test {

// counters_kernels.cu
void* counters_test_alloc(std::size_t bytes);
void counters_test_free(void* p);
void launch_coalesced_copy(float* in, float* out, int blocks, int threads);
void launch_shared_stride32(float* out, int blocks);

namespace {

class CountersGpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const gpu::DeviceQuery query = gpu::query_device();
    if (!query.device) GTEST_SKIP() << "no CUDA device: " << query.reason;
    try {
      session_.emplace(query.device->index);
    } catch (const gpu::CountersUnavailable& e) {
      GTEST_SKIP() << e.what();
    }
  }
  std::optional<gpu::CounterSession> session_;
};

void print(const gpu::CounterSet& set) {
  for (const gpu::CounterMetric& m : gpu::kCounterMetrics) {
    const std::optional<double> v = set.*m.field;
    std::printf("  %-60s %14.2f %s\n", m.name, v ? *v : -1.0, v ? m.unit : "(not collected)");
  }
  std::printf("  passes %d\n", set.passes);
}

TEST_F(CountersGpuTest, CoalescedFourByteLoadIsOneRequestOfFourSectorsPerWarp) {
  constexpr int kBlocks = 64, kThreads = 256;
  constexpr int kWarps = kBlocks * kThreads / 32;
  const std::size_t bytes = std::size_t{kBlocks} * kThreads * sizeof(float);
  auto* in = static_cast<float*>(counters_test_alloc(bytes));
  auto* out = static_cast<float*>(counters_test_alloc(bytes));
  int calls = 0;
  const gpu::CounterSet set = session_->profile([&] {
    ++calls;
    launch_coalesced_copy(in, out, kBlocks, kThreads);
  });
  counters_test_free(in);
  counters_test_free(out);
  print(set);

  EXPECT_EQ(calls, set.passes) << "the launch runs once per pass";
  EXPECT_EQ(set.passes, session_->passes());
  ASSERT_TRUE(set.global_load_requests && set.global_load_sectors);
  EXPECT_EQ(*set.global_load_requests, kWarps);
  EXPECT_EQ(*set.global_load_sectors, 4.0 * kWarps);
  ASSERT_TRUE(set.global_store_requests && set.global_store_sectors);
  EXPECT_EQ(*set.global_store_requests, kWarps);
  EXPECT_EQ(*set.global_store_sectors, 4.0 * kWarps);
  ASSERT_TRUE(set.shared_load_instructions && set.shared_load_wavefronts);
  EXPECT_EQ(*set.shared_load_instructions, 0.0);
  EXPECT_EQ(*set.shared_load_wavefronts, 0.0);
  // Hit rates and DRAM bytes of a launch this small are noise (see the large copy below).
  EXPECT_TRUE(set.l2_hit_rate_pct && set.l1_hit_rate_pct && set.dram_read_bytes);
  EXPECT_EQ(set.value("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), set.global_load_sectors);
}

TEST_F(CountersGpuTest, SharedStride32LoadIsThirtyTwoWavefrontsPerInstruction) {
  constexpr int kBlocks = 8;
  constexpr int kWarps = kBlocks * 1024 / 32;
  auto* out = static_cast<float*>(counters_test_alloc(std::size_t{kBlocks} * 1024 * sizeof(float)));
  const gpu::CounterSet set = session_->profile([&] { launch_shared_stride32(out, kBlocks); });
  counters_test_free(out);
  print(set);

  ASSERT_TRUE(set.shared_load_instructions && set.shared_load_wavefronts);
  EXPECT_EQ(*set.shared_load_instructions, kWarps);
  EXPECT_EQ(*set.shared_load_wavefronts, 32.0 * kWarps);
  ASSERT_TRUE(set.shared_store_instructions && set.shared_store_wavefronts);
  EXPECT_EQ(*set.shared_store_instructions, kWarps);
  EXPECT_EQ(*set.shared_store_wavefronts, kWarps);
  ASSERT_TRUE(set.shared_load_bank_conflicts && set.shared_store_bank_conflicts);
  EXPECT_EQ(*set.shared_load_bank_conflicts, 31.0 * kWarps);
  EXPECT_EQ(*set.shared_store_bank_conflicts, 0.0);
  ASSERT_TRUE(set.global_store_requests);
  EXPECT_EQ(*set.global_store_requests, kWarps);
}

// A copy larger than the H100's 50 MiB L2: the loads stream from DRAM, hit rates are percents.
TEST_F(CountersGpuTest, LargeCopyStreamsFromDram) {
  constexpr int kThreads = 256, kBlocks = (1 << 24) / kThreads;  // 2^24 floats, 64 MiB a side
  const std::size_t bytes = std::size_t{1} << 26;
  auto* in = static_cast<float*>(counters_test_alloc(bytes));
  auto* out = static_cast<float*>(counters_test_alloc(bytes));
  const gpu::CounterSet set =
      session_->profile([&] { launch_coalesced_copy(in, out, kBlocks, kThreads); });
  counters_test_free(in);
  counters_test_free(out);
  print(set);
  ASSERT_TRUE(set.global_load_sectors && set.dram_read_bytes && set.l2_hit_rate_pct &&
              set.l1_hit_rate_pct);
  EXPECT_EQ(*set.global_load_sectors, double(bytes) / 32);
  EXPECT_GE(*set.dram_read_bytes, 0.5 * double(bytes));
  EXPECT_LE(*set.dram_read_bytes, 1.5 * double(bytes));
  EXPECT_GE(*set.l2_hit_rate_pct, 0.0);
  EXPECT_LE(*set.l2_hit_rate_pct, 100.0);
  EXPECT_GE(*set.l1_hit_rate_pct, 0.0);
  EXPECT_LE(*set.l1_hit_rate_pct, 100.0);
}

TEST_F(CountersGpuTest, ThrowingLaunchLeavesTheSessionUsable) {
  EXPECT_THROW(session_->profile([] { throw std::runtime_error("launch refused"); }),
               std::runtime_error);
  auto* out = static_cast<float*>(counters_test_alloc(1024 * sizeof(float)));
  const gpu::CounterSet set = session_->profile([&] { launch_shared_stride32(out, 1); });
  counters_test_free(out);
  ASSERT_TRUE(set.shared_load_wavefronts);
  EXPECT_EQ(*set.shared_load_wavefronts, 32.0 * 32);
}

TEST_F(CountersGpuTest, AvailableWhileASessionIsOpen) {
  const std::optional<std::string> reason = gpu::counters_available(0);
  EXPECT_FALSE(reason.has_value()) << *reason;
}

// The cache lab's L1 hit rate from the raw lookup counters (what CounterChecker::l1_hit_rate
// reads), here in the primary context with a CacheLab of the test's own.
class CacheHitCountersGpuTest : public ::testing::Test {
 protected:
  static constexpr const char* kHit = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum";
  static constexpr const char* kMiss = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum";
  static constexpr const char* kTexHit = "l1tex__t_sectors_pipe_tex_mem_texture_lookup_hit.sum";
  static constexpr const char* kTexMiss = "l1tex__t_sectors_pipe_tex_mem_texture_lookup_miss.sum";

  void SetUp() override {
    const gpu::DeviceQuery query = gpu::query_device();
    if (!query.device) GTEST_SKIP() << "no CUDA device: " << query.reason;
    try {
      session_ = std::make_unique<gpu::CounterSession>(
          query.device->index,
          std::vector<std::vector<std::string>>{{kHit, kMiss, kTexHit, kTexMiss}},
          gpu::CounterSession::KeepEnabled{});
    } catch (const gpu::CountersUnavailable& e) {
      GTEST_SKIP() << e.what();
    }
    lab_ = std::make_unique<gpu::CacheLab>(*query.device);
  }
  void TearDown() override {
    lab_.reset();
    session_.reset();
  }

  /// {hit sectors, miss sectors} of one launch, or nullopt when the chip lacks the counters.
  std::optional<std::pair<double, double>> lookups(const std::function<void()>& launch,
                                                   const char* hit, const char* miss) {
    launch();  // buffers filled outside the profiled range
    const auto got = session_->profile_group(launch, 0);
    const auto& names = session_->collected_metrics(0);
    const auto h = std::find(names.begin(), names.end(), hit);
    const auto m = std::find(names.begin(), names.end(), miss);
    if (h == names.end() || m == names.end()) return std::nullopt;
    return std::make_pair(got.values[static_cast<std::size_t>(h - names.begin())],
                          got.values[static_cast<std::size_t>(m - names.begin())]);
  }
  std::unique_ptr<gpu::CounterSession> session_;
  std::unique_ptr<gpu::CacheLab> lab_;
};

TEST_F(CacheHitCountersGpuTest, SmallWorkingSetHitsInL1AndALargeOneMostlyMisses) {
  const auto small =
      lookups([&] { lab_->launch_l1_gather_once(gpu::kCarveoutMaxL1, 16 * 1024); }, kHit, kMiss);
  ASSERT_TRUE(small) << "this GPU's CUPTI does not know " << kHit << " / " << kMiss;
  const auto large = lookups(
      [&] { lab_->launch_l1_gather_once(gpu::kCarveoutMaxShared, gpu::kGatherRegionBytes); }, kHit,
      kMiss);
  ASSERT_TRUE(large);
  const double small_rate = 100 * small->first / (small->first + small->second);
  const double large_rate = 100 * large->first / (large->first + large->second);
  std::printf("16 KiB at carveout 0: %.0f hit / %.0f miss sectors = %.1f %%\n", small->first,
              small->second, small_rate);
  std::printf("2 MiB at carveout 100: %.0f hit / %.0f miss sectors = %.1f %%\n", large->first,
              large->second, large_rate);
  EXPECT_GT(small_rate, 80.0);
  EXPECT_LT(large_rate, 50.0);
}

TEST_F(CacheHitCountersGpuTest, MortonColumnTilesLookUpAboutHalfTheSectorsOfRowMajor) {
  gpu::ReadPathParams p;
  p.side = 2048;
  p.path = gpu::ReadPath::Plain;
  p.pattern = gpu::ReadPattern::ColumnTile;
  const auto row_major = lookups([&] { lab_->launch_read_path_once(p); }, kHit, kMiss);
  ASSERT_TRUE(row_major);
  p.pattern = gpu::ReadPattern::ColumnTileMorton;
  const auto morton = lookups([&] { lab_->launch_read_path_once(p); }, kHit, kMiss);
  ASSERT_TRUE(morton);
  const double rm = row_major->first + row_major->second;
  const double mo = morton->first + morton->second;
  std::printf(
      "column tiles, plain loads: row-major %.0f sectors (%.1f %% hit), Morton %.0f (%.1f "
      "%% hit)\n",
      rm, 100 * row_major->first / rm, mo, 100 * morton->first / mo);
  // Per load: 32 rows of one column are 32 sectors row-major, 16 or 17 in Morton order.
  const double loads = double(p.side) * p.side / 32 * 16;
  EXPECT_NEAR(rm / loads, 32.0, 1.0);
  EXPECT_LT(mo, 0.6 * rm);
  p.path = gpu::ReadPath::Texture;
  p.pattern = gpu::ReadPattern::ColumnTile;
  const auto tex = lookups([&] { lab_->launch_read_path_once(p); }, kTexHit, kTexMiss);
  if (!tex) {
    std::printf("texture lookups: not available on this GPU\n");
  } else {
    std::printf("texture: %.0f hit / %.0f miss sectors\n", tex->first, tex->second);
    EXPECT_GT(tex->first + tex->second, 0.0) << "texture fetches counted no TEX-pipe lookups";
  }
}

}  // namespace
}  // namespace warplens::test
