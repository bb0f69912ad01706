// The memory-system model: what one warp's access costs, given its lane addresses.
//
// Rules (design.md, "Memory-system facts"; NVIDIA CUDA C++ Programming Guide, compute
// capability sections; checked with Nsight Compute on an H100):
//
// Global, modern (CC >= 7.0): one warp instruction is one request. Memory moves in 32-byte
//   sectors; a 128-byte line holds 4 sectors. Sectors per request = distinct sectors the active
//   lanes touch, for every word size; stores count the same way.
// Global, historical teaching models (Programming Guide, CC 2.x/3.x/1.x sections):
//   fermi-ca  caching loads: the warp's request is split per 128 bytes of words (half-warps for
//             8-byte words, quarter-warps for 16-byte words); each part costs one 128-byte
//             transaction per distinct line. Stores bypass L1 and cost 32-byte segments.
//   fermi-cg  L2-only loads (-dlcm=cg): same split, 32-byte segments.
//   kepler    global loads are L2-only by default on CC 3.x: as fermi-cg.
//   g80       CC 1.0/1.1: a request per half-warp; it coalesces into one 64-byte (4-byte words),
//             one 128-byte (8-byte) or two 128-byte (16-byte) transactions only when active
//             thread k accesses word k of a segment aligned to 16 words; otherwise every active
//             thread costs its own 32-byte transaction. 1- and 2-byte words never coalesce.
// Shared: successive 4-byte words in successive banks (32 banks). A phase carries up to 256 bytes
//   of lane data: the whole warp for 1/2/4/8-byte words, a half-warp for 16-byte words. Each
//   phase costs as many wavefronts as the largest number of *distinct 4-byte words* one bank
//   must serve; lanes reading one word share it (broadcast), sub-word accesses to one word too.
//   So 32 distinct 8-byte words take at least 2 wavefronts and 16-byte words at least 4, as in
//   the Programming Guide; but all lanes on one 8-byte word take 1 wavefront and on one 16-byte
//   word 2 (measured with CUPTI's l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld on an H100,
//   `warplens verify`), which the Guide's half-/quarter-warp phases (2 and 4) do not give.
//   g80: 16 banks, phases of half-warps (quarter for 8-byte, eighth for 16-byte words).
//   kepler: 8-byte bank mode: 32 banks of 8 bytes; phases are the whole warp for words up to
//   8 bytes, half-warps for 16-byte words.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "access_pattern.h"

