// Hardware counters for one kernel launch, read with CUPTI's range profiler: global-memory
// requests and sectors, shared-memory instructions, wavefronts and bank conflicts, L1 and L2 hit
// rates and DRAM bytes. The numbers the GPU itself counted, next to the model's prediction and
// the instrumented trace.
//
// No CUDA or CUPTI types here, so the header compiles without the toolkit; there every entry
// point throws CountersUnavailable("built without the CUDA toolkit").
//
// Units: counts are per launch, summed over the whole grid (not per warp or per request):
// requests and instructions are warp-level instructions, sectors are 32-byte L1TEX sectors,
// wavefronts are shared-memory data-stage cycles. Hit rates are percent (0..100). DRAM traffic
// is in bytes.
//
// Errors: CountersUnavailable (one line: why, and where an administrator can change that, how)
// whenever this machine cannot read counters: no CUDA device, compute capability below 7.0,
// profiling restricted to administrators by the driver, vGPU / MIG / confidential computing /
// WSL / CMP, CUPTI or its libnvperf libraries missing, another profiler holding the counters.
// Failures of the caller's own launch propagate as thrown by the callable, or as GpuError.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace warplens::gpu {

/// Why counters are unavailable; counters_failure_text() turns one into the one-line message.
enum class CounterFailure {
  NoCudaToolkit,           ///< this binary was built without the CUDA toolkit
  NoDevice,                ///< no CUDA driver or no device with this index
  OldArchitecture,         ///< compute capability below 7.0 (detail: "6.1")
  InsufficientPrivileges,  ///< the driver restricts GPU performance counters to admin users
  VirtualGpu,              ///< a vGPU without profiling enabled by the hypervisor
  Mig,                     ///< a MIG instance
  ConfidentialComputing,   ///< confidential computing mode
  MiningProcessor,         ///< an NVIDIA CMP board
  Wsl,                     ///< WSL without profiler support
  Sli,                     ///< SLI enabled
  ProfilerBusy,            ///< another profiler (Nsight Compute, Nsight Systems) holds the GPU
  CuptiMissing,            ///< libcupti or libnvperf_host/target could not be loaded
  Other,                   ///< any other CUPTI refusal (detail: the call and CUPTI's message)
};

/// This machine cannot read hardware counters; what() is one line saying why (and how an
/// administrator enables them where that is a setting); failure() says which reason it is
/// (ProfilerBusy passes once the other profiler ends; the others last).
class CountersUnavailable : public std::runtime_error {
 public:
  explicit CountersUnavailable(const std::string& what,
                               CounterFailure failure = CounterFailure::Other)
      : std::runtime_error(what), failure_(failure) {}
  [[nodiscard]] CounterFailure failure() const { return failure_; }

 private:
  CounterFailure failure_;
};

/// The one-line message for `failure`; `detail` (may be empty) is appended where it helps.
inline std::string counters_failure_text(CounterFailure failure, std::string_view detail = {}) {
  std::string text;
  switch (failure) {
    case CounterFailure::NoCudaToolkit:
      text = "hardware counters unavailable: built without the CUDA toolkit";
      break;
    case CounterFailure::NoDevice: text = "hardware counters unavailable: no CUDA device"; break;
    case CounterFailure::OldArchitecture:
      text =
          "hardware counters unavailable: CUPTI's range profiler needs compute capability 7.0 "
          "or newer";
      break;
    case CounterFailure::InsufficientPrivileges:
      text =
          "hardware counters unavailable: the NVIDIA driver lets only administrators read GPU "
          "performance counters; an admin can allow all users with 'options nvidia "
          "NVreg_RestrictProfilingToAdminUsers=0' in a file under /etc/modprobe.d/ (then "
          "reload the driver or reboot), or run WarpLens as root";
      break;
    case CounterFailure::VirtualGpu:
      text =
          "hardware counters unavailable: this is a virtual GPU (vGPU) and its hypervisor has "
          "not enabled profiling for it";
      break;
    case CounterFailure::Mig:
      text = "hardware counters unavailable: CUPTI cannot profile a MIG instance; use a whole GPU";
      break;
    case CounterFailure::ConfidentialComputing:
      text = "hardware counters unavailable: the GPU runs in confidential computing mode";
      break;
    case CounterFailure::MiningProcessor:
      text = "hardware counters unavailable: NVIDIA CMP boards do not support profiling";
      break;
    case CounterFailure::Wsl:
      text = "hardware counters unavailable: this WSL setup does not support GPU profiling";
      break;
    case CounterFailure::Sli:
      text = "hardware counters unavailable: profiling does not work with SLI enabled";
      break;
    case CounterFailure::ProfilerBusy:
      text =
          "hardware counters unavailable: another profiler (Nsight Compute or Nsight Systems) "
          "is using the GPU's counters";
      break;
    case CounterFailure::CuptiMissing:
      text =
          "hardware counters unavailable: CUPTI could not load its libraries (libcupti, "
          "libnvperf_host and libnvperf_target come with the CUDA toolkit; put its lib64 "
          "folder on LD_LIBRARY_PATH or in /etc/ld.so.conf.d/)";
      break;
    case CounterFailure::Other: text = "hardware counters unavailable"; break;
  }
  if (!detail.empty()) {
    text += " (";
    text += detail;
    text += ')';
  }
  // One line, whatever CUPTI's message held.
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return text;
}

