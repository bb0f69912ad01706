// Where a frame's time goes: named phases (a lab's update, a scenario applied, a view drawn, the
// GL work waited for) timed on the GL thread, so the soak can say what its slow frames were doing
// (`warplens-bench soak` prints the longest phases of each frame over 16.7 ms). Cheap enough to
// stay on: two clock reads per phase, a few phases per frame.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace warplens::app {

struct FramePhase {
  std::string name;
  double ms = 0;  ///< wall-clock milliseconds, steady clock
};

/// This thread's phases since the last clear_frame_phases().
inline std::vector<FramePhase>& frame_phases() {
  thread_local std::vector<FramePhase> phases;
  return phases;
}
inline void clear_frame_phases() {
  frame_phases().clear();
}

/// Times its scope as one phase of this thread's frame.
class PhaseTimer {
 public:
  explicit PhaseTimer(std::string name)
      : name_(std::move(name)), start_(std::chrono::steady_clock::now()) {}
  ~PhaseTimer() {
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_)
            .count();
    frame_phases().push_back({std::move(name_), ms});
  }
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;

 private:
  std::string name_;
  std::chrono::steady_clock::time_point start_;
};

/// The `n` longest phases of this thread's frame over `min_ms`, as "name 12.3 ms, ...".
inline std::string longest_frame_phases(std::size_t n, double min_ms = 1.0) {
  std::vector<FramePhase> p = frame_phases();
  std::sort(p.begin(), p.end(),
            [](const FramePhase& a, const FramePhase& b) { return a.ms > b.ms; });
  std::string text;
  for (std::size_t i = 0; i < p.size() && i < n && p[i].ms >= min_ms; ++i) {
    char ms[32];
    std::snprintf(ms, sizeof ms, " %.1f ms", p[i].ms);
    text += (text.empty() ? "" : ", ") + p[i].name + ms;
  }
  return text;
}

}  // namespace warplens::app
