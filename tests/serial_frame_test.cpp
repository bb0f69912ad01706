// Serialized frames (gpu_turn.h), as a WarpLens restarted after a GPU fault draws: a frame draws
// only with the GPU turn (free, or lent by a job between two GPU phases), keeps it until its GL
// work is finished, and its traces go ahead under the frame's own turn only; unserialized frames
// (the default) never touch the turn.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <thread>
#include <vector>

#include "gpu_fault.h"
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
  TraceTurn trace_turn;
  EXPECT_TRUE(wait.go(trace_turn));  // no second lock of the same turn on the same thread
  EXPECT_FALSE(trace_turn.turn.owns_lock());
  frame.end([] {});
  // Outside a serialized frame the trace takes the turn itself.
  EXPECT_TRUE(wait.go(trace_turn));
  EXPECT_TRUE(trace_turn.turn.owns_lock());
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

TEST(SerialFrame, AFaultedProcessStopsDrawingBeforeItEnds) {
  set_serial_gl(false);
  gl_stopped() = false;
  // A GL thread drawing without a pause, each frame 5 ms long.
  std::atomic<bool> stop{false};
  std::atomic<int> begun_after_stop{0};
  std::atomic<bool> stopped_seen{false};
  std::thread gl([&] {
    while (!stop) {
      SerialFrame frame;
      if (!frame.begin()) {
        stopped_seen = true;
        std::this_thread::yield();
        continue;
      }
      if (gl_stopped().load()) ++begun_after_stop;  // may only happen to a frame begun before
      std::this_thread::sleep_for(std::chrono::milliseconds(5));  // drawing
      frame.end([] {});
    }
  });
  while (frames_drawn().load() < 3) std::this_thread::yield();
  // Waits for the frame being drawn (bounded far above what a loaded machine needs), and then
  // no frame is open and none begins.
  stop_gl_before_exit(10'000'000'000);
  EXPECT_EQ(frames_open().load(), 0);
  const std::uint64_t drawn = frames_drawn().load();
  while (!stopped_seen) std::this_thread::yield();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(frames_drawn().load(), drawn) << "a frame was drawn after the GL was stopped";
  EXPECT_LE(begun_after_stop.load(), 1);
  stop = true;
  gl.join();
  gl_stopped() = false;
}

TEST(SerialFrame, AStoppedGlDrawsNoSerializedFrameEither) {
  set_serial_gl(true);
  gl_stopped() = true;
  {
    SerialFrame frame;
    EXPECT_FALSE(frame.begin());
  }
  EXPECT_EQ(frames_open().load(), 0);
  auto turn = try_gpu_turn();
  EXPECT_TRUE(turn.owns_lock()) << "a frame that did not begin holds no turn";
  gl_stopped() = false;
  set_serial_gl(false);
}

// A job that holds the turn for a long time, with GPU phases of 3 ms, and a GL thread drawing
// serialized frames without a pause: frames draw between the phases (the job lends its turn at
// each boundary where a frame waits), never during one.
TEST(SerialFrame, AJobLendsItsTurnToFramesBetweenItsGpuPhasesOnly) {
  SerialOn on;
  std::atomic<bool> in_phase{false}, job_done{false}, started{false};
  std::atomic<int> drawn_during_phase{0}, drawn{0}, lent{0};
  std::thread job([&] {
    auto turn = take_gpu_turn([] {});
    const JobTurn job_turn;
    started = true;
    for (int phase = 0; phase < 40; ++phase) {
      in_phase = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(3));  // kernels run
      in_phase = false;
      if (frame_waits_for_turn()) {  // what gpu::between_gpu_phases asks
        ++lent;
        lend_turn_to_frame();
      }
    }
    job_done = true;
  });
  while (!started) std::this_thread::yield();
  while (!job_done) {
    SerialFrame frame;
    if (!frame.begin()) {
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      continue;
    }
    if (in_phase) ++drawn_during_phase;
    EXPECT_FALSE(frame_holds_turn()) << "a lent turn is not the frame's own";
    EXPECT_TRUE(frame_borrows_turn());
    TraceTurn trace_turn;
    TraceWait wait;
    EXPECT_FALSE(wait.go(trace_turn)) << "a frame on a lent turn traced";
    std::this_thread::sleep_for(std::chrono::milliseconds(1));  // drawing
    if (in_phase) ++drawn_during_phase;
    frame.end([] {});
    ++drawn;
  }
  job.join();
  EXPECT_EQ(drawn_during_phase.load(), 0) << "a frame drew while the job's kernels ran";
  EXPECT_GE(drawn.load(), 5) << "frames waited for the whole job";
  EXPECT_GE(lent.load(), drawn.load());
  EXPECT_EQ(turn_lent().load(), 0);
  EXPECT_FALSE(frame_borrows_turn());
}

