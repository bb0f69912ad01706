// Recovery from GPU faults, on the GPU (label gpu; skipped without a device). A sticky fault (a
// trap, an illegal address) cannot be cleared inside the process on current drivers
// (gpu_restart.h), so WarpLens restarts its process: the fault drill (`warplens-bench
// fault-drill`) puts the test-only trapping kernel on each lab's worker in turn and checks that
// the restarted process shows the lab's measured point with its counters, same scenario and
// parameters, within 3 s; `verify` reports the row that faulted and its restarted process runs the
// rest. In this process: a launch past the time limit, closing during a long launch, and a real
// allocation failure (the test holds most of the card's memory).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "bank_view.h"
#include "cache_session.h"
#include "copy_session.h"
#include "counter_service.h"
#include "flight_session.h"
#include "gpu_fault.h"
#include "gpu_recovery.h"
#include "headless_context.h"
#include "heat_strip.h"
#include "kernel_session.h"
#include "shared_session.h"
#include "test_support.h"
#include "verify.h"
#include "warp_view.h"
#include "worker_shutdown.h"

namespace warplens {
namespace {

class FaultRecoveryGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto q = gpu::query_device();
    if (!q.device) GTEST_SKIP() << "no CUDA device: " << q.reason;
    device_ = *q.device;
  }
  gpu::DeviceInfo device_;
};

// A launch past the time limit (0.5 s here, 2 s in the app): the measurement reports it in one
// line, the GL thread's trace does not wait behind it (update() returns at once), and once the
// kernel has ended the lab measures again.
TEST_F(FaultRecoveryGpu, ALaunchPastTheLimitIsReportedAndTheLabStaysUsable) {
  viz::HeadlessContext context(device_.index);
  viz::WarpView view;
  viz::HeatStrip heat;
  app::CopySession copy(view, heat, true);
  const auto settle = [&] {
    for (int i = 0; i < 60000 && !copy.idle(); ++i) {
      copy.update();
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return copy.idle();
  };
  ASSERT_TRUE(settle()) << copy.error();
  gpu::set_launch_time_limit_s(0.5);
  const int device = device_.index;
  copy.run_on_worker(
      [device](const std::atomic<bool>& cancel) { (void)gpu::slow_probe(device, 3.0, &cancel); });
  bool reported = false;
  for (int i = 0; i < 3000 && !reported; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    reported = copy.error().find("longer than the limit") != std::string::npos;
  }
  EXPECT_TRUE(reported) << copy.error();
  EXPECT_TRUE(gpu::launch_overdue());
  copy.set({{4, 0, 2, 256}, 0});  // a new trace is due: it must not wait on the GL thread
  const auto t0 = std::chrono::steady_clock::now();
  copy.update();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(100));
  gpu::set_launch_time_limit_s(2.0);
  ASSERT_TRUE(settle()) << copy.error();
  EXPECT_FALSE(gpu::launch_overdue());
  EXPECT_EQ(copy.error(), "");
  ASSERT_TRUE(copy.measured().copy.has_value());
  EXPECT_TRUE(copy.measurement_current());
  EXPECT_EQ(copy.trace_source(), app::TraceSource::GpuKernel);
}

// Closing the window during a measurement: stop_workers (what the window does when it closes)
// returns within a second although the running kernel takes 3 s.
TEST_F(FaultRecoveryGpu, StoppingTheWorkersDuringALongLaunchTakesUnderASecond) {
  app::CacheSession cache(true);
  const int device = device_.index;
  std::atomic<bool> started = false;
  cache.run_on_worker([device, &started](const std::atomic<bool>& cancel) {
    started = true;
    (void)gpu::slow_probe(device, 3.0, &cancel);
  });
  for (int i = 0; i < 30000 && !started; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_TRUE(app::stop_workers(std::chrono::milliseconds(900)));
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(1));
}

