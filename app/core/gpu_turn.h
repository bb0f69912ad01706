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
#include <shared_mutex>
#include <string>
#include <thread>

#include "gpu_fault.h"  // traces_through_host
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
/// Whether this thread's frame draws on a turn a job lent it (SerialFrame): the job is paused
/// between two GPU phases, its buffers in use, so the frame traces nothing and resets nothing.
inline bool& frame_borrows_turn() {
  thread_local bool borrowed = false;
  return borrowed;
}

/// Serialized frames: graphics and compute never have work on the GPU together. A frame draws
/// only with the GPU turn: free (the frame keeps it until its GL work is finished, glFinish), or
/// lent by a job paused between two GPU phases (lend_turn_to_frame, through
/// gpu::between_gpu_phases: before and after each timed launch series and each counter
/// read-out). A WarpLens restarted after a GPU fault draws so, and any run with
/// WARPLENS_SERIAL_GL set (not "0").
///
/// Why not always: measured on an H100 (driver 580.159.04, 2026-11-27, scripts/gpu-smoke of
/// 41b1a93), serialized frames in every process made a faulted process end 121 ms after its
/// fault (4.4 s unserialized: its GL work waited behind the faulted context until the driver's
/// context-switch timeout, Xid 109), but the 2-minute soak's frame p99 rose from 11 ms to 317 ms
/// (241 of 1201 frames over 16.7 ms, waiting for a job's GPU phase: a counter read-out, a
/// transpose, a bytes-in-flight section), and the restarted process still stalled (each glFinish
/// 19.04 s), so the restart was not faster. Frames are unserialized until a fault.
inline std::atomic<bool>& serial_gl_flag() {
  static std::atomic<bool> on{[] {
    const char* v = std::getenv("WARPLENS_SERIAL_GL");
    return v != nullptr && std::string(v) != "0";
  }()};
  return on;
}
inline void set_serial_gl(bool on) {
  serial_gl_flag() = on;
}
[[nodiscard]] inline bool serial_gl() {
  return serial_gl_flag().load();
}

/// When a frame last found the turn taken (steady ns; 0: no frame waits). A job lends it the turn
/// at its next phase boundary.
inline std::atomic<std::int64_t>& frame_wanted_ns() {
  static std::atomic<std::int64_t> at{0};
  return at;
}
/// The turn lent by a job to a frame: 0 not lent, 1 offered (the job waits), 2 taken by a frame.
inline std::atomic<int>& turn_lent() {
  static std::atomic<int> state{0};
  return state;
}
/// Whether this thread holds the turn for a job (LabWorker): only such a thread may lend it.
inline bool& job_holds_turn() {
  thread_local bool held = false;
  return held;
}
/// How long a frame's wish stays fresh, and how long a job waits at most for a frame to take the
/// turn it lends.
inline constexpr std::int64_t kFrameWishNs = 100'000'000;
inline constexpr std::int64_t kLendWaitNs = 50'000'000;

/// Whether a frame waits for the turn now (serialized frames, a fresh wish); a job lends it then.
inline bool frame_waits_for_turn() {
  if (!serial_gl() || !job_holds_turn()) return false;
  const std::int64_t wanted = frame_wanted_ns().load();
  return wanted != 0 && turn_clock_ns() - wanted < kFrameWishNs;
}

