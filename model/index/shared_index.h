// Shared-memory index functions shared by the bank-lab kernels and their host twins
// (__host__ __device__), so the bank view, the model and the timed kernel can never disagree
// about which shared-memory word a thread touches. Also used by the transpose, matrix-multiply
// and reduction labs to describe their tile accesses, and (at the end) the transpose lab's
// global-memory indices. C++17 (compiled by nvcc too).
//
// Units: every index here is an *element* index in words of `word_bytes`; the byte offset in
// shared memory is index x word_bytes from the start of the (1024-byte aligned) dynamic shared
// array. Threads are numbered tid = ty * bdx + tx as in the CUDA Programming Guide.
#pragma once

#include <cstdint>

#include "index_math.h"  // WARPLENS_HOST_DEVICE

namespace warplens {

/// The shapes of shared-memory access the bank lab offers (slides "Shared Memory: Avoiding Bank
/// Conflicts" and "Common Array Bank Conflict Patterns" in the seeds).
enum class SharedPatternKind : int {
  Strided = 0,  ///< offset + stride * tid
  Tile = 1,    ///< a 2D tile of tile_width columns, rows `pitch_elements` elements apart, by row or
               ///< column, optionally XOR-swizzled
  Struct = 2,  ///< field `field` of struct tid, structs of struct_words words: N*tid + field
  Interleaved = 3,  ///< shared[2*tid + part]: each thread's two words side by side (2-way conflict)
  Blocked = 4,      ///< shared[tid + part*threads]: one word in each block-sized half
  MatmulA = 5,      ///< blockA[ty][k] of the seeds' MatrixMul: tile row ty, column k = field;
                    ///< the lanes of one row share a word (broadcast)
  MatmulB = 6,      ///< blockB[k][tx]: tile row k = field, column tx
  Layout = 7,       ///< a CuTe layout (model/cute_layout.h): thread tid takes its tid-th
                    ///< coordinate; the fields layout_* below (gpu::shared_layout_index makes them)
};

/// The most leaf modes a Layout pattern's shape may have (after flattening).
inline constexpr int kSharedLayoutModes = 8;

/// The fields of every kind whose index is a closed expression (all but Layout). The transpose,
/// matmul and reduction kernels hold only these: the Layout fields below, once in the struct
/// those kernels build, changed how nvcc unrolled the transposes (their PTX differed; the H100
/// measured the padded transpose at 1603 GB/s against 1395 with the same source otherwise,
/// 2026-11-28), so they live in the derived SharedIndexParams.
struct SharedFixedIndex {
  SharedPatternKind kind = SharedPatternKind::Strided;
  int word_bytes = 4;       ///< 1, 2, 4, 8 or 16
  int offset = 0;           ///< elements, added to every index (>= 0)
  int stride = 1;           ///< elements (Strided), >= 0 (0: every lane on one word, a broadcast)
  int tile_width = 32;      ///< Tile: elements per tile row, 1..1024
  int pitch_elements = 32;  ///< Tile: elements from one tile row's start to the next (>=
                            ///< tile_width; 33 for a 32-wide tile is the padded tile of the slides)
  bool by_column = false;   ///< Tile: threadIdx.x walks down a column (tile[tx][ty]) instead of
                            ///< along a row (tile[ty][tx])
  bool swizzle = false;     ///< Tile: column XOR (row % tile_width); tile_width a power of two
  /// Tile: consecutive elements each thread covers along its x, 1..16 (the vectorized
  /// transpose's float2 global accesses land as 2 words): threadIdx.x walks columns (by row) or
  /// rows (by column) this many apart, and the access is element `field` of them (0..n-1).
  int lane_elements = 1;
  int struct_words = 2;  ///< Struct: words per struct, >= 1
  /// Struct: which word of the struct, 0..struct_words-1; MatmulA / MatmulB: the k of the
  /// inner loop (pitch_elements = tile row); Tile: which of the lane's lane_elements words.
  int field = 0;
  int part = 0;                  ///< Interleaved / Blocked: the first (0) or second (1) access
  int active_threads = 1 << 30;  ///< threads tid >= active_threads sit idle (reduction steps)
  int active_every = 1;  ///< only threads with tid % active_every == 0 take part (the divergent
                         ///< interleaved reduction), >= 1

  friend bool operator==(const SharedFixedIndex& a, const SharedFixedIndex& b) {
    return a.kind == b.kind && a.word_bytes == b.word_bytes && a.offset == b.offset &&
           a.stride == b.stride && a.tile_width == b.tile_width &&
           a.pitch_elements == b.pitch_elements && a.by_column == b.by_column &&
           a.swizzle == b.swizzle && a.lane_elements == b.lane_elements &&
           a.struct_words == b.struct_words && a.field == b.field && a.part == b.part &&
           a.active_threads == b.active_threads && a.active_every == b.active_every;
  }
};

/// Every kind's fields: the closed-expression ones and the Layout pattern's.
struct SharedIndexParams : SharedFixedIndex {
  SharedIndexParams() = default;
  /// A closed-expression pattern (layout_modes 0).
  WARPLENS_HOST_DEVICE SharedIndexParams(const SharedFixedIndex& fixed)  // NOLINT: implicit
      : SharedFixedIndex(fixed) {}

