// The model next to the hardware: for one access pattern, the model's cost per request (sectors
// for global memory, wavefronts for shared memory) and the same figure read from the GPU's own
// counters (CUPTI, counters.h) on a dedicated launch of the lab kernel that runs the pattern.
// `warplens verify` runs the whole catalog; bench times the read-out.
//
// Per request, hardware side:
//   global  sectors / requests  = l1tex__t_sectors_pipe_lsu_mem_global_op_{ld|st}.sum
//                                 / l1tex__t_requests_pipe_lsu_mem_global_op_{ld|st}.sum
//   shared  wavefronts / instr. = l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld|st}.sum
//                                 / smsp__inst_executed_op_shared_{ld|st}.sum
// Only the patterned side is read: the copy kernel's other side (its coalesced load or store)
// lands in the other op's counters; the bank probe's fill (16-byte stores before its loop) lands
// only in the store counters, and SharedLab::launch_bank_once skips it for store probes.
//
// Per request, model side: the mean over every warp of the launch that issues the access (a warp
// whose lanes are all idle issues no request), computed with the host twins of the kernels'
// index functions (index_math.h, shared_index.h) and the model's counting rules
// (memory_model.h). Warps differ for the scattered pattern, at a matrix's edges and where
// unpadded matrix rows start at different offsets within a sector, so those are summed warp by
// warp; where every warp provably costs the same, one warp (and the launch's partial last warp)
// stands for all.
//
// Tolerance: global sectors and shared loads must agree to +-0.01 per request. Shared *stores* on
// Hopper (compute capability 9.0) count slightly more wavefronts than the model under load:
// +0.1 to +1.3 per request measured with Nsight Compute on an H100 for conflict-free and
// conflicting stores alike, while the same loads count exactly. The extra passes come from the
// store data path, not from the access pattern (the excess does not grow with the bank
// conflict), so a store row agrees when the hardware reads between 0.01 below and 1.5 above the
// model, and says so in its note.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cache_lab.h"
#include "counters.h"
#include "gpu.h"
#include "shared_lab.h"

namespace warplens::app {

/// Which lab kernel runs a pattern for its counters.
enum class CaseKind {
  Copy,             ///< CopyLab's copy kernel (CopyLab::launch_once): the patterned side
  Bank,             ///< SharedLab's bank probe (SharedLab::launch_bank_once)
  TransposeGlobal,  ///< the transpose kernel's global read or write (its traced launch)
  LabLaunch,        ///< a lab's own shared-memory load, given as LabLaunchCase
};

/// A lab's own launch of a shared-memory load for verify (CaseKind::LabLaunch): the lab brings
/// the model's figure and a launcher, so the catalog and the checker need not know the lab. The
/// launch makes `reads` requests of the checked load by one warp besides its other work (filling
/// the tile, waiting on barriers), and the checker reads two launches, `reads` = kLabLaunchReads
/// and 0: the checked load's wavefronts and instructions are their differences, which leaves out
/// the other work whatever shared-memory counters it moves.
struct LabLaunchCase {
  /// Returns a function making one launch on CUDA device `device` with `reads` requests (and
  /// waiting for it); what it throws (std::invalid_argument for refused parameters, GpuError)
  /// makes the row's note.
  std::function<std::function<void()>(int device, int reads)> launch;
  double model = 0;  ///< the model's wavefronts per request
  /// The load is ldmatrix: its instructions are counted by smsp__inst_executed_op_ldsm and its
  /// wavefronts under l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld (measured on an H100,
  /// 2026-11-28: the op_ldsm wavefront counter stays 0), not by op_shared_ld.
  bool ldmatrix = false;
  int word_bytes = 4;  ///< bytes each lane's access covers (an ldmatrix row: 16)
  std::string key;     ///< the parameters in one line: equal keys are one case
};

/// Requests of the checked load in a LabLaunch case's counted launch.
inline constexpr int kLabLaunchReads = 64;

/// One pattern of the verify catalog.
struct CounterCase {
  std::string name;    ///< unique, e.g. "misaligned" or "global/st/4B/stride-3"
  std::string origin;  ///< "scenario" (a built-in scenario) or "generated"
  CaseKind kind = CaseKind::Copy;
  gpu::CopyParams copy;            ///< Copy
  gpu::BankProbeParams probe;      ///< Bank
  gpu::TransposeParams transpose;  ///< TransposeGlobal
  bool transpose_write = false;    ///< TransposeGlobal: the write (out) instead of the read (in)
  LabLaunchCase lab_launch;        ///< LabLaunch

