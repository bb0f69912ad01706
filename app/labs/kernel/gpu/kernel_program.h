// "Your kernel" (issue 15): a kernel the student writes as a table of access rows, which every
// thread of the grid executes in order. This header is its host side, in every build: the
// program as a value, its checks, the host evaluation of a warp's accesses through the memory
// model, the host simulation of the whole grid (what `out` must hold), and the CUDA C++ source
// WarpLens generates for it. The GPU side (NVRTC, driver API, timing) is kernel_lab.h.
//
// The program:
//   buffers  `in` and `out` in global memory and `tile` in shared memory (one per block), each
//            `elements` words of `word_bytes` (the buffer's own word size: what the source
//            declares; its size in bytes is elements x word_bytes; the tile 0 .. 227 KiB, the
//            dynamic shared memory of the launch rounded up to 16 bytes). `in` is filled before
//            every launch with 32-bit words holding their own word index (in's 4-byte word k holds
//            k), `out` is zeroed, and the generated kernel clears the tile before the first row
//            unless every tile load reads bytes a row stored first (tile_loads_read_stored_words).
//   rows     1 .. 8 access rows, run in order by every thread: a space (in, out, tile), load or
//            store, a word size (1, 2, 4, 8, 16 bytes: what the lane moves), a load path for
//            global loads (default, __ldcg, __ldg), an element index in the analyze grammar
//            (index_expression.h: lane, tx, ty, bdx, bdy, warp, bx, by, gdx, gdy and the
//            program's constants), and optionally __syncthreads() after the row.
//   units    a row's index counts words of the ROW's word size (as analyze's does): the lane's
//            byte offset is index x row word bytes from the buffer's base (256-byte aligned
//            global, the tile's start for shared). A lane accesses memory only when
//            0 <= offset and offset + row word bytes <= the buffer's bytes; otherwise it is
//            out of range and skips the access (the generated code checks every access).
//   values   each thread holds one 16-byte value: a load of W bytes replaces it with the W bytes
//            read (zero-extended), a store of W bytes writes its low W bytes. Before its first
//            load the value is the thread's linear id in the grid (64-bit, zero-extended):
//            ((by x gdx + bx) x bdy + ty) x bdx + tx.
//
// Errors: refused programs throw std::invalid_argument with one line naming the row (1-based)
// and, for an expression, the column (1-based) muParser points at where it knows it. Host
// evaluation errors (division by zero, shift counts outside 0..31, intermediates outside the
// 32-bit range) throw std::invalid_argument with analyze's message and the thread's
// coordinates.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpu.h"
#include "index_expression.h"
#include "memory_model.h"

namespace warplens::gpu {

inline constexpr int kMaxKernelRows = 8;
inline constexpr int kMaxKernelConstants = 4;
inline constexpr std::int64_t kMaxKernelTileBytes = 227 * 1024;  ///< the H100's opt-in limit
/// The largest buffer a program may ask for, bytes (each of `in` and `out`).
inline constexpr std::int64_t kMaxKernelBufferBytes = std::int64_t{4} << 30;
/// Thread-row evaluations the host spends on checking and simulating the whole grid (about a
/// second): past it, the host checks the traced block and the grid's first and last blocks
/// only, and `out` is not verified (KernelSimulation::complete says so).
inline constexpr std::int64_t kHostEvaluationBudget = std::int64_t{1} << 23;

/// The largest `in` or `out` the host simulates, bytes (its bookkeeping takes 5x that).
inline constexpr std::int64_t kHostSimulationBytes = std::int64_t{32} << 20;

enum class KernelSpace { In, Out, Tile };
const char* to_string(KernelSpace space);                 ///< in | out | tile
KernelSpace parse_kernel_space(const std::string& text);  ///< throws std::invalid_argument

/// One access row.
struct KernelRow {
  KernelSpace space = KernelSpace::In;
  model::Op op = model::Op::Load;
  int word_bytes = 4;                 ///< bytes each lane moves: 1, 2, 4, 8 or 16
  LoadPath path = LoadPath::Default;  ///< global loads only (tile rows and stores: default)
  std::string index = "bx*bdx + tx";  ///< element index (words of word_bytes), analyze grammar
  bool sync_after = false;            ///< __syncthreads() after the row
  /// The CuTe layout (and the lanes' layout, empty: lane i takes coordinate i) that `index` was
  /// made from (model/layout_access.h: layout_index_expression); empty for a row written as an
  /// index. The index is what runs; the layout is kept to show and to write back to a preset.
  std::string layout{}, lane_layout{};
  friend bool operator==(const KernelRow&, const KernelRow&) = default;
};

/// A global buffer: elements x word_bytes bytes.
struct KernelBuffer {
  std::int64_t elements = 1 << 20;
  int word_bytes = 4;  ///< 1, 2, 4, 8 or 16
  [[nodiscard]] std::int64_t bytes() const { return elements * word_bytes; }
  friend bool operator==(const KernelBuffer&, const KernelBuffer&) = default;
};

struct KernelProgram {
  model::BlockShape block{32, 8};  ///< threads, x fastest; 1 .. 1024 in all
  model::BlockShape grid{1, 1};    ///< blocks; x in 1..2^31-1, y in 1..65535
  KernelBuffer in, out;
  KernelBuffer tile{0, 4};                      ///< per block, 0 .. kMaxKernelTileBytes bytes
  std::vector<model::NamedConstant> constants;  ///< 0 .. kMaxKernelConstants
  std::vector<KernelRow> rows;                  ///< 1 .. kMaxKernelRows
  friend bool operator==(const KernelProgram&, const KernelProgram&) = default;

