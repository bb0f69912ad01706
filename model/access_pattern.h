// AccessPattern: one warp's memory instruction as a value (cheap to copy, compare and print).
//
// The element index each lane uses comes from an index expression (index_expression.h); the
// byte address is base + index * word_bytes, where the base is 256-byte aligned as cudaMalloc
// returns, and addresses here are byte offsets from that base.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace warplens::model {

inline constexpr int kWarpSize = 32;
inline constexpr std::int64_t kBaseAlignmentBytes = 256;  // cudaMalloc's guarantee

enum class Space { Global, Shared };
enum class Op { Load, Store };

/// Thrown for a pattern that cannot be analysed: bad word size, block shape or warp, an
/// unparsable expression, or a negative element index. what() is one line naming the problem.
class PatternError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

struct BlockShape {
  int x = 32;  ///< threads, fastest-varying
  int y = 1;   ///< threads
  [[nodiscard]] int threads() const { return x * y; }
  [[nodiscard]] int warps() const { return (threads() + kWarpSize - 1) / kWarpSize; }
  friend bool operator==(const BlockShape&, const BlockShape&) = default;
};

struct AccessPattern {
  Space space = Space::Global;
  Op op = Op::Load;
  int word_bytes = 4;  ///< bytes each lane accesses: 1, 2, 4, 8 or 16
  BlockShape block{};  ///< threads per block (x fastest); lanes of warp N = tids 32N..32N+31
  std::string index = "lane";    ///< element index expression (see index_expression.h)
  int warp = 0;                  ///< which warp of the block
  BlockShape grid{1, 1};         ///< blocks in the grid (gdx, gdy)
  BlockShape block_index{0, 0};  ///< the block's index in the grid (bx, by), < grid

  friend bool operator==(const AccessPattern&, const AccessPattern&) = default;

  /// Throws PatternError unless word size, block shape, warp, grid, block index and expression
  /// syntax are valid.
  void validate() const;
};

/// Parses "global"/"shared", "load"/"store" and "XxY" (e.g. "32x8"); throws PatternError.
Space parse_space(std::string_view text);
Op parse_op(std::string_view text);
BlockShape parse_block(std::string_view text);
std::string_view to_string(Space space);
std::string_view to_string(Op op);
std::string to_string(const BlockShape& block);

/// One lane's access. Inactive lanes (past the end of a block smaller than a full warp) have
/// active = false and index/address 0.
struct LaneAccess {
  int lane = 0;
  bool active = false;
  int tx = 0, ty = 0;
  std::int64_t index = 0;    ///< elements
  std::int64_t address = 0;  ///< bytes from the 256-byte aligned base
};

using WarpAccesses = std::array<LaneAccess, kWarpSize>;

/// Evaluates the pattern's expression for each lane of its warp. Throws PatternError for an
/// invalid pattern or a negative index (naming the lane and value).
WarpAccesses evaluate_lanes(const AccessPattern& pattern);

/// A one-line, human-readable summary, e.g. "global load, 4-byte words, index lane, block 32x1,
/// warp 0".
std::string describe(const AccessPattern& pattern);

}  // namespace warplens::model
