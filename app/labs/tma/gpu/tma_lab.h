// Today's layouts on the real banks: a 2D tile put into shared memory by the Tensor Memory
// Accelerator (TMA) with one of its swizzle modes, or by the block's threads at a pitch and
// swizzle of their own, read back from the GPU (where each element landed), then read by one
// warp as a row, a column or an `ldmatrix`, timed and countable. No CUDA types here, so it
// compiles without the toolkit; there every GPU entry point throws GpuError ("built without
// the CUDA toolkit").
//
// Sources:
// - the TMA: CUDA Driver API, cuTensorMapEncodeTiled (box dimensions <= 256, the inner box
//   dimension x element size a multiple of 16 bytes and, under a swizzle mode, at most the
//   mode's span of 32, 64 or 128 bytes; global strides multiples of 16 bytes); PTX ISA,
//   cp.async.bulk.tensor and mbarrier (compute capability 9.0).
// - the swizzle modes as CuTe writes them: NVIDIA/cutlass include/cute/atom/
//   copy_traits_sm90_tma_swizzle.hpp, get_tma_swizzle_bits (cute/arch/copy_sm90_desc.hpp in
//   older releases): Swizzle<1,4,3>, <2,4,3>, <3,4,3> on byte offsets are the 32-, 64- and
//   128-byte modes (M = 4 whatever the element type: the swizzle acts on bytes): bits [4, 4 + B) of
//   a shared-memory byte offset (its 16-byte chunk in a row of the span) XOR-ed with bits [7, 7 +
//   B) (its 128-byte row). In elements of E bytes that is Swizzle<B, 4 - log2 E, 3>. The shared
//   tile is 1024-byte aligned, as the 128-byte mode needs for the pattern to start at the tile's
//   first row.
// - ldmatrix: PTX ISA, "ldmatrix" (compute capability 7.5): .m8n8 matrices of 16-bit
//   elements, lanes 8 m .. 8 m + 7 give the addresses of matrix m's eight 16-byte rows; lane l
//   receives row l / 4, elements 2 (l % 4) and 2 (l % 4) + 1 of each matrix (.trans: the
//   transposed matrix's).
//
// Units: sizes and offsets in bytes unless named _elements; cycles are the SM clock (clock64).
// Errors: parameters the lab refuses throw std::invalid_argument with one line before anything
// is launched; a GPU without the TMA (CC < 9.0) or ldmatrix (CC < 7.5) throws
// std::invalid_argument saying so (tile_unsupported() tells it beforehand); CUDA failures throw
// GpuError and leave the lab usable.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpu.h"

