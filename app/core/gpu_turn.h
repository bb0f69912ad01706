// One GPU job at a time across the labs' worker threads. A timed measurement shares the GPU with
// nothing else the app launches: with A/B compare two copies of a lab measure side by side, and
// one side's kernels running during the other's timed runs would slow both (and the counters'
// dedicated launches would land in the other side's timings).
#pragma once

#include <mutex>
#include <string>

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

/// The GL thread's trace against a worker's job: while a worker holds the turn the trace waits, up
/// to kMaxFrames frames (about 100 ms at 60 Hz), then goes ahead behind the job's launches, so a
/// knob dragged without a pause (a new job every frame) still moves the picture. A session keeps
/// one and asks go() before each trace.
class TraceWait {
 public:
  static constexpr int kMaxFrames = 6;
  /// Whether this frame traces; `turn` holds the GPU turn when it was free.
  bool go(std::unique_lock<std::mutex>& turn) {
    turn = try_gpu_turn();
    if (!turn.owns_lock() && ++frames_ <= kMaxFrames) return false;
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
  std::unique_lock<std::mutex> turn(gpu_turn(), std::try_to_lock);
  if (!turn.owns_lock()) {
    waiting();
    turn.lock();
  }
  return turn;
}

}  // namespace warplens::app
