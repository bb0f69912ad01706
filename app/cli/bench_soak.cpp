#include "bench_soak.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>  // the key codes imgui_impl_glfw maps ImGui's keys to
#include <imgui.h>
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "app_ui.h"
#include "bench_stats.h"
#include "frame_phases.h"
#include "gpu.h"
#include "gpu_recovery.h"
#include "gpu_restart.h"
#include "gpu_turn.h"
#include "headless_context.h"
#include "headless_frames.h"
#include "process_memory.h"
#include "scenarios.h"

namespace warplens::bench {

namespace {

using app::Lab;
using app::LabInstance;
using Clock = std::chrono::steady_clock;

constexpr auto kFrameInterval = std::chrono::milliseconds(100);
constexpr double kGrowthLimitMiB = 5.0;

// In an AddressSanitizer build the host memory is reported, not judged: ASan keeps freed blocks in
// its quarantine (256 MiB by default) and in per-thread caches instead of handing them back, and
// its mallinfo2 reports nothing, so the RSS grows without a leak (the CI's ASan build read +22 MiB
// anonymous on seed 7 where the normal build reads +1.7). LeakSanitizer judges leaks in that build.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif
constexpr double kFrameLimitMs = 1000.0 / 60.0;

double mib(std::int64_t bytes) {
  return static_cast<double>(bytes) / (1024.0 * 1024.0);
}

struct Sample {
  int second = 0;
  HostMemory memory;
  std::optional<std::int64_t> gpu_used;
  int frames = 0;
  double frame_p50 = 0, frame_max = 0;
  int actions = 0;
  std::string lab, scenario;
  bool compare = false;
  int errors = 0;  ///< instances whose status line shows an error at this second
};

// Every instance made so far, both sides.
std::vector<LabInstance*> instances(const app::Workbench& labs) {
  std::vector<LabInstance*> all;
  for (const app::LabInfo& info : app::lab_registry()) {
    if (LabInstance* b = labs.made(info.id)) all.push_back(b);
    if (LabInstance* a = labs.made_a(info.id)) all.push_back(a);
  }
  return all;
}

// A preset file of the user's, as the window's preset field loads it: valid, or (every other
// time) one whose [copy] table the lab refuses, so the error path runs too.
std::string preset_text(std::mt19937& rng, bool valid) {
  return "name = \"soak-preset\"\nlab = \"global\"\ntitle = \"Soak preset\"\n"
         "summary = \"A preset the soak writes and loads.\"\n\n[copy]\nword_bytes = 4\n"
         "offset = " +
         std::to_string(rng() % 8) + "\nstride = " + (valid ? std::to_string(1 + rng() % 4) : "0") +
         "\n";
}

// The monkey: what a user does in the window, through the same state and code the window's
// widgets and keys use. Keys go in through ImGui's input (as imgui_impl_glfw feeds them), so the
// shell's handle_keys sees them during the next frame.
class Monkey {
 public:
  Monkey(app::UiState& ui, app::Workbench& labs, unsigned seed, std::string preset_path)
      : ui_(ui), labs_(labs), rng_(seed), preset_path_(std::move(preset_path)) {
    ImGuiIO& io = ImGui::GetIO();
    io.KeyMap[ImGuiKey_LeftArrow] = GLFW_KEY_LEFT;
    io.KeyMap[ImGuiKey_RightArrow] = GLFW_KEY_RIGHT;
  }

  /// Before a frame: releases the arrow key pressed for the last one.
  void before_frame() {
    ImGuiIO& io = ImGui::GetIO();
    io.KeysDown[GLFW_KEY_LEFT] = io.KeysDown[GLFW_KEY_RIGHT] = false;
  }