  [[nodiscard]] bool shared() const {
    return kind == CaseKind::Bank || kind == CaseKind::LabLaunch;
  }
  [[nodiscard]] bool store() const;  ///< the checked access is a store
  [[nodiscard]] int word_bytes() const;
};

/// The CUPTI metrics a case needs: {numerator (sectors or wavefronts), requests or
/// instructions, and for global cases the warp-level instructions}. Global memory's "request" in
/// the model is one warp instruction; L1TEX's request counter splits a store instruction whose
/// lanes span more than about 512 KiB into two requests (seen on an H100: the naive transpose of
/// an 8192 x 8192 matrix, lanes 32 KiB apart, counts 2 requests of 16 sectors per instruction),
/// so the global per-request figure divides by the instructions
/// (smsp__inst_executed_op_global_{ld|st}.sum) and shows the request count beside it.
std::vector<std::string> case_metrics(const CounterCase& c);

/// The model's cost per request of the case over its whole launch (see the file comment).
/// `buffer_bytes`: the copy lab's buffer size (CopyLab::buffer_bytes(); kModelBufferBytes without
/// a GPU). Throws std::invalid_argument for parameters the labs refuse.
double model_per_request(const CounterCase& c, std::int64_t buffer_bytes);

/// Agreement band of a case, per request: hardware in [model - below, model + above].
struct Tolerance {
  double below = 0.01, above = 0.01;
  std::string note;  ///< why, where it is not exact (shared stores)
};
Tolerance case_tolerance(const CounterCase& c);

/// One row of `warplens verify`.
struct CounterCheck {
  std::string pattern;             ///< CounterCase::name
  std::string metric;              ///< CUPTI names, "numerator / denominator"
  double model = 0;                ///< per request
  std::optional<double> hardware;  ///< per request; nullopt when not read (see note)
  double tolerance = 0.01;         ///< allowed above the model (below: tolerance_below)
  double tolerance_below = 0.01;
  bool agree = false;
  std::string note;       ///< the tolerance's reason, or why there is no hardware value
  double readout_ms = 0;  ///< wall time of the counter read-out (all passes), milliseconds
  int passes = 0;
  double requests = 0;      ///< requests counted in the launch (L1TEX; shared: instructions)
  double instructions = 0;  ///< warp-level instructions of the checked access (global)
};

// --- the cache lab's L1 hit rate ----------------------------------------------------------------

/// A cache-lab launch whose L1 hit rate the checker reads (CounterChecker::l1_hit_rate).
struct CacheCounterCase {
  enum class Kind {
    L1Gather,  ///< CacheLab::launch_l1_gather_once(carveout, working_set_bytes)
    ReadPath,  ///< CacheLab::launch_read_path_once(read)
  };
  Kind kind = Kind::L1Gather;
  int carveout = gpu::kCarveoutDefault;        ///< L1Gather: -1 or 0..100 %
  std::int64_t working_set_bytes = 64 * 1024;  ///< L1Gather: bytes per block
  gpu::ReadPathParams read;                    ///< ReadPath
  [[nodiscard]] bool texture() const {
    return kind == Kind::ReadPath && read.path == gpu::ReadPath::Texture;
  }
};

/// The two raw counters an L1 hit rate is built from, {hit sectors, miss sectors} (32-byte
/// sectors looked up in L1TEX's tag stage): for plain loads and __ldg, global loads through the
/// LSU pipe, l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_{hit|miss}.sum; for the texture
/// path, texture fetches through the TEX pipe, l1tex__t_sectors_pipe_tex_mem_texture_lookup_{hit|
/// miss}.sum (the terms Nsight Compute sums into l1tex__t_sector_hit_rate).
std::vector<std::string> cache_hit_metrics(const CacheCounterCase& c);

/// One launch's L1 hit rate: hits / (hits + misses) of sectors, in percent.
struct L1HitRate {
  std::optional<double> percent;  ///< 0..100; std::nullopt when not read (see `unavailable`)
  double hit_sectors = 0, miss_sectors = 0;  ///< summed over the launch
  std::string metric;                        ///< "hit / (hit + miss)" with the CUPTI names
  std::string unavailable;                   ///< one line: why there is no percent
  int passes = 0;                            ///< replays of the launch
  double readout_ms = 0;                     ///< wall time of the read-out, milliseconds
};

/// The labs' counters of one launch of any kernel (the own-kernel lab's): what CUPTI counted over
/// the whole launch, in the units of counters.h (requests are warp-level instructions of the LSU
/// pipe, sectors 32-byte L1TEX sectors, wavefronts shared memory's data-stage passes).
struct LaunchCounters {
  double global_load_requests = 0, global_load_sectors = 0;
  double global_store_requests = 0, global_store_sectors = 0;
  double shared_load_instructions = 0, shared_load_wavefronts = 0;
  double shared_store_instructions = 0, shared_store_wavefronts = 0;
  int passes = 0;  ///< replays of the launch
};

/// Reads the counters of catalog cases on one GPU, keeping its labs and one counter session
/// alive between checks: one configuration holding the metrics of every verify case kind (and a
/// second for the cache lab's L1 hit rates), with the range profiler kept enabled (a kept
/// profiler cannot switch configurations, and enabling it per read-out costs about 100 ms on an
/// H100). Not thread-safe.
class CounterChecker {
 public:
  /// Throws CountersUnavailable (one line, with how an admin enables counters where that is the
  /// reason) when this machine cannot read counters, GpuError when the labs cannot start.
  explicit CounterChecker(const gpu::DeviceInfo& device);
  ~CounterChecker();
  CounterChecker(const CounterChecker&) = delete;
  CounterChecker& operator=(const CounterChecker&) = delete;

