// Recovery from a sticky GPU fault, on the GPU (label gpu; skipped without a device). Every lab's
// session lives at once, as in the window; the fault probe (gpu_fault.h: a __trap(), or a store to
// an illegal address) runs on one lab's worker at a time. Each time: the lab reports the fault in
// one line and asks for the reset; recover_gpu_if_requested (what Workbench::update does each
// frame) releases every lab's GPU objects, resets the device and restarts every lab; then every
// lab's next measurement succeeds and verifies, and the GL views are traced from the GPU again
// (their interop registrations made anew).
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "bank_view.h"
#include "cache_session.h"
#include "copy_session.h"
#include "flight_session.h"
#include "gpu_fault.h"
#include "gpu_recovery.h"
#include "headless_context.h"
#include "heat_strip.h"
#include "kernel_session.h"
#include "shared_session.h"
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

struct Labs {
  viz::WarpView copy_view;
  viz::HeatStrip heat;
  viz::BankView bank_view;
  viz::WarpView transpose_view;
  app::CopySession copy{copy_view, heat, true};
  app::SharedSession shared{bank_view, transpose_view, true, app::Lab::Transpose};
  app::CacheSession cache{true};
  app::FlightSession flight{true};
  viz::WarpView kernel_warp_view;
  viz::BankView kernel_bank_view;
  app::KernelSession kernel{kernel_warp_view, kernel_bank_view, true};

  Labs() {
    cache.show();
    flight.show();
  }
  void update() {
    (void)app::recover_gpu_if_requested();  // as Workbench::update, on the GL thread
    copy.update();
    shared.update();
    cache.update();
    flight.update();
    kernel.update();
  }
  bool idle() const {
    return copy.idle() && shared.idle() && cache.idle() && flight.idle() && kernel.idle();
  }
  /// Updates until every lab is idle (up to 300 s).
  bool settle() {
    for (int i = 0; i < 300000 && !(idle() && !app::gpu_reset_requested()); ++i) {
      update();
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return idle();
  }
  std::string errors() const {
    return "copy: " + copy.error() + "; shared: " + shared.error() + "; cache: " + cache.error() +
           "; flight: " + flight.error() + "; kernel: " + kernel.error();
  }
};

/// Every lab measured the current parameters on the GPU, without an error, and verified.
void expect_measured(const Labs& labs, const std::string& after) {
  SCOPED_TRACE(after);
  EXPECT_EQ(labs.errors(), "copy: ; shared: ; cache: ; flight: ; kernel: ");
  const auto copy = labs.copy.measured();
  ASSERT_TRUE(copy.copy.has_value());
  EXPECT_TRUE(labs.copy.measurement_current());
  EXPECT_GT(copy.copy->gbps, 0.0);
  EXPECT_EQ(labs.copy.trace_source(), app::TraceSource::GpuKernel);
  const auto shared = labs.shared.measured();
  EXPECT_TRUE(labs.shared.measurement_current());
  ASSERT_FALSE(shared.transpose.empty());
  for (const auto& t : shared.transpose) EXPECT_TRUE(t.verified) << t.check;
  EXPECT_TRUE(labs.shared.traced_on_gpu());
  EXPECT_TRUE(labs.cache.measurement_current());
  const auto cache = labs.cache.measured();
  ASSERT_TRUE(cache.hungry.has_value());
  EXPECT_TRUE(cache.hungry->verified) << cache.hungry->check;
  const auto flight = labs.flight.measured();
  ASSERT_FALSE(flight.stream.empty());
  for (const auto& s : flight.stream) EXPECT_TRUE(s.verified) << s.check;
  const auto kernel = labs.kernel.measured();
  ASSERT_TRUE(labs.kernel.run_current(kernel));
  EXPECT_GT(kernel.run->gbps, 0.0);
  EXPECT_TRUE(labs.kernel.traced_on_gpu());
}

TEST_F(FaultRecoveryGpu, AFaultInEachLabResetsTheGpuAndEveryLabMeasuresAgain) {
  viz::HeadlessContext context(device_.index);
  Labs labs;
  ASSERT_TRUE(labs.settle()) << labs.errors();
  expect_measured(labs, "before any fault");

  const int device = device_.index;
  struct Victim {
    const char* name;
    std::function<void(std::function<void(const std::atomic<bool>&)>)> run;
    gpu::FaultKind kind;
  };
  const std::vector<Victim> victims = {
      {"global", [&](auto task) { labs.copy.run_on_worker(std::move(task)); },
       gpu::FaultKind::IllegalAddress},
      {"shared", [&](auto task) { labs.shared.run_on_worker(std::move(task)); },
       gpu::FaultKind::Trap},
      {"cache", [&](auto task) { labs.cache.run_on_worker(std::move(task)); },
       gpu::FaultKind::IllegalAddress},
      {"flight", [&](auto task) { labs.flight.run_on_worker(std::move(task)); },
       gpu::FaultKind::Trap},
      {"kernel", [&](auto task) { labs.kernel.run_on_worker(std::move(task)); },
       gpu::FaultKind::IllegalAddress},
  };
  for (const Victim& v : victims) {
    SCOPED_TRACE(v.name);
    const unsigned generation = app::gpu_generation();
    v.run([device, kind = v.kind](const std::atomic<bool>&) { gpu::fault_probe(device, kind); });
    bool reported = false;
    for (int i = 0; i < 30000 && !reported; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      reported = app::gpu_reset_requested();
    }
    ASSERT_TRUE(reported) << "no reset was asked for: " << labs.errors();
    EXPECT_NE(app::last_gpu_fault().find("GPU fault"), std::string::npos) << app::last_gpu_fault();
    ASSERT_TRUE(labs.settle()) << labs.errors();
    EXPECT_EQ(app::gpu_generation(), generation + 1);
    EXPECT_FALSE(gpu::device_fault().has_value());
    expect_measured(labs, std::string("after the fault in the ") + v.name + " lab");
  }
}

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

// `warplens verify` with a fault in its second row: that row is reported (differs, the fault in
// its note), the GPU is reset, and the rows after it are measured and agree.
TEST_F(FaultRecoveryGpu, VerifyReportsTheRowThatFaultedAndRunsTheRest) {
  const auto catalog = app::verify_catalog(device_.pitch_alignment);
  ASSERT_GE(catalog.size(), 3u);
  app::VerifyOptions options;
  options.format = "json";
  options.filter = "stride";  // a few dozen global and shared rows
  std::vector<std::string> names;
  for (const auto& c : catalog)
    if (c.name.find(options.filter) != std::string::npos) names.push_back(c.name);
  ASSERT_GE(names.size(), 3u);
  options.fault_before = names[1];
  testing::internal::CaptureStdout();
  const int code = app::run_verify(options);
  const std::string out = testing::internal::GetCapturedStdout();
  const auto doc = nlohmann::json::parse(out);
  if (doc.value("status", "") == "counters-unavailable") GTEST_SKIP() << doc.value("reason", "");
  EXPECT_EQ(code, app::kVerifyDiffers);
  const auto& rows = doc.at("rows");
  ASSERT_EQ(rows.size(), names.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& row = rows[i];
    const std::string note = row.value("note", "");
    if (i == 1) {
      EXPECT_FALSE(row.value("agree", true)) << note;
      EXPECT_NE(note.find("GPU fault"), std::string::npos) << note;
    } else {
      EXPECT_TRUE(row.value("agree", false)) << row.value("pattern", "") << ": " << note;
    }
  }
  EXPECT_FALSE(gpu::device_fault().has_value());
}

}  // namespace
}  // namespace warplens