/// The failure a CUPTI result code (CUptiResult, cupti_result.h) stands for; Other for codes that
/// say nothing about this machine's setup. Codes: 33 vGPU not supported, 35 insufficient
/// privileges, 39 multiple subscribers, 40 vGPU privileges, 41 confidential computing, 42 CMP,
/// 43 MIG, 44 SLI, 45 WSL, 26 hardware busy (checked against the header in counters.cpp).
inline CounterFailure counters_failure_for_cupti(int cupti_result) {
  switch (cupti_result) {
    case 35: return CounterFailure::InsufficientPrivileges;
    case 33:
    case 40: return CounterFailure::VirtualGpu;
    case 41: return CounterFailure::ConfidentialComputing;
    case 42: return CounterFailure::MiningProcessor;
    case 43: return CounterFailure::Mig;
    case 44: return CounterFailure::Sli;
    case 45: return CounterFailure::Wsl;
    case 26:
    case 39: return CounterFailure::ProfilerBusy;
    default: return CounterFailure::Other;
  }
}

/// The values of one profiled launch. A value is std::nullopt when this GPU's CUPTI does not know
/// the metric (it is then left out of the collection).
struct CounterSet {
  // Global memory, issued by the LSU pipe (ld.global / st.global, not __ldg or atomics).
  std::optional<double> global_load_requests;   ///< warp-level load instructions
  std::optional<double> global_store_requests;  ///< warp-level store instructions
  std::optional<double> global_load_sectors;    ///< 32-byte sectors the loads touched
  std::optional<double> global_store_sectors;   ///< 32-byte sectors the stores touched
  // Shared memory.
  std::optional<double> shared_load_instructions;   ///< warp-level shared loads
  std::optional<double> shared_store_instructions;  ///< warp-level shared stores
  std::optional<double> shared_load_wavefronts;     ///< data-stage passes the loads needed
  std::optional<double> shared_store_wavefronts;
  std::optional<double> shared_load_bank_conflicts;  ///< extra passes from bank conflicts
  std::optional<double> shared_store_bank_conflicts;
  // Caches and DRAM.
  std::optional<double> l1_hit_rate_pct;  ///< L1TEX sector hit rate, percent
  std::optional<double> l2_hit_rate_pct;  ///< L2 (LTS) sector hit rate, percent
  std::optional<double> dram_read_bytes;
  std::optional<double> dram_write_bytes;

  int passes = 0;  ///< how many times the launch was replayed to collect all values

  /// The value of a metric by its CUPTI name (as in kCounterMetrics); nullopt for an unknown
  /// name or an uncollected value.
  [[nodiscard]] std::optional<double> value(std::string_view metric) const;
};

/// One collected metric: its CUPTI / Nsight Compute name, the CounterSet field that holds it and
/// its unit.
struct CounterMetric {
  const char* name;
  std::optional<double> CounterSet::*field;
  const char* unit;  ///< "requests", "sectors", "instructions", "wavefronts", "conflicts", "%",
                     ///< "bytes"
};

/// Every metric a CounterSession collects, in CounterSet's order.
inline constexpr std::array<CounterMetric, 14> kCounterMetrics = {{
    {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", &CounterSet::global_load_requests,
     "requests"},
    {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", &CounterSet::global_store_requests,
     "requests"},
    {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", &CounterSet::global_load_sectors, "sectors"},
    {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", &CounterSet::global_store_sectors,
     "sectors"},
    {"smsp__inst_executed_op_shared_ld.sum", &CounterSet::shared_load_instructions, "instructions"},
    {"smsp__inst_executed_op_shared_st.sum", &CounterSet::shared_store_instructions,
     "instructions"},
    {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", &CounterSet::shared_load_wavefronts,
     "wavefronts"},
    {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", &CounterSet::shared_store_wavefronts,
     "wavefronts"},
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
     &CounterSet::shared_load_bank_conflicts, "conflicts"},
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
     &CounterSet::shared_store_bank_conflicts, "conflicts"},
    {"l1tex__t_sector_hit_rate.pct", &CounterSet::l1_hit_rate_pct, "%"},
    {"lts__t_sector_hit_rate.pct", &CounterSet::l2_hit_rate_pct, "%"},
    {"dram__bytes_read.sum", &CounterSet::dram_read_bytes, "bytes"},
    {"dram__bytes_write.sum", &CounterSet::dram_write_bytes, "bytes"},
}};