  /// Layout: the layout's shape and strides flattened to their leaf modes (CuTe's
  /// colexicographic order over a nested shape is the same order over its leaves), 1..
  /// kSharedLayoutModes of them; the index of thread tid is the inner product of tid's natural
  /// coordinate (the last mode taking the rest, as CuTe's crd2idx does) with the strides, plus
  /// `offset` (CuTe's O, added before the swizzle), then Swizzle<swizzle_bits, swizzle_base,
  /// swizzle_shift> (cute/swizzle.hpp; bits 0: none). Elements of word_bytes.
  int layout_modes = 0;
  int layout_shape[kSharedLayoutModes] = {};
  int layout_stride[kSharedLayoutModes] = {};
  int swizzle_bits = 0, swizzle_base = 0, swizzle_shift = 0;

  friend bool operator==(const SharedIndexParams& a, const SharedIndexParams& b) {
    return static_cast<const SharedFixedIndex&>(a) == static_cast<const SharedFixedIndex&>(b) &&
           same_layout(a, b);
  }
  /// A closed-expression pattern against every kind's fields (the kernels' index functions
  /// against the views'): equal when the fields are and `a` holds no layout.
  friend bool operator==(const SharedIndexParams& a, const SharedFixedIndex& b) {
    return a == SharedIndexParams(b);
  }
  friend bool operator==(const SharedFixedIndex& a, const SharedIndexParams& b) { return b == a; }
  /// The Layout fields alike (modes past layout_modes do not count).
  static WARPLENS_HOST_DEVICE bool same_layout(const SharedIndexParams& a,
                                               const SharedIndexParams& b) {
    if (a.layout_modes != b.layout_modes || a.swizzle_bits != b.swizzle_bits ||
        a.swizzle_base != b.swizzle_base || a.swizzle_shift != b.swizzle_shift) {
      return false;
    }
    for (int m = 0; m < a.layout_modes && m < kSharedLayoutModes; ++m) {
      if (a.layout_shape[m] != b.layout_shape[m] || a.layout_stride[m] != b.layout_stride[m]) {
        return false;
      }
    }
    return true;
  }
  friend bool operator!=(const SharedIndexParams& a, const SharedIndexParams& b) {
    return !(a == b);
  }
};

/// Whether thread tid performs the access (idle lanes are drawn as such and move nothing).
WARPLENS_HOST_DEVICE inline bool shared_thread_active(int tid, const SharedFixedIndex& p) {
  return tid < p.active_threads && tid % p.active_every == 0;
}

/// Element index (words of p.word_bytes) thread (tx, ty) of a bdx x bdy block touches, for every
/// kind whose index is a closed expression (all but Layout, which reads as Strided here). The
/// transpose, matmul and reduction kernels call this one: with their parameters compile-time
/// constants it folds to the plain expression.
WARPLENS_HOST_DEVICE inline int shared_fixed_element_index(int tx, int ty, int bdx, int bdy,
                                                           const SharedFixedIndex& p) {
  const int tid = ty * bdx + tx;
  switch (p.kind) {
    case SharedPatternKind::Tile: {
      const int x = p.lane_elements == 1 ? tx : p.lane_elements * tx + p.field;
      const int row = p.by_column ? x : ty;
      int column = p.by_column ? ty : x;
      if (p.swizzle) column ^= row % p.tile_width;
      return p.offset + row * p.pitch_elements + column;
    }
    case SharedPatternKind::Struct: return p.offset + p.struct_words * tid + p.field;
    case SharedPatternKind::Interleaved: return p.offset + 2 * tid + p.part;
    case SharedPatternKind::Blocked: return p.offset + tid + p.part * bdx * bdy;
    case SharedPatternKind::MatmulA: return p.offset + ty * p.pitch_elements + p.field;
    case SharedPatternKind::MatmulB: return p.offset + p.field * p.pitch_elements + tx;
    case SharedPatternKind::Strided:
    default: return p.offset + p.stride * tid;
  }
}

/// A Layout pattern's element index for thread tid: CuTe's crd2idx of tid's natural coordinate
/// over the flattened leaf modes (the last mode takes the rest), plus the offset, then the
/// swizzle (cute/swizzle.hpp: bits [base + shift, base + shift + bits) XORed into
/// [base, base + bits) for shift > 0).
WARPLENS_HOST_DEVICE inline int shared_layout_element_index(int tid, const SharedIndexParams& p) {
  int rest = tid, index = p.offset;
  for (int m = 0; m < p.layout_modes && m < kSharedLayoutModes; ++m) {
    const bool last = m + 1 == p.layout_modes;
    const int extent = p.layout_shape[m] > 0 ? p.layout_shape[m] : 1;
    index += (last ? rest : rest % extent) * p.layout_stride[m];
    rest /= extent;
  }
  if (p.swizzle_bits > 0) {
    const int shift = p.swizzle_shift;
    const int read = ((1 << p.swizzle_bits) - 1) << (p.swizzle_base + (shift > 0 ? shift : 0));
    const int bits = index & read;
    index ^= shift >= 0 ? bits >> shift : bits << -shift;
  }
  return index;
}

/// Element index (words of p.word_bytes) thread (tx, ty) of a bdx x bdy block touches, every
/// kind: the bank probe's kernel, the model and the views call this one.
WARPLENS_HOST_DEVICE inline int shared_element_index(int tx, int ty, int bdx, int bdy,
                                                     const SharedIndexParams& p) {
  if (p.kind == SharedPatternKind::Layout) return shared_layout_element_index(ty * bdx + tx, p);
  return shared_fixed_element_index(tx, ty, bdx, bdy, p);
}

// --- transpose: global-memory indices ---------------------------------------------------------
// The transpose kernels' reads of `in` and writes to `out`, shared by the kernels, the traced
// launch and its host twin (transpose_global_trace), so the global view shows what the kernel
// does. The variant lives here rather than in shared_lab.h so that this header stays
// self-contained for the kernels.

namespace gpu {

/// The transpose case study (seeds, "Case Study: Matrix Transpose"; NVIDIA's "An Efficient
/// Matrix Transpose in CUDA C/C++"). Copy is the reference: the same tiles, read and written
/// row-wise without transposing. Vectorized is the padded kernel with more bytes in flight per
/// thread: each block moves a 2T x 2T tile (four of the lab's T x T tiles) with float2 global
/// loads and stores, so its T x rows threads each keep four times the padded kernel's bytes in
/// flight with half the global instructions per byte.
enum class TransposeVariant { Copy, Naive, Tiled, Padded, Swizzled, Vectorized };

/// Floats in each global load and store of the vectorized transpose: one float2, 8 bytes a lane
/// (measured on an H100 and an H200 as fast as float4 with this tile, and it keeps the block
/// T x rows threads like the other variants).
inline constexpr int kTransposeVectorFloats = 2;

/// The side, in floats, of the square piece of the matrix one block moves: 2 tile for
/// Vectorized, tile for the others.
WARPLENS_HOST_DEVICE constexpr int transpose_block_tile(TransposeVariant variant, int tile) {
  return variant == TransposeVariant::Vectorized ? 2 * tile : tile;
}

/// Floats one thread moves in each global access: kTransposeVectorFloats for Vectorized, else 1.
WARPLENS_HOST_DEVICE constexpr int transpose_access_floats(TransposeVariant variant) {
  return variant == TransposeVariant::Vectorized ? kTransposeVectorFloats : 1;
}

/// Threads along x of a block: the block's tile / the floats of one access (the lab's tile T for
/// every variant; the block is that many threads by rows_per_block).
WARPLENS_HOST_DEVICE constexpr int transpose_block_x(TransposeVariant variant, int tile) {
  return transpose_block_tile(variant, tile) / transpose_access_floats(variant);
}

/// Element indices (floats from the matrix base, row-major n x n) of one thread's global read
/// (`in`) and global write (`out`); for Vectorized the first of the access's
/// kTransposeVectorFloats floats.
struct TransposeGlobalIndex {
  int read = 0;
  int write = 0;
};

/// The global indices thread (tx, ty) of block (bx, by) uses for a B x B block tile of an n x n
/// matrix, with B = transpose_block_tile(variant, tile), w = transpose_access_floats(variant),
/// x = bx * B + w * tx and y = by * B + ty:
///   Copy:                     read in[y * n + x],  write out[y * n + x]
///   Naive:                    read in[y * n + x],  write out[x * n + y]  (a column of `out`)
///   Tiled, Padded, Swizzled,  read in[y * n + x],  write out[y' * n + x'] with the block's
///   Vectorized:               transposed origin: x' = by * B + w * tx, y' = bx * B + ty
/// The kernels pass ty + j as the row of the j-th access a thread makes (j = 0, rows_per_block,
/// ...); the view shows j = 0. int suffices: n <= 32768 (check_transpose), so index < 2^30.
WARPLENS_HOST_DEVICE inline TransposeGlobalIndex transpose_global_index(TransposeVariant variant,
                                                                        int tile, int n, int tx,
                                                                        int ty, int bx, int by) {
  const int b = transpose_block_tile(variant, tile), w = transpose_access_floats(variant);
  const int x = bx * b + w * tx, y = by * b + ty;
  TransposeGlobalIndex g;
  g.read = y * n + x;
  switch (variant) {
    case TransposeVariant::Copy: g.write = y * n + x; break;
    case TransposeVariant::Naive: g.write = x * n + y; break;
    case TransposeVariant::Tiled:
    case TransposeVariant::Padded:
    case TransposeVariant::Swizzled:
    case TransposeVariant::Vectorized:
    default: g.write = (bx * b + ty) * n + (by * b + w * tx); break;
  }
  return g;
}

}  // namespace gpu

}  // namespace warplens
