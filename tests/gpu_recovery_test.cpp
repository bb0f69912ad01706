// The recovery from a sticky GPU fault (gpu_recovery.h, lab_worker.h) without a GPU: stand-in
// labs, a stand-in device reset. What a fault leaves in the worker, the order of the process-wide
// recovery (every user released, then the reset, then every user restarted), the GPU turn held
// through it, a failing reset kept for the next try, and a lab that faults again after a reset
// left waiting instead of resetting the GPU for ever.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "gpu_fault.h"
#include "gpu_recovery.h"
#include "gpu_turn.h"
#include "lab_worker.h"
#include "lab_worker_test_support.h"

namespace warplens::app {
namespace {

using test::eventually;
using test::FakeLab;

struct Log {
  std::mutex mutex;
  std::vector<std::string> lines;
  void add(std::string s) {
    std::lock_guard lock(mutex);
    lines.push_back(std::move(s));
  }
  std::vector<std::string> get() {
    std::lock_guard lock(mutex);
    return lines;
  }
};

gpu::DeviceFaultError fault() {
  return gpu::DeviceFaultError(gpu::DeviceFault{0,
                                                "cudaErrorIllegalAddress: an illegal memory "
                                                "access was encountered"});
}

TEST(GpuRecovery, NothingHappensWithoutARequest) {
  int resets = 0;
  EXPECT_FALSE(recover_gpu_if_requested([&](int) { ++resets; }));
  EXPECT_EQ(resets, 0);
}

TEST(GpuRecovery, ReleasesEveryUserThenResetsThenRestartsHoldingTheTurn) {
  Log log;
  GpuUserRegistration a(GpuUser{[&] { log.add("release a"); }, [&] { log.add("restart a"); }});
  std::optional<GpuUserRegistration> gone;
  gone.emplace(GpuUser{[&] { log.add("release gone"); }, [&] { log.add("restart gone"); }});
  GpuUserRegistration b(GpuUser{[&] { log.add("release b"); }, [&] { log.add("restart b"); }});
  gone.reset();  // unregistered: never called
  const unsigned generation = gpu_generation();
  std::thread([] { request_gpu_reset(0, "GPU fault (test)"); }).join();  // any thread may ask
  ASSERT_TRUE(gpu_reset_requested());
  EXPECT_EQ(last_gpu_fault(), "GPU fault (test)");
  bool turn_free_during_reset = true;
  const bool reset = recover_gpu_if_requested([&](int device) {
    log.add("reset " + std::to_string(device));
    // No job can start meanwhile: another thread cannot take the GPU turn.
    turn_free_during_reset = std::async(std::launch::async, [] {
                               std::unique_lock turn(gpu_turn(), std::try_to_lock);
                               return turn.owns_lock();
                             }).get();
  });
  EXPECT_TRUE(reset);
  EXPECT_FALSE(turn_free_during_reset);
  EXPECT_EQ(log.get(), (std::vector<std::string>{"release a", "release b", "reset 0", "restart a",
                                                 "restart b"}));
  EXPECT_EQ(gpu_generation(), generation + 1);
  EXPECT_FALSE(gpu_reset_requested());
  EXPECT_FALSE(recover_gpu_if_requested([&](int) { log.add("again"); }));
}

TEST(GpuRecovery, AFailingResetIsTriedAgainNextTime) {
  request_gpu_reset(0, "GPU fault (test)");
  const unsigned generation = gpu_generation();
  EXPECT_FALSE(
      recover_gpu_if_requested([](int) { throw gpu::GpuError("cudaDeviceReset failed"); }));
  EXPECT_TRUE(gpu_reset_requested());
  EXPECT_EQ(gpu_generation(), generation);
  EXPECT_TRUE(recover_gpu_if_requested([](int) {}));
  EXPECT_EQ(gpu_generation(), generation + 1);
}

// A lab's worker meets a sticky fault: it says so in one line and asks for the reset; the
// recovery releases its lab; the session's restart measures again on a lab made anew.
TEST(GpuRecovery, AWorkersFaultResetsAndTheNextMeasurementRunsOnANewLab) {
  int made = 0;
  Log ran;
  LabWorker<FakeLab, std::string> worker(
      1,
      [&] {
        ++made;
        return std::make_shared<FakeLab>();
      },
      [&](int, const std::string& job, FakeLab&) {
        if (job == "trap") throw fault();
        ran.add(job);
      });
  worker.start();
  bool released = false;  // the lab is gone once released (the restart's job makes it again)
  GpuUserRegistration user(GpuUser{[&] {
                                     worker.release_lab();
                                     released = worker.lab() == nullptr;
                                   },
                                   [&] { worker.post(0, "after the reset"); }});
  worker.post(0, "before");
  ASSERT_TRUE(eventually([&] { return !worker.busy(); }));
  worker.post(0, "trap");
  ASSERT_TRUE(eventually([&] { return !worker.busy(); }));
  EXPECT_NE(worker.error().find("GPU fault"), std::string::npos) << worker.error();
  EXPECT_NE(worker.error().find("cudaErrorIllegalAddress"), std::string::npos) << worker.error();
  EXPECT_EQ(worker.faults_in_a_row(), 1);
  EXPECT_FALSE(worker.lab_failed());
  ASSERT_TRUE(gpu_reset_requested());
  ASSERT_TRUE(recover_gpu_if_requested([](int) {}));
  // Checked inside the release: after the restart the new job may already have made it again.
  EXPECT_TRUE(released);
  ASSERT_TRUE(eventually([&] { return !worker.busy() && worker.lab() != nullptr; }));
  EXPECT_EQ(made, 2);
  EXPECT_EQ(ran.get(), (std::vector<std::string>{"before", "after the reset"}));
  EXPECT_EQ(worker.faults_in_a_row(), 0);
}

// The same through run_task, the tests' way to put the fault probe on a lab's worker.
TEST(GpuRecovery, ATaskRunsAsAJobWithTheLabMade) {
  int made = 0;
  LabWorker<FakeLab, std::string> worker(
      1,
      [&] {
        ++made;
        return std::make_shared<FakeLab>();
      },
      [&](int, const std::string&, FakeLab&) {});
  worker.start();
  worker.run_task([](const std::atomic<bool>&) { throw fault(); });
  ASSERT_TRUE(eventually([&] { return !worker.busy(); }));
  EXPECT_EQ(made, 1);
  EXPECT_NE(worker.error().find("GPU fault"), std::string::npos) << worker.error();
  EXPECT_TRUE(recover_gpu_if_requested([](int) {}));
}

// A kernel that faults every time: the second fault in a row leaves the lab waiting for the
// user's "measure again" (retry) instead of measuring, and so resetting, again on its own.
TEST(GpuRecovery, ASecondFaultInARowWaitsForTheUser) {
  LabWorker<FakeLab, std::string> worker(
      1, [] { return std::make_shared<FakeLab>(); },
      [](int, const std::string&, FakeLab&) { throw fault(); });
  worker.start();
  GpuUserRegistration user(GpuUser{[&] { worker.release_lab(); },
                                   [&] {
                                     if (!worker.lab_failed()) worker.post(0, "again");
                                   }});
  worker.post(0, "faults");
  ASSERT_TRUE(eventually([&] { return !worker.busy(); }));
  ASSERT_TRUE(recover_gpu_if_requested([](int) {}));  // restart: measures again, faults again
  ASSERT_TRUE(eventually([&] { return !worker.busy() && gpu_reset_requested(); }));
  EXPECT_EQ(worker.faults_in_a_row(), 2);
  EXPECT_TRUE(worker.lab_failed());
  EXPECT_NE(worker.error().find("measure again"), std::string::npos) << worker.error();
  ASSERT_TRUE(recover_gpu_if_requested([](int) {}));  // restart: waits, posts nothing
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(worker.busy());
  EXPECT_FALSE(gpu_reset_requested());
  EXPECT_TRUE(worker.settled());
}

// Out of GPU memory (another process holding most of it): the line says how much is free and
// what to do; the lab waits for "measure again" on the host model.
TEST(GpuRecovery, AnAllocationThatFindsNoMemorySaysHowMuchIsFree) {
  const std::string cuda = "cannot allocate the copy input (512 MiB) on H100: out of memory";
  const std::string text = gpu::out_of_memory_text(
      cuda, gpu::DeviceMemory{std::int64_t{3} << 29, std::int64_t{80} << 30});
  EXPECT_EQ(text, cuda +
                      " (1.5 of 80.0 GiB free: another process may hold the rest; close it and "
                      "measure again)");
  EXPECT_NE(gpu::out_of_memory_text(cuda, std::nullopt).find("free memory unknown"),
            std::string::npos);
  EXPECT_EQ(gpu::out_of_memory_text("launch failed", std::nullopt), "launch failed");
  LabWorker<FakeLab, std::string> worker(
      1,
      []() -> std::shared_ptr<FakeLab> { throw gpu::GpuError("cannot allocate: out of memory"); },
      [](int, const std::string&, FakeLab&) {});
  worker.start();
  worker.post(0, "measure");
  ASSERT_TRUE(eventually([&] { return !worker.busy(); }));
  EXPECT_TRUE(worker.lab_failed());
  EXPECT_NE(worker.error().find("another process may hold"), std::string::npos) << worker.error();
  EXPECT_FALSE(gpu_reset_requested());
}

}  // namespace
}  // namespace warplens::app
