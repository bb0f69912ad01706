#include "bench_kernel_edit.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "bench_stats.h"
#include "kernel_lab_unit.h"
#include "scenarios.h"

namespace warplens::bench {

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kEditWidth = 1920, kEditHeight = 1080;

}  // namespace

void print_kernel_edit_table(app::HeadlessScene& scene, app::UiState& ui, viz::RenderTarget& target,
                             int repeats) {
  const auto& catalog = app::builtin_scenarios();
  int copy = 0;
  for (std::size_t i = 0; i < catalog.size(); ++i)
    if (catalog[i].name == "kernel-copy") copy = static_cast<int>(i);
  app::apply_scenario(ui, scene.labs, copy);
  app::KernelSession& session = scene.labs.get<app::KernelLabUnit>(app::Lab::Kernel).session();
  scene.wait_until_idle();
  const app::KernelState base = session.state();

  // One edit: row 1's index becomes `index`; frames at 60 Hz until the new program's GPU trace is
  // in the view and its measured GB/s in the numbers. Frame times go to `frames`.
  std::vector<std::string> slow;  // frames over 16.7 ms: which edit, which frame, what was in
  const auto edit = [&](const std::string& index, std::vector<double>& frames) {
    app::KernelState st = base;
    st.program.rows[0].index = index;
    const auto t0 = Clock::now();
    session.set(st);
    const double set_ms = ms_since(t0);
    int frame = 0;
    while (ms_since(t0) < 10000) {
      const bool in = session.run_current(session.measured());
      const bool done = in && session.shows_current_gpu_trace();
      const auto f0 = Clock::now();
      scene.labs.update();
      const double update_ms = ms_since(f0);
      scene.draw_frames(ui, target, kEditWidth, kEditHeight, 1);
      frames.push_back(ms_since(f0));
      if (frames.back() > 16.7)
        slow.push_back("edit \"" + index + "\" frame " + std::to_string(frame) + ": " +
                       std::to_string(frames.back()) + " ms (update " + std::to_string(update_ms) +
                       " ms, set " + std::to_string(set_ms) + " ms, result " +
                       (in ? "in" : "not in") + ")");
      ++frame;
      if (done) break;
      std::this_thread::sleep_until(f0 + std::chrono::microseconds(16667));
    }
    const double ms = ms_since(t0);
    scene.wait_until_idle();  // the counters' read-out follows; the next edit starts after it
    return ms;
  };

  const int edits = std::max(10, repeats * 3);
  std::vector<double> fresh, cached, frames;
  // Each edit XORs the lane's index with a new constant: a program (and source) never compiled
  // before in this process, so NVRTC runs every time.
  for (int e = 1; e <= edits; ++e)
    fresh.push_back(
        edit("bx*bdx + (tx ^ " + std::to_string(e % 32) + ") + " + std::to_string(e / 32), frames));
  // Revisits of earlier edits: the module cache holds the last 16 sources.
  std::vector<double> unused;
  for (int e = edits; e > std::max(0, edits - 10); --e)
    cached.push_back(
        edit("bx*bdx + (tx ^ " + std::to_string(e % 32) + ") + " + std::to_string(e / 32), unused));
  std::printf("\n%-46s %9s %9s %9s\n", "own kernel: edit of one row -> drawn", "median ms",
              "max ms", "edits");
  std::printf("%-46s %9.1f %9.1f %9d\n", "new source: NVRTC, trace, timed runs, drawn",
              percentile(fresh, 0.5), *std::max_element(fresh.begin(), fresh.end()), edits);
  std::printf("%-46s %9.1f %9.1f %9zu\n", "revisit: module cached, trace, timed runs",
              percentile(cached, 0.5), *std::max_element(cached.begin(), cached.end()),
              cached.size());
  std::printf("%-46s %9.2f %9.2f %9zu\n", "frames while compiling (p50 / p99 ms)",
              percentile(frames, 0.5), percentile(frames, 0.99), frames.size());
  for (const auto& line : slow) std::printf("  slow frame: %s\n", line.c_str());
  session.set(base);
}

}  // namespace warplens::bench
