// The own-kernel lab on the GPU (label gpu; skipped without a device): every small program's trace
// equals the model's lanes and its `out` verifies; the transposes written as rows run within 5 %
// of the transpose lab's kernels of the same shape in the same process; the counters of one launch
// equal the model's totals; a row far out of range runs, is counted, and leaves the GPU usable;
// the session (host sinks) publishes the GPU's trace and the counters.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <memory>
#include <thread>

#include "counter_service.h"
#include "kernel_scenario.h"
#include "kernel_session.h"
#include "kernel_totals.h"
#include "measure_kernel.h"
#include "scenarios.h"
#include "shared_lab.h"
#include "trace_sink.h"

namespace warplens::app {
namespace {

class KernelLabGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto q = gpu::query_device();
    if (!q.device) GTEST_SKIP() << "no CUDA device: " << q.reason;
    device_ = *q.device;
    lab_ = std::make_unique<gpu::KernelLab>(device_);
  }
  gpu::DeviceInfo device_;
  std::unique_ptr<gpu::KernelLab> lab_;
};

const KernelState& small(const std::string& name) {
  static const auto programs = kernel_small_programs();
  for (const auto& [n, s] : programs)
    if (n == name) return s;
  throw std::logic_error("no small program " + name);
}

TEST_F(KernelLabGpu, EverySmallProgramTracesTheModelsLanesAndVerifies) {
  for (const auto& [name, st] : kernel_small_programs()) {
    const auto model = gpu::model_warp(st.program, st.traced);
    const gpu::KernelRun run = lab_->run(st.program, st.traced, 3, 1);
    ASSERT_EQ(run.traced.size(), model.size()) << name;
    for (std::size_t r = 0; r < model.size(); ++r) {
      EXPECT_TRUE(trace_matches_model(run.traced[r], model[r])) << name << ", row " << r + 1;
      EXPECT_EQ(run.traced[r].cost(), model[r].cost()) << name << ", row " << r + 1;
    }
    EXPECT_TRUE(run.checked) << name << ": " << run.check;
    EXPECT_TRUE(run.verified) << name << ": " << run.check;
    EXPECT_GT(run.gbps, 0) << name;
  }
}

TEST_F(KernelLabGpu, TracesOfEveryWarpSlotOfABlock) {
  KernelState st = small("transpose padded, n = 256");
  for (int warp : {0, 7, 31}) {
    st.traced = {3, 5, warp};
    const auto model = gpu::model_warp(st.program, st.traced);
    const gpu::KernelRun run = lab_->run(st.program, st.traced, 1, 0);
    for (std::size_t r = 0; r < model.size(); ++r)
      EXPECT_TRUE(trace_matches_model(run.traced[r], model[r])) << "warp " << warp << " row " << r;
  }
}

// The transposes of the scenarios (n = 8192, 32 x 32 blocks, one element per thread) against the
// transpose lab's kernels with the same block (tile 32, 32 rows per block), timed alternately.
TEST_F(KernelLabGpu, TransposeScenariosRunWithinFivePercentOfTheTransposeLab) {
  gpu::SharedLab shared(device_);
  const std::pair<const char*, gpu::TransposeVariant> cases[] = {
      {"kernel-transpose-naive", gpu::TransposeVariant::Naive},
      {"kernel-transpose-tiled", gpu::TransposeVariant::Tiled},
      {"kernel-transpose-padded", gpu::TransposeVariant::Padded}};
  for (const auto& [name, variant] : cases) {
    const KernelState& st = kernel_scenario(find_scenario(name));
    gpu::TransposeParams tp;
    tp.variant = variant;
    tp.tile = 32;
    tp.rows_per_block = 32;
    tp.n = 8192;
    double best_ratio = 0;
    double ours = 0, theirs = 0;
    // Three alternating rounds; the closest round counts (clocks and the other tenant vary).
    for (int round = 0; round < 3; ++round) {
      const gpu::KernelRun run = lab_->run(st.program, st.traced, 15, 3);
      const gpu::TransposeMeasurement m = shared.measure_transpose(tp, 15);
      ASSERT_TRUE(m.verified) << m.check;
      const double ratio = run.gbps / m.gbps;
      if (std::abs(ratio - 1) < std::abs(best_ratio - 1)) {
        best_ratio = ratio;
        ours = run.gbps;
        theirs = m.gbps;
      }
    }
    std::printf("%-26s own kernel %7.1f GB/s  transpose lab %7.1f GB/s  ratio %.3f\n", name, ours,
                theirs, best_ratio);
    EXPECT_NEAR(best_ratio, 1.0, 0.05) << name << ": " << ours << " vs " << theirs << " GB/s";
  }
}

