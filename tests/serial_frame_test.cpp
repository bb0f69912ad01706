// Serialized frames (gpu_turn.h), as a WarpLens restarted after a GPU fault draws: a frame draws
// only while no worker holds the GPU turn, keeps the turn until its GL work is finished, and its
// traces go ahead under the frame's turn; unserialized frames never touch the turn.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "gpu_turn.h"

namespace warplens::app {
namespace {

struct SerialOn {
  SerialOn() { set_serial_gl(true); }
  ~SerialOn() { set_serial_gl(false); }
};

TEST(SerialFrame, UnserializedFramesAlwaysDrawAndLeaveTheTurnFree) {
  set_serial_gl(false);
  SerialFrame frame;
  EXPECT_TRUE(frame.begin());
  EXPECT_FALSE(frame_holds_turn());
  EXPECT_TRUE(try_gpu_turn().owns_lock());  // a worker could take it meanwhile
  bool finished = false;
  frame.end([&] { finished = true; });
  EXPECT_FALSE(finished);  // nothing to wait for: GL and CUDA overlap as usual
}

TEST(SerialFrame, AFrameWaitsWhileAWorkerHoldsTheTurn) {
  SerialOn on;
  std::promise<void> taken, let_go;
  std::thread worker([&] {
    std::lock_guard turn(gpu_turn());
    taken.set_value();
    let_go.get_future().wait();
  });
  taken.get_future().wait();
  {
    SerialFrame frame;
    EXPECT_FALSE(frame.begin()) << "a frame drew while a worker's kernels could be running";
    EXPECT_FALSE(frame_holds_turn());
  }
  let_go.set_value();
  worker.join();
  SerialFrame frame;
  EXPECT_TRUE(frame.begin());
  frame.end([] {});
}

TEST(SerialFrame, TheFrameKeepsTheTurnUntilItsGlWorkIsFinished) {
  SerialOn on;
  std::vector<std::string> order;
  std::mutex order_mutex;
  auto note = [&](const char* what) {
    std::lock_guard lock(order_mutex);
    order.emplace_back(what);
  };
  SerialFrame frame;
  ASSERT_TRUE(frame.begin());
  EXPECT_TRUE(frame_holds_turn());
  std::thread worker([&] {
    std::lock_guard turn(gpu_turn());  // a measurement posted during the frame
    note("worker launches");
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  frame.end([&] { note("glFinish"); });
  worker.join();
  EXPECT_FALSE(frame_holds_turn());
  ASSERT_EQ(order.size(), 2u);
  EXPECT_EQ(order[0], "glFinish");
  EXPECT_EQ(order[1], "worker launches");
}

TEST(SerialFrame, ATraceInsideTheFrameGoesAheadUnderTheFramesTurn) {
  SerialOn on;
  SerialFrame frame;
  ASSERT_TRUE(frame.begin());
  TraceWait wait;
  std::unique_lock<std::mutex> trace_turn;
  EXPECT_TRUE(wait.go(trace_turn));  // no second lock of the same turn on the same thread
  EXPECT_FALSE(trace_turn.owns_lock());
  frame.end([] {});
  // Outside a serialized frame the trace takes the turn itself.
  EXPECT_TRUE(wait.go(trace_turn));
  EXPECT_TRUE(trace_turn.owns_lock());
}

TEST(SerialFrame, AWorkerWaitingForTheTurnGoesBeforeTheNextFrame) {
  SerialOn on;
  auto frame = std::make_unique<SerialFrame>();
  ASSERT_TRUE(frame->begin());
  std::atomic<bool> launched{false};
  std::thread worker([&] {
    auto turn = take_gpu_turn([] {});  // waits: the frame holds the turn
    launched = true;
  });
  while (workers_waiting().load() == 0) std::this_thread::yield();
  frame->end([] {});
  // Frames drawn without a pause, as a headless drill draws them: none may take the turn again
  // before the waiting worker has had it.
  for (int i = 0; i < 1000 && !launched; ++i) {
    SerialFrame next;
    if (next.begin()) {
      EXPECT_TRUE(launched.load()) << "a frame took the turn while a worker waited for it";
      next.end([] {});
    }
  }
  worker.join();
  EXPECT_TRUE(launched.load());
  EXPECT_EQ(workers_waiting().load(), 0);
}

TEST(SerialFrame, AFaultedProcessQuietsItsGlBeforeItEnds) {
  set_serial_gl(false);
  // No GL thread has drawn lately: nothing to wait for, nothing switched.
  last_frame_end_ns() = 0;
  quiet_gl_before_exit();
  EXPECT_FALSE(serial_gl());
  // A GL thread drawing without a pause: after the call, frames are serialized and one of them
  // has finished its GL work (the `finish` of end()).
  std::atomic<bool> stop{false};
  std::atomic<int> finished_serialized{0};
  std::thread gl([&] {
    while (!stop) {
      SerialFrame frame;
      if (!frame.begin()) continue;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));  // drawing
      frame.end([&] { ++finished_serialized; });
    }
  });
  while (frames_drawn().load() < 3) std::this_thread::yield();
  quiet_gl_before_exit(10'000'000'000);  // bounded far above what a loaded machine needs
  EXPECT_TRUE(serial_gl());
  EXPECT_GE(finished_serialized.load(), 1);
  stop = true;
  gl.join();
  set_serial_gl(false);
}

TEST(TraceWait, ATraceThatFoundTheTurnTakenRunsBeforeTheWorkersNextJob) {
  trace_wanted_ns() = 0;
  TraceWait wait;
  std::unique_lock<std::mutex> trace_turn;
  std::vector<std::string> order;
  std::mutex order_mutex;
  auto note = [&](const char* what) {
    std::lock_guard lock(order_mutex);
    order.emplace_back(what);
  };
  std::atomic<bool> first_job_running{false}, first_job_may_end{false};
  std::thread worker([&] {
    {
      auto turn = take_gpu_turn([] {});
      first_job_running = true;
      while (!first_job_may_end) std::this_thread::yield();
    }
    // The next job: the trace asked for the turn during the first, so this one gives way.
    auto turn = take_gpu_turn([] {});
    note("second job");
  });
  while (!first_job_running) std::this_thread::yield();
  EXPECT_FALSE(wait.go(trace_turn));  // a job runs: no trace behind its launches
  EXPECT_NE(trace_wanted_ns().load(), 0);
  EXPECT_FALSE(wait.go(trace_turn));  // the frame just before the job ends asks again
  first_job_may_end = true;
  // The GL thread's next frames: one of them gets the turn before the worker's second job.
  bool traced = false;
  for (int frame = 0; frame < 200 && !traced; ++frame) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::unique_lock<std::mutex> turn;
    if (wait.go(turn) && turn.owns_lock()) {
      note("trace");
      traced = true;
    }
  }
  worker.join();
  EXPECT_TRUE(traced);
  ASSERT_EQ(order.size(), 2u);
  EXPECT_EQ(order[0], "trace");
  EXPECT_EQ(order[1], "second job");
  EXPECT_EQ(trace_wanted_ns().load(), 0);
}

TEST(TraceWait, AWorkerWaitsForAnOldTraceRequestNoLongerThanItsLimit) {
  trace_wanted_ns() = turn_clock_ns();  // a trace asked, and nobody comes for the turn
  const auto from = std::chrono::steady_clock::now();
  {
    auto turn = take_gpu_turn([] {});
  }
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - from).count();
  EXPECT_LT(ms, 10000.0);  // bounded (kTraceGiveWayNs, 200 ms), not waiting for ever
  trace_wanted_ns() = 0;
}

}  // namespace
}  // namespace warplens::app
