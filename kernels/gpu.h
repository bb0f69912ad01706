// The GPU side of WarpLens: device query, the strided-copy kernel (timed and instrumented
// launches), and CUDA-OpenGL interop for trace buffers. This header has no CUDA types, so it
// compiles in builds without the CUDA toolkit; there every entry point reports "no CUDA".
// It is included by .cu files, so it stays C++17.
//
// Units: sizes in bytes unless named *_elements; times in milliseconds; bandwidth in GB/s =
// 10^9 bytes per second, counting the bytes the program asked to read plus those it asked to
// write (not the bytes the hardware moved).
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "index_math.h"

namespace warplens::gpu {

/// Any CUDA failure: what() says which call failed and the CUDA error string.
class GpuError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// What a measurement throws when its cancel flag stopped it between launches: not a failure
/// (what() is "cancelled").
class Cancelled : public GpuError {
 public:
  Cancelled() : GpuError("cancelled") {}
};

/// True when this binary was built with the CUDA toolkit.
bool built_with_cuda();

/// What every GPU entry point of a model-only build (no CUDA toolkit) does: throws a GpuError
/// that says so. Defined only in such a build (kernels/gpu_unavailable.cpp), for the labs'
/// model-only stubs (app/labs/<lab>/gpu/<lab>_unavailable.cpp).
[[noreturn]] void throw_built_without_cuda();

/// The median of `v` (the mean of the middle two for an even count); 0 when `v` is empty.
inline double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// One launch's rate per SM from its blocks' clocks: `clocks` holds per block its clock64 at the
/// start and at the end of the timed work and the SM it ran on (%smid), three values a block.
/// Per SM the span runs from its first block's start to its last block's end; an SM's rate is
/// bytes_per_block x its blocks / its span. Returns the mean over the SMs of that rate (bytes
/// per SM clock) and of the SMs' clock rate over the launch's event time `ms` (MHz). The bank
/// and tile labs' "B/clk/SM" (the limit is 128: 32 banks x 4 bytes a clock).
struct PerSmRate {
  double bytes_per_clock = 0;
  double clock_mhz = 0;
};
inline PerSmRate per_sm_rate(const std::vector<unsigned long long>& clocks, double bytes_per_block,
                             double ms) {
  struct Span {
    unsigned long long start = ~0ull, end = 0;
    int blocks = 0;
  };
  std::map<unsigned long long, Span> sm;  // by SM id
  for (std::size_t b = 0; b + 2 < clocks.size(); b += 3) {
    Span& s = sm[clocks[b + 2]];
    s.start = std::min(s.start, clocks[b]);
    s.end = std::max(s.end, clocks[b + 1]);
    ++s.blocks;
  }
  double rate = 0, cycles = 0;
  for (const auto& [id, s] : sm) {
    const auto span =
        static_cast<double>(std::max<long long>(static_cast<long long>(s.end - s.start), 1));
    rate += bytes_per_block * s.blocks / span;
    cycles += span;
  }
  const auto count = static_cast<double>(std::max<std::size_t>(sm.size(), 1));
  return {rate / count, cycles / count / (ms * 1e3)};
}

/// The quartiles of a sample: p25, median and p75 by linear interpolation between the sorted
/// values (position q x (n - 1)), so the median is the one median_of gives. All 0 when empty.
struct Quartiles {
  double p25 = 0, median = 0, p75 = 0;
};
inline Quartiles quartiles_of(std::vector<double> v) {
  if (v.empty()) return {};
  std::sort(v.begin(), v.end());
  const auto at = [&](double q) {
    const double pos = q * static_cast<double>(v.size() - 1);
    const auto lo = static_cast<std::size_t>(pos);
    const std::size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
  };
  return {at(0.25), at(0.5), at(0.75)};
}

struct DeviceInfo {
  int index = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  std::int64_t l2_bytes = 0;
  std::int64_t global_memory_bytes = 0;
  /// Row alignment cudaMallocPitch applies on this device, bytes (asked once with a 1-byte row).
  int pitch_alignment = 512;
  /// Theoretical DRAM bandwidth, GB/s: 2 (double data rate) x memory clock x bus width / 8,
  /// from cudaDeviceGetAttribute. A datasheet-style figure; copies never reach it.
  double theoretical_gbps = 0;
  /// Shared memory a block may use after opting in (cudaDevAttrMaxSharedMemoryPerBlockOptin),
  /// bytes; 48 KiB without the opt-in. 227 KiB on an H100.
  int shared_bytes_per_block_optin = 48 * 1024;
};

/// The first CUDA device, or std::nullopt with `reason` set (no CUDA build, no driver, no
/// device). Never throws.
struct DeviceQuery {
  std::optional<DeviceInfo> device;
  std::string reason;  ///< why there is no device; empty when there is one
};
DeviceQuery query_device();

/// Device memory as cudaMemGetInfo reports it for the current context, bytes.
struct DeviceMemory {
  std::int64_t free_bytes = 0;
  std::int64_t total_bytes = 0;
  [[nodiscard]] std::int64_t used_bytes() const { return total_bytes - free_bytes; }
};
/// cudaMemGetInfo on device `index` (it creates the device's context if this process has none
/// yet); std::nullopt without CUDA or when the call fails. Never throws.
std::optional<DeviceMemory> device_memory(int index);

/// The CUDA runtime this process loaded and the newest CUDA the installed driver supports, as
/// CUDA encodes versions (1000 x major + 10 x minor: 13000 is 13.0); 0 where there is none (a
/// build without CUDA, or no driver). From cudaRuntimeGetVersion and cudaDriverGetVersion.
struct CudaVersions {
  int runtime = 0;
  int driver = 0;
};
CudaVersions cuda_versions();
/// "13.0" for 13000; "none" for 0.
std::string cuda_version_text(int version);

/// Which side of the copy follows the index function; the other side is coalesced (element g).
enum class PatternSide { Read, Write };
/// How the copy's loads go through the cache hierarchy (CUDA C++ Programming Guide, "Load
/// Functions Using Cache Hints" and "Read-Only Data Cache Load Function").
enum class LoadPath {
  Default,   ///< plain load (ld.global)
  L2Only,    ///< __ldcg: cache in L2, not L1
  ReadOnly,  ///< __ldg: through the read-only (texture) data cache
};

/// A struct {x, y, z} of three 4-byte words per thread, read field by field (three load
/// requests per warp): as an array of structures, or as three arrays (a structure of arrays).
enum class StructLayout { None, ArrayOfStructs, StructOfArrays };
inline constexpr int kStructFields = 3;
/// Structs per launch: 2^25 (384 MiB of fields), whatever the buffer, so every layout's
/// addresses (the structure of arrays' second array starts at 2^25 x 4 bytes) are the same on
/// every GPU and in the model.
inline constexpr std::int64_t kStructCount = std::int64_t{1} << 25;

/// The pattern copy: for global thread g and e = element_index(g), out[g] = in[e] (side Read)
/// or out[e] = in[g] (side Write), words of `word_bytes`. With a struct layout instead, thread g
/// reads the three fields of struct g and writes their sum: out[g] = x + y + z (4-byte words;
/// the index pattern, side and load path do not apply).
struct CopyParams {
  int word_bytes = 4;       ///< 1, 2, 4, 8 or 16
  std::int64_t offset = 0;  ///< elements
  std::int64_t stride = 1;  ///< elements, >= 1 (Strided)
  int block_threads = 256;  ///< threads per block (a multiple of 32, at most 1024)
  IndexKind kind = IndexKind::Strided;
  std::uint32_t seed = 1;  ///< Permuted and Scattered
  PatternSide side = PatternSide::Read;
  LoadPath path = LoadPath::Default;
  StructLayout layout = StructLayout::None;
  /// 2D access: a row-major matrix of `matrix_width` floats per row (0: off), read by blocks of
  /// (block_threads / block_y) x block_y threads, by row (threadIdx.x along a row) or by column
  /// (threadIdx.x down a column), with rows `matrix_width` x 4 bytes apart or padded by
  /// cudaMallocPitch. Word bytes must be 4.
  int matrix_width = 0;
  bool matrix_pitched = false;
  bool matrix_by_column = false;
  int block_y = 1;
  /// cudaMallocPitch's row alignment on this device, bytes (DeviceInfo::pitch_alignment; 512
  /// assumed without a GPU). The padded pitch is matrix_width x 4 rounded up to it.
  int pitch_alignment = 512;
  // Spelled out: this header is also compiled as C++17 by nvcc.
  friend bool operator==(const CopyParams& a, const CopyParams& b) {
    return a.word_bytes == b.word_bytes && a.offset == b.offset && a.stride == b.stride &&
           a.block_threads == b.block_threads && a.kind == b.kind && a.seed == b.seed &&
           a.side == b.side && a.path == b.path && a.layout == b.layout &&
           a.matrix_width == b.matrix_width && a.matrix_pitched == b.matrix_pitched &&
           a.matrix_by_column == b.matrix_by_column && a.block_y == b.block_y &&
           a.pitch_alignment == b.pitch_alignment;
  }
};

/// Launch geometry for a copy over buffers of `buffer_bytes` each.
struct CopyPlan {
  IndexParams index;         ///< what element_index() gets
  std::int64_t threads = 0;  ///< = elements copied
  std::int64_t blocks = 0;
  std::int64_t pattern_span_bytes = 0;  ///< from the base to the end of the last patterned element
  std::int64_t requested_bytes = 0;     ///< bytes asked to read + write: 2 x threads x word bytes
  // 2D matrix only:
  std::int64_t rows = 0;
  std::int64_t pitch_bytes = 0;  ///< bytes from one row's start to the next
  unsigned grid_x = 0, grid_y = 0;
};

/// The matrix's row pitch for these parameters, bytes (see CopyParams::matrix_pitched).
std::int64_t matrix_pitch_bytes(const CopyParams& params);

/// The buffer size parameters are checked against before a GPU has said how large its buffers
/// are (presets, the model-only window): the smallest CopyLab buffer.
inline constexpr std::int64_t kModelBufferBytes = std::int64_t{512} << 20;

/// Checks parameters against the buffers; throws std::invalid_argument with a one-line message
/// (bad word size, stride < 1, negative offset, offset leaving the buffer).
CopyPlan plan_copy(const CopyParams& params, std::int64_t buffer_bytes);

/// Short names for the UI, CLI and presets: strided|permuted|same-word|scattered, read|write,
/// default|ldcg|ldg. The parse functions throw std::invalid_argument naming the choices.
const char* to_string(IndexKind kind);
const char* to_string(PatternSide side);
const char* to_string(LoadPath path);
const char* to_string(StructLayout layout);  ///< none | aos | soa
StructLayout parse_struct_layout(const std::string& text);
IndexKind parse_index_kind(const std::string& text);
PatternSide parse_pattern_side(const std::string& text);
LoadPath parse_load_path(const std::string& text);

/// Timed launches of one kernel. What a window shows as the spread is the interquartile range
/// (p25..p75): one launch that a clock change or another process slowed stays out of it and is
/// counted as an outlier instead. min/max stay for the bench and the JSON.
struct Timing {
  double median_ms = 0, min_ms = 0, max_ms = 0;
  double p25_ms = 0, p75_ms = 0;  ///< quartiles_of the runs' times
  int runs = 0;
  int slow_runs = 0;  ///< runs slower than p75 + the outlier fence (timing_fence_ms)
  int fast_runs = 0;  ///< runs faster than p25 - the outlier fence
};

/// How far outside the interquartile range a run must lie to count as an outlier: 1.5 x the IQR
/// (Tukey's fence), but at least 5 % of the median, so launches a few tenths of a percent apart
/// are never called outliers.
inline double timing_fence_ms(const Timing& t) {
  return std::max(1.5 * (t.p75_ms - t.p25_ms), 0.05 * t.median_ms);
}

/// Median, quartiles, extremes and outliers of per-run times in milliseconds (runs = 0 when
/// `ms` is empty).
inline Timing summarize_times(const std::vector<double>& ms) {
  Timing t;
  if (ms.empty()) return t;
  const Quartiles q = quartiles_of(ms);
  t.runs = static_cast<int>(ms.size());
  t.median_ms = q.median;
  t.p25_ms = q.p25;
  t.p75_ms = q.p75;
  t.min_ms = *std::min_element(ms.begin(), ms.end());
  t.max_ms = *std::max_element(ms.begin(), ms.end());
  const double fence = timing_fence_ms(t);
  for (double m : ms) {
    if (m > t.p75_ms + fence) ++t.slow_runs;
    if (m < t.p25_ms - fence) ++t.fast_runs;
  }
  return t;
}

struct CopyMeasurement {
  CopyParams params;
  CopyPlan plan;
  Timing timing;
  double gbps = 0;  ///< plan.requested_bytes / median time, 10^9 bytes/s
};

struct MemcpyMeasurement {
  std::int64_t bytes = 0;  ///< bytes copied (each counted once read, once written)
  Timing timing;
  double gbps = 0;  ///< 2 x bytes / median time, 10^9 bytes/s
};

/// Owns the device buffers of the copy lab. Buffers are 8x the device's L2 each (at least
/// 512 MiB, room for the scattered window of 16-byte words) so a launch streams from DRAM, not
/// from L2. All methods throw GpuError on CUDA failure and leave the object usable.
/// Threads: the timed methods (measure*) run on the lab's stream and trace_to_device /
/// heatmap_to_device on a separate trace stream, so one thread may time while another traces
/// (the traced launches write the same output buffer; timings absorb the odd overlap through
/// the median). The *_to_host methods share scratch buffers: one thread at a time.
class CopyLab {
 public:
  /// Allocates the buffers on device `device.index`; throws GpuError when the GPU refuses.
  explicit CopyLab(const DeviceInfo& device, std::int64_t buffer_bytes = 0);
  ~CopyLab();
  CopyLab(const CopyLab&) = delete;
  CopyLab& operator=(const CopyLab&) = delete;