TEST_F(KernelLabGpu, CountersOfOneLaunchEqualTheModelsTotals) {
  for (const char* name : {"copy, 4 B", "transpose naive, n = 256", "transpose tiled, n = 256",
                           "transpose padded, n = 256", "AoS field x through __ldg",
                           "reduction step tile[2*s*tx]", "reduction step tile[tx + s]"}) {
    const KernelState& st = small(name);
    const LaunchCountersRead read = read_launch_counters(device_, lab_->counter_launch(st.program));
    if (!read.counters) GTEST_SKIP() << "counters unavailable: " << read.unavailable;
    const LaunchCounters& c = *read.counters;
    const gpu::KernelTotals t =
        gpu::model_totals(st.program, model::HardwareModel::Modern, 1 << 16);
    ASSERT_TRUE(t.exact) << name;
    EXPECT_DOUBLE_EQ(c.global_load_requests, t.global_load.requests) << name;
    EXPECT_DOUBLE_EQ(c.global_load_sectors, t.global_load.cost) << name;
    EXPECT_DOUBLE_EQ(c.global_store_requests, t.global_store.requests) << name;
    EXPECT_DOUBLE_EQ(c.global_store_sectors, t.global_store.cost) << name;
    EXPECT_DOUBLE_EQ(c.shared_load_instructions, t.shared_load.requests) << name;
    EXPECT_DOUBLE_EQ(c.shared_load_wavefronts, t.shared_load.cost) << name;
    EXPECT_DOUBLE_EQ(c.shared_store_instructions, t.shared_store.requests) << name;
    // Hopper's shared-store wavefront counter reads high under load (counter_checks.cpp: up to
    // +1.5 per request measured on an H100): never below the model, at most 1.5 above.
    if (t.shared_store.requests > 0) {
      EXPECT_GE(c.shared_store_wavefronts, t.shared_store.cost) << name;
      EXPECT_LE(c.shared_store_wavefronts / c.shared_store_instructions,
                t.shared_store.per_request() + 1.5)
          << name;
    }
  }
}

// A load that no later row stores (the CuTe layout scenarios' one row) still runs: the counters
// see every request the model counts, and its wavefronts per request agree by the lab's own rule
// (counters_agree, the window's tick: the H100 read 8.02, 32.77 and 1.004 for the model's 8, 32
// and 1, its blocks' tile-clearing stores beside the loads). With an empty asm statement as its
// only use, ptxas dropped the load and the H100 counted 0 shared loads (2026-11-27).
TEST_F(KernelLabGpu, ALoadNoRowStoresStillRunsAndIsCounted) {
  for (const char* name :
       {"kernel-layout-paste", "kernel-layout-tile-column", "kernel-layout-swizzle"}) {
    const KernelState& st = kernel_scenario(find_scenario(name));
    const LaunchCountersRead read = read_launch_counters(device_, lab_->counter_launch(st.program));
    if (!read.counters) GTEST_SKIP() << "counters unavailable: " << read.unavailable;
    const gpu::KernelTotals t =
        gpu::model_totals(st.program, model::HardwareModel::Modern, 1 << 16);
    ASSERT_TRUE(t.exact) << name;
    ASSERT_GT(t.shared_load.requests, 0) << name;
    EXPECT_DOUBLE_EQ(read.counters->shared_load_instructions, t.shared_load.requests) << name;
    const double per = read.counters->shared_load_wavefronts / t.shared_load.requests;
    EXPECT_TRUE(counters_agree(t.shared_load.per_request(), per, false))
        << name << ": " << per << " wavefronts per request, model " << t.shared_load.per_request();
  }
}

TEST_F(KernelLabGpu, FarOutOfRangeRunsIsCountedAndLeavesTheGpuUsable) {
  const KernelState& st = small("far out of range");
  const gpu::KernelRun run = lab_->run(st.program, st.traced, 3, 1);
  EXPECT_EQ(run.out_of_range[0], st.program.threads());        // every lane of row 1
  EXPECT_EQ(run.out_of_range[1], st.program.threads() - 256);  // all but thread 0 of each block
  EXPECT_EQ(run.out_of_range[2], 0);
  EXPECT_EQ(run.traced[0].lanes[0].active, false);
  EXPECT_TRUE(run.verified) << run.check;
  // The next measurement of another program succeeds.
  const KernelState& copy = small("copy, 4 B");
  const gpu::KernelRun next = lab_->run(copy.program, copy.traced, 3, 1);
  EXPECT_TRUE(next.verified) << next.check;
}

TEST_F(KernelLabGpu, ModulesAreCachedBySource) {
  const KernelState& st = small("transpose tiled, n = 256");
  (void)lab_->run(st.program, st.traced, 1, 0);
  const gpu::KernelRun again = lab_->run(st.program, st.traced, 1, 0);
  EXPECT_TRUE(again.from_cache);
  EXPECT_EQ(again.compile_ms, 0);
}

TEST_F(KernelLabGpu, SessionPublishesTheGpuTraceAndCounters) {
  HostWarpTraceSink warp;
  HostSink<TraceRecords> bank;
  KernelSession session(warp, bank, true);
  KernelState st = small("transpose tiled, n = 256");
  st.step = 2;  // the tile's column read
  session.set(st);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    session.update();
    if (session.idle()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_TRUE(session.idle()) << session.error();
  const KernelResults r = session.measured();
  ASSERT_TRUE(session.run_current(r)) << session.error();
  EXPECT_TRUE(session.traced_on_gpu());
  EXPECT_TRUE(r.run->verified) << r.run->check;
  const TraceRecords b = bank.contents();
  for (int l = 0; l < 32; ++l)
    EXPECT_EQ(trace_address(b[static_cast<std::size_t>(l)]), 128u * static_cast<unsigned>(l));
  EXPECT_TRUE(r.counters || !r.counters_unavailable.empty());
  EXPECT_TRUE(r.reference && r.reference->gbps > 0);
  EXPECT_GT(r.edit_to_result_ms, 0);
}

}  // namespace
}  // namespace warplens::app
