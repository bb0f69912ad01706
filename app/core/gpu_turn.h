// One GPU job at a time across the labs' worker threads. A timed measurement shares the GPU with
// nothing else the app launches: with A/B compare two copies of a lab measure side by side, and
// one side's kernels running during the other's timed runs would slow both (and the counters'
// dedicated launches would land in the other side's timings).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>

#include "gpu_log.h"

namespace warplens::app {

/// The process-wide turn: a worker holds it for a whole job (timed runs, sweeps and the counter
/// read-out after them). The GL thread's interop traces try it (TraceWait) and wait a few frames
/// while a worker holds it: a trace queued behind a job's launches waited for them on the GL
/// thread (on an H100 the soak's slowest frames were traces behind a measurement, 25-117 ms in
/// the labs' update), and a trace during timed runs would land in their timings.
inline std::mutex& gpu_turn() {
  static std::mutex turn;
  return turn;
}

/// The turn if no worker holds it now (owns_lock() false otherwise); never waits.
inline std::unique_lock<std::mutex> try_gpu_turn() {
  return std::unique_lock<std::mutex>(gpu_turn(), std::try_to_lock);
}

/// What holds the turn now, in a few words, for the log of a long wait ("a lab's job", "a
/// serialized frame", "a trace on the GL thread"); a string literal, never freed.
inline std::atomic<const char*>& turn_holder() {
  static std::atomic<const char*> holder{"nothing"};
  return holder;
}

/// How many workers wait for the turn now (take_gpu_turn): a serialized frame gives way to them,
/// or a GL thread drawing without a pause would take the turn again every time it let go of it
/// (std::mutex is not fair: on the H100 a drill's faulting kernel waited 19-40 s for its turn).
inline std::atomic<int>& workers_waiting() {
  static std::atomic<int> waiting{0};
  return waiting;
}

/// When the GL thread last asked for the turn for a trace and found a worker holding it (steady
/// clock, ns; 0: no trace waits). A worker about to start a job gives way to it for a moment
/// (give_way_to_traces): the trace then runs between two jobs instead of queueing behind one's
/// launches on the GL thread (on an H200, 2026-11-27, the soak's slowest frames were such
/// traces, 50-175 ms in a lab's update).
inline std::atomic<std::int64_t>& trace_wanted_ns() {
  static std::atomic<std::int64_t> at{0};
  return at;
}
inline std::int64_t turn_clock_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
/// How long a worker waits at most for a trace that wants the turn: about two frames of the
/// soak's 10 Hz, six of the window's 60 Hz.
inline constexpr std::int64_t kTraceGiveWayNs = 200'000'000;

/// Called by a worker before it takes the turn: while a trace asked for it within the last
/// kTraceGiveWayNs, waits (at most that long) for the GL thread to take and let go of it.
inline void give_way_to_traces() {
  const std::int64_t start = turn_clock_ns();
  for (;;) {
    const std::int64_t wanted = trace_wanted_ns().load();
    const std::int64_t now = turn_clock_ns();
    if (wanted == 0 || now - wanted > kTraceGiveWayNs || now - start > kTraceGiveWayNs) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

/// Whether this thread holds the turn for a whole frame (SerialFrame); its traces then need no
/// turn of their own.
inline bool& frame_holds_turn() {
  thread_local bool held = false;
  return held;
}

/// Serialized frames: graphics and compute never pending on the GPU together. On the H100s we
/// measure on (driver 580.159.04, 2026-11-27), once any process had met a sticky fault, every later
/// process that drew GL while one of its CUDA kernels ran stalled: its first copy ran past the 2 s
/// limit and the driver logged Xid 109 "CTX SWITCH TIMEOUT" for it, minutes later still, while
/// processes that ran CUDA alone, or GL and CUDA one after the other, ran at once. So a WarpLens
/// restarted after a fault (and any run with WARPLENS_SERIAL_GL set) draws a frame only while no
/// worker holds the GPU turn, holds the turn for the frame and waits for its GL work (glFinish)
/// before letting a worker launch: frames pause during a measurement instead of the GPU hanging.
inline std::atomic<bool>& serial_gl_flag() {
  static std::atomic<bool> on{std::getenv("WARPLENS_SERIAL_GL") != nullptr};
  return on;
}
inline void set_serial_gl(bool on) {
  serial_gl_flag() = on;
}
[[nodiscard]] inline bool serial_gl() {
  return serial_gl_flag().load();
}

/// Frames drawn so far (SerialFrame's that began), and when the last one ended (steady ns).
inline std::atomic<std::uint64_t>& frames_drawn() {
  static std::atomic<std::uint64_t> n{0};
  return n;
}
inline std::atomic<std::int64_t>& last_frame_end_ns() {
  static std::atomic<std::int64_t> at{0};
  return at;
}

/// Before a faulted process ends (the restart, on a worker): frames become serialized and this
/// waits, at most `bound_ns`, until a serialized frame has ended (its GL work finished), so the
/// process does not end with GL work pending beside its faulted CUDA context. On an H200
/// (2026-11-27) a faulted process whose frames were serialized ended 0.1 s after its fault; the
/// first process of a drill, drawing without a pause, took 4.4 s, and the new process's
/// context waited for it. Returns at once where no frame ended in the last second (no GL thread
/// draws: `verify`, a test).
inline void quiet_gl_before_exit(std::int64_t bound_ns = 300'000'000) {
  const std::int64_t start = turn_clock_ns();
  if (start - last_frame_end_ns().load() > 1'000'000'000) return;
  set_serial_gl(true);
  const std::uint64_t from = frames_drawn().load();
  // The frame in flight (maybe not serialized), then one serialized frame, ended with glFinish.
  while (frames_drawn().load() < from + 2 && turn_clock_ns() - start < bound_ns)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  gpu_log("GL quiet before the end: %.1f ms, %llu frames",
          static_cast<double>(turn_clock_ns() - start) / 1e6,
          static_cast<unsigned long long>(frames_drawn().load() - from));
}

/// One frame's turn on the GL thread. begin(): whether to draw this frame (always unless frames
/// are serialized; then only when no worker holds the turn, which the frame keeps until end()).
/// end(finish): with the turn held, `finish` (glFinish) runs before the turn is let go. A frame
/// also gives way while a worker waits for the turn (workers_waiting).
class SerialFrame {
 public:
  bool begin() {
    if (!serial_gl()) return drawn_ = true;
    if (workers_waiting().load() > 0) return false;  // a worker goes first
    turn_ = try_gpu_turn();
    frame_holds_turn() = turn_.owns_lock();
    if (turn_.owns_lock()) turn_holder() = "a serialized frame";
    drawn_ = turn_.owns_lock();
    return turn_.owns_lock();
  }
  template <typename Finish>
  void end(Finish&& finish) {
    if (!turn_.owns_lock()) return;
    const std::int64_t from = turn_clock_ns();
    finish();
    if (const std::int64_t ns = turn_clock_ns() - from; ns > 500'000'000)
      gpu_log("serialized frame: its GL work took %.1f ms", static_cast<double>(ns) / 1e6);
    frame_holds_turn() = false;
    turn_.unlock();
  }
  ~SerialFrame() {
    if (turn_.owns_lock()) frame_holds_turn() = false;
    if (drawn_) {
      last_frame_end_ns() = turn_clock_ns();
      ++frames_drawn();
    }
  }

 private:
  std::unique_lock<std::mutex> turn_;
  bool drawn_ = false;  ///< begin() said to draw: the frame counts in frames_drawn()
};

/// The GL thread's trace against a worker's job: while a worker holds the turn the trace waits
/// and says so (trace_wanted_ns), and the worker's next job gives way to it (give_way_to_traces),
/// so a knob dragged without a pause (a new job every frame) still moves the picture between
/// jobs. Only after kMaxFrames frames without the turn (a job that runs for seconds) does it go
/// ahead behind the job's launches. A session keeps one and asks go() before each trace.
class TraceWait {
 public:
  static constexpr int kMaxFrames = 60;
  /// Whether this frame traces; `turn` holds the GPU turn when it was free.
  bool go(std::unique_lock<std::mutex>& turn) {
    if (frame_holds_turn()) return true;  // the frame holds it (SerialFrame)
    turn = try_gpu_turn();
    if (turn.owns_lock()) {
      trace_wanted_ns() = 0;
      turn_holder() = "a trace on the GL thread";
    } else {
      trace_wanted_ns() = turn_clock_ns();
      if (++frames_ <= kMaxFrames) return false;
    }
    frames_ = 0;
    return true;
  }

 private:
  int frames_ = 0;
};

/// Takes the turn; while another worker holds it, `waiting` is called once first (to say so on
/// screen).
template <typename Waiting>
std::unique_lock<std::mutex> take_gpu_turn(Waiting&& waiting) {
  give_way_to_traces();
  std::unique_lock<std::mutex> turn(gpu_turn(), std::try_to_lock);
  if (!turn.owns_lock()) {
    waiting();
    const char* holder = turn_holder().load();
    const std::int64_t from = turn_clock_ns();
    ++workers_waiting();
    turn.lock();
    --workers_waiting();
    if (const std::int64_t ns = turn_clock_ns() - from; ns > 500'000'000)
      gpu_log("worker waited %.1f ms for the GPU turn (held by %s when it asked)",
              static_cast<double>(ns) / 1e6, holder);
  }
  turn_holder() = "a lab's job";
  return turn;
}

}  // namespace warplens::app