// Out of GPU memory, for real: the test holds all but a little of the card. With 300 MiB left
// the global lab falls back to copy buffers of 2 x L2 and says so; with 16 MiB left it fails
// with a line that names out of memory and what is free, and once the memory is back an explicit
// re-measure (space bar) measures.
TEST_F(FaultRecoveryGpu, OutOfMemoryIsSaidClearlyAndTheGlobalLabRetriesSmaller) {
  viz::HeadlessContext context(device_.index);
  viz::WarpView view;
  viz::HeatStrip heat;
  const auto settle = [](app::CopySession& copy) {
    for (int i = 0; i < 60000 && !copy.idle(); ++i) {
      copy.update();
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return copy.idle();
  };
  {
    gpu::MemoryHog hog(device_.index, std::int64_t{300} << 20);
    app::CopySession copy(view, heat, true);
    ASSERT_TRUE(settle(copy));
    EXPECT_NE(copy.error().find("GPU memory short"), std::string::npos) << copy.error();
    ASSERT_TRUE(copy.measured().copy.has_value()) << copy.error();
    EXPECT_GT(copy.measured().copy->gbps, 0.0);
  }
  auto hog = std::make_unique<gpu::MemoryHog>(device_.index, std::int64_t{16} << 20);
  app::CopySession copy(view, heat, true);
  ASSERT_TRUE(settle(copy));
  EXPECT_NE(copy.error().find("out of memory"), std::string::npos) << copy.error();
  EXPECT_NE(copy.error().find("GiB free"), std::string::npos) << copy.error();
  EXPECT_FALSE(copy.measured().copy.has_value());
  hog.reset();
  copy.remeasure();
  ASSERT_TRUE(settle(copy));
  EXPECT_EQ(copy.error(), "");
  ASSERT_TRUE(copy.measured().copy.has_value());
  EXPECT_GT(copy.measured().copy->gbps, 0.0);
}

// The tests that fault run last, the drill first: on the H100s we measure on, once a process has
// met a sticky fault, a later process that draws GL while its kernels run stalls unless its frames
// are serialized (gpu_turn.h, SerialFrame), as the drill's restarted processes' are.
TEST_F(FaultRecoveryGpu, AFaultInEachLabRestartsWarpLensWhichMeasuresAgainWithin3s) {
  // The tests before this one profiled in this process: one profiler per GPU at a time.
  app::release_counter_checker();
  const auto r =
      test::run_command(test::tool_path("WARPLENS_BENCH_BIN", WARPLENS_BENCH) + " fault-drill");
  std::cout << r.output;
  if (r.exit_code == 3) GTEST_SKIP() << r.output;
  EXPECT_EQ(r.exit_code, 0) << r.output;
  for (const char* lab :
       {"global", "banks", "transpose", "matmul", "reduction", "cache", "flight", "kernel"}) {
    EXPECT_NE(r.output.find(std::string("\n") + lab), std::string::npos) << lab;
  }
  EXPECT_NE(r.output.find("fault drill: pass"), std::string::npos);
}

// After the drill: verify draws nothing, and a process without GL is not held up by a fault
// before it.
// `warplens verify` with a fault in its second row: that row is reported (differs, the fault in
// its note), verify restarts its process, and the rows after it are measured and agree.
TEST_F(FaultRecoveryGpu, VerifyReportsTheRowThatFaultedAndRunsTheRest) {
  const auto catalog = app::verify_catalog(device_.pitch_alignment);
  std::vector<std::string> names;
  for (const auto& c : catalog)
    if (c.name.find("stride") != std::string::npos) names.push_back(c.name);
  ASSERT_GE(names.size(), 3u);
  // This process's own counter session (the earlier tests' labs read counters) would make the
  // GPU refuse a second profiler to the verify process.
  app::release_counter_checker();
  const std::string out =
      std::filesystem::temp_directory_path().string() + "/warplens-verify-fault.json";
  const auto r = test::run_command(test::tool_path("WARPLENS_BIN_PATH", WARPLENS_BIN) +
                                   " verify --format json --filter stride --test-fault-before '" +
                                   names[1] + "' > " + out);
  std::ifstream in(out);
  const auto doc = nlohmann::json::parse(in);
  if (doc.value("status", "") == "counters-unavailable") GTEST_SKIP() << doc.value("reason", "");
  EXPECT_EQ(r.exit_code, app::kVerifyDiffers) << r.output;
  const auto& rows = doc.at("rows");
  ASSERT_EQ(rows.size(), names.size()) << r.output;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& row = rows[i];
    const std::string note = row.value("note", "");
    EXPECT_EQ(row.value("pattern", ""), names[i]);
    if (i == 1) {
      EXPECT_FALSE(row.value("agree", true)) << note;
      EXPECT_NE(note.find("GPU fault"), std::string::npos) << note;
    } else {
      EXPECT_TRUE(row.value("agree", false)) << row.value("pattern", "") << ": " << note;
    }
  }
  EXPECT_EQ(doc.value("differ", 0), 1);
}

}  // namespace
}  // namespace warplens