TEST(SerialFrame, AJobLendsNothingWhenNoFrameWaitsAndTakesItsTurnBackWhenNoneCame) {
  SerialOn on;
  frame_wanted_ns() = 0;
  auto turn = take_gpu_turn([] {});
  EXPECT_FALSE(frame_waits_for_turn()) << "not a job's thread yet";
  const JobTurn job_turn;
  EXPECT_FALSE(frame_waits_for_turn()) << "no frame asked";
  frame_wanted_ns() = turn_clock_ns();
  EXPECT_TRUE(frame_waits_for_turn());
  lend_turn_to_frame();  // no frame comes: back after kLendWaitNs
  EXPECT_EQ(turn_lent().load(), 0);
  frame_wanted_ns() = turn_clock_ns() - 2 * kFrameWishNs;
  EXPECT_FALSE(frame_waits_for_turn()) << "a stale wish";
  set_serial_gl(false);
  frame_wanted_ns() = turn_clock_ns();
  EXPECT_FALSE(frame_waits_for_turn()) << "unserialized frames need no turn";
  frame_wanted_ns() = 0;
}

TEST(TraceWait, ATraceThatFoundTheTurnTakenRunsBeforeTheWorkersNextJob) {
  trace_wanted_ns() = 0;
  TraceWait wait;
  TraceTurn trace_turn;
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
    TraceTurn turn;
    if (wait.go(turn) && turn.turn.owns_lock()) {
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

// A trace that gave up waiting for a long job goes ahead beside it, but never while the job
// reads counters: CUPTI's range counts every kernel of the context (gpu::profiled_range_mutex),
// and the window read 8.00 sectors per request where its copy moved 4.00.
TEST(TraceWait, ATraceBesideALongJobWaitsWhileTheJobReadsCounters) {
  TraceWait wait;
  std::atomic<bool> job_running{false}, reading{false}, read_done{false}, job_may_end{false};
  std::thread worker([&] {
    auto turn = take_gpu_turn([] {});
    job_running = true;
    {
      std::unique_lock<std::shared_mutex> range(gpu::profiled_range_mutex());  // as profile_group
      reading = true;
      while (!read_done) std::this_thread::yield();
    }
    reading = false;
    while (!job_may_end) std::this_thread::yield();
  });
  while (!job_running || !reading) std::this_thread::yield();
  for (int frame = 0; frame < 3 * TraceWait::kMaxFrames; ++frame) {
    TraceTurn turn;
    EXPECT_FALSE(wait.go(turn)) << "frame " << frame << " traced inside a counter read-out";
  }
  read_done = true;
  while (reading) std::this_thread::yield();
  // The job goes on after its read-out: the next frame that asks goes ahead beside it, holding
  // the range lock's share, so a read-out now would wait for the trace.
  TraceTurn turn;
  EXPECT_TRUE(wait.go(turn));
  EXPECT_FALSE(turn.turn.owns_lock());
  EXPECT_TRUE(turn.beside_job.owns_lock());
  const bool read_out_could_open = gpu::profiled_range_mutex().try_lock();
  if (read_out_could_open) gpu::profiled_range_mutex().unlock();
  EXPECT_FALSE(read_out_could_open);
  turn = TraceTurn{};
  job_may_end = true;
  worker.join();
  trace_wanted_ns() = 0;
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

// GPU work that runs alone (gpu::RunsAlone): code not yet run clean in the process waits for the
// frames' GL work to finish, and no frame draws until it ran.
namespace alone {
std::atomic<int> finishes{0};
std::atomic<bool> gl_in_flight{false};  // a frame's GL work queued and not finished
void finish() {
  gl_in_flight = false;
  ++finishes;
}
}  // namespace alone

struct GlLoop {
  std::atomic<bool> stop{false};
  std::atomic<int> drawn_while_alone{0};
  std::atomic<bool> inside{false};  // the job's new code runs
  std::thread gl;
  GlLoop() {
    install_turn_lending();
    gl_finish_hook() = &alone::finish;
    gl = std::thread([this] {
      while (!stop) {
        SerialFrame frame;
        if (!frame.begin()) {
          std::this_thread::yield();
          continue;
        }
        if (inside) ++drawn_while_alone;
        alone::gl_in_flight = true;  // the frame's GL work, left queued (no glFinish: unserialized)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        frame.end([] {});
      }
    });
  }
  ~GlLoop() {
    stop = true;
    gl.join();
    gl_finish_hook() = nullptr;
  }
};

TEST(RunsAlone, NewCodeWaitsForTheFramesGlWorkAndNoFrameDrawsUntilItRan) {
  set_serial_gl(false);
  gl_stopped() = false;
  GlLoop loop;
  while (frames_drawn().load() < 3) std::this_thread::yield();
  const int finishes_before = alone::finishes.load();
  {
    gpu::RunsAlone alone(true);
    EXPECT_TRUE(alone.active());
    EXPECT_FALSE(alone::gl_in_flight.load()) << "the job launched beside queued GL work";
    EXPECT_EQ(alone::finishes.load(), finishes_before + 1) << "the GL thread finished once";
    loop.inside = true;
    const std::uint64_t drawn = frames_drawn().load();
    std::this_thread::sleep_for(std::chrono::milliseconds(30));  // the launch and its wait
    EXPECT_EQ(frames_drawn().load(), drawn) << "a frame drew while new code ran alone";
    loop.inside = false;
    alone.done();
    EXPECT_FALSE(alone.active());
  }
  const std::uint64_t after = frames_drawn().load();
  while (frames_drawn().load() < after + 3) std::this_thread::yield();  // frames go on
  EXPECT_EQ(loop.drawn_while_alone.load(), 0);
  EXPECT_EQ(alone_active().load(), 0);
}

TEST(RunsAlone, CodeThatRanBeforeAndProcessesWithoutGlFramesDoNotWait) {
  set_serial_gl(false);
  gl_stopped() = false;
  install_turn_lending();
  gl_finish_hook() = nullptr;  // no frame loop (measure, verify) or GL on the CPU
  const int finishes_before = alone::finishes.load();
  {
    gpu::RunsAlone alone(true);
    EXPECT_TRUE(alone.active());
    SerialFrame frame;  // a CPU-drawn frame draws beside it
    EXPECT_TRUE(frame.begin());
    frame.end([] {});
  }
  {
    gpu::RunsAlone not_new(false);
    EXPECT_FALSE(not_new.active());
  }
  EXPECT_EQ(alone::finishes.load(), finishes_before);
  EXPECT_EQ(alone_active().load(), 0);
}

TEST(RunsAlone, AStickyFaultKeepsTheFramesStoppedForTheEndOfTheProcess) {
  set_serial_gl(false);
  gl_stopped() = false;
  install_turn_lending();
  gl_finish_hook() = &alone::finish;
  const auto hooks = gpu::alone_hooks();
  void (*const begin)() = hooks.first;
  void (*const end)(bool) = hooks.second;
  ASSERT_NE(begin, nullptr);
  ASSERT_NE(end, nullptr);
  std::thread job([&] { begin(); });  // no frame loop answers: the wait is bounded
  job.join();
  end(true);  // the launch met a sticky fault
  EXPECT_EQ(alone_active().load(), 0);
  {
    SerialFrame frame;
    EXPECT_FALSE(frame.begin()) << "a frame began after the fault";
  }
  gl_stopped() = false;
  gl_finish_hook() = nullptr;
}

TEST(RunsAlone, FirstRunIsTrueOncePerKey) {
  const std::uint64_t key = 0x5e55'1000'0000'0042ull;
  EXPECT_TRUE(gpu::first_run(key));
  EXPECT_FALSE(gpu::first_run(key));
  EXPECT_TRUE(gpu::first_run(key + 1));
}

}  // namespace
}  // namespace warplens::app