/// Called by a job that holds the turn at a point where none of its GPU work runs (after
/// cudaDeviceSynchronize, gpu::between_gpu_phases): offers the turn to the waiting frame and
/// returns when the frame has drawn and given it back, or after kLendWaitNs when no frame took
/// it. The mutex stays locked by the job throughout: no other job can take the turn meanwhile.
inline void lend_turn_to_frame() {
  const std::int64_t start = turn_clock_ns();
  turn_lent() = 1;
  for (;;) {
    const int state = turn_lent().load();
    if (state == 0) return;  // the frame gave it back
    if (state == 1 && turn_clock_ns() - start > kLendWaitNs) {
      int offered = 1;
      if (turn_lent().compare_exchange_strong(offered, 0)) return;  // no frame took it
      continue;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
}

/// Set when the process is about to end after a GPU fault (stop_gl_before_exit): no frame begins
/// any more.
inline std::atomic<bool>& gl_stopped() {
  static std::atomic<bool> stopped{false};
  return stopped;
}

// --- GPU work that runs alone (gpu::RunsAlone, gpu_fault.h) ----------------------------------
// A job about to launch code that has not yet run clean in this process asks for the GPU alone
// (begin_alone, on the job's thread): the next frame on the GL thread finishes its GL work
// (glFinish) and answers, and no frame draws until the job says the code ran (end_alone). Why:
// gpu_fault.h (RunsAlone). Frames drawn by the CPU (llvmpipe after a fault) need no answer.

/// Jobs that run alone now.
inline std::atomic<int>& alone_active() {
  static std::atomic<int> n{0};
  return n;
}
/// The last request (a count), and the last one the GL thread answered with its GL finished.
inline std::atomic<std::int64_t>& alone_asked() {
  static std::atomic<std::int64_t> n{0};
  return n;
}
inline std::atomic<std::int64_t>& alone_answered() {
  static std::atomic<std::int64_t> n{0};
  return n;
}
/// How the GL thread finishes its GL work (glFinish on its context): set by a frame loop whose
/// GL is on the GPU (register_gl_frames, gpu_restart.h); nullptr where none is, or GL draws on
/// the CPU: then nobody waits.
inline std::atomic<void (*)()>& gl_finish_hook() {
  static std::atomic<void (*)()> hook{nullptr};
  return hook;
}
/// How long a job waits at most for the GL thread's answer (a frame of 60 Hz and its GL work,
/// with room: a first frame compiling shaders).
inline constexpr std::int64_t kAloneAnswerNs = 250'000'000;

/// On the GL thread, where it has no frame open (SerialFrame::begin, a minimised window's loop):
/// answers a job waiting to run alone. True while one runs alone (no frame may draw).
inline bool answer_alone() {
  if (alone_active().load() == 0) return false;
  const auto finish = gl_finish_hook().load();
  if (!finish) return false;  // GL on the CPU: it draws beside the job
  const std::int64_t asked = alone_asked().load();
  if (alone_answered().load() < asked) {
    finish();
    alone_answered() = asked;
  }
  return true;
}

/// The job's side (gpu::set_alone_hooks): returns once the GL thread answered, or after
/// kAloneAnswerNs (logged; no GL thread runs frames, or one frame takes that long).
inline void begin_alone() {
  ++alone_active();
  const std::int64_t asked = ++alone_asked();
  if (!gl_finish_hook().load()) return;
  const std::int64_t start = turn_clock_ns();
  while (alone_answered().load() < asked) {
    if (turn_clock_ns() - start > kAloneAnswerNs) {
      gpu_log("running alone: no answer from the GL thread within %.0f ms, launching anyway",
              static_cast<double>(kAloneAnswerNs) / 1e6);
      return;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
}
/// `faulted`: the work met a sticky fault, the process ends: frames stay stopped.
inline void end_alone(bool faulted) {
  if (faulted) gl_stopped() = true;
  --alone_active();
}

/// Makes gpu::between_gpu_phases lend the turn to waiting frames, and gpu::RunsAlone ask for
/// the GPU alone (idempotent).
inline void install_turn_lending() {
  gpu::set_phase_yield(&frame_waits_for_turn, &lend_turn_to_frame);
  gpu::set_alone_hooks(&begin_alone, &end_alone);
}

/// Marks this thread as holding the turn for a job for its scope (LabWorker, around a job).
class JobTurn {
 public:
  JobTurn() {
    install_turn_lending();
    job_holds_turn() = true;
  }
  ~JobTurn() { job_holds_turn() = false; }
  JobTurn(const JobTurn&) = delete;
  JobTurn& operator=(const JobTurn&) = delete;
};

/// Frames drawn so far (SerialFrame's that began and ended).
inline std::atomic<std::uint64_t>& frames_drawn() {
  static std::atomic<std::uint64_t> n{0};
  return n;
}

/// Frames begun and not yet ended (SerialFrame).
inline std::atomic<int>& frames_open() {
  static std::atomic<int> open{0};
  return open;
}

/// Before a faulted process ends (the restart, on the worker that met the fault): no frame begins
/// any more, and this waits, at most `bound_ns`, for the frame being drawn to end. A faulted
/// CUDA context with GL work queued beside it is what made a process's end slow: on an H200
/// (driver 580.159.04, 2026-11-27) the first process of a drill, drawing without a pause, took
/// 4.4 s to end and the driver logged Xid 109 CTX SWITCH TIMEOUT for it, while processes whose
/// frames were serialized ended 0.1 s after their fault. Waiting for one more frame instead (this
/// function's first version) queued that frame's GL work behind the faulted context. Returns the
/// milliseconds it waited.
inline double stop_gl_before_exit(std::int64_t bound_ns = 100'000'000) {
  const std::int64_t start = turn_clock_ns();
  gl_stopped() = true;
  while (frames_open().load() > 0 && turn_clock_ns() - start < bound_ns)
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  const double ms = static_cast<double>(turn_clock_ns() - start) / 1e6;
  gpu_log("GL stopped before the end: %.1f ms, %d frame(s) still open", ms, frames_open().load());
  return ms;
}

/// One frame's turn on the GL thread. begin(): whether to draw this frame (always unless frames
/// are serialized; then only with the turn: free, which the frame keeps until end(), or lent by
/// a job paused between two GPU phases). end(finish): `finish` (glFinish) runs before the turn
/// is let go or given back. A frame gives way while a worker waits for a free turn
/// (workers_waiting).
class SerialFrame {
 public:
  bool begin() {
    ++frames_open();  // before the check: stop_gl_before_exit waits for it or it sees the stop
    if (gl_stopped().load() || answer_alone()) {
      --frames_open();
      return false;
    }
    if (!serial_gl()) return drawn_ = true;
    int offered = 1;
    if (turn_lent().compare_exchange_strong(offered, 2)) {  // a job lends its turn
      borrowed_ = drawn_ = true;
      frame_borrows_turn() = true;
      frame_wanted_ns() = 0;
      return true;
    }
    if (workers_waiting().load() == 0) turn_ = try_gpu_turn();  // else a worker goes first
    if (!turn_.owns_lock()) {
      frame_wanted_ns() = turn_clock_ns();
      --frames_open();
      return false;
    }
    frame_holds_turn() = true;
    frame_wanted_ns() = 0;
    turn_holder() = "a serialized frame";
    return drawn_ = true;
  }
  template <typename Finish>
  void end(Finish&& finish) {
    if (!turn_.owns_lock() && !borrowed_) return;
    const std::int64_t from = turn_clock_ns();
    finish();
    if (const std::int64_t ns = turn_clock_ns() - from; ns > 500'000'000)
      gpu_log("serialized frame: its GL work took %.1f ms", static_cast<double>(ns) / 1e6);
    give_back();
  }
  ~SerialFrame() {
    give_back();
    if (drawn_) {
      ++frames_drawn();
      --frames_open();
    }
  }

 private:
  void give_back() {
    if (turn_.owns_lock()) {
      frame_holds_turn() = false;
      turn_.unlock();
    }
    if (borrowed_) {
      frame_borrows_turn() = false;
      borrowed_ = false;
      turn_lent() = 0;  // the lending job goes on
    }
  }
  std::unique_lock<std::mutex> turn_;
  bool borrowed_ = false;  ///< the turn is a job's, lent for this frame
  bool drawn_ = false;     ///< begin() said to draw: the frame counts in frames_drawn()
};

/// What a trace on the GL thread holds while its kernels run: the GPU turn when it was free, or,
/// going ahead beside a long job, a share of gpu::profiled_range_mutex, so that no counter
/// read-out opens a range (and counts the trace's kernels as its own launch's) meanwhile.
struct TraceTurn {
  std::unique_lock<std::mutex> turn;
  std::shared_lock<std::shared_mutex> beside_job;
};

/// The GL thread's trace against a worker's job: while a worker holds the turn the trace waits
/// and says so (trace_wanted_ns), and the worker's next job gives way to it (give_way_to_traces),
/// so a knob dragged without a pause (a new job every frame) still moves the picture between
/// jobs. Only after kMaxFrames frames without the turn (a job that runs for seconds) does it go
/// ahead behind the job's launches, and then never while the job reads counters (TraceTurn). A
/// session keeps one and asks go() before each trace.
class TraceWait {
 public:
  static constexpr int kMaxFrames = 60;
  /// Whether this frame traces; `t` holds what the trace holds while it runs (TraceTurn).
  bool go(TraceTurn& t) {
    if (frame_holds_turn()) return true;     // the frame holds it (SerialFrame)
    if (frame_borrows_turn()) return false;  // a paused job's: after the job
    t.turn = try_gpu_turn();
    if (t.turn.owns_lock()) {
      trace_wanted_ns() = 0;
      turn_holder() = "a trace on the GL thread";
    } else {
      trace_wanted_ns() = turn_clock_ns();
      if (++frames_ <= kMaxFrames) return false;
      t.beside_job = std::shared_lock(gpu::profiled_range_mutex(), std::try_to_lock);
      if (!t.beside_job.owns_lock()) {  // a read-out is open: a later frame
        gpu_log("trace beside a job waits: a counter read-out is open");
        return false;
      }
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
