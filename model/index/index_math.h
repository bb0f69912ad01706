// Index functions shared by the device kernels and their host twins (__host__ __device__), so
// the kernel, the model and the picture can never disagree about which element a thread reads.
#pragma once

#include <array>
#include <cstdint>

#include "index_expr.h"  // WARPLENS_HOST_DEVICE

namespace warplens {

/// The shapes of index function the copy kernel offers (all elements of the copy's word size).
enum class IndexKind : int {
  Strided = 0,    ///< offset + g * stride
  Permuted = 1,   ///< offset + g, lanes shuffled within each group of 32 consecutive elements
  SameWord = 2,   ///< offset + 32 * (g / 32): every lane of a warp on one word
  Scattered = 3,  ///< offset + a seeded bijection of g over a window of kScatterWindow elements
};

struct IndexParams {
  IndexKind kind = IndexKind::Strided;
  std::int64_t offset = 0;  ///< elements
  std::int64_t stride = 1;  ///< elements (Strided only)
  std::uint32_t seed = 1;   ///< Permuted and Scattered
};

/// Elements the scattered pattern spreads over (2^24: 64 MiB of 4-byte words, more than any
/// L2 today). Thread g < kScatterWindow reads a distinct element of the window.
inline constexpr std::int64_t kScatterWindow = std::int64_t{1} << 24;

/// Odd multipliers of the scatter bijection. The first spreads neighbouring threads across the
/// window; the second (applied to values < 2^24) stays small so that the model's 32-bit
/// expression for the threads of one block never overflows.
inline constexpr std::int64_t kScatterMultiplier1 = 40503;
inline constexpr std::int64_t kScatterMultiplier2 = 61;

/// The copy kernel's index functions, one per IndexKind: each written once as a value
/// (index_expr.h) that the kernel evaluates, the host model evaluates and prints in the analyze
/// grammar, and the window prints under the view.
namespace index_functions {
using namespace index_expr;
/// offset + g * stride
WARPLENS_HOST_DEVICE constexpr auto strided() {
  return Offset{} + Stride{} * ThreadIndex{};
}
/// Every lane of a warp on one word: offset + 32 * (g / 32).
WARPLENS_HOST_DEVICE constexpr auto same_word() {
  return Offset{} + 32 * (ThreadIndex{} / 32);
}
/// Lanes shuffled within each group of 32 elements by an odd multiplier (a bijection of 0..31):
/// offset + 32 * (g / 32) + ((g & 31) * (2 * (seed % 16) + 1) + (seed & 31)) % 32.
WARPLENS_HOST_DEVICE constexpr auto permuted() {
  constexpr ThreadIndex g{};
  return Offset{} + 32 * (g / 32) + ((g & 31) * (2 * (Seed{} % 16) + 1) + (Seed{} & 31)) % 32;
}
/// A seeded bijection of g over kScatterWindow elements (xor-shift-multiply rounds); the mask
/// keeps every round below 2^24, so the analyze grammar's 32-bit values never overflow for the
/// threads of one block.
WARPLENS_HOST_DEVICE constexpr auto scattered() {
  constexpr ThreadIndex g{};
  constexpr std::int64_t mask = kScatterWindow - 1;
  const auto round1 = ((g * kScatterMultiplier1) ^ (Seed{} & mask)) & mask;
  const auto round2 = round1 ^ (round1 >> 11);
  const auto round3 = (round2 * kScatterMultiplier2) & mask;
  return Offset{} + named("scatter", round3 ^ (round3 >> 7));
}
}  // namespace index_functions

/// Calls `f` with the index function of `kind` (one of index_functions).
template <typename F>
WARPLENS_HOST_DEVICE decltype(auto) with_index_function(IndexKind kind, F&& f) {
  namespace fn = index_functions;
  // Strided first: the common case costs the kernel one compare.
  if (kind == IndexKind::Strided) return f(fn::strided());
  if (kind == IndexKind::Permuted) return f(fn::permuted());
  if (kind == IndexKind::SameWord) return f(fn::same_word());
  return f(fn::scattered());
}

/// The values the index functions read for thread `g`, in `Int` arithmetic (64-bit, or int for
/// the copy kernel's 32-bit launch when the plan fits).
template <typename Int = std::int64_t>
WARPLENS_HOST_DEVICE inline index_expr::BasicEnv<Int> index_env(Int g, const IndexParams& p) {
  return {g, static_cast<Int>(p.offset), static_cast<Int>(p.stride), p.seed};
}

/// Element used by global thread `g`: the one definition the kernel and the host model share.
WARPLENS_HOST_DEVICE inline std::int64_t element_index(std::int64_t g, const IndexParams& p) {
  const index_expr::Env env = index_env(g, p);
  return with_index_function(p.kind, [&](const auto& f) { return index_expr::evaluate(f, env); });
}

/// Element of field `field` of struct g, for `count` structs of 4-byte fields {x, y, z}: as an
/// array of structures 3g + field; as a structure of arrays field x count + g.
WARPLENS_HOST_DEVICE inline std::int64_t struct_field_index(std::int64_t g, int field, bool soa,
                                                            std::int64_t count) {
  return soa ? field * count + g : 3 * g + field;
}

/// Row and column that thread (tx, ty) of block (bx_index, by_index) reads in the 2D matrix
/// scenario, for blocks of bdx x bdy threads: by row threadIdx.x walks along a row; by column
/// it walks down a column.
struct MatrixCell {
  std::int64_t row, column;
};
WARPLENS_HOST_DEVICE inline MatrixCell matrix_cell(std::int64_t tx, std::int64_t ty,
                                                   std::int64_t bx_index, std::int64_t by_index,
                                                   std::int64_t bdx, std::int64_t bdy,
                                                   bool by_column) {
  const std::int64_t along_x = bx_index * bdx + tx, along_y = by_index * bdy + ty;
  return by_column ? MatrixCell{along_x, along_y} : MatrixCell{along_y, along_x};
}

/// One lane's record in a warp trace: the layout of the GL buffer the warp view draws from
/// (one GL_RGBA32UI texel per lane) and of what the instrumented kernels write through interop.
struct LaneTraceRecord {
  std::uint32_t address_lo;  ///< byte offset from the 256-byte aligned buffer base, low 32 bits
  std::uint32_t address_hi;  ///< high 32 bits
  std::uint32_t word_bytes;  ///< bytes the lane accessed
  std::uint32_t active;      ///< 1 if the lane executed the access, 0 otherwise
};
static_assert(sizeof(LaneTraceRecord) == 16, "one RGBA32UI texel per lane");

/// The record's byte offset from the buffer base (its two 32-bit halves joined).
inline std::uint64_t trace_address(const LaneTraceRecord& r) {
  return (static_cast<std::uint64_t>(r.address_hi) << 32) | r.address_lo;
}

inline constexpr int kTraceLanes = 32;    ///< lanes per traced warp
inline constexpr int kMaxTraceWarps = 8;  ///< warps the view can show side by side
inline constexpr int kTraceRecords = kTraceLanes * kMaxTraceWarps;
inline constexpr std::int64_t kTraceBufferBytes = kTraceRecords * sizeof(LaneTraceRecord);

/// A trace of up to kMaxTraceWarps consecutive warps: warp slot k's lane l at 32k + l. Slots
/// that were not traced are all zero (inactive).
using TraceRecords = std::array<LaneTraceRecord, kTraceRecords>;

/// Whether two traces hold the same records, field by field (a GPU trace against the host's).
inline bool same_trace(const TraceRecords& a, const TraceRecords& b) {
  for (int i = 0; i < kTraceRecords; ++i) {
    const LaneTraceRecord &x = a[static_cast<std::size_t>(i)], &y = b[static_cast<std::size_t>(i)];
    if (x.address_lo != y.address_lo || x.address_hi != y.address_hi ||
        x.word_bytes != y.word_bytes || x.active != y.active)
      return false;
  }
  return true;
}

/// The sector heatmap: for the whole grid, per 32-byte sector of the first kHeatSectors sectors
/// of the patterned buffer, how many warp requests moved it and how many of its bytes the lanes
/// asked for (summed over requests). One GL_RG32UI texel per sector.
inline constexpr int kHeatSectors = 2048;  // 64 KiB of the buffer
struct SectorHeat {
  std::uint32_t requests;  ///< warp requests that moved this sector
  std::uint32_t bytes;     ///< bytes the lanes of those requests asked for in it
};
static_assert(sizeof(SectorHeat) == 8, "one RG32UI texel per sector");
inline constexpr std::int64_t kHeatBufferBytes = kHeatSectors * sizeof(SectorHeat);
using SectorHeatmap = std::array<SectorHeat, kHeatSectors>;

/// Warp slots holding at least one active lane (at least 1).
inline int traced_warps(const TraceRecords& trace) {
  int warps = 1;
  for (int i = 0; i < kTraceRecords; ++i)
    if (trace[i].active) warps = i / kTraceLanes + 1;
  return warps;
}

}  // namespace warplens