  /// Model and hardware for one case. Never throws for a launch failure: the row then has no
  /// hardware value, agree = false and the failure in its note. CountersUnavailable (CUPTI
  /// refusing mid-run) propagates.
  CounterCheck check(const CounterCase& c);

  /// The hardware side only: runs the case's launch inside one profiled range and returns the
  /// values of case_metrics(c), in that order (0 for a metric this GPU does not know), and the
  /// passes (what bench times).
  gpu::CounterSession::MetricValues read(const CounterCase& c);

  /// The L1 hit rate of one launch of the cache lab's kernel for `c` (cache_hit_metrics). The
  /// checker runs it on a CacheLab of its own, created on first use; the first
  /// launch of a buffer (or of a new image side) runs once outside the profiled range, so the
  /// range holds only the measured kernel. Never throws for refused parameters, a launch failure
  /// or a metric this GPU's CUPTI does not know: `unavailable` then says which. CUPTI refusing
  /// mid-run (CountersUnavailable) propagates.
  L1HitRate l1_hit_rate(const CacheCounterCase& c);

  /// The labs' counters of `launch` (one kernel launch, replayed once per pass: it must do the
  /// same work every time). A metric this GPU does not know reads 0. Throws what the launch
  /// throws, GpuError when the range holds no kernel, CountersUnavailable.
  LaunchCounters read_launch(const std::function<void()>& launch);

  /// Switches the range profiler off until the next read-out (CounterSession::suspend): for a
  /// process whose next read-out is not due soon. Throws GpuError when the context is gone.
  void suspend_profiler();

 private:
  void launch(const CounterCase& c);

  gpu::DeviceInfo device_;
  std::unique_ptr<gpu::CounterSession> session_;
  /// The copy lab, made on the first copy case: 2 x default_buffer_bytes of device memory that
  /// a checker reading only shared-memory or cache counters never needs.
  gpu::CopyLab& copy_lab();
  std::unique_ptr<gpu::CopyLab> copy_;
  std::unique_ptr<gpu::SharedLab> shared_;
  std::unique_ptr<gpu::CacheLab> cache_;  ///< created by the first l1_hit_rate()
  bool cache_gather_ready_ = false;       ///< the gather buffer is filled
  int cache_image_side_ = 0;              ///< the read-path image built, 0 for none
};

/// Accesses per thread of the bank probe's counted launch.
inline constexpr int kBankCounterRepeats = 64;

}  // namespace warplens::app
