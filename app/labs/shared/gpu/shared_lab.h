// The shared-memory labs on the GPU: the bank probe (one access pattern, traced for the bank
// view and timed), the transpose lab, the tiled matrix multiply and the reduction, all from the
// seeds' slides. No CUDA types here, so it compiles without the toolkit; there every entry point
// throws GpuError ("built without the CUDA toolkit").
//
// Units: shared-memory sizes in bytes; times in milliseconds; GB/s = 10^9 bytes per second
// counting bytes read + bytes written by the program (not by the hardware); GFLOP/s = 10^9
// floating-point operations per second counting a multiply-add as 2.
// Errors: bad parameters throw std::invalid_argument with a one-line message before anything is
// launched; CUDA failures throw GpuError and leave the lab usable.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "gpu.h"
#include "shared_index.h"

namespace warplens::gpu {

// --- bank probe ------------------------------------------------------------------------------

enum class SharedOp { Load, Store };

/// One shared-memory access pattern run by a block of block_x x block_y threads.
struct BankProbeParams {
  SharedIndexParams index;
  SharedOp op = SharedOp::Load;
  int block_x = 32;  ///< threads, fastest-varying
  int block_y = 1;
  friend bool operator==(const BankProbeParams& a, const BankProbeParams& b) {
    return a.index == b.index && a.op == b.op && a.block_x == b.block_x && a.block_y == b.block_y;
  }
  friend bool operator!=(const BankProbeParams& a, const BankProbeParams& b) { return !(a == b); }
};

/// The per-block limit parameters are checked against before a GPU has reported its own (presets,
/// the model-only window): the opt-in limit of compute capability 9.0, 227 KiB.
inline constexpr int kModelSharedBytesPerBlock = 227 * 1024;

struct BankPlan {
  int threads = 0;       ///< block_x x block_y
  int shared_bytes = 0;  ///< dynamic shared memory the block needs: (largest index + 1) x word
                         ///< bytes over the active threads, rounded up to 16 bytes
};

/// Checks the parameters (word size, block of 1..1024 threads, non-negative indices, tile
/// fields) and that the pattern's shared array fits in `max_shared_bytes` (the device's opt-in
/// limit per block, DeviceInfo::shared_bytes_per_block_optin; 227 KiB on an H100). Throws
/// std::invalid_argument naming the problem, e.g. "the pattern needs 300 KiB of shared memory;
/// this GPU allows 227 KiB per block".
BankPlan plan_bank_probe(const BankProbeParams& params, int max_shared_bytes);

/// Checks the index fields alone (word size, stride, offset, the pattern kind's tile, struct or
/// part fields, each within the range that keeps every index inside int); throws
/// std::invalid_argument naming the problem. plan_bank_probe starts with it.
void check_shared_index(const SharedIndexParams& index);

/// Throws std::invalid_argument unless `warp` is one of the warps of a block_x x block_y block,
/// e.g. "warp 2 is not in a block of 32x1 threads (warps 0..0)".
void check_block_warp(int block_x, int block_y, int warp);

struct BankMeasurement {
  BankProbeParams params;
  BankPlan plan;
  int repeats = 0;  ///< accesses each thread makes in the timed loop
  /// One warp alone: warp `warp` of a single block repeats the access; clock64() span of the
  /// loop / repeats. Grows with the wavefront count: on an H100 about 2 clocks per wavefront
  /// with a floor of about 4 clocks per request (measured; a lone warp cannot issue back to back).
  double cycles_per_request = 0;
  /// The whole GPU: enough blocks to fill every SM, each thread repeating the access.
  Timing timing;
  double gbps = 0;  ///< bytes the active lanes asked for (word bytes each) / median time
  /// Bytes per SM per SM clock, from each SM's clock64() span (min start to max end of its
  /// blocks' loops, read with %smid): independent of the clock the GPU chose to run at.
  double bytes_per_clock_per_sm = 0;
  double sm_clock_mhz = 0;  ///< clock64 cycles / elapsed time during the run (effective clock)
  /// bytes_per_clock_per_sm / 128 (the shared-memory bandwidth of CC 5.x-9.0: 32 banks x 4
  /// bytes per clock per SM; CUDA C++ Programming Guide, "Shared Memory" per compute capability).
  /// Counts the bytes each lane asked for, so a broadcast of 8- or 16-byte words can exceed 1.
  double fraction_of_limit = 0;
};

// --- transpose ---------------------------------------------------------------------------------

// TransposeVariant and transpose_global_index(), the kernels' global indices, are in
// shared_index.h.

/// Every transpose variant, Copy first (the reference the others are compared with), Vectorized
/// last.
inline constexpr std::array<TransposeVariant, 6> kTransposeVariants = {
    TransposeVariant::Copy,   TransposeVariant::Naive,    TransposeVariant::Tiled,
    TransposeVariant::Padded, TransposeVariant::Swizzled, TransposeVariant::Vectorized};

struct TransposeParams {
  TransposeVariant variant = TransposeVariant::Tiled;
  /// 8, 16 or 32: a tile x tile piece of the matrix per block (Vectorized: 2 tile x 2 tile,
  /// transpose_block_tile())
  int tile = 32;
  int rows_per_block = 8;  ///< block = tile x rows_per_block threads; divides tile
  int n =
      8192;  ///< the matrix is n x n floats; a multiple of the block's tile (2 tile: Vectorized)
  friend bool operator==(const TransposeParams& a, const TransposeParams& b) {
    return a.variant == b.variant && a.tile == b.tile && a.rows_per_block == b.rows_per_block &&
           a.n == b.n;
  }
};

/// Throws std::invalid_argument for a tile not 8/16/32, rows not dividing the tile, n not a
/// positive multiple of the block's tile (transpose_block_tile(): 2 tile for Vectorized, whose
/// float2 accesses also need it for their 8-byte alignment), or buffers (2 x n^2 x 4 bytes)
/// larger than `free_bytes`.
void check_transpose(const TransposeParams& params, std::int64_t free_bytes);

/// The shared-memory tile accesses of a variant for the bank view: the tile write (after the
/// coalesced global read) and the tile read (before the coalesced global write). Naive and
/// Copy use no tile; for them these describe nothing and throw std::invalid_argument.
BankProbeParams transpose_tile_write(const TransposeParams& params);
BankProbeParams transpose_tile_read(const TransposeParams& params);

/// The index parameters of those tile accesses, as the transpose kernels build them from their
/// template arguments (host and device, so kernel and view share one definition): a tile of
/// B = transpose_block_tile() columns, rows B + 1 apart for Padded and Vectorized, XOR-swizzled
/// for Swizzled; by row (the write, tile[ty][tx]) or by column (`read`, tile[tx][ty]). The
/// kernels pass ty + j as the row of the j-th element a thread moves (j = 0, rows_per_block,
/// ...); the view shows j = 0. Vectorized stores each float2 it loaded as two words,
/// tile[ty][2 tx + k], and reads tile[2 tx + k][ty] for the two floats of each float2 it stores
/// (lane_elements 2, field k); the view shows k = `element`.
WARPLENS_HOST_DEVICE inline SharedFixedIndex transpose_tile_index(TransposeVariant variant,
                                                                  int tile, bool read,
                                                                  int element = 0) {
  const int b = transpose_block_tile(variant, tile);
  SharedFixedIndex p;
  p.kind = SharedPatternKind::Tile;
  p.word_bytes = 4;
  p.tile_width = b;
  p.pitch_elements =
      variant == TransposeVariant::Padded || variant == TransposeVariant::Vectorized ? b + 1 : b;
  p.swizzle = variant == TransposeVariant::Swizzled;
  p.by_column = read;
  p.lane_elements = transpose_access_floats(variant);
  p.field = element;
  return p;
}

/// What the traced transpose launch records (SharedLab::trace_transpose_to_device), computed on
/// the host with transpose_global_index(): for warp `warp` of block (0, 0), lane l = thread
/// 32 warp + l (tx = tid % tile, ty = tid / tile), the byte offset from the matrix base of its
/// global read of `in` (`write_side` false) or its global write to `out` (`write_side` true) at
/// j = 0, as LaneTraceRecord{offset low, offset high, bytes, 1} in slot 0 with bytes = 4 x
/// transpose_access_floats() (8 for Vectorized's float2, else 4); lanes past the block stay
/// zero. Throws std::invalid_argument for parameters check_transpose refuses (memory aside) or a
/// warp outside the block. Compiled in every build.
TraceRecords transpose_global_trace(const TransposeParams& params, int warp, bool write_side);

struct TransposeMeasurement {
  TransposeParams params;
  Timing timing;
  double gbps = 0;        ///< 2 x n^2 x 4 bytes / median time
  bool verified = false;  ///< the output was checked element by element against the input
  std::string check;      ///< one line: what the check found (refused: check_transpose's reason)
  /// Not launched: check_transpose refused these parameters for this variant (a lab timing every
  /// variant at parameters another variant accepts, e.g. Vectorized with n not a multiple of
  /// 2 tile); gbps 0, verified false.
  bool refused = false;
};

/// For a loop that times every variant at one tile, rows and n: a measurement marked refused,
/// with check_transpose's reason (memory aside) in `check`, when it refuses `params`; nullopt
/// when it accepts them (then time them with SharedLab::measure_transpose). Throws only
/// std::bad_alloc.
std::optional<TransposeMeasurement> transpose_refusal(const TransposeParams& params);

// --- matrix multiply ---------------------------------------------------------------------------

/// The seeds' MatrixMul: C = A x B for n x n floats, one thread per element of C. block_size 0
/// is the naive kernel (16 x 16 threads, every operand from global memory); 8, 16 or 32 the
/// tiled kernel with __shared__ blockA/blockB of block_size^2 floats.
/// The multiply's kernels by BLOCK_SIZE: 0 is the naive kernel, then the tiled ones.
inline constexpr std::array<int, 4> kMatmulBlockSizes = {0, 8, 16, 32};

struct MatmulParams {
  int block_size = 16;
  int n = 2048;  ///< a positive multiple of 32
  friend bool operator==(const MatmulParams& a, const MatmulParams& b) {
    return a.block_size == b.block_size && a.n == b.n;
  }
};
void check_matmul(const MatmulParams& params, std::int64_t free_bytes);  ///< as check_transpose

/// Bytes of A and B the multiply's threads read from global memory (4-byte floats), the seeds'
/// reuse argument: the naive kernel reads every element of A and of B n times (each of the n^2
/// threads reads a row of A and a column of B); the tiled kernel reads each element once per
/// tile that needs it, n / BLOCK_SIZE times. So 2 n^3 x 4 bytes, or that / BLOCK_SIZE. What the
/// kernel asks for, not what DRAM moves: the naive kernel's repeated reads mostly hit L1 and L2.
inline constexpr std::int64_t matmul_global_read_bytes(const MatmulParams& p) {
  const std::int64_t n = p.n;
  const std::int64_t reads_per_element = p.block_size > 0 ? n / p.block_size : n;
  return 2 * n * n * reads_per_element * 4;
}

/// The blockA[ty][k] and blockB[k][tx] reads of the inner loop at step k, for the bank view.
BankProbeParams matmul_read_a(const MatmulParams& params, int k);
BankProbeParams matmul_read_b(const MatmulParams& params, int k);

/// The index parameters of those reads, as the tiled kernel builds them (host and device):
/// blockA[ty][k] (`b` false) or blockB[k][tx] (`b` true) of block_size x block_size floats.
WARPLENS_HOST_DEVICE inline SharedFixedIndex matmul_read_index(int block_size, int k, bool b) {
  SharedFixedIndex p;
  p.kind = b ? SharedPatternKind::MatmulB : SharedPatternKind::MatmulA;
  p.word_bytes = 4;
  p.pitch_elements = block_size;
  p.field = k;
  return p;
}

struct MatmulMeasurement {
  MatmulParams params;
  Timing timing;
  double gflops = 0;  ///< 2 n^3 / median time
  bool verified = false;
  int checked_entries = 0;  ///< entries of C recomputed on the CPU in double precision
  double max_relative_error = 0;
  std::string check;
};

// --- reduction ---------------------------------------------------------------------------------

/// Mark Harris, "Optimizing Parallel Reduction in CUDA" (cited in the seeds), kernels 1-3.
enum class ReductionVariant {
  InterleavedDivergent,  ///< if (tid % (2s) == 0) s[tid] += s[tid + s]: idle lanes in every warp
  InterleavedStrided,    ///< i = 2 s tid; s[i] += s[i + s]: no divergence, bank conflicts
  Sequential,            ///< if (tid < s) s[tid] += s[tid + s]: conflict-free
};

/// Every reduction variant, in the order of Harris's kernels.
inline constexpr std::array<ReductionVariant, 3> kReductionVariants = {
    ReductionVariant::InterleavedDivergent, ReductionVariant::InterleavedStrided,
    ReductionVariant::Sequential};

struct ReductionParams {
  ReductionVariant variant = ReductionVariant::Sequential;
  int block_threads = 256;          ///< power of two, 64..1024
  std::int64_t elements = 1 << 24;  ///< 32-bit unsigned integers summed
  friend bool operator==(const ReductionParams& a, const ReductionParams& b) {
    return a.variant == b.variant && a.block_threads == b.block_threads && a.elements == b.elements;
  }
};
void check_reduction(const ReductionParams& params, std::int64_t free_bytes);

/// The shared accesses of step `step` (s = 1, 2, 4... for the interleaved variants, s =
/// threads/2, threads/4... for the sequential one; step 0 is the first): the first operand's
/// read (`second` false) or the second's (`second` true); idle threads inactive.
BankProbeParams reduction_step(const ReductionParams& params, int step, bool second);
int reduction_steps(const ReductionParams& params);  ///< log2(block_threads)

/// The index parameters of reduction_step, as the reduction kernels build them at run time
/// (host and device) for a block of `threads` (a power of two) threads, 4-byte words.
WARPLENS_HOST_DEVICE inline SharedFixedIndex reduction_index(ReductionVariant variant, int threads,
                                                             int step, bool second) {
  SharedFixedIndex p;
  p.kind = SharedPatternKind::Strided;
  p.word_bytes = 4;
  p.stride = 1;
  p.active_threads = threads;
  int s = 1 << step;
  if (variant == ReductionVariant::InterleavedDivergent) {
    p.active_every = 2 * s;  // if (tid % (2s) == 0) sdata[tid] += sdata[tid + s]
  } else if (variant == ReductionVariant::InterleavedStrided) {
    p.stride = 2 * s;  // i = 2 s tid; if (i < threads) sdata[i] += sdata[i + s]
    p.active_threads = threads / (2 * s);
  } else {
    s = threads >> (step + 1);  // if (tid < s) sdata[tid] += sdata[tid + s]
    p.active_threads = s;
  }
  p.offset = second ? s : 0;
  return p;
}

struct ReductionMeasurement {
  ReductionParams params;
  Timing timing;
  double gbps = 0;        ///< elements x 4 bytes (read) / median time; the per-block partial sums
                          ///< written are not counted
  bool verified = false;  ///< the block sums add up to the CPU's exact (mod 2^32) sum
  std::string check;
};

// --- the lab -----------------------------------------------------------------------------------

/// Owns the device buffers of the shared-memory labs (allocated on first use, sized to the
/// request, freed when a different size is asked for). Same threading rule as CopyLab: measure*
/// on the lab's stream, trace_*_to_device on the trace stream; one thread for each.
class SharedLab {
 public:
  explicit SharedLab(const DeviceInfo& device);
  ~SharedLab();
  SharedLab(const SharedLab&) = delete;
  SharedLab& operator=(const SharedLab&) = delete;

