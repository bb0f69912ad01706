// `warplens-bench kernels-once`: every kernel of every lab launched once on small sizes, in one
// process, its result checked, so compute-sanitizer (memcheck, racecheck, synccheck, initcheck)
// can look at all of them in a few runs (scripts/gpu-sanitize, docs/hardening.md). Each lab
// implements its part (LabInfo::kernels_once) with its own gpu:: lab class; this header holds
// what they share: the row each launch reports and the log that times and checks it.
#pragma once

#include <chrono>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "gpu.h"

namespace warplens::app {

/// One kernel (or one small group of launches of one kernel) run once.
struct KernelRun {
  std::string lab;         ///< the lab's name (to_string(Lab))
  std::string kernel;      ///< e.g. "pattern_copy (trace)", "transpose_tiled<32> padded"
  std::string parameters;  ///< e.g. "W=4 K=1 S=3", "scenario misaligned"
  bool ok = false;         ///< launched without a CUDA error and its result checked
  std::string check;       ///< one line: what was checked, or what went wrong
  double ms = 0;           ///< host wall time of the run, milliseconds (launches + checks)
};

/// The result a run's body returns: whether its check passed and what it checked.
struct RunCheck {
  bool ok = false;
  std::string what;
};

/// Collects a lab's KernelRun rows. run() times the body, and turns what it throws
/// (gpu::GpuError, std::invalid_argument, any std::exception) into a failed row, so one
/// refused or failing kernel does not hide the others.
class KernelRunLog {
 public:
  explicit KernelRunLog(std::string lab) : lab_(std::move(lab)) {}

  /// Runs `body` (returns RunCheck) and records its row.
  template <typename Body>
  void run(std::string kernel, std::string parameters, Body&& body) {
    KernelRun row{lab_, std::move(kernel), std::move(parameters), false, {}, 0};
    const auto start = std::chrono::steady_clock::now();
    try {
      const RunCheck result = body();
      row.ok = result.ok;
      row.check = result.what;
    } catch (const std::exception& e) {
      row.ok = false;
      row.check = std::string("threw: ") + e.what();
    }
    row.ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    rows_.push_back(std::move(row));
  }

  /// A row for work that could not start (e.g. the lab's constructor threw).
  void fail(std::string kernel, std::string why) {
    rows_.push_back({lab_, std::move(kernel), "", false, std::move(why), 0});
  }

  [[nodiscard]] std::vector<KernelRun> take() { return std::move(rows_); }

 private:
  std::string lab_;
  std::vector<KernelRun> rows_;
};

/// The device as kernels-once hands it to the labs: the same GPU seen with one SM. Every lab
/// sizes its whole-GPU grids by DeviceInfo::sm_count (one block per SM for the bank probe and the
/// L1 gather, 32 per SM for the shared-hungry kernel, resident blocks per SM for the staged
/// copies), so each launch runs one SM's share of blocks: the same kernels and code paths, about
/// 1/sm_count of the work, which is what keeps racecheck's per-access cost bounded.
inline gpu::DeviceInfo one_sm_view(gpu::DeviceInfo device) {
  device.sm_count = 1;
  return device;
}

}  // namespace warplens::app