  [[nodiscard]] std::int64_t buffer_bytes() const { return buffer_bytes_; }
  /// The buffer size the constructor picks when given none: 8 x the device's L2, at least
  /// kModelBufferBytes, rounded up to 256 bytes. What buffer_bytes() returns for such a lab,
  /// known without allocating one.
  [[nodiscard]] static std::int64_t default_buffer_bytes(const DeviceInfo& device) {
    const std::int64_t bytes = std::max<std::int64_t>(8 * device.l2_bytes, kModelBufferBytes);
    return (bytes + 255) / 256 * 256;
  }

  /// Timed launches: `warmup` untimed, then `runs` each timed with CUDA events. Returns the
  /// median. If `cancel` becomes true between launches, throws Cancelled.
  CopyMeasurement measure(const CopyParams& params, int runs = 15, int warmup = 3,
                          const std::atomic<bool>* cancel = nullptr);

  /// One untimed launch of the kernel and grid measure() uses for `params` (no warm-up, no
  /// events), on the lab's stream, waited for: what a hardware-counter read-out profiles (a
  /// dedicated launch, never one that is timed). Throws std::invalid_argument for parameters
  /// plan_copy refuses, GpuError on CUDA failure.
  void launch_once(const CopyParams& params);

  /// The instrumented launch: the same kernel over the same grid, which also writes the lane
  /// records of warps first_warp .. first_warp + warps - 1 of block 0 (TraceRecords layout) to
  /// `device_dst`, a device pointer of kTraceBufferBytes (e.g. a mapped GL buffer). Lanes that
  /// do not run the access stay zero. Throws std::invalid_argument for warps outside block 0.
  void trace_to_device(const CopyParams& params, int first_warp, int warps, void* device_dst);