  /// The instrumented bank probe: one block runs the access with the same index function;
  /// warp `warp` records, per lane, the byte offset it touched from the start of the shared
  /// array (TraceRecords layout, slot 0; idle lanes stay zero) into `device_dst`
  /// (kTraceBufferBytes, e.g. a mapped GL buffer). Throws std::invalid_argument for a warp
  /// outside the block.
  void trace_bank_to_device(const BankProbeParams& params, int warp, void* device_dst);
  TraceRecords trace_bank_to_host(const BankProbeParams& params, int warp);

  /// The instrumented transpose: one launch of the variant's kernel, block (0, 0) alone, on the
  /// lab's transpose buffers (allocated as measure_transpose does), in which its warp `warp`
  /// records, per lane, the byte offset from the matrix base of its global read
  /// (`write_side` false) or global write (`write_side` true) at j = 0: the records
  /// transpose_global_trace() computes, into `device_dst` (kTraceBufferBytes, zeroed first, on
  /// the trace stream). Throws std::invalid_argument for parameters check_transpose refuses or a
  /// warp outside the block of tile x rows_per_block threads. It shares the matrix buffers with
  /// measure_transpose, so it waits for a transpose measurement in progress on another thread.
  void trace_transpose_to_device(const TransposeParams& params, int warp, bool write_side,
                                 void* device_dst);
  /// The same without waiting: returns false at once, having launched nothing, while another
  /// thread holds the matrix buffers (a transpose measurement), so a GL thread can try again
  /// next frame instead of stalling.
  bool try_trace_transpose_to_device(const TransposeParams& params, int warp, bool write_side,
                                     void* device_dst);
  TraceRecords trace_transpose_to_host(const TransposeParams& params, int warp, bool write_side);
  [[nodiscard]] void* trace_stream() const;  ///< a cudaStream_t