  void act() {
    ++actions_;
    const auto roll = static_cast<unsigned>(rng_() % 100);
    if (roll < 30) {  // a control of the panel: the side the panel edits
      LabInstance* edit =
          ui_.compare && ui_.compare_edit_a ? labs_.made_a(ui_.lab) : labs_.made(ui_.lab);
      if (edit) edit->random_change(rng_);
      last_ = "a knob of the panel";
    } else if (roll < 42) {  // the scenario picker
      ui_.pending_scenario = static_cast<int>(rng_() % static_cast<unsigned>(catalog_size(ui_)));
      last_ = "the scenario picker: " + app::scenario_at(ui_, ui_.pending_scenario).name;
    } else if (roll < 52) {  // a lab's header button
      const auto& registry = app::lab_registry();
      ui_.lab = registry[rng_() % registry.size()].id;
      last_ = std::string("a lab's button: ") + app::to_string(ui_.lab);
    } else if (roll < 62) {
      key('c');  // A/B compare on / off
      last_ = "key C (A/B compare)";
    } else if (roll < 67) {
      key(rng_() % 2 ? 'a' : 'b');
      last_ = "key A or B";
    } else if (roll < 77) {  // previous / next scenario
      ImGui::GetIO().KeysDown[rng_() % 2 ? GLFW_KEY_LEFT : GLFW_KEY_RIGHT] = true;
      last_ = "an arrow key (next or previous scenario)";
    } else if (roll < 86) {
      const char k = app::pick_one(rng_, {' ', '1', '2', '3', '4'});
      key(k);
      last_ = k == ' ' ? "space (measure again)" : std::string("key ") + k + " (a view)";
    } else if (roll < 90) {
      const char k = rng_() % 2 ? 'p' : '?';
      key(k);
      last_ = std::string("key ") + k;
    } else if (roll < 94) {  // the status bar's theme button
      ui_.theme = ui_.theme == viz::ThemeName::Dark ? viz::ThemeName::Light : viz::ThemeName::Dark;
      ui_.theme_changed = true;
      last_ = "the theme button";
    } else if (roll < 97) {  // the status bar's scale buttons
      ui_.ui_scale = app::pick_one(rng_, {1.0f, 1.5f, 2.0f, 3.0f});
      ui_.scale_changed = true;
      last_ = "a scale button";
    } else {  // the preset field: a path typed, then Load
      last_ = "the preset field";
      std::ofstream(preset_path_) << preset_text(rng_, ++presets_ % 2 == 1);
      ui_.preset_path = preset_path_;
      ui_.preset_requested = true;
    }
  }

  [[nodiscard]] int actions() const { return actions_; }
  /// The last action, in words (the slow frames' report).
  [[nodiscard]] const std::string& last_action() const { return last_; }

 private:
  static void key(char c) { ImGui::GetIO().AddInputCharacter(static_cast<unsigned>(c)); }

