// The labs' worker (lab_worker.h) without a GPU: a stand-in "lab" type, jobs that record what
// ran. Slot order, a newer job replacing a waiting one, superseded jobs, cancellation of the
// running job of the same slot, and what a failure to make the lab leaves behind.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "gpu.h"
#include "lab_worker.h"
#include "lab_worker_test_support.h"

namespace warplens::app {
namespace {

using test::eventually;
using test::FakeLab;

struct Recorder {
  std::mutex mutex;
  std::vector<std::string> ran;
  void add(std::string s) {
    std::lock_guard lock(mutex);
    ran.push_back(std::move(s));
  }
  std::vector<std::string> get() {
    std::lock_guard lock(mutex);
    return ran;
  }
};

TEST(LabWorker, RunsTheLowestSlotFirstAndTheNewestJobOfASlot) {
  Recorder rec;
  std::promise<void> release;
  std::shared_future<void> gate = release.get_future().share();
  LabWorker<FakeLab, std::string> worker(
      3, [] { return std::make_shared<FakeLab>(); },
      [&](int slot, const std::string& job, FakeLab&) {
        if (job == "block") gate.wait();
        rec.add(std::to_string(slot) + ":" + job);
      });
  worker.start();
  worker.post(2, "block");  // holds the worker while the others queue up
  ASSERT_TRUE(eventually([&] { return worker.running(2); }));
  worker.post(2, "old");
  worker.post(2, "new");  // replaces "old"
  worker.post(1, "one");
  worker.post(0, "zero");
  release.set_value();
  ASSERT_TRUE(eventually([&] { return !worker.busy(); }));
  EXPECT_EQ(rec.get(), (std::vector<std::string>{"2:block", "0:zero", "1:one", "2:new"}));
  EXPECT_EQ(worker.error(), "");
}

TEST(LabWorker, ASupersedingJobDropsTheWaitingOneWhenItStarts) {
  Recorder rec;
  std::promise<void> release;
  std::shared_future<void> gate = release.get_future().share();
  LabWorker<FakeLab, std::string> worker(
      2, [] { return std::make_shared<FakeLab>(); },
      [&](int slot, const std::string& job, FakeLab&) {
        if (job == "block") gate.wait();
        rec.add(std::to_string(slot) + ":" + job);
      });
  worker.supersede(0, 1);  // a measurement reads the counters too
  worker.start();
  worker.post(1, "block");
  ASSERT_TRUE(eventually([&] { return worker.running(1); }));
  worker.post(1, "counters");  // waiting when the measurement starts: dropped
  worker.post(0, "measure");
  release.set_value();
  ASSERT_TRUE(eventually([&] { return !worker.busy(); }));
  EXPECT_EQ(rec.get(), (std::vector<std::string>{"1:block", "0:measure"}));
}

TEST(LabWorker, PostingCancelsTheRunningJobOfItsSlotAndCancellingIsNoError) {
  Recorder rec;
  LabWorker<FakeLab, std::string>* self = nullptr;
  LabWorker<FakeLab, std::string> worker(
      1, [] { return std::make_shared<FakeLab>(); },
      [&](int slot, const std::string& job, FakeLab&) {
        if (job == "long") {
          while (!self->cancelled(slot)) std::this_thread::sleep_for(std::chrono::milliseconds(1));
          throw gpu::Cancelled();
        }
        rec.add(job);
      });
  self = &worker;
  worker.start();
  worker.post(0, "long");
  ASSERT_TRUE(eventually([&] { return worker.running(0); }));
  worker.post(0, "short");
  ASSERT_TRUE(eventually([&] { return !worker.busy(); }));
  EXPECT_EQ(rec.get(), (std::vector<std::string>{"short"}));
  EXPECT_EQ(worker.error(), "") << "a cancelled measurement is not an error";
}

TEST(LabWorker, ALabThatCannotBeMadeFailsOnceAndRetries) {
  int attempts = 0;
  Recorder rec;
  LabWorker<FakeLab, std::string> worker(
      1,
      [&]() -> std::shared_ptr<FakeLab> {
        if (++attempts == 1) throw gpu::GpuError("out of memory: 2 x 800 MiB");
        return std::make_shared<FakeLab>();
      },
      [&](int, const std::string& job, FakeLab&) { rec.add(job); });
  worker.start();
  worker.post(0, "first");
  ASSERT_TRUE(eventually([&] { return !worker.busy(); }));
  EXPECT_TRUE(worker.lab_failed());
  EXPECT_EQ(worker.lab(), nullptr);
  EXPECT_NE(worker.error().find("out of memory"), std::string::npos) << worker.error();
  EXPECT_NE(worker.error().find("measure again"), std::string::npos) << worker.error();
  worker.retry();
  worker.post(0, "second");
  ASSERT_TRUE(eventually([&] { return !worker.busy(); }));
  EXPECT_FALSE(worker.lab_failed());
  EXPECT_NE(worker.lab(), nullptr);
  EXPECT_EQ(rec.get(), (std::vector<std::string>{"second"}));
}

TEST(LabWorker, StopJoinsAndLaterPostsNeverRun) {
  Recorder rec;
  LabWorker<FakeLab, std::string> worker(
      1, [] { return std::make_shared<FakeLab>(); },
      [&](int, const std::string& job, FakeLab&) { rec.add(job); });
  worker.start();
  worker.stop();
  worker.post(0, "late");
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_TRUE(rec.get().empty());
}

}  // namespace
}  // namespace warplens::app