  /// One untimed launch of the bank probe's whole-GPU kernel (the one measure_bank times): one
  /// block per SM, every active thread making `repeats` accesses (rounded up to a multiple of
  /// 8, at least 8), on the lab's stream, waited for. For hardware counters: the shared-memory
  /// requests of the launch are exactly the probe's access, blocks x active warps x repeats of
  /// them. A load probe first fills its shared array with 16-byte stores (which land only in
  /// the store counters); a store probe skips that fill, so its store counters hold only the
  /// probe's own stores. Throws std::invalid_argument for parameters plan_bank_probe refuses.
  void launch_bank_once(const BankProbeParams& params, int repeats);
  /// One launch of the timed transpose kernel (not the traced one, whose predicated trace
  /// stores count as executed store instructions), synchronised; allocates and fills the
  /// matrices first when needed. For hardware counters.
  void launch_transpose_once(const TransposeParams& params);

  BankMeasurement measure_bank(const BankProbeParams& params, int warp = 0, int runs = 10,
                               int warmup = 2, const std::atomic<bool>* cancel = nullptr);
  TransposeMeasurement measure_transpose(const TransposeParams& params, int runs = 10,
                                         int warmup = 2, const std::atomic<bool>* cancel = nullptr);
  MatmulMeasurement measure_matmul(const MatmulParams& params, int runs = 5, int warmup = 1,
                                   const std::atomic<bool>* cancel = nullptr);
  ReductionMeasurement measure_reduction(const ReductionParams& params, int runs = 10,
                                         int warmup = 2, const std::atomic<bool>* cancel = nullptr);