  [[nodiscard]] std::int64_t threads() const {
    return std::int64_t{block.threads()} * grid.x * grid.y;
  }
  /// Bytes of `space`.
  [[nodiscard]] std::int64_t space_bytes(KernelSpace space) const;
};

/// Throws std::invalid_argument (one line, naming the row and column) unless the program is
/// valid: block, grid, tile, buffers, constants (model::check_constant), 1..8 rows with valid
/// word sizes, load paths (__ldg only on `in`, and only when no row stores to it; none on tile
/// or stores), a tile row only with a tile, and expressions that parse. Buffers of at most
/// kMaxKernelBufferBytes, elements >= 1 for in and out.
/// `max_tile_bytes`: the device's opt-in limit (kMaxKernelTileBytes without a device).
void check_program(const KernelProgram& program, std::int64_t max_tile_bytes = kMaxKernelTileBytes);

/// Which warp the model shows and the instrumented launch traces.
struct TracedWarp {
  int block_x = 0, block_y = 0;  ///< blockIdx
  int warp = 0;                  ///< of the block
  friend bool operator==(const TracedWarp&, const TracedWarp&) = default;
};
/// Throws std::invalid_argument unless `warp` lies in the program's grid and block.
void check_traced_warp(const KernelProgram& program, const TracedWarp& warp);

/// One row as the model sees the traced warp do it.
struct KernelRowModel {
  model::WarpAccesses lanes{};  ///< active = the lane exists and its access is in range
  int out_of_range_lanes = 0;   ///< lanes of the warp whose index left the buffer
  std::optional<model::GlobalAnalysis> global;  ///< in / out rows
  std::optional<model::SharedAnalysis> shared;  ///< tile rows
  /// Sectors per request (global) or wavefronts per request (shared): the number compared.
  [[nodiscard]] int cost() const;
  [[nodiscard]] const char* cost_unit() const { return global ? "sectors" : "wavefronts"; }
};

/// Element index and byte offset of every lane of `warp` for every row, and the model's verdict
/// per row (`hw` picks the memory model). Throws std::invalid_argument for an invalid program
/// or warp, or an expression that cannot be evaluated for one of its lanes.
std::vector<KernelRowModel> model_warp(const KernelProgram& program, const TracedWarp& warp,
                                       model::HardwareModel hw = model::HardwareModel::Modern);

/// model_warp for several warps at once (the expressions parsed once): one vector of rows per
/// warp, in `warps`' order. Throws as model_warp.
std::vector<std::vector<KernelRowModel>> model_warps(
    const KernelProgram& program, const std::vector<TracedWarp>& warps,
    model::HardwareModel hw = model::HardwareModel::Modern);

/// The model's verdict of lanes the GPU traced for `row` (records of one warp, kTraceLanes).
KernelRowModel analyze_traced_row(const KernelProgram& program, int row,
                                  const LaneTraceRecord* records,
                                  model::HardwareModel hw = model::HardwareModel::Modern);

/// The whole grid on the host: every thread's rows, in the order a race-free program makes
/// unambiguous, giving what `out` must hold after one launch.
struct KernelSimulation {
  /// False when the grid is past kHostEvaluationBudget or a buffer past kHostSimulationBytes:
  /// nothing below was computed but the checked blocks' expressions; `why_incomplete` says.
  bool complete = false;
  std::string why_incomplete;
  std::vector<std::uint8_t> out;  ///< expected bytes of `out` (complete only)
  /// Bytes of `out` whose final value the program leaves to the hardware (two threads store
  /// different values, or a thread loads a word another thread of the launch stores): not
  /// compared. 1 = ambiguous.
  std::vector<std::uint8_t> ambiguous;
  std::int64_t ambiguous_bytes = 0;
  /// Tile words one thread reads while another thread of the block writes them in the same
  /// sync interval (a race the program should fix with __syncthreads()), all blocks.
  std::int64_t tile_races = 0;
  /// Lanes per row, over the whole grid, whose access was out of range (complete only).
  std::vector<std::int64_t> out_of_range;
  std::int64_t evaluations = 0;  ///< thread-row evaluations done
};

/// Evaluates every thread's index of every row (or, past the budget, those of the blocks
/// model_warp's block and the grid's first and last), rejecting the program with analyze's
/// message when one cannot be evaluated; then simulates the launch when within the budget.
/// Throws std::invalid_argument.
KernelSimulation simulate_program(const KernelProgram& program, const TracedWarp& traced = {});

/// The initial contents of `in`, byte `b` of the buffer: in's 4-byte word b/4 holds b/4.
inline std::uint8_t in_byte(std::int64_t b) {
  return static_cast<std::uint8_t>((static_cast<std::uint64_t>(b / 4) >> (8 * (b % 4))) & 0xff);
}

/// Bytes the program asks to read + write over one launch, counting the lanes in range of the
/// global rows (in and out, not tile) x their word bytes: what GB/s divides by.
/// `out_of_range`: lanes per row out of range over the grid (the GPU's counters or the
/// simulation's); empty: every lane in range.
std::int64_t requested_global_bytes(const KernelProgram& program,
                                    const std::vector<std::int64_t>& out_of_range);

/// The CUDA C++ source of the program: deterministic text a student can paste into a .cu file.
/// It defines `extern "C" __global__ void warplens_kernel(...)`; the tracing arguments may be
/// null (the timed launches pass null; the instrumented one a buffer of rows x 32
/// LaneTraceRecords for the warp it names, and one 64-bit out-of-range counter per row).
std::string generate_source(const KernelProgram& program);
/// The same with the tile check's answer given (`clear_tile`: !tile_loads_read_stored_words, as
/// KernelTotals::tile_cleared holds it), so an edit runs the check once.
std::string generate_source(const KernelProgram& program, bool clear_tile);

/// Thread-row evaluations tile_loads_read_stored_words spends on every block; larger grids are
/// checked on three blocks.
inline constexpr std::int64_t kTileCheckEvaluations = std::int64_t{1} << 16;

/// Whether every tile load reads only bytes that an earlier row of the block stored, with a
/// __syncthreads() between the store and the load, on every block (grids within
/// kTileCheckEvaluations) or on the first, middle and last blocks (a program whose other blocks
/// read words no row stored reads uninitialised shared memory there). Then the generated kernel
/// does not clear the tile first (the clearing costs a barrier and a store per 16 bytes: 17 % of
/// the tiled transpose's bandwidth on an H200); otherwise it does, so no load reads uninitialised
/// shared memory. Throws std::invalid_argument as check_program.
bool tile_loads_read_stored_words(const KernelProgram& program);

/// The kernel's name in the generated source.
inline constexpr const char* kKernelEntry = "warplens_kernel";

/// The trace buffer's size for `rows` rows, bytes.
inline std::int64_t kernel_trace_bytes(int rows) {
  return std::int64_t{rows} * kTraceLanes * static_cast<std::int64_t>(sizeof(LaneTraceRecord));
}

}  // namespace warplens::gpu
