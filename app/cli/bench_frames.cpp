#include "bench_frames.h"

#include <glad/gl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <thread>
#include <vector>

#include "bench_kernel_edit.h"
#include "bench_stats.h"
#include "counter_service.h"
#include "global_lab.h"
#include "headless_context.h"
#include "headless_frames.h"
#include "shared_labs.h"

namespace warplens::bench {

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kWidth = 1920, kHeight = 1080;

// One frame as the window runs it: the sessions' per-frame update (traces through interop on
// this thread), then the whole UI drawn and finished.
double frame(app::HeadlessScene& scene, app::UiState& ui, viz::RenderTarget& target) {
  const auto t0 = Clock::now();
  scene.labs.update();
  scene.draw_frames(ui, target, kWidth, kHeight, 1);
  return ms_since(t0);
}

}  // namespace

void print_frame_tables(int repeats) {
  const auto device = gpu::query_device();
  viz::HeadlessContext context(device.device ? device.device->index : -1);
  app::ViewOptions options;
  app::HeadlessScene scene(options);
  app::CopySession& copy = scene.labs.get<app::GlobalLab>(app::Lab::Global).session();
  app::SharedSession& banks = scene.labs.get<app::BankLab>(app::Lab::Banks).session();
  app::UiState ui;
  ui.interactive = false;
  viz::RenderTarget target;
  std::printf("\nresponsiveness at %dx%d (%s; GL: %s); every figure the median of %d runs\n",
              kWidth, kHeight, device.device ? device.device->name.c_str() : "no CUDA device",
              context.renderer().c_str(), repeats);
  std::printf("%-46s %9s %9s %9s\n", "frames, live trace changing every frame", "p50 ms", "p99 ms",
              "frames");

  struct Live {
    const char* name;
    int scenario;  // index into the catalog
    std::function<void(int)> change;
  };
  const auto index_of = [](const char* name) {
    const auto& catalog = app::builtin_scenarios();
    for (std::size_t i = 0; i < catalog.size(); ++i)
      if (catalog[i].name == name) return static_cast<int>(i);
    return 0;
  };
  const Live lives[] = {
      {"global lab: offset 0..31, warp view + heatmap", index_of("misaligned"),
       [&](int f) {
         app::CopyState st = copy.state();
         st.params.offset = f % 32;
         copy.set(st);
       }},
      {"bank lab: stride 1..32, bank view", index_of("bank-stride-2"),
       [&](int f) {
         app::SharedState st = banks.state();
         st.probe.index.stride = 1 + f % 32;
         banks.set(st);
       }},
      {"A/B compare: B's tile pitch 32..40, two bank views", index_of("ab-tile-32x32-vs-32x33"),
       [&](int f) {
         app::SharedState st = banks.state();
         st.probe.index.pitch_elements = 32 + f % 9;
         banks.set(st);
       }},
  };
  constexpr int kFrames = 300;
  for (const Live& live : lives) {
    std::vector<double> p50s, p99s;
    for (int r = 0; r < repeats; ++r) {
      app::apply_scenario(ui, scene.labs, live.scenario);
      scene.wait_until_idle();
      std::vector<double> times;
      for (int f = 0; f < kFrames; ++f) {
        live.change(f);
        times.push_back(frame(scene, ui, target));
      }
      p50s.push_back(percentile(times, 0.5));
      p99s.push_back(percentile(times, 0.99));
    }
    std::printf("%-46s %9.2f %9.2f %9d\n", live.name, median(p50s), median(p99s), kFrames);
    std::fflush(stdout);  // a run stopped later still shows what it measured
  }

  if (!device.device) {
    std::printf("latency to a measured point: needs a CUDA device\n");
    return;
  }
  std::printf("\n%-46s %9s %9s\n", "parameter change -> new measured point drawn", "median ms",
              "max ms");
  struct Latency {
    const char* name;
    int scenario;
    std::function<void(int)> change;
    std::function<bool()> shown;  // the new point is in the measured panel
    // Frames paced at 60 Hz, as the window's swap interval 1 paces them on a 60 Hz display,
    // instead of back to back (headless frames take ~10 ms on the H100 and compete with the
    // worker's launches more than the window's do).
    bool paced = false;
  };
  const auto offset_change = [&](int r) {
    app::CopyState st = copy.state();
    st.params.offset = 1 + r % 31;
    copy.set(st);
  };
  const auto counter_line_shown = [&] {
    const auto m = copy.measured();
    return copy.measurement_current() && !m.busy && m.counters.has_value();
  };
  const Latency latencies[] = {
      {"global lab: offset change, copy GB/s", index_of("misaligned"), offset_change,
       [&] { return copy.measurement_current() && copy.measured().copy; }},
      {"global lab: offset change, counter line (60 Hz)", index_of("misaligned"), offset_change,
       counter_line_shown, true},
      {"global lab: offset change, counter line", index_of("misaligned"), offset_change,
       counter_line_shown},
      {"bank lab: stride change, cycles and B/clk/SM", index_of("bank-stride-2"),
       [&](int r) {
         app::SharedState st = banks.state();
         st.probe.index.stride = 1 + r % 31;
         banks.set(st);
       },
       [&] { return banks.measurement_current() && banks.measured().bank; }},
  };
  constexpr double kGiveUpMs = 5000;
  for (const Latency& l : latencies) {
    std::vector<double> ms;
    int missed = 0;
    app::apply_scenario(ui, scene.labs, l.scenario);
    scene.wait_until_idle();
    for (int r = 0; r < std::max(5, repeats * 3); ++r) {
      scene.wait_until_idle();
      const auto t0 = Clock::now();
      l.change(r + 1);
      bool done = false;
      while (!done && ms_since(t0) < kGiveUpMs) {
        done = l.shown();  // read before the frame: this frame then draws it
        const auto f0 = Clock::now();
        frame(scene, ui, target);
        if (l.paced && !done) std::this_thread::sleep_until(f0 + std::chrono::microseconds(16667));
      }
      if (done) {
        ms.push_back(ms_since(t0));
      } else {
        ++missed;
      }
    }
    if (ms.empty()) {
      std::printf("%-46s no point within %.0f s (%d changes)\n", l.name, kGiveUpMs / 1000, missed);
    } else if (missed > 0) {
      std::printf("%-46s %9.1f %9.1f   %d of %d changes: no point within %.0f s\n", l.name,
                  median(ms), *std::max_element(ms.begin(), ms.end()), missed,
                  missed + static_cast<int>(ms.size()), kGiveUpMs / 1000);
    } else {
      std::printf("%-46s %9.1f %9.1f\n", l.name, median(ms),
                  *std::max_element(ms.begin(), ms.end()));
    }
    std::fflush(stdout);
  }
  print_kernel_edit_table(scene, ui, target, repeats);
  // The counter line's parts: the read-out alone, on this thread with no frame drawn between
  // its passes (the same case the copy session reads), beside the in-window figure above.
  std::vector<double> readout;
  app::CounterCase c;
  c.name = "window";
  c.kind = app::CaseKind::Copy;
  c.copy = copy.state().params;
  for (int r = 0; r < std::max(5, repeats * 3); ++r) {
    c.copy.offset = 1 + r % 31;
    const auto t0 = Clock::now();
    const app::LabCounters got = app::read_lab_counters(*device.device, c);
    readout.push_back(ms_since(t0));
    if (!got.unavailable.empty()) {
      std::printf("%-46s %s\n", "counter read-out alone", got.unavailable.c_str());
      return;
    }
  }
  std::printf("%-46s %9.1f %9.1f\n", "counter read-out alone (no frames between)", median(readout),
              *std::max_element(readout.begin(), readout.end()));
}

}  // namespace warplens::bench