 private:
  void trace_transpose_locked(const TransposeParams& params, int warp, bool write_side,
                              void* device_dst);  // the matrix buffers' lock held
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

const char* to_string(TransposeVariant variant);  ///< copy|naive|tiled|padded|swizzled|vectorized
const char* to_string(ReductionVariant variant);  ///< interleaved-divergent|interleaved|sequential
/// Every pattern the bank lab offers, in the order its presets and panel list them.
inline constexpr std::array<SharedPatternKind, 8> kSharedPatternKinds = {
    SharedPatternKind::Strided,     SharedPatternKind::Tile,    SharedPatternKind::Struct,
    SharedPatternKind::Interleaved, SharedPatternKind::Blocked, SharedPatternKind::MatmulA,
    SharedPatternKind::MatmulB,     SharedPatternKind::Layout};
const char* to_string(SharedPatternKind kind);  ///< strided|tile|struct|interleaved|blocked|...
TransposeVariant parse_transpose_variant(const std::string& text);  ///< throws invalid_argument
ReductionVariant parse_reduction_variant(const std::string& text);
SharedPatternKind parse_shared_pattern_kind(const std::string& text);
SharedOp parse_shared_op(const std::string& text);  ///< load | store; throws invalid_argument

}  // namespace warplens::gpu