  app::UiState& ui_;
  app::Workbench& labs_;
  std::mt19937 rng_;
  std::string preset_path_;
  int actions_ = 0;
  int presets_ = 0;
  std::string last_;
};

// The two samples the growth criteria compare, taken alike. Both first show every built-in
// scenario once and draw every lab (with its A/B side, in the normal and the presenter layout,
// with the keys' help, every view the keys 1-4 pick and every step of a lab that steps) at every
// UI scale, so what the window
// makes on first use (a window, a view's render target at a scale's size, a shader variant) is in
// both samples, and every view has last drawn at the same size. Then the window is brought to the
// same state (the first scenario, compare off, 1x, light theme), the labs' work finished, ImGui's
// draw buffers given back (HeadlessScene::compact_ui_memory: each window's buffers otherwise keep
// the capacity of the largest frame it ever drew), three frames drawn, and freed heap memory handed
// back (malloc_trim): what a moment's view, a measurement in flight or the largest frame so far
// holds is not counted as growth; what the window keeps for good is. With --report-memory the
// growth is only reported, so the samples skip that sweep (under CI's sanitizers it was most of
// the short run's time) and only bring the window to the same state.
struct Checkpoint {
  int second = 0;
  HostMemory memory;
  std::optional<std::int64_t> gpu_used;
  std::map<std::string, MappingUse> mappings;
};

Checkpoint checkpoint(int second, app::UiState& ui, app::HeadlessScene& scene,
                      viz::RenderTarget& target, const SoakOptions& o,
                      const gpu::DeviceQuery& device) {
  // The scenarios are shown at 1x in the light theme and the full layout, whatever the monkey
  // left: a view a later step does not draw again (the own-kernel lab's bank view when the last
  // scenario has no tile row) keeps the size it drew at here.
  ui.ui_scale = 1.0f;
  ui.theme = viz::ThemeName::Light;
  ui.presenter = false;
  ui.compare = false;
  scene.layer.set_scale(ui.ui_scale, ui.theme);
  scene.layer.set_theme(ui.theme);
  const bool sweep = !o.report_memory;
  for (int i = 0; sweep && i < static_cast<int>(app::builtin_scenarios().size()); ++i) {
    app::apply_scenario(ui, scene.labs, i);
    scene.draw_frames(ui, target, o.width, o.height, 1);
  }
  for (float scale : {3.0f, 2.0f, 1.5f, 1.0f}) {
    if (!sweep) break;
    scene.layer.set_scale(scale, ui.theme);
    for (const app::LabInfo& info : app::lab_registry()) {
      for (const bool presenter : {true, false}) {
        ui.lab = info.id;
        ui.compare = false;
        ui.presenter = presenter;
        ui.show_keys = presenter;
        if (info.compare_ratio) app::start_compare(ui, scene.labs);
        scene.draw_frames(ui, target, o.width, o.height, 2);
        // A lab that steps (the own-kernel lab: a warp view for rows of in and out, a bank view
        // for tile rows) draws each step, so each of its views has drawn at this scale.
        for (app::LabInstance* lab : {&scene.labs.lab(info.id), scene.labs.made_a(info.id)}) {
          // Each view the keys 1-4 pick (the global lab's heatmap and sweeps, the transpose's
          // tile and global views): a view first drawn at this scale later would make its
          // render target then.
          for (int view = 0; lab && view < 4; ++view) {
            if (lab && lab->views() && lab->views()->pick_view(ui, view))
              scene.draw_frames(ui, target, o.width, o.height, 1);
          }
          if (lab && lab->views()) lab->views()->pick_view(ui, 0);
          for (int step = 1; lab && lab->access_walk() && step <= 8; ++step) {
            try {
              lab->access_walk()->go_to_access(step);
            } catch (const std::invalid_argument&) {
              break;  // past its last step
            }
            scene.draw_frames(ui, target, o.width, o.height, 1);
          }
        }
      }
    }
  }
  ui.presenter.reset();
  ui.show_keys = false;
  app::apply_scenario(ui, scene.labs, 0);
  ui.ui_scale = 1.0f;
  ui.theme = viz::ThemeName::Light;
  scene.layer.set_scale(ui.ui_scale, ui.theme);
  scene.layer.set_theme(ui.theme);
  scene.draw_frames(ui, target, o.width, o.height, 3);
  (void)scene.wait_until_idle(std::chrono::seconds(120));
  scene.compact_ui_memory(target, o.width, o.height);
  scene.draw_frames(ui, target, o.width, o.height, 3);
  malloc_trim(0);
  Checkpoint c{second, host_memory(), std::nullopt, anonymous_by_mapping()};
  std::printf(
      "soak: sample at %d s: RSS %.1f MiB (anonymous %.1f, file %.1f), heap in use %.1f MiB\n",
      second, mib(c.memory.rss), mib(c.memory.anon), mib(c.memory.file), mib(c.memory.heap_in_use));
  if (device.device) {
    // Every lab lets go of its GPU objects for the sample and measures again afterwards
    // (gpu_recovery.h): what a lab holds for the parameters it had last is in neither sample.
    app::release_gpu_users([&] {
      if (const auto m = gpu::device_memory(device.device->index)) c.gpu_used = m->used_bytes();
    });
    if (c.gpu_used)
      std::printf("soak: sample at %d s: GPU memory in use %.1f MiB\n", second, mib(*c.gpu_used));
  }
  std::fflush(stdout);
  return c;
}

void write_row(std::ofstream& csv, const Sample& s) {
  char gpu[32] = "";
  if (s.gpu_used) std::snprintf(gpu, sizeof gpu, "%.1f", mib(*s.gpu_used));
  char line[512];
  std::snprintf(line, sizeof line, "%d,%.1f,%.1f,%s,%d,%.2f,%.2f,%d,%s,%s,%d,%d\n", s.second,
                mib(s.memory.rss), mib(s.memory.anon), gpu, s.frames, s.frame_p50, s.frame_max,
                s.actions, s.lab.c_str(), s.scenario.c_str(), s.compare ? 1 : 0, s.errors);
  csv << line << std::flush;
}

struct Verdict {
  bool failed = false;
  void row(const char* what, const std::string& measured, const char* limit, const char* result) {
    std::printf("%-34s %-28s %-12s %s\n", what, measured.c_str(), limit, result);
    if (std::string(result) == "FAIL") failed = true;
  }
};

std::string growth_text(double from, double to) {
  char text[64];
  std::snprintf(text, sizeof text, "%+.1f MiB (%.0f -> %.0f)", to - from, from, to);
  return text;
}

}  // namespace

const char* soak_csv_header() {
  return "second,rss_mib,rss_anon_mib,gpu_used_mib,frames,frame_ms_p50,frame_ms_max,actions,lab,"
         "scenario,"
         "compare,lab_errors";
}

int run_soak(const SoakOptions& o) {
  const int seconds = std::max(1, static_cast<int>(o.minutes * 60 + 0.5));
  const auto device = o.model_only ? gpu::DeviceQuery{} : gpu::query_device();
  if (!o.model_only && !device.device) {
    std::cerr << "warplens-bench soak: " << device.reason << " (--model-only runs without one)\n";
    return 3;
  }
  std::ofstream csv;
  if (!o.csv.empty()) {
    csv.open(o.csv);
    if (!csv) {
      std::cerr << "warplens-bench soak: cannot write " << o.csv << "\n";
      return 2;
    }
    csv << soak_csv_header() << "\n";
  }
  const std::string preset_path = (std::filesystem::temp_directory_path() /
                                   ("warplens-soak-" + std::to_string(getpid()) + ".toml"))
                                      .string();
  std::vector<Sample> samples;
  Checkpoint base, end;
  const int base_second = seconds >= 120 ? 60 : std::max(1, seconds / 2);
  std::vector<double> frame_ms;  // every frame of the run
  // The frames over the limit and what the window was doing: the monkey's last action, how long
  // before the frame it came, the lab and scenario shown.
  struct SlowFrame {
    double ms;
    std::string what;
  };
  std::vector<SlowFrame> slow_frames;
  std::string crash, renderer, lab_errors;
  int lab_error_count = 0;
  try {
    viz::HeadlessContext context(device.device ? device.device->index : -1);
    renderer = context.renderer();
    app::ViewOptions view;
    view.use_gpu = !o.model_only;
    app::HeadlessScene scene(view);
    app::register_gl_frames();  // as the window does
    app::UiState ui;
    ui.interactive = true;  // keys, buttons and the preset field, as in the window
    app::apply_scenario(ui, scene.labs, 0);
    viz::RenderTarget target;
    Monkey monkey(ui, scene.labs, o.seed, preset_path);
    std::printf("soak: %d s, %s, seed %u, %dx%d, GL %s\n", seconds,
                o.model_only ? "model only" : device.device->name.c_str(), o.seed, o.width,
                o.height, renderer.c_str());
    std::fflush(stdout);
    std::mt19937 timing(o.seed ^ 0x9e3779b9u);
    auto start = Clock::now();
    auto next_action = start, next_frame = start, last_action = start;
    std::vector<double> second_frames;
    while (static_cast<int>(samples.size()) < seconds) {
      const auto now = Clock::now();
      if (now >= next_action) {
        monkey.act();
        last_action = now;
        next_action = now + std::chrono::milliseconds(150 + timing() % 200);
      }
      // One frame of the window's loop (frontends.cpp run_window), timed from when it was due:
      // with WARPLENS_SERIAL_GL set a frame first waits for the GPU turn (a job's GPU phase,
      // gpu_turn.h), and that wait is part of what the viewer sees.
      const auto t0 = Clock::now();
      app::clear_frame_phases();
      app::SerialFrame serial;
      {
        const app::PhaseTimer timer("waiting for the GPU turn");
        while (!serial.begin()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
      scene.labs.update();
      const auto t_update = Clock::now();
      scene.draw_frames(ui, target, o.width, o.height, 1);  // ends with glFinish
      serial.end([] {});
      const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
      const double update_ms = std::chrono::duration<double, std::milli>(t_update - t0).count();
      frame_ms.push_back(ms);
      second_frames.push_back(ms);
      if (ms > kFrameLimitMs) {
        char when[96];
        std::snprintf(when, sizeof when,
                      " (%.0f ms before; turn and labs' update %.1f ms, drawing %.1f ms), ",
                      std::chrono::duration<double, std::milli>(t0 - last_action).count(),
                      update_ms, ms - update_ms);
        slow_frames.push_back({ms, monkey.last_action() + when + to_string(ui.lab) + " lab, " +
                                       app::scenario_at(ui, ui.scenario).name +
                                       (ui.compare ? ", A/B" : "") +
                                       "; longest: " + app::longest_frame_phases(3)});
      }
      monkey.before_frame();
      if (ui.theme_changed) {
        scene.layer.set_theme(ui.theme);
        ui.theme_changed = false;
      }
      if (ui.scale_changed) {
        scene.layer.set_scale(ui.ui_scale, ui.theme);
        ui.scale_changed = false;
      }
      const auto elapsed = Clock::now() - start;
      if (elapsed >= std::chrono::seconds(samples.size() + 1)) {
        Sample s;
        s.second = static_cast<int>(samples.size()) + 1;
        s.memory = host_memory();
        if (device.device) {
          if (const auto m = gpu::device_memory(device.device->index)) s.gpu_used = m->used_bytes();
        }
        s.frames = static_cast<int>(second_frames.size());
        s.frame_p50 = percentile(second_frames, 0.5);
        s.frame_max = second_frames.empty()
                          ? 0
                          : *std::max_element(second_frames.begin(), second_frames.end());
        second_frames.clear();
        s.actions = monkey.actions();
        s.lab = to_string(ui.lab);
        s.scenario = app::scenario_at(ui, ui.scenario).name;
        s.compare = ui.compare;
        for (const LabInstance* lab : instances(scene.labs)) s.errors += !lab->error().empty();
        if (csv.is_open()) write_row(csv, s);
        if (s.second % 60 == 0) {
          std::printf("soak: %d s, RSS %.1f MiB (anonymous %.1f), %d actions\n", s.second,
                      mib(s.memory.rss), mib(s.memory.anon), s.actions);
          std::fflush(stdout);
        }
        samples.push_back(s);
        if (s.second == base_second) {  // its pause does not count in the run's seconds
          const auto paused = Clock::now();
          base = checkpoint(s.second, ui, scene, target, o, device);
          start += Clock::now() - paused;
          next_action = next_frame = Clock::now();
        }
      }
      next_frame += kFrameInterval;
      std::this_thread::sleep_until(std::max(next_frame, Clock::now()));
    }
    // The end: let every lab finish its work, then read their status lines.
    if (!scene.wait_until_idle(std::chrono::seconds(120)))
      lab_errors = "labs still busy after 120 s; ";
    end = checkpoint(seconds, ui, scene, target, o, device);
    for (const LabInstance* lab : instances(scene.labs)) {
      const std::string e = lab->error();
      if (e.empty()) continue;
      ++lab_error_count;
      lab_errors += e + "; ";
    }
  } catch (const std::exception& e) {
    crash = e.what();
  }
  std::error_code ignored;
  std::filesystem::remove(preset_path, ignored);

  std::printf("\n%-34s %-28s %-12s %s\n", "criterion", "measured", "limit", "verdict");
  Verdict v;
  v.row("no crash", crash.empty() ? "ran " + std::to_string(samples.size()) + " s" : crash, "-",
        crash.empty() ? "pass" : "FAIL");
  if (!crash.empty()) return 1;
  v.row("lab errors at the end", std::to_string(lab_error_count), "0",
        lab_error_count == 0 && lab_errors.empty() ? "pass" : "FAIL");
  if (!lab_errors.empty()) std::printf("  %s\n", lab_errors.c_str());
  // Judged: the anonymous pages, the memory the process allocated (its heap, its threads' stacks,
  // the GL driver's buffers and JIT code). The file pages (the program's and the libraries' code,
  // paged in on first use and evicted under the page cache's pressure) are reported.
  const std::string from = "host RSS growth, anon (" + std::to_string(base.second) + " s -> end)";
  const double anon_growth = mib(end.memory.anon) - mib(base.memory.anon);
  v.row(from.c_str(), growth_text(mib(base.memory.anon), mib(end.memory.anon)), "< 5 MiB",
        kAddressSanitizer               ? "reported (ASan build)"
        : o.report_memory               ? "reported (--report-memory)"
        : anon_growth < kGrowthLimitMiB ? "pass"
                                        : "FAIL");
  v.row("host RSS growth, all (reported)", growth_text(mib(base.memory.rss), mib(end.memory.rss)),
        "-", "reported");
  {
    // Where the anonymous memory grew: the mappings whose resident bytes changed most.
    std::vector<std::pair<double, std::string>> moved;
    std::map<std::string, MappingUse> names = base.mappings;
    for (const auto& [name, use] : end.mappings) names[name];
    for (const auto& [name, use] : names) {
      const auto b = base.mappings.find(name);
      const auto e = end.mappings.find(name);
      const MappingUse was = b == base.mappings.end() ? MappingUse{} : b->second;
      const MappingUse now = e == end.mappings.end() ? MappingUse{} : e->second;
      const double growth = mib(now.bytes) - mib(was.bytes);
      char text[96];
      std::snprintf(text, sizeof text, " (%d -> %d mappings)", was.mappings, now.mappings);
      if (std::abs(growth) >= 0.1) moved.emplace_back(growth, name + text);
    }
    std::sort(moved.begin(), moved.end(),
              [](const auto& a, const auto& b) { return std::abs(a.first) > std::abs(b.first); });
    for (std::size_t i = 0; i < moved.size() && i < 6; ++i)
      std::printf("  anonymous %+.1f MiB in %s\n", moved[i].first, moved[i].second.c_str());
  }
  v.row("heap in use growth (reported)",
        growth_text(mib(base.memory.heap_in_use), mib(end.memory.heap_in_use)), "-", "reported");
  if (base.gpu_used && end.gpu_used) {
    const double growth = mib(*end.gpu_used) - mib(*base.gpu_used);
    v.row("GPU memory growth", growth_text(mib(*base.gpu_used), mib(*end.gpu_used)), "< 5 MiB",
          o.report_memory            ? "reported (--report-memory)"
          : growth < kGrowthLimitMiB ? "pass"
                                     : "FAIL");
  } else {
    v.row("GPU memory growth", o.model_only ? "model only" : "cudaMemGetInfo failed", "< 5 MiB",
          o.model_only ? "n/a" : "FAIL");
  }
  const bool software = renderer.find("llvmpipe") != std::string::npos ||
                        renderer.find("softpipe") != std::string::npos;
  const double p99 = percentile(frame_ms, 0.99);
  char frame_text[64];
  std::snprintf(frame_text, sizeof frame_text, "%.1f ms (p50 %.1f, %zu)", p99,
                percentile(frame_ms, 0.5), frame_ms.size());
  v.row("frame time p99", frame_text, "<= 16.7 ms",
        software               ? "reported (software GL)"
        : p99 <= kFrameLimitMs ? "pass"
                               : "FAIL");
  std::sort(slow_frames.begin(), slow_frames.end(),
            [](const SlowFrame& a, const SlowFrame& b) { return a.ms > b.ms; });
  if (!slow_frames.empty())
    std::printf("\nframes over %.1f ms: %zu of %zu; the slowest, after the monkey's last action:\n",
                kFrameLimitMs, slow_frames.size(), frame_ms.size());
  for (std::size_t i = 0; i < slow_frames.size() && i < 12; ++i)
    std::printf("  %7.1f ms  %s\n", slow_frames[i].ms, slow_frames[i].what.c_str());
  std::printf("\nsoak: %s\n", v.failed ? "FAILED" : "passed");
  return v.failed ? 1 : 0;
}

}  // namespace warplens::bench