  /// The instrumented launch into host memory (tests, CLI).
  TraceRecords trace_to_host(const CopyParams& params, int first_warp, int warps = 1);

  /// The trace stream (a cudaStream_t), for mapping interop buffers in order with the traces.
  [[nodiscard]] void* trace_stream() const;

  /// The heatmap launch: the same copy over the same grid, where every warp also counts, with
  /// atomics into `device_dst` (kHeatBufferBytes, SectorHeatmap layout, e.g. a mapped GL
  /// buffer), the sectors its patterned access moves within the first kHeatSectors sectors.
  void heatmap_to_device(const CopyParams& params, void* device_dst);
  SectorHeatmap heatmap_to_host(const CopyParams& params);

  /// cudaMemcpy device-to-device over the whole buffer, the reference for copy bandwidth.
  MemcpyMeasurement measure_memcpy(int runs = 15, int warmup = 3);

  /// The ideal coalesced copy over the whole buffer: one 16-byte vector per thread, a full
  /// grid. Every bandwidth in the labs is compared with this. Same units as measure_memcpy.
  MemcpyMeasurement measure_ideal_copy(int runs = 15, int warmup = 3);

  /// The copy a student writes first, over the whole buffer: `i = blockIdx.x * 256 +
  /// threadIdx.x; if (i < n) out[i] = in[i];` with an int index and float words. The pattern
  /// copy's stride-1 point should match it (issue 17). Same units as measure_memcpy.
  MemcpyMeasurement measure_minimal_copy(int runs = 15, int warmup = 3);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::int64_t buffer_bytes_ = 0;
};

}  // namespace warplens::gpu