inline std::optional<double> CounterSet::value(std::string_view metric) const {
  for (const CounterMetric& m : kCounterMetrics) {
    if (metric == m.name) return this->*m.field;
  }
  return std::nullopt;
}

/// Why hardware counters cannot be read on CUDA device `device` (std::nullopt: they can). Sets
/// up a CounterSession and drops it; never throws. A profile() can still fail later if the
/// driver refuses only at collection time.
std::optional<std::string> counters_available(int device = 0);

/// Reads the counters of single launches on one device, through the device's primary context
/// (retained for the session's life, so the CUDA runtime's launches on that device use it).
///
/// Profiling replays: the GPU counts only some metrics at a time, so profile() calls `launch`
/// once per pass (`CounterSet::passes` times; fewer than 5 on an H100) and each pass reads a
/// part of the metrics. Every call must therefore do the same work on the same data; a kernel
/// that changes its own input gives each pass different data. Cache state also differs between
/// passes (the first pass may find data in L2 that a cold launch would not), so hit rates and DRAM
/// bytes describe "this launch after its own previous pass". A hit rate is a ratio whose two
/// counts may come from different passes: on a launch of a few thousand sectors it is noise and
/// can even exceed 100 % (seen on an H100: 172 % for 4096 L2 sectors); trust it on launches that
/// move megabytes.
///
/// Profiling slows the launches down: use it on a dedicated launch, never on one that is timed.
/// Only one profile() runs at a time in the process (a lock serializes them); other CUDA work
/// on the device during profile() lands in the counters.
class CounterSession {
 public:
  /// Throws CountersUnavailable when counters cannot be read on CUDA device `device`.
  explicit CounterSession(int device = 0);

  /// Tag for the constructor below.
  struct KeepEnabled {};
  /// A session for several groups of metrics (any names this chip's CUPTI knows, not only
  /// kCounterMetrics; names it does not know are left out of their group), each with its own
  /// configuration, read with profile_group(). The range profiler stays enabled on the context
  /// for the session's life, so a read-out costs only its passes (enabling it per profile()
  /// costs about 100 ms on an H100); meanwhile no second session may enable it on that context.
  /// Switching from one group to another enables it afresh (a kept profiler does not take a
  /// second configuration), so a caller that wants every read-out fast uses one group.
  /// Throws std::invalid_argument for no groups or an empty one, CountersUnavailable as above.
  CounterSession(int device, const std::vector<std::vector<std::string>>& groups, KeepEnabled);
  ~CounterSession();
  CounterSession(const CounterSession&) = delete;
  CounterSession& operator=(const CounterSession&) = delete;

  /// Runs `launch` (which launches exactly one kernel on `device`, synchronously or not: the
  /// session synchronizes the context after it) once per pass inside one profiled range and
  /// returns the counters. Throws CountersUnavailable when CUPTI refuses, GpuError when the
  /// range holds no kernel or the launch failed, and rethrows what `launch` throws; the
  /// profiler is switched off again in every case.
  CounterSet profile(const std::function<void()>& launch);

  /// The values of group `group`'s collected metrics (collected_metrics(group) order) for one
  /// launch, read as profile() reads them; `passes`: how many times `launch` ran.
  struct MetricValues {
    std::vector<double> values;
    int passes = 0;
  };
  MetricValues profile_group(const std::function<void()>& launch, std::size_t group);

  /// A session made with KeepEnabled switches its range profiler off until the next read-out,
  /// which switches it on again (about 100 ms on an H100). Between read-outs a window holds no
  /// profiler on the context its lab kernels run in: a sticky fault in a context with the
  /// profiler on took the driver 4.4 s to take back (H100, driver 580.159.04, 2026-11-27), and
  /// until then no other process can profile the GPU. No effect on other sessions.
  void suspend();
  /// Whether the range profiler is on between read-outs now.
  [[nodiscard]] bool profiler_enabled() const;

  /// Passes a profile() needs for all metrics (known at construction).
  [[nodiscard]] int passes() const;
  [[nodiscard]] int passes(std::size_t group) const;
  /// The metrics this GPU's CUPTI knows (those collected), by name.
  [[nodiscard]] const std::vector<std::string>& collected_metrics() const;
  [[nodiscard]] const std::vector<std::string>& collected_metrics(std::size_t group) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace warplens::gpu
