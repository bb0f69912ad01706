// Parameter checks and access descriptions of the shared-memory labs: pure C++, compiled in
// every build (with and without the CUDA toolkit). The kernels in shared_lab.cu and the bank
// view both take their shared-memory indices from shared_element_index() with the parameters
// built here, so the picture and the kernel describe the same accesses.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>

#include "shared_lab.h"

namespace warplens::gpu {

namespace {

// Every count and distance of a pattern stays within this bound, so the int arithmetic of
// shared_element_index() cannot overflow (2^20 x 1024 threads + 2^20 + 2^20 < 2^31); anything
// that large would not fit in shared memory anyway.
constexpr int kMaxPatternValue = 1 << 20;

[[noreturn]] void refuse(const std::string& message) {
  throw std::invalid_argument(message);
}

bool power_of_two(std::int64_t v) {
  return v > 0 && (v & (v - 1)) == 0;
}

void check_bound(const char* what, int value, int low) {
  if (value < low || value > kMaxPatternValue) {
    refuse(std::string(what) + " must be in " + std::to_string(low) + ".." +
           std::to_string(kMaxPatternValue) + " (got " + std::to_string(value) + ")");
  }
}

void check_index_fields(const SharedIndexParams& p) {
  const int w = p.word_bytes;
  if (w != 1 && w != 2 && w != 4 && w != 8 && w != 16) {
    refuse("word bytes must be 1, 2, 4, 8 or 16 (got " + std::to_string(w) + ")");
  }
  if (p.stride < 0) {
    refuse("stride must be >= 0 elements (got " + std::to_string(p.stride) + ")");
  }
  check_bound("stride", p.stride, 0);
  if (p.offset < -kMaxPatternValue || p.offset > kMaxPatternValue) {
    refuse("offset must be within +-" + std::to_string(kMaxPatternValue) + " elements (got " +
           std::to_string(p.offset) + ")");
  }
  if (p.active_every < 1) {
    refuse("active_every must be >= 1 (got " + std::to_string(p.active_every) + ")");
  }
  switch (p.kind) {
    case SharedPatternKind::Strided: break;
    case SharedPatternKind::Tile:
      if (p.tile_width < 1 || p.tile_width > 1024) {
        refuse("tile width must be 1..1024 elements (got " + std::to_string(p.tile_width) + ")");
      }
      if (p.pitch_elements < p.tile_width) {
        refuse("tile pitch " + std::to_string(p.pitch_elements) +
               " is smaller than the tile width " + std::to_string(p.tile_width));
      }
      check_bound("tile pitch", p.pitch_elements, 1);
      if (p.swizzle && !power_of_two(p.tile_width)) {
        refuse("a swizzled tile needs a power-of-two width (got " + std::to_string(p.tile_width) +
               ")");
      }
      if (p.lane_elements < 1 || p.lane_elements > 16) {
        refuse("elements per lane must be 1..16 (got " + std::to_string(p.lane_elements) + ")");
      }
      if (p.lane_elements > 1 && (p.field < 0 || p.field >= p.lane_elements)) {
        refuse("element " + std::to_string(p.field) + " is outside a lane's " +
               std::to_string(p.lane_elements) + " elements");
      }
      break;
    case SharedPatternKind::Struct:
      check_bound("struct words", p.struct_words, 1);
      if (p.field < 0 || p.field >= p.struct_words) {
        refuse("field " + std::to_string(p.field) + " is outside a struct of " +
               std::to_string(p.struct_words) + " words");
      }
      break;
    case SharedPatternKind::Interleaved:
    case SharedPatternKind::Blocked:
      if (p.part != 0 && p.part != 1) {
        refuse("part must be 0 or 1 (got " + std::to_string(p.part) + ")");
      }
      break;
    case SharedPatternKind::MatmulA:
    case SharedPatternKind::MatmulB:
      check_bound("tile pitch", p.pitch_elements, 1);
      if (p.field < 0 || p.field >= p.pitch_elements) {
        refuse("k = " + std::to_string(p.field) + " is outside a tile row of " +
               std::to_string(p.pitch_elements) + " elements");
      }
      break;
    case SharedPatternKind::Layout:
      if (p.layout_modes < 1 || p.layout_modes > kSharedLayoutModes) {
        refuse("a layout pattern has 1.." + std::to_string(kSharedLayoutModes) +
               " leaf modes (got " + std::to_string(p.layout_modes) + ")");
      }
      for (int m = 0; m < p.layout_modes; ++m) {
        check_bound("a layout mode's extent", p.layout_shape[m], 1);
        if (p.layout_stride[m] < -kMaxPatternValue || p.layout_stride[m] > kMaxPatternValue) {
          refuse("a layout stride must be within +-" + std::to_string(kMaxPatternValue) +
                 " elements (got " + std::to_string(p.layout_stride[m]) + ")");
        }
      }
      if (p.swizzle_bits < 0 || p.swizzle_bits > 10 || p.swizzle_base < 0 || p.swizzle_base > 20 ||
          std::abs(p.swizzle_shift) < p.swizzle_bits || std::abs(p.swizzle_shift) > 20) {
        refuse("swizzle <" + std::to_string(p.swizzle_bits) + "," + std::to_string(p.swizzle_base) +
               "," + std::to_string(p.swizzle_shift) +
               "> is not one the bank probe takes (B 0..10, M 0..20, B <= |S| <= 20)");
      }
      break;
    default:
      refuse("unknown shared-memory pattern kind " + std::to_string(static_cast<int>(p.kind)));
  }
}

std::string kib(std::int64_t bytes, bool round_up) {
  const std::int64_t k = round_up ? (bytes + 1023) / 1024 : bytes / 1024;
  return std::to_string(k) + " KiB";
}

std::string mib(std::int64_t bytes) {
  return std::to_string((bytes + (1 << 20) - 1) >> 20) + " MiB";
}

void check_free(const char* what, std::int64_t needed, std::int64_t free_bytes) {
  if (needed > free_bytes) {
    refuse(std::string(what) + " needs " + mib(needed) + " of device memory; " +
           mib(std::max<std::int64_t>(free_bytes, 0)) + " are free");
  }
}

bool known_variant(TransposeVariant v) {
  for (TransposeVariant known : kTransposeVariants) {
    if (v == known) return true;
  }
  return false;
}

void check_tile_shape(const TransposeParams& p) {
  if (p.tile != 8 && p.tile != 16 && p.tile != 32) {
    refuse("transpose tile must be 8, 16 or 32 (got " + std::to_string(p.tile) + ")");
  }
  if (p.rows_per_block < 1 || p.rows_per_block > p.tile || p.tile % p.rows_per_block != 0) {
    refuse("rows per block must divide the tile of " + std::to_string(p.tile) + " (got " +
           std::to_string(p.rows_per_block) + ")");
  }
}

BankProbeParams transpose_tile(const TransposeParams& params, bool read) {
  check_tile_shape(params);
  if (params.variant == TransposeVariant::Copy || params.variant == TransposeVariant::Naive) {
    refuse(std::string("the ") + to_string(params.variant) +
           " transpose uses no shared-memory tile");
  }
  if (!known_variant(params.variant)) refuse("unknown transpose variant");
  BankProbeParams b;
  b.index = transpose_tile_index(params.variant, params.tile, read);
  b.op = read ? SharedOp::Load : SharedOp::Store;
  b.block_x = transpose_block_x(params.variant, params.tile);
  b.block_y = params.rows_per_block;
  return b;
}

BankProbeParams matmul_read(const MatmulParams& params, int k, SharedPatternKind kind) {
  if (params.block_size == 0) refuse("the naive matrix multiply uses no shared memory");
  if (params.block_size != 8 && params.block_size != 16 && params.block_size != 32) {
    refuse("matrix-multiply block size must be 0 (naive), 8, 16 or 32 (got " +
           std::to_string(params.block_size) + ")");
  }
  if (k < 0 || k >= params.block_size) {
    refuse("k must be in 0.." + std::to_string(params.block_size - 1) + " (got " +
           std::to_string(k) + ")");
  }
  BankProbeParams b;
  b.index = matmul_read_index(params.block_size, k, kind == SharedPatternKind::MatmulB);
  b.op = SharedOp::Load;
  b.block_x = params.block_size;
  b.block_y = params.block_size;
  return b;
}

}  // namespace

// --- bank probe --------------------------------------------------------------------------------

void check_shared_index(const SharedIndexParams& index) {
  check_index_fields(index);
}

BankPlan plan_bank_probe(const BankProbeParams& params, int max_shared_bytes) {
  check_index_fields(params.index);
  if (params.op != SharedOp::Load && params.op != SharedOp::Store) refuse("unknown shared op");
  if (params.block_x < 1 || params.block_y < 1) {
    refuse("block dimensions must be >= 1 (got " + std::to_string(params.block_x) + "x" +
           std::to_string(params.block_y) + ")");
  }
  const std::int64_t threads = std::int64_t{params.block_x} * params.block_y;
  if (threads > 1024) {
    refuse("a block holds at most 1024 threads (got " + std::to_string(params.block_x) + "x" +
           std::to_string(params.block_y) + " = " + std::to_string(threads) + ")");
  }
  std::int64_t largest = -1;
  for (int ty = 0; ty < params.block_y; ++ty) {
    for (int tx = 0; tx < params.block_x; ++tx) {
      if (!shared_thread_active(ty * params.block_x + tx, params.index)) continue;
      const int index = shared_element_index(tx, ty, params.block_x, params.block_y, params.index);
      if (index < 0) {
        refuse("thread (" + std::to_string(tx) + ", " + std::to_string(ty) +
               ") would access shared element " + std::to_string(index) + "; indices must be >= 0");
      }
      largest = std::max<std::int64_t>(largest, index);
    }
  }
  BankPlan plan;
  plan.threads = static_cast<int>(threads);
  const std::int64_t bytes = (largest + 1) * params.index.word_bytes;
  const std::int64_t rounded = (bytes + 15) / 16 * 16;
  if (rounded > max_shared_bytes) {
    refuse("the pattern needs " + kib(rounded, true) + " of shared memory; this GPU allows " +
           kib(max_shared_bytes, false) + " per block");
  }
  plan.shared_bytes = static_cast<int>(rounded);
  return plan;
}

// --- transpose ---------------------------------------------------------------------------------

void check_transpose(const TransposeParams& params, std::int64_t free_bytes) {
  if (!known_variant(params.variant)) refuse("unknown transpose variant");
  check_tile_shape(params);
  if (params.n < params.tile || params.n % params.tile != 0) {
    refuse("matrix size " + std::to_string(params.n) + " is not a positive multiple of the tile " +
           std::to_string(params.tile));
  }
  const int block_tile = transpose_block_tile(params.variant, params.tile);
  if (params.n % block_tile != 0) {
    // Whole 2T x 2T tiles only: the kernel has no edge case, and its float2 accesses stay
    // 8-byte aligned.
    refuse("the vectorized transpose moves " + std::to_string(block_tile) + " x " +
           std::to_string(block_tile) + " tiles (2 x the tile of " + std::to_string(params.tile) +
           "): matrix size " + std::to_string(params.n) + " is not a multiple of " +
           std::to_string(block_tile));
  }
  if (params.n > 32768) {
    refuse("matrix size must be at most 32768 (got " + std::to_string(params.n) + ")");
  }
  const std::int64_t n = params.n;
  check_free("the transpose", 2 * n * n * 4, free_bytes);
}

void check_block_warp(int block_x, int block_y, int warp) {
  const int warps = (block_x * block_y + kTraceLanes - 1) / kTraceLanes;
  if (warp < 0 || warp >= warps) {
    refuse("warp " + std::to_string(warp) + " is not in a block of " + std::to_string(block_x) +
           "x" + std::to_string(block_y) + " threads (warps 0.." + std::to_string(warps - 1) + ")");
  }
}

TraceRecords transpose_global_trace(const TransposeParams& params, int warp, bool write_side) {
  check_transpose(params, std::numeric_limits<std::int64_t>::max());
  const int block_x = transpose_block_x(params.variant, params.tile);
  const int threads = block_x * params.rows_per_block;
  check_block_warp(block_x, params.rows_per_block, warp);
  const auto bytes = static_cast<std::uint32_t>(4 * transpose_access_floats(params.variant));
  TraceRecords trace{};
  for (int lane = 0; lane < kTraceLanes; ++lane) {
    const int tid = kTraceLanes * warp + lane;
    if (tid >= threads) break;
    const TransposeGlobalIndex g = transpose_global_index(params.variant, params.tile, params.n,
                                                          tid % block_x, tid / block_x, 0, 0);
    const auto byte = static_cast<std::uint64_t>(write_side ? g.write : g.read) * 4u;
    trace[static_cast<std::size_t>(lane)] = LaneTraceRecord{
        static_cast<std::uint32_t>(byte), static_cast<std::uint32_t>(byte >> 32), bytes, 1u};
  }
  return trace;
}

std::optional<TransposeMeasurement> transpose_refusal(const TransposeParams& params) {
  try {
    check_transpose(params, std::numeric_limits<std::int64_t>::max());
    return std::nullopt;
  } catch (const std::invalid_argument& e) {
    TransposeMeasurement m;
    m.params = params;
    m.refused = true;
    m.check = std::string("refused: ") + e.what();
    return m;
  }
}

BankProbeParams transpose_tile_write(const TransposeParams& params) {
  return transpose_tile(params, false);
}

BankProbeParams transpose_tile_read(const TransposeParams& params) {
  return transpose_tile(params, true);
}

// --- matrix multiply ---------------------------------------------------------------------------

void check_matmul(const MatmulParams& params, std::int64_t free_bytes) {
  const int b = params.block_size;
  if (b != 0 && b != 8 && b != 16 && b != 32) {
    refuse("matrix-multiply block size must be 0 (naive), 8, 16 or 32 (got " + std::to_string(b) +
           ")");
  }
  if (params.n < 32 || params.n % 32 != 0) {
    refuse("matrix size " + std::to_string(params.n) + " is not a positive multiple of 32");
  }
  if (params.n > 32768) {
    refuse("matrix size must be at most 32768 (got " + std::to_string(params.n) + ")");
  }
  const std::int64_t n = params.n;
  check_free("the matrix multiply", 3 * n * n * 4, free_bytes);
}

BankProbeParams matmul_read_a(const MatmulParams& params, int k) {
  return matmul_read(params, k, SharedPatternKind::MatmulA);
}

BankProbeParams matmul_read_b(const MatmulParams& params, int k) {
  return matmul_read(params, k, SharedPatternKind::MatmulB);
}

// --- reduction ---------------------------------------------------------------------------------

void check_reduction(const ReductionParams& params, std::int64_t free_bytes) {
  switch (params.variant) {
    case ReductionVariant::InterleavedDivergent:
    case ReductionVariant::InterleavedStrided:
    case ReductionVariant::Sequential: break;
    default: refuse("unknown reduction variant");
  }
  const int t = params.block_threads;
  if (t < 64 || t > 1024 || !power_of_two(t)) {
    refuse("reduction block must be a power of two in 64..1024 threads (got " + std::to_string(t) +
           ")");
  }
  constexpr std::int64_t kMaxElements = std::int64_t{1} << 32;
  if (params.elements < 1 || params.elements > kMaxElements) {
    refuse("reduction elements must be in 1..2^32 (got " + std::to_string(params.elements) + ")");
  }
  const std::int64_t blocks = (params.elements + t - 1) / t;
  check_free("the reduction", params.elements * 4 + blocks * 4, free_bytes);
}

int reduction_steps(const ReductionParams& params) {
  int steps = 0;
  for (int t = params.block_threads; t > 1; t >>= 1) ++steps;
  return steps;
}

BankProbeParams reduction_step(const ReductionParams& params, int step, bool second) {
  const int t = params.block_threads;
  if (t < 64 || t > 1024 || !power_of_two(t)) {
    refuse("reduction block must be a power of two in 64..1024 threads (got " + std::to_string(t) +
           ")");
  }
  const int steps = reduction_steps(params);
  if (step < 0 || step >= steps) {
    refuse("reduction step must be in 0.." + std::to_string(steps - 1) + " (got " +
           std::to_string(step) + ")");
  }
  if (params.variant != ReductionVariant::InterleavedDivergent &&
      params.variant != ReductionVariant::InterleavedStrided &&
      params.variant != ReductionVariant::Sequential) {
    refuse("unknown reduction variant");
  }
  BankProbeParams b;
  b.op = SharedOp::Load;
  b.block_x = t;
  b.block_y = 1;
  b.index = reduction_index(params.variant, t, step, second);
  return b;
}

// --- names -------------------------------------------------------------------------------------

const char* to_string(TransposeVariant variant) {
  switch (variant) {
    case TransposeVariant::Copy: return "copy";
    case TransposeVariant::Naive: return "naive";
    case TransposeVariant::Tiled: return "tiled";
    case TransposeVariant::Padded: return "padded";
    case TransposeVariant::Swizzled: return "swizzled";
    case TransposeVariant::Vectorized: return "vectorized";
  }
  return "tiled";
}

const char* to_string(ReductionVariant variant) {
  switch (variant) {
    case ReductionVariant::InterleavedDivergent: return "interleaved-divergent";
    case ReductionVariant::InterleavedStrided: return "interleaved";
    case ReductionVariant::Sequential: return "sequential";
  }
  return "sequential";
}

const char* to_string(SharedPatternKind kind) {
  switch (kind) {
    case SharedPatternKind::Strided: return "strided";
    case SharedPatternKind::Tile: return "tile";
    case SharedPatternKind::Struct: return "struct";
    case SharedPatternKind::Interleaved: return "interleaved";
    case SharedPatternKind::Blocked: return "blocked";
    case SharedPatternKind::MatmulA: return "matmul-a";
    case SharedPatternKind::MatmulB: return "matmul-b";
    case SharedPatternKind::Layout: return "layout";
  }
  return "strided";
}

TransposeVariant parse_transpose_variant(const std::string& text) {
  for (TransposeVariant v : kTransposeVariants) {
    if (text == to_string(v)) return v;
  }
  refuse("transpose variant must be copy, naive, tiled, padded, swizzled or vectorized (got \"" +
         text + "\")");
}

ReductionVariant parse_reduction_variant(const std::string& text) {
  for (ReductionVariant v : kReductionVariants) {
    if (text == to_string(v)) return v;
  }
  refuse("reduction variant must be interleaved-divergent, interleaved or sequential (got \"" +
         text + "\")");
}

SharedPatternKind parse_shared_pattern_kind(const std::string& text) {
  for (SharedPatternKind k : kSharedPatternKinds) {
    if (text == to_string(k)) return k;
  }
  refuse(
      "shared pattern must be strided, tile, struct, interleaved, blocked, matmul-a, matmul-b or "
      "layout "
      "(got \"" +
      text + "\")");
}

SharedOp parse_shared_op(const std::string& text) {
  if (text == "load") return SharedOp::Load;
  if (text == "store") return SharedOp::Store;
  refuse("op must be load or store (got \"" + text + "\")");
}

}  // namespace warplens::gpu
