#include "bench_counters.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "counter_checks.h"
#include "counters.h"
#include "global_scenario.h"
#include "scenarios.h"
#include "verify.h"

namespace warplens::bench {

namespace {

struct Pattern {
  const char* scenario;  ///< a built-in scenario (what `warplens measure --scenario` runs)
  const char* kernel;    ///< ncu's -k regex for its kernel
};

constexpr std::array<Pattern, 6> kPatterns = {{
    {"aligned", "pattern_copy"},
    {"scattered", "pattern_copy"},
    {"store-stride-2", "pattern_copy"},
    {"matrix-columns", "matrix_copy"},
    {"bank-stride-2", "bank_probe"},
    {"tile-column-32x32", "bank_probe"},
}};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct Run {
  int exit_code = -1;
  double seconds = 0;
  std::string output;
};

/// Runs a shell command, its stdout and stderr captured, and times it (wall clock).
Run run(const std::string& command) {
  Run r;
  const auto start = std::chrono::steady_clock::now();
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen((command + " 2>&1").c_str(), "r"), pclose);
  if (!pipe) return r;
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), static_cast<int>(buf.size()), pipe.get())) r.output += buf.data();
  const int status = pclose(pipe.release());
  r.seconds = seconds_since(start);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

/// The value ncu printed for `metric` ("name   unit   1,234"), or nullopt.
std::optional<double> ncu_value(const std::string& output, const std::string& metric) {
  const std::size_t at = output.find(metric);
  if (at == std::string::npos) return std::nullopt;
  const std::size_t end = output.find('\n', at);
  std::string line = output.substr(at + metric.size(), end - at - metric.size());
  while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
  const std::size_t last = line.find_last_of(' ');
  std::string number = last == std::string::npos ? line : line.substr(last + 1);
  number.erase(std::remove(number.begin(), number.end(), ','), number.end());
  try {
    return std::stod(number);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::string sibling_binary(const char* name) {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return name;
  return (self.parent_path() / name).string();
}

}  // namespace

int print_counter_table(const gpu::DeviceInfo& d, int runs) {
  const std::string warplens = sibling_binary("warplens");
  const bool have_ncu = std::system("command -v ncu > /dev/null 2>&1") == 0;

  // Each case beside its pattern (the kernel ncu filters on); a pattern missing from the
  // catalog is left out with its kernel, never paired with another case's.
  std::vector<app::CounterCase> cases;
  std::vector<const Pattern*> patterns;
  const std::vector<app::CounterCase> catalog = app::verify_catalog(d.pitch_alignment);
  for (const Pattern& p : kPatterns) {
    for (const app::CounterCase& c : catalog) {
      if (c.name == p.scenario) {
        cases.push_back(c);
        patterns.push_back(&p);
      }
    }
  }

  // ncu first, while this process holds no profiler session.
  struct External {
    std::optional<Run> ncu, plain;
    std::optional<double> ncu_per_request;
  };
  std::vector<External> external(cases.size());
  if (have_ncu) {
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const auto metrics = app::case_metrics(cases[i]);
      const std::string measure =
          "'" + warplens + "' measure --scenario " + cases[i].name + " --runs 10 --format json";
      external[i].plain = run(measure + " > /dev/null");
      std::string list;
      for (const std::string& m : metrics) list += (list.empty() ? "" : ",") + m;
      external[i].ncu =
          run("ncu --metrics " + list + " -k regex:" + patterns[i]->kernel + " -c 1 " + measure);
      const auto num = ncu_value(external[i].ncu->output, metrics[0]);
      const auto req = ncu_value(external[i].ncu->output, metrics.back());
      if (num && req && *req > 0) external[i].ncu_per_request = *num / *req;
    }
  }

  std::optional<app::CounterChecker> checker;
  try {
    checker.emplace(d);
  } catch (const gpu::CountersUnavailable& e) {
    std::cerr << "warplens-bench: " << e.what() << "\n";
    return 4;
  }

  std::printf(
      "\ncounter read-out per pattern: in-process (CUPTI range profiler, session kept "
      "open, median of %d) vs Nsight Compute\n",
      runs);
  std::printf(
      "ncu: `ncu --metrics <the same metrics> -k regex:<kernel> -c 1 warplens measure "
      "--scenario <name> --runs 10`, wall time; plain: the same measure without ncu\n");
  if (!have_ncu) std::printf("ncu is not on PATH: the ncu columns are left empty\n");
  std::printf("%-20s %-13s %8s %7s %9s %9s %9s %9s %9s %10s\n", "pattern", "kernel", "in-app",
              "passes", "per req", "ncu req", "ncu s", "plain s", "ncu/app", "(ncu-plain)/app");
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto metrics = app::case_metrics(cases[i]);
    (void)checker->read(cases[i]);  // warm-up: first launch of this kernel, lazy loading
    std::vector<double> ms;
    gpu::CounterSession::MetricValues last;
    for (int r = 0; r < runs; ++r) {
      const auto start = std::chrono::steady_clock::now();
      last = checker->read(cases[i]);
      ms.push_back(1e3 * seconds_since(start));
    }
    const double app_ms = gpu::median_of(ms);
    const double per_request = last.values.back() > 0 ? last.values[0] / last.values.back() : -1;
    char ncu_req[32] = "-", ncu_s[32] = "-", plain_s[32] = "-", ratio[32] = "-", extra[32] = "-";
    const External& e = external[i];
    if (e.ncu && e.ncu->exit_code == 0) {
      std::snprintf(ncu_s, sizeof ncu_s, "%.2f", e.ncu->seconds);
      std::snprintf(ratio, sizeof ratio, "%.0fx", 1e3 * e.ncu->seconds / app_ms);
      if (e.ncu_per_request) std::snprintf(ncu_req, sizeof ncu_req, "%.3f", *e.ncu_per_request);
      if (e.plain && e.plain->exit_code == 0) {
        std::snprintf(plain_s, sizeof plain_s, "%.2f", e.plain->seconds);
        std::snprintf(extra, sizeof extra, "%.0fx",
                      1e3 * (e.ncu->seconds - e.plain->seconds) / app_ms);
      }
    } else if (e.ncu) {
      std::snprintf(ncu_s, sizeof ncu_s, "exit %d", e.ncu->exit_code);
    }
    std::printf("%-20s %-13s %6.1fms %7d %9.3f %9s %9s %9s %9s %10s\n", cases[i].name.c_str(),
                patterns[i]->kernel, app_ms, last.passes, per_request, ncu_req, ncu_s, plain_s,
                ratio, extra);
    if (e.ncu && e.ncu->exit_code != 0) {
      std::string tail =
          e.ncu->output.substr(e.ncu->output.size() > 400 ? e.ncu->output.size() - 400 : 0);
      std::printf("  ncu failed; its last output: %s\n", tail.c_str());
    }
  }
  return 0;
}

