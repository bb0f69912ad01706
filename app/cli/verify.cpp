#include "verify.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>
#include <optional>
#include <vector>

#include "counter_checks.h"
#include "counters.h"
#include "gpu.h"
#include "gpu_fault.h"
#include "gpu_restart.h"

namespace warplens::app {

namespace {

/// The read-out budget per pattern the issue sets (milliseconds).
constexpr double kReadoutBudgetMs = 100;

const char* unit_of(const CounterCase& c) {
  return c.shared() ? "wavefronts/req" : "sectors/req";
}

std::string tolerance_text(const CounterCheck& r) {
  char text[32];
  if (r.tolerance == r.tolerance_below) {
    std::snprintf(text, sizeof text, "+-%.2f", r.tolerance);
  } else {
    std::snprintf(text, sizeof text, "-%.2f/+%.2f", r.tolerance_below, r.tolerance);
  }
  return text;
}

nlohmann::json row_json(const CounterCase& c, const CounterCheck& r) {
  nlohmann::json j = {{"pattern", r.pattern},
                      {"origin", c.origin},
                      {"space", c.shared() ? "shared" : "global"},
                      {"op", c.store() ? "store" : "load"},
                      {"word_bytes", c.word_bytes()},
                      {"metric", r.metric},
                      {"unit", unit_of(c)},
                      {"model", r.model},
                      {"hardware", r.hardware ? nlohmann::json(*r.hardware) : nlohmann::json()},
                      {"tolerance_below", r.tolerance_below},
                      {"tolerance_above", r.tolerance},
                      {"agree", r.agree},
                      {"note", r.note}};
  if (r.hardware) {
    j["requests"] = r.requests;
    j["instructions"] = r.instructions;
    j["passes"] = r.passes;
    j["readout_ms"] = r.readout_ms;
  }
  return j;
}

void print_header() {
  std::printf("%-50s %-6s %-2s %4s %-14s %9s %9s %11s %-7s %7s  %s\n", "pattern", "space", "op",
              "word", "per request", "model", "hardware", "tolerance", "verdict", "ms", "note");
}

void print_row(const CounterCase& c, const CounterCheck& r, const std::string& verdict) {
  char hw[32] = "-";
  if (r.hardware) std::snprintf(hw, sizeof hw, "%.3f", *r.hardware);
  char ms[32] = "-";
  if (r.hardware) std::snprintf(ms, sizeof ms, "%.1f", r.readout_ms);
  std::printf("%-50s %-6s %-2s %3dB %-14s %9.3f %9s %11s %-7s %7s  %s\n", r.pattern.c_str(),
              c.shared() ? "shared" : "global", c.store() ? "st" : "ld", c.word_bytes(), unit_of(c),
              r.model, hw, tolerance_text(r).c_str(), verdict.c_str(), ms, r.note.c_str());
}

}  // namespace

int run_verify(const VerifyOptions& options) {
  const bool as_json = options.format == "json";
  std::vector<CounterCase> cases;
  const auto query = gpu::query_device();
  try {
    const int cc = query.device ? 10 * query.device->cc_major + query.device->cc_minor : 90;
    for (CounterCase& c : verify_catalog(query.device ? query.device->pitch_alignment : 512, cc)) {
      if (options.filter.empty() || c.name.find(options.filter) != std::string::npos) {
        cases.push_back(std::move(c));
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "warplens verify: the catalog is broken: " << e.what() << "\n";
    return kVerifyDiffers;
  }
  if (cases.empty()) {
    std::cerr << "warplens verify: no pattern name contains \"" << options.filter << "\"\n";
    return kVerifyBadInput;
  }
  if (!query.device) {
    const std::string reason = "no CUDA device: " + query.reason;
    if (as_json) {
      std::cout << nlohmann::json{{"status", "no-device"}, {"reason", reason}}.dump(2) << "\n";
    }
    std::cerr << "warplens verify: " << reason << "\n";
    return kVerifyNoDevice;
  }
  const gpu::DeviceInfo& d = *query.device;

  std::optional<CounterChecker> checker;
  std::string refused;
  try {
    checker.emplace(d);
  } catch (const gpu::CountersUnavailable& e) {
    refused = e.what();
  } catch (const std::exception& e) {
    std::cerr << "warplens verify: " << e.what() << "\n";
    return kVerifyDiffers;
  }

  if (!refused.empty()) {
    // The model still has its say; the hardware column says why it is empty.
    nlohmann::json rows = nlohmann::json::array();
    if (!as_json) {
      std::printf("device  %s (CC %d.%d)\ncounters  %s\n\n", d.name.c_str(), d.cc_major, d.cc_minor,
                  refused.c_str());
      print_header();
    }
    for (const CounterCase& c : cases) {
      CounterCheck r;
      r.pattern = c.name;
      const auto metrics = case_metrics(c);
      r.metric = metrics[0] + " / " + metrics.back();
      const Tolerance t = case_tolerance(c);
      r.tolerance = t.above;
      r.tolerance_below = t.below;
      r.note = "counters unavailable";
      try {
        r.model = model_per_request(c, gpu::kModelBufferBytes);
      } catch (const std::exception& e) {
        r.note = e.what();
      }
      if (as_json) {
        rows.push_back(row_json(c, r));
      } else {
        print_row(c, r, "n/a");
      }
    }
    if (as_json) {
      std::cout << nlohmann::json{{"status", "counters-unavailable"},
                                  {"device", d.name},
                                  {"reason", refused},
                                  {"rows", rows}}
                       .dump(2)
                << "\n";
    } else {
      std::printf("\ntotal  %zu patterns, none checked: %s\n", cases.size(), refused.c_str());
    }
    std::cerr << "warplens verify: " << refused << "\n";
    return kVerifyNoCounters;
  }

  // After a restart (a GPU fault in an earlier row): what the earlier process measured.
  nlohmann::json rows = nlohmann::json::array();
  int agree = 0, differ = 0, global_rows = 0, shared_rows = 0, loads = 0, stores = 0;
  std::vector<double> readouts;
  std::size_t first = 0;
  if (!options.resume.empty()) {
    try {
      std::ifstream in(options.resume);
      const nlohmann::json st = nlohmann::json::parse(in);
      rows = st.at("rows");
      agree = st.at("agree");
      differ = st.at("differ");
      global_rows = st.at("global_rows");
      shared_rows = st.at("shared_rows");
      loads = st.at("loads");
      stores = st.at("stores");
      readouts = st.at("readouts").get<std::vector<double>>();
      first = st.at("next").get<std::size_t>();
    } catch (const std::exception& e) {
      std::cerr << "warplens verify: cannot resume from " << options.resume << ": " << e.what()
                << "\n";
      return kVerifyDiffers;
    }
    std::remove(options.resume.c_str());
  }
  if (!as_json && options.resume.empty()) {
    std::printf("device    %s (CC %d.%d, %d SMs)\n", d.name.c_str(), d.cc_major, d.cc_minor,
                d.sm_count);
    std::printf(
        "compares  the model's cost per request (mean over every warp of the launch) with the "
        "GPU's counters on one dedicated launch\n");
    std::printf(
        "          global: sectors / warp instructions (l1tex__t_sectors_pipe_lsu_mem_global_op_"
        "{ld,st}.sum / smsp__inst_executed_op_global_{ld,st}.sum), copy kernel\n");
    std::printf(
        "          shared: wavefronts / instructions (l1tex__data_pipe_lsu_wavefronts_mem_shared_"
        "op_{ld,st}.sum / smsp__inst_executed_op_shared_{ld,st}.sum), bank probe\n\n");
    print_header();
  }
  for (std::size_t i = first; i < cases.size(); ++i) {
    const CounterCase& c = cases[i];
    CounterCheck r;
    try {
      if (!options.fault_before.empty() && c.name == options.fault_before) {
        try {
          gpu::fault_probe(d.index, gpu::FaultKind::Trap);
        } catch (const gpu::GpuError&) {  // the row's launch meets the fault
        }
      }
      r = checker->check(c);
    } catch (const gpu::CountersUnavailable& e) {
      if (!gpu::device_fault()) {
        std::cerr << "warplens verify: " << e.what() << "\n";
        return kVerifyNoCounters;
      }
      r.pattern = c.name;  // CUPTI refused on the faulted context: the row reports the fault
      r.metric = case_metrics(c)[0];
      r.note = e.what();
    }
    const auto fault = gpu::device_fault();
    if (fault) {
      r.agree = false;
      r.note = "GPU fault (" + fault->what + "), verify restarted its process; " + r.note;
    }
    (r.agree ? agree : differ) += 1;
    (c.shared() ? shared_rows : global_rows) += 1;
    (c.store() ? stores : loads) += 1;
    if (r.hardware) readouts.push_back(r.readout_ms);
    if (as_json) {
      rows.push_back(row_json(c, r));
    } else {
      print_row(c, r, r.agree ? "agrees" : "DIFFERS");
      std::fflush(stdout);
    }
    if (fault && i + 1 < cases.size()) {
      // The context is gone for every later row, and a reset inside the process does not bring
      // it back (gpu_restart.h): a new process measures the rest, continuing this one's output.
      std::string why;
      try {
        const std::string state =
            write_restart_file("warplens-verify", nlohmann::json{{"rows", rows},
                                                                 {"agree", agree},
                                                                 {"differ", differ},
                                                                 {"global_rows", global_rows},
                                                                 {"shared_rows", shared_rows},
                                                                 {"loads", loads},
                                                                 {"stores", stores},
                                                                 {"readouts", readouts},
                                                                 {"next", i + 1}}
                                                      .dump());
        std::vector<std::string> argv = {self_executable(), "verify",   "--format",
                                         options.format,    "--resume", state};
        if (!options.filter.empty()) {
          argv.emplace_back("--filter");
          argv.push_back(options.filter);
        }
        why = restart_process(argv);
      } catch (const std::exception& e) {
        why = e.what();
      }
      std::cerr << "warplens verify: after a GPU fault in " << c.name << ": " << why << "\n";
      return kVerifyDiffers;
    }
  }
  const double readout_median = gpu::median_of(readouts);
  const double readout_max =
      readouts.empty() ? 0 : *std::max_element(readouts.begin(), readouts.end());
  if (as_json) {
    std::cout << nlohmann::json{{"status", differ ? "differs" : "agrees"},
                                {"device", d.name},
                                {"compute_capability",
                                 std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
                                {"patterns", cases.size()},
                                {"agree", agree},
                                {"differ", differ},
                                {"readout_ms_median", readout_median},
                                {"readout_ms_max", readout_max},
                                {"readout_budget_ms", kReadoutBudgetMs},
                                {"rows", rows}}
                     .dump(2)
              << "\n";
  } else {
    std::printf(
        "\ntotal  %zu patterns (%d global, %d shared; %d loads, %d stores): %d agree, %d differ\n",
        cases.size(), global_rows, shared_rows, loads, stores, agree, differ);
    std::printf("read-out per pattern  median %.1f ms, max %.1f ms (budget %.0f ms)\n",
                readout_median, readout_max, kReadoutBudgetMs);
  }
  return differ ? kVerifyDiffers : kVerifyAgree;
}

}  // namespace warplens::app