namespace warplens::gpu {

/// How the tile reaches shared memory.
enum class TileFill {
  Tma,      ///< one cp.async.bulk.tensor.2d of the whole box (CC 9.0); dense rows
  Threads,  ///< the block's threads store each element where the tile's layout says
};

/// The TMA's shared-memory swizzle modes (CUtensorMapSwizzle), also applied by the threads' fill.
enum class TmaSwizzle { None, B32, B64, B128 };
inline constexpr std::array<TmaSwizzle, 4> kTmaSwizzles = {TmaSwizzle::None, TmaSwizzle::B32,
                                                           TmaSwizzle::B64, TmaSwizzle::B128};
/// "none", "32B", "64B", "128B".
std::string_view to_string(TmaSwizzle swizzle);
/// Reads what to_string writes (also "0", "32", "64", "128"); throws std::invalid_argument.
TmaSwizzle parse_tma_swizzle(std::string_view text);
/// CuTe's B of the mode's Swizzle<B, M, 3>: 0, 1, 2, 3.
int swizzle_bits(TmaSwizzle swizzle);
/// The bytes a swizzled row may span (the mode's 32, 64 or 128); 0 for none.
int swizzle_span_bytes(TmaSwizzle swizzle);

/// The tile: `rows` x `cols` elements of `element_bytes`, element (r, c) of the global tile at
/// element index r x cols + c, its value that index (1-byte elements: its low or high byte).
struct TileParams {
  TileFill fill = TileFill::Tma;
  TmaSwizzle swizzle = TmaSwizzle::B128;
  int element_bytes = 4;  ///< 1, 2 or 4
  int rows = 32;          ///< 1..256 (the box's outer dimension)
  int cols = 32;          ///< elements per row, 1..256 (the box's inner dimension)
  /// Bytes from one shared row to the next; 0: the row's bytes (dense). The TMA writes dense
  /// rows only; the threads' fill may pad (e.g. 144 for 128-byte rows).
  int pitch_bytes = 0;
  friend bool operator==(const TileParams& a, const TileParams& b) {
    return a.fill == b.fill && a.swizzle == b.swizzle && a.element_bytes == b.element_bytes &&
           a.rows == b.rows && a.cols == b.cols && a.pitch_bytes == b.pitch_bytes;
  }
};

/// The shared row pitch in bytes (pitch_bytes, or cols x element_bytes when 0).
int tile_pitch_bytes(const TileParams& tile);
/// rows x pitch: the shared-memory bytes the tile takes.
int tile_shared_bytes(const TileParams& tile);

/// Throws std::invalid_argument naming the problem: element size not 1/2/4, rows or cols outside
/// 1..256, a row not a multiple of 16 bytes, a swizzled TMA row other than its mode's span, a
/// pitch with the TMA, a pitch below the row or not a multiple of 16 bytes, or more than 48 KiB
/// of tile (then every element index fits the 16 bits the read-back gives it).
void check_tile(const TileParams& tile);

/// The layout of the tile in shared memory, in CuTe's notation and in elements: the swizzle
/// mode's Swizzle<B, 4 - log2 E, 3> composed with (rows, cols):(pitch / E, 1), e.g.
/// "Sw<3,2,3> o (32,32):(32,1)" for 4-byte elements under the 128-byte mode; no swizzle for
/// none. Text that model::parse_layout reads.
std::string tile_layout_text(const TileParams& tile);

/// The model's placement: for element k = r x cols + c, the byte offset in the shared tile
/// where the tile's layout (tile_layout_text) puts it. Throws as check_tile.
std::vector<std::int32_t> tile_placement_model(const TileParams& tile);

/// Which warp read of the tile.
enum class TileReadKind {
  Row,       ///< lane i reads element i after (index, 0) in row-major order: 32 elements
  Column,    ///< lane i reads element (i, index); lanes past the tile's rows stay idle
  Ldmatrix,  ///< ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16 of the tile's 16-bit
             ///< elements: lane l gives the address of row index + l % 16, columns 8 (l / 16)
             ///< .. + 7 (matrix m = l / 8: rows 8 (m % 2).., columns 8 (m / 2)..)
};
std::string_view to_string(TileReadKind kind);  ///< "row", "column", "ldmatrix"
/// Reads "row", "column", "ldmatrix"; throws std::invalid_argument.
TileReadKind parse_tile_read(std::string_view text);

struct TileRead {
  TileReadKind kind = TileReadKind::Column;
  int index = 0;       ///< Row: the first row; Column: the column; Ldmatrix: the first row
  int matrices = 4;    ///< Ldmatrix: 1, 2 or 4 (.x1, .x2, .x4)
  bool trans = false;  ///< Ldmatrix: .trans (the addresses, and so the banks, are the same)
  friend bool operator==(const TileRead& a, const TileRead& b) {
    return a.kind == b.kind && a.index == b.index && a.matrices == b.matrices && a.trans == b.trans;
  }
};

/// "row 0", "column 3", "ldmatrix.x4.trans".
std::string tile_read_text(const TileRead& read);

/// Throws std::invalid_argument (after check_tile) for a read the tile cannot serve: a row read
/// past the tile's elements, a column outside it, an ldmatrix of elements that are not 2 bytes,
/// or whose rows (16 for .x2 and .x4, 8 for .x1) or columns (16 for .x4, else 8) leave the tile.
void check_tile_read(const TileParams& tile, const TileRead& read);

/// The warp's addresses: lane i's byte offset in the shared tile (-1: the lane supplies none)
/// and the bytes each active lane's access covers (the element, or an ldmatrix row's 16).
struct TileLanes {
  std::array<std::int32_t, 32> byte_offset{};
  int access_bytes = 4;
  int active = 0;
};
/// From the model's placement (tile_placement_model). Throws as check_tile_read.
TileLanes tile_read_lanes(const TileParams& tile, const TileRead& read);

/// What the GPU cannot run here, in one line ("the TMA needs compute capability 9.0; this GPU
/// is 8.6"), or nullopt. `cc_major`, `cc_minor` of the device.
std::optional<std::string> tile_unsupported(const TileParams& tile, const TileRead* read,
                                            int cc_major, int cc_minor);

/// The tile as the GPU stored it, read back.
struct TilePlacement {
  TileParams tile;
  /// For element k = r x cols + c: the byte offset in the shared tile where the GPU put it, found
  /// by reading the tile back and looking up each value (-1: not found).
  std::vector<std::int32_t> byte_offset;
  /// For each element slot of the shared tile (byte offset / element bytes): the element index
  /// the GPU stored there (-1: a byte no element was written to, the pitch's padding).
  std::vector<std::int32_t> stored_element;
  /// Cycles from the fill's start to its end in the block (the TMA: from the copy's issue to
  /// the mbarrier's completion; 1-byte elements: the first of the two read-back fills).
  double fill_cycles = 0;
};

struct TileReadMeasurement {
  TileParams tile;
  TileRead read;
  int reads = 0;                  ///< read requests warp 0 made in the timed loop
  double cycles_per_request = 0;  ///< clock64 span of the loop / reads
  bool values_ok = false;  ///< every active lane's first read returned the elements the model
                           ///< says its address holds (ldmatrix: the fragments it receives)
  std::string check;       ///< one line: what that check found
  /// The whole GPU, as the bank lab measures its pattern (shared_lab.h, BankMeasurement): as
  /// many one-warp blocks as fit on every SM, each filling its own tile and making `reads`
  /// requests. Bytes are those the lanes receive (active lanes x their access bytes; an
  /// ldmatrix.x4, 512 a request), read from shared memory only.
  int gpu_blocks = 0;
  double gbps = 0;  ///< bytes received / the launch's median event time, 10^9 B/s
  /// Per SM: bytes received / the SM's clock64 span from its first block's first timed read to
  /// its last block's last, averaged over the SMs (median of the runs); the limit is 128 B (32
  /// banks x 4 B per clock).
  double bytes_per_clock_per_sm = 0;
  double fraction_of_limit = 0;  ///< bytes_per_clock_per_sm / 128
  double sm_clock_mhz = 0;       ///< the SMs' clock64 spans over the event time
};

/// The lab's GPU side on one device.
class TileLab {
 public:
  /// Makes the lab's stream and buffers on device `device`. Throws GpuError.
  explicit TileLab(int device = 0);
  ~TileLab();
  TileLab(const TileLab&) = delete;
  TileLab& operator=(const TileLab&) = delete;

  /// Fills the tile (one block) and reads it back. Throws std::invalid_argument (check_tile,
  /// tile_unsupported), GpuError.
  TilePlacement load_tile(const TileParams& tile);

  /// Fills the tile, then warp 0 reads it `reads` times (a multiple of 8, at least 8): the first
  /// read's values checked, the loop timed; then the whole GPU (gpu_blocks ...), 5 timed
  /// launches after one warm-up. Throws as load_tile, and check_tile_read's refusals.
  TileReadMeasurement measure_read(const TileParams& tile, const TileRead& read, int reads = 4096);

  /// Prepares the fill and read and returns a function that makes one launch of them with
  /// `reads` reads (0: the fill alone) and waits for it: what a counter read-out
  /// (CounterSession::profile) replays. A read's wavefronts per request are the difference of two
  /// read-outs (reads r and 0) over the difference of their instructions, which leaves out the
  /// fill's and the mbarrier's own shared-memory work. Valid until the next call on the lab.
  std::function<void()> counter_launch(const TileParams& tile, const TileRead& read, int reads);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace warplens::gpu