int print_profiler_effect(const gpu::DeviceInfo& device, int runs) {
  gpu::CopyLab lab(device);
  gpu::CopyParams p = app::global_scenario(app::find_scenario("misaligned")).copy;
  p.pitch_alignment = device.pitch_alignment;
  std::printf("copy kernel of \"misaligned\", %d timed launches after 3 warm-up\n", runs);
  std::printf("%-52s %10s %12s\n", "state of the counter checker", "wall ms", "kernel ms");
  const auto row = [&](const char* state) {
    const auto start = std::chrono::steady_clock::now();
    const gpu::CopyMeasurement m = lab.measure(p, runs, 3);
    std::printf("%-52s %10.1f %12.3f\n", state, 1e3 * seconds_since(start), m.timing.median_ms);
  };
  row("no checker yet");
  row("no checker yet (again)");
  try {
    app::CounterChecker checker(device);
    app::CounterCase c;
    c.kind = app::CaseKind::Copy;
    c.copy = p;
    (void)checker.check(c);
    row("profiler kept enabled, after a read-out");
    const auto start = std::chrono::steady_clock::now();
    (void)checker.check(c);
    std::printf("%-52s %10.1f\n", "  (a second read-out of the same copy)",
                1e3 * seconds_since(start));
    row("after that read-out");
  } catch (const gpu::CountersUnavailable& e) {
    std::cerr << "warplens-bench: " << e.what() << "\n";
    return 4;
  }
  row("checker destroyed");
  return 0;
}

}  // namespace warplens::bench