namespace warplens::model {

inline constexpr int kSectorBytes = 32;
inline constexpr int kLineBytes = 128;

enum class HardwareModel { Modern, FermiCaching, FermiL2Only, Kepler, G80 };

/// Parses modern | fermi-ca | fermi-cg | kepler | g80; throws PatternError otherwise.
HardwareModel parse_hardware_model(std::string_view text);
std::string_view to_string(HardwareModel model);
/// One line for the window: which generation the model stands for.
std::string_view describe(HardwareModel model);
/// The same, short enough for a projector's footer at 3x ("modern (CC 7.0+)").
std::string_view describe_short(HardwareModel model);

/// Bytes [begin, end) from the buffer base.
struct ByteRange {
  std::int64_t begin = 0, end = 0;
  friend bool operator==(const ByteRange&, const ByteRange&) = default;
};

struct GlobalLane {
  LaneAccess access;
  std::int64_t sector = 0;  ///< address / 32
  std::int64_t line = 0;    ///< address / 128
};

struct GlobalAnalysis {
  HardwareModel model = HardwareModel::Modern;
  Op op = Op::Load;
  int word_bytes = 4;
  std::array<GlobalLane, kWarpSize> lanes{};
  int active_lanes = 0;
  std::vector<std::int64_t> sectors;     ///< distinct sector numbers touched, ascending
  std::vector<std::int64_t> lines;       ///< distinct line numbers touched, ascending
  int requests = 1;                      ///< memory requests the instruction is split into
  int transactions = 0;                  ///< transactions of the chosen model (modern: sectors)
  int transaction_bytes = kSectorBytes;  ///< bytes per transaction (0 if they differ)
  std::int64_t requested_bytes = 0;      ///< distinct bytes the active lanes need
  std::int64_t moved_bytes = 0;          ///< transactions' bytes
  /// The bytes each transaction moves (modern: one 32-byte range per sector; fermi-ca loads:
  /// 128-byte lines; g80: a coalesced half-warp's segment or one 32-byte segment per thread).
  /// A range two sub-requests both fetch appears twice.
  std::vector<ByteRange> transaction_ranges;
  /// requested / moved (1 = perfectly coalesced); 0 when nothing moves.
  [[nodiscard]] double efficiency() const {
    return moved_bytes ? static_cast<double>(requested_bytes) / static_cast<double>(moved_bytes)
                       : 0.0;
  }
};

struct SharedLane {
  LaneAccess access;
  int bank = 0;        ///< bank of the first bank-width word the lane touches
  int bank_words = 1;  ///< bank-width words the lane touches (word bytes / bank width, >= 1)
  int phase = 0;
};

struct SharedPhase {
  int first_lane = 0;
  int lane_count = 0;
  int wavefronts = 0;  ///< max distinct words any one bank serves in this phase
  /// The fewest wavefronts the phase's distinct words could take, ceil(words / banks): the
  /// phase is conflict-free when wavefronts equals it.
  int min_wavefronts = 0;
  std::vector<int> distinct_words_per_bank;  ///< one entry per bank
  bool broadcast = false;                    ///< some word is read by more than one active lane
};

struct SharedAnalysis {
  HardwareModel model = HardwareModel::Modern;
  Op op = Op::Load;
  int word_bytes = 4;
  int bank_count = 32;
  int bank_width_bytes = 4;
  std::array<SharedLane, kWarpSize> lanes{};
  int active_lanes = 0;
  std::vector<SharedPhase> phases;
  int wavefronts = 0;      ///< per request: sum over phases
  int min_wavefronts = 0;  ///< per request: sum over phases of their minimum (no conflict)
  bool broadcast = false;
  std::int64_t requested_bytes = 0;  ///< distinct bytes the active lanes need
  std::int64_t moved_bytes = 0;      ///< wavefronts x banks x bank width
  /// Shared memory's efficiency: wavefronts needed / wavefronts used (min_wavefronts /
  /// wavefronts), 1 = conflict-free. A broadcast (all lanes on one word) takes one wavefront,
  /// the minimum, so it is 1 like any conflict-free access; an n-way conflict is 1/n. 0 when
  /// nothing is accessed. (The byte ratio would call a broadcast 4 of 128 bytes, 3.1 %, though
  /// no access can be served faster.)
  [[nodiscard]] double efficiency() const {
    return wavefronts ? static_cast<double>(min_wavefronts) / static_cast<double>(wavefronts) : 0.0;
  }
  /// requested / moved bytes: how much of the banks' width the distinct words fill (a broadcast
  /// fills one bank of 32); analyze's JSON `byte_efficiency`.
  [[nodiscard]] double byte_efficiency() const {
    return moved_bytes ? static_cast<double>(requested_bytes) / static_cast<double>(moved_bytes)
                       : 0.0;
  }
};

/// Lanes per global request: the whole warp for the modern model; a historical model splits
/// the instruction per 128 bytes of words (g80: per half-warp).
int global_request_lanes(int word_bytes, HardwareModel model);

/// Analyses one warp's global request from its lane accesses (from the model or a GPU trace).
/// word_bytes must be 1, 2, 4, 8 or 16 and addresses multiples of it.
GlobalAnalysis analyze_global(const WarpAccesses& lanes, int word_bytes, Op op,
                              HardwareModel model = HardwareModel::Modern);

/// Analyses one warp's shared-memory request from its lane accesses.
SharedAnalysis analyze_shared(const WarpAccesses& lanes, int word_bytes, Op op,
                              HardwareModel model = HardwareModel::Modern);

/// Lanes per phase for shared accesses of this word size under the model.
int shared_phase_lanes(int word_bytes, HardwareModel model);

}  // namespace warplens::model
