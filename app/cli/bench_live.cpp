#include "bench_live.h"

#include "gpu_log.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "app_ui.h"
#include "frame_phases.h"
#include "gpu.h"
#include "gpu_fault.h"
#include "gpu_recovery.h"
#include "gpu_restart.h"
#include "gpu_turn.h"
#include "headless_context.h"
#include "headless_frames.h"
#include "preset_writer.h"
#include "scenarios.h"
#include "software_gl.h"

namespace warplens::bench {

namespace {

using app::Lab;
using app::LabInstance;
using Clock = std::chrono::steady_clock;

constexpr int kLiveWidth = 1600, kLiveHeight = 960;
constexpr double kGiveUpMs = 10000;  // a point later than this is reported as never arriving

double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

/// Wall-clock milliseconds, comparable between the process images of the fault drill.
double wall_ms() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

/// The first built-in scenario of `lab` that is not an A/B pair.
int scenario_of(Lab lab) {
  const auto& catalog = app::builtin_scenarios();
  for (std::size_t i = 0; i < catalog.size(); ++i)
    if (catalog[i].lab == lab && catalog[i].compare_with.empty()) return static_cast<int>(i);
  throw std::logic_error(std::string("no scenario of the ") + app::to_string(lab) + " lab");
}

struct Scene {
  viz::HeadlessContext context;
  app::HeadlessScene scene;
  app::UiState ui;
  viz::RenderTarget target;
  Scene(int device, const app::ViewOptions& options)
      : context(device), scene(options), ui(app::initial_ui(options, scene.labs, false)) {
    app::register_gl_frames();  // as the window does
  }
  void frame() {
    app::SerialFrame serial;  // as the window does (gpu_turn.h)
    if (!serial.begin()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      return;
    }
    const auto start = std::chrono::steady_clock::now();
    app::clear_frame_phases();
    scene.labs.update();
    scene.draw_frames(ui, target, kLiveWidth, kLiveHeight, 1);  // ends with glFinish
    serial.end([] {});
    app::log_frame_if_slow(start);
  }
};

/// Frames until `lab`'s measured point and counter line are on screen, or `give_up_ms`.
struct Waited {
  double point_ms = -1, counters_ms = -1;
  app::LiveReading last;
};
Waited wait_for_reading(Scene& s, LabInstance& lab, Clock::time_point t0, double give_up_ms) {
  // With WARPLENS_NO_COUNTERS set there is no counter line to wait for: the point alone counts.
  static const bool counters_off = std::getenv("WARPLENS_NO_COUNTERS") != nullptr;
  Waited w;
  for (;;) {
    w.last = lab.live_reading();  // read before the frame: this frame then draws it
    if (counters_off) w.last.counters = true;
    const double ms = ms_between(t0, Clock::now());
    if (w.last.measured && w.point_ms < 0) w.point_ms = ms;
    if (w.last.measured && w.last.counters) {
      w.counters_ms = ms;
      return w;
    }
    if (ms > give_up_ms) return w;
    s.frame();
  }
}

std::string ms_text(double ms) {
  if (ms < 0) return "none";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", ms);
  return text;
}

void print_header(const char* first) {
  std::printf("%-10s %-44s %10s %12s %8s  %s\n", "lab", first, "point ms", "counters ms", "verdict",
              "note");
  std::fflush(stdout);
}

void print_row(const std::string& lab, const std::string& what, double point_ms, double counters_ms,
               bool pass, const std::string& note) {
  std::printf("%-10s %-44s %10s %12s %8s  %s\n", lab.c_str(), what.c_str(),
              ms_text(point_ms).c_str(), ms_text(counters_ms).c_str(), pass ? "pass" : "FAIL",
              note.c_str());
  std::fflush(stdout);
}

/// The lines of the preset section `after` that `before` lacks: the knob a change moved.
std::string changed_lines(const std::string& before, const std::string& after) {
  std::istringstream a(after);
  std::string line, out;
  while (std::getline(a, line)) {
    if (before.find(line + "\n") != std::string::npos || line.empty() || line[0] == '[') continue;
    out += (out.empty() ? "" : "; ") + line;
  }
  return out.empty() ? "(no key of the preset changed)" : out;
}

std::vector<Lab> chosen_labs(const std::vector<std::string>& names) {
  std::vector<Lab> labs;
  if (names.empty()) {
    for (const app::LabInfo& info : app::lab_registry()) labs.push_back(info.id);
  } else {
    for (const std::string& n : names) labs.push_back(app::parse_lab(n));
  }
  return labs;
}

// --- live: a change in each lab -> its point and counter line ----------------------------------

int run_changes(const LiveOptions& options, const gpu::DeviceInfo& device) {
  app::ViewOptions view;
  Scene s(device.index, view);
  std::printf("live path on %s, %dx%d, frames drawn as the window draws them, counters %s\n",
              device.name.c_str(), kLiveWidth, kLiveHeight,
              std::getenv("WARPLENS_NO_COUNTERS") ? "off (WARPLENS_NO_COUNTERS)" : "on");
  print_header("change");
  bool all = true;
  for (const Lab id : chosen_labs(options.labs)) {
    const std::string name = app::to_string(id);
    app::apply_scenario(s.ui, s.scene.labs, scenario_of(id));
    LabInstance& lab = s.scene.labs.lab(id);
    const Waited first = wait_for_reading(s, lab, Clock::now(), 60000);
    if (first.counters_ms < 0) {
      print_row(name, "first point of " + app::builtin_scenarios()[scenario_of(id)].name,
                first.point_ms, -1, false, first.last.text + " " + lab.error());
      all = false;
      continue;
    }
    // One knob moved as the panel moves it; a change that needs no new measurement (a view,
    // the model shown) is tried again with the next draw.
    std::mt19937 rng(static_cast<unsigned>(id) + 1);
    const std::string before = lab.preset_section();
    bool changed = false;
    for (int tries = 0; tries < 40 && !changed; ++tries) {
      lab.random_change(rng);
      changed = !lab.live_reading().measured;
    }
    const std::string after = changed_lines(before, lab.preset_section());
    const auto t0 = Clock::now();
    const Waited w = wait_for_reading(s, lab, t0, kGiveUpMs);
    const std::string error = lab.error();
    // The counter line must also agree with the model: the window once read a count of the
    // profiled launch plus a trace beside it (gpu::profiled_range_mutex).
    const bool pass = changed && w.counters_ms >= 0 && w.counters_ms <= options.change_limit_ms &&
                      !w.last.counters_differ && error.empty();
    all = all && pass;
    std::string note = !changed ? "no change needed a new measurement"
                       : w.counters_ms < 0
                           ? "no point within " + ms_text(kGiveUpMs) + " ms: " + w.last.text
                           : w.last.text;
    if (w.last.counters_differ) note = "counters differ from the model: " + note;
    if (!error.empty()) note += "; lab error: " + error;
    print_row(name, after.substr(0, 44), w.point_ms, w.counters_ms, pass, note);
  }
  std::printf(
      "live path: %s (limit %.0f ms from a change to its point and a counter line that agrees "
      "with the model)\n",
      all ? "pass" : "FAILED", options.change_limit_ms);
  return all ? 0 : 1;
}

// --- fault drill -------------------------------------------------------------------------------

struct DrillState {
  std::vector<std::string> labs_left;
  nlohmann::json rows = nlohmann::json::array();
  // The fault the new image recovers from (empty lab: none).
  std::string lab, preset_file, preset_text, fault;
  double fault_wall_ms = 0;   ///< when the worker met the fault (wall clock, ms)
  double posted_wall_ms = 0;  ///< when the faulting kernel was handed to the worker
  int restarts = 0;  ///< processes started for the pending fault (a fault during recovery adds one)
  bool proven = false;  ///< --proven-code: the faulting kernel runs clean once first
};

DrillState read_state(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read the drill's state " + path);
  const nlohmann::json j = nlohmann::json::parse(in);
  DrillState d;
  d.labs_left = j.at("labs_left").get<std::vector<std::string>>();
  d.rows = j.at("rows");
  d.lab = j.value("lab", "");
  d.preset_file = j.value("preset_file", "");
  d.preset_text = j.value("preset_text", "");
  d.fault = j.value("fault", "");
  d.fault_wall_ms = j.value("fault_wall_ms", 0.0);
  d.posted_wall_ms = j.value("posted_wall_ms", 0.0);
  d.restarts = j.value("restarts", 0);
  d.proven = j.value("proven", false);
  return d;
}

std::string state_text(const DrillState& d) {
  return nlohmann::json{{"labs_left", d.labs_left},
                        {"rows", d.rows},
                        {"lab", d.lab},
                        {"preset_file", d.preset_file},
                        {"preset_text", d.preset_text},
                        {"fault", d.fault},
                        {"fault_wall_ms", d.fault_wall_ms},
                        {"posted_wall_ms", d.posted_wall_ms},
                        {"restarts", d.restarts},
                        {"proven", d.proven}}
      .dump(2);
}

int finish_drill(const DrillState& d, double limit_ms) {
  print_header("after the fault");
  bool all = true;
  for (const auto& r : d.rows) {
    const bool pass = r.value("pass", false);
    all = all && pass;
    print_row(r.value("lab", ""), r.value("what", ""), r.value("point_ms", -1.0),
              r.value("counters_ms", -1.0), pass, r.value("note", ""));
  }
  std::printf(
      "fault drill: %s (limit %.0f ms from the fault to a measured point with counters, "
      "same scenario and parameters, in the restarted process)\n",
      all && !d.rows.empty() ? "pass" : "FAILED", limit_ms);
  return all && !d.rows.empty() ? 0 : 1;
}

/// The drill's restart, as the window's (window_restart.h): the state with the pending fault goes
/// to a new process, this one parks. `fault_seen` non-empty: this image recovers from that fault
/// and a fault now is one more (the GPU still disturbed): the same lab is recovered again, three
/// processes at most, as kMaxGpuRestarts bounds the window's.
void register_drill_restart(DrillState& d, const std::string& fault_seen) {
  app::set_gpu_restart([&d, fault_seen](const std::string& fault) {
    if (!fault_seen.empty() && d.restarts >= 3) {
      std::fprintf(stderr, "warplens-bench fault-drill: %s again after %d restarts: giving up\n",
                   fault.c_str(), d.restarts);
      return;
    }
    d.fault = fault_seen.empty() ? fault : fault_seen + "; then, recovering, " + fault;
    if (fault_seen.empty())
      d.fault_wall_ms = wall_ms();  // the fault met: the limit counts from here
    ++d.restarts;
    std::string why;
    try {
      d.preset_file = app::write_restart_file("warplens-drill-preset", d.preset_text);
      const std::string state = app::write_restart_file("warplens-drill-state", state_text(d));
      why = app::spawn_and_park({app::self_executable(), "fault-drill", "--state", state});
    } catch (const std::exception& e) {
      why = e.what();
    }
    std::fprintf(stderr, "warplens-bench fault-drill: %s\n", why.c_str());
  });
}

int run_drill(const LiveOptions& options, const gpu::DeviceInfo& device) {
  DrillState d;
  if (options.state.empty()) {
    for (const Lab id : chosen_labs(options.labs)) d.labs_left.emplace_back(app::to_string(id));
    d.proven = options.proven_code;
  } else {
    d = read_state(options.state);
  }
  app::ViewOptions view;
  view.preset = d.preset_file;  // the restored lab's preset, as the window restores it
  if (!d.lab.empty()) app::begin_process_after_fault();  // restarted after a fault, as the window
  app::gpu_log("fault drill: making the scene");
  Scene s(device.index, view);
  if (!d.lab.empty()) app::settle_process_after_fault();
  const std::string gl(viz::current_gl_renderer());
  app::gpu_log("fault drill: scene made, GL %s", gl.c_str());

  if (!d.lab.empty()) {  // this image is the restart after a fault in d.lab
    register_drill_restart(d, d.fault);
    const Lab id = app::parse_lab(d.lab);
    LabInstance& lab = s.scene.labs.lab(id);
    const double waited_from = wall_ms() - d.fault_wall_ms;  // the new process's start-up
    const Waited w = wait_for_reading(s, lab, Clock::now(), kGiveUpMs);
    const double since_fault = w.counters_ms < 0 ? -1 : waited_from + w.counters_ms;
    const double point_since_fault = w.point_ms < 0 ? -1 : waited_from + w.point_ms;
    const std::string text =
        app::current_preset_text(lab, id, app::scenario_at(s.ui, s.ui.scenario));
    const bool same = text == d.preset_text;
    const std::string error = lab.error();
    const bool pass =
        since_fault >= 0 && since_fault <= options.restart_limit_ms && same && error.empty();
    char posted[96];
    std::snprintf(posted, sizeof posted, "; the faulting kernel posted %.0f ms before the fault",
                  d.fault_wall_ms - d.posted_wall_ms);
    std::string note = "fault: " + d.fault + posted;
    if (d.restarts > 1) note = std::to_string(d.restarts) + " processes; " + note;
    if (!same) note = "parameters differ after the restart; " + note;
    if (w.counters_ms < 0) note = "no point: " + w.last.text + "; " + note;
    if (!error.empty()) note = "lab error: " + error + "; " + note;
    d.rows.push_back({{"lab", d.lab},
                      {"what", "restarted, " + app::scenario_at(s.ui, s.ui.scenario).name},
                      {"point_ms", point_since_fault},
                      {"counters_ms", since_fault},
                      {"pass", pass},
                      {"note", note}});
    std::remove(d.preset_file.c_str());
    std::remove(options.state.c_str());
    d.lab.clear();
    d.restarts = 0;
  }
  if (d.labs_left.empty()) return finish_drill(d, options.restart_limit_ms);

  // The next lab: measured, then the trapping kernel on its worker.
  const std::string name = d.labs_left.front();
  d.labs_left.erase(d.labs_left.begin());
  const Lab id = app::parse_lab(name);
  app::apply_scenario(s.ui, s.scene.labs, scenario_of(id));
  LabInstance& lab = s.scene.labs.lab(id);
  const Waited first = wait_for_reading(s, lab, Clock::now(), 60000);
  if (first.counters_ms < 0) {
    d.rows.push_back({{"lab", name},
                      {"what", "before the fault"},
                      {"point_ms", first.point_ms},
                      {"counters_ms", -1.0},
                      {"pass", false},
                      {"note", "no first point: " + first.last.text + " " + lab.error()}});
    return finish_drill(d, options.restart_limit_ms);
  }
  d.lab = name;
  d.preset_text = app::current_preset_text(lab, id, app::scenario_at(s.ui, s.ui.scenario));
  d.posted_wall_ms = wall_ms();
  register_drill_restart(d, "");
  const int index = device.index;
  const auto kind = d.proven            ? gpu::FaultKind::TrapAfterCleanRun
                    : d.rows.size() % 2 ? gpu::FaultKind::Trap
                                        : gpu::FaultKind::IllegalAddress;
  if (!lab.run_on_worker([index, kind](const std::atomic<bool>&) {
        app::gpu_log("fault drill: the faulting kernel launches now");
        gpu::fault_probe(index, kind);
      })) {
    std::fprintf(stderr, "warplens-bench fault-drill: the %s lab has no GPU worker\n",
                 name.c_str());
    return 1;
  }
  // The worker that meets the fault starts the next process and parks this one (gpu_restart.h):
  // its frames go on until then, and stop once parked (the worker ends the process later).
  const auto t0 = Clock::now();
  app::gpu_log("fault drill: fault posted to the %s lab's worker", name.c_str());
  while (ms_between(t0, Clock::now()) < kGiveUpMs) {
    if (app::process_parked()) {
      for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    s.frame();
  }
  d.rows.push_back({{"lab", name},
                    {"what", "fault injected"},
                    {"point_ms", -1.0},
                    {"counters_ms", -1.0},
                    {"pass", false},
                    {"note", "no restart within 10 s: " + lab.error()}});
  return finish_drill(d, options.restart_limit_ms);
}

}  // namespace

int run_live(const LiveOptions& options) {
  const auto query = gpu::query_device();
  if (!query.device) {
    std::fprintf(stderr, "warplens-bench: no CUDA device: %s\n", query.reason.c_str());
    return 3;
  }
  try {
    return options.fault_drill ? run_drill(options, *query.device)
                               : run_changes(options, *query.device);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "warplens-bench: %s\n", e.what());
    return 1;
  }
}

}  // namespace warplens::bench
