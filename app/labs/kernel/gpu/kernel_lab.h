// "Your kernel" on the GPU (issue 15): the program's generated source (kernel_program.h) compiled
// by NVRTC for the device's own architecture (--gpu-architecture=sm_XY), loaded through the
// driver API (cuModuleLoadData, cuLaunchKernel) into the CUDA runtime's primary context, and run:
// one instrumented launch that traces the chosen warp's lanes for every row (byte offsets,
// LaneTraceRecords as the other labs write) and counts out-of-range lanes per row over the grid,
// whose `out` is compared with the host simulation; then timed launches (CUDA events, the median
// of >= 10). Compiled modules stay in a bounded cache keyed by the source text.
//
// The driver API is reached through the runtime (cudaGetDriverEntryPointByVersion), so nothing
// links libcuda: a machine without a driver still starts WarpLens and runs on the model.
// Without the CUDA toolkit every entry point throws GpuError ("built without the CUDA toolkit").
//
// Units: sizes in bytes unless named *_elements; times in ms; GB/s = 10^9 bytes per second of what
// the program asks to read + write in global memory (requested_global_bytes), not what moved.
// Errors: refused programs throw std::invalid_argument before anything compiles; NVRTC's refusal
// throws KernelCompileError with NVRTC's log; CUDA failures throw GpuError and leave the lab
// usable; a set cancel flag throws Cancelled between launches.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gpu.h"
#include "kernel_program.h"

namespace warplens::gpu {

/// NVRTC refused the source: what() says so in one line, log() is NVRTC's whole log.
class KernelCompileError : public GpuError {
 public:
  KernelCompileError(const std::string& what, std::string log)
      : GpuError(what), log_(std::move(log)) {}
  [[nodiscard]] const std::string& log() const { return log_; }

 private:
  std::string log_;
};

/// Modules the lab keeps compiled (least recently used out first).
inline constexpr std::size_t kKernelModuleCacheSize = 16;

/// "sm_90" for compute capability 9.0.
std::string gpu_architecture(int cc_major, int cc_minor);

/// Compiles `source` with NVRTC for `architecture` ("sm_90"): the cubin. Needs no GPU. Throws
/// KernelCompileError with the log when NVRTC refuses it, GpuError when NVRTC is missing.
std::vector<char> compile_kernel_source(const std::string& source, const std::string& architecture);

/// NVRTC's version ("13.0"), or why there is none ("built without the CUDA toolkit").
std::string nvrtc_version();

/// What one run of a program gave.
struct KernelRun {
  std::string architecture;  ///< what NVRTC compiled for, e.g. "sm_90"
  bool from_cache = false;   ///< the module was compiled before
  double compile_ms = 0;     ///< NVRTC + load, 0 when from the cache
  /// Per row: the GPU trace's lanes of the traced warp, through the model (out_of_range_lanes
  /// unset: -1), and the out-of-range lanes the GPU counted over the whole grid.
  std::vector<KernelRowModel> traced;
  std::vector<std::int64_t> out_of_range;
  /// The traced warp's records as the GPU wrote them: row r's lane l at 32 r + l.
  std::vector<LaneTraceRecord> records;
  /// Names this run's trace for copy_trace_row (grows with every run of the lab).
  std::uint64_t trace_id = 0;
  std::int64_t requested_bytes = 0;  ///< global bytes asked to read + write per launch
  Timing timing;
  double gbps = 0;  ///< requested_bytes / median time, 10^9 B/s
  /// `out` against the host simulation: verified when every byte the program leaves
  /// unambiguous matches (and the simulation was complete).
  bool verified = false;
  bool checked = false;               ///< a comparison was made (the simulation was complete)
  std::int64_t compared_bytes = 0;    ///< bytes of `out` compared
  std::int64_t mismatched_bytes = 0;  ///< of those, how many differ
  std::string check;                  ///< one line: what was compared, or why nothing was
};

/// Owns the buffers, the stream and the module cache. One thread at a time.
class KernelLab {
 public:
  /// Makes the lab for `device`; nothing is allocated before the first run. Throws GpuError
  /// when the driver API cannot be reached.
  explicit KernelLab(const DeviceInfo& device, std::size_t cache_size = kKernelModuleCacheSize);
  ~KernelLab();
  KernelLab(const KernelLab&) = delete;
  KernelLab& operator=(const KernelLab&) = delete;

  [[nodiscard]] const DeviceInfo& device() const;

  /// Compiles the program's source for this device (or takes it from the cache) and runs it:
  /// the instrumented launch tracing `warp`, the comparison with `simulation` (from
  /// simulate_program(program, warp); null: simulated here), then `warmup` untimed and `runs`
  /// timed launches (at least 1). Throws std::invalid_argument for a refused program (a tile
  /// past the device's opt-in limit included), KernelCompileError, GpuError, Cancelled.
  KernelRun run(const KernelProgram& program, const TracedWarp& warp, int runs = 15, int warmup = 3,
                const std::atomic<bool>* cancel = nullptr,
                const KernelSimulation* simulation = nullptr);

  /// Compiles and loads `source` (kernel entry kKernelEntry) into the cache without running it:
  /// true when it was already there. Throws KernelCompileError, GpuError.
  bool load(const std::string& source);

  [[nodiscard]] std::size_t cached_modules() const;

  /// Copies row `row` of the trace of run `trace_id` (KernelRun::trace_id), device to device, into
  /// `device_trace` (a TraceRecords buffer of kTraceBufferBytes, e.g. a view's GL buffer mapped
  /// through interop): the row's 32 records in warp slot 0, the other slots zeroed. Returns false
  /// when the lab's last trace is of another run (nothing copied). May be called from another
  /// thread than run()'s (a lock guards the trace). Throws GpuError, std::out_of_range for a row
  /// the run does not have.
  bool copy_trace_row(std::uint64_t trace_id, int row, void* device_trace);
  /// The stream copy_trace_row works on (a cudaStream_t): map a view's interop buffer on it.
  [[nodiscard]] void* trace_stream() const;

  /// Prepares `program` (compiled or from the cache, buffers filled as run() fills them) and
  /// returns a function that makes one untraced launch of it and waits for it: what a counter
  /// read-out (CounterSession::profile) replays. The function is valid until the next call on the
  /// lab. Throws as run() does.
  std::function<void()> counter_launch(const KernelProgram& program);

  /// cudaMemcpy device to device of 256 MiB, the median of 7 (measured on the first call, then
  /// remembered): the rate the bandwidth prediction scales. Throws GpuError.
  MemcpyMeasurement reference_copy();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace warplens::gpu
