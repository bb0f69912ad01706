#include "access_pattern.h"

#include <charconv>

#include "index_expression.h"

namespace warplens::model {

namespace {
bool valid_word_bytes(int w) {
  return w == 1 || w == 2 || w == 4 || w == 8 || w == 16;
}
}  // namespace

void AccessPattern::validate() const {
  if (!valid_word_bytes(word_bytes)) {
    throw PatternError("word bytes must be 1, 2, 4, 8 or 16 (got " + std::to_string(word_bytes) +
                       ")");
  }
  // Each side first: x * y overflows int for sides past 2^16 (analyze --block 1788246478x32).
  if (block.x < 1 || block.y < 1 || block.x > 1024 || block.y > 1024 || block.threads() > 1024) {
    throw PatternError("block " + to_string(block) +
                       " is not a CUDA block shape (x, y >= 1, at most 1024 threads)");
  }
  if (warp < 0 || warp >= block.warps()) {
    throw PatternError("warp " + std::to_string(warp) + " is not in block " + to_string(block) +
                       " (it has warps 0.." + std::to_string(block.warps() - 1) + ")");
  }
  if (grid.x < 1 || grid.y < 1 || grid.y > 65535) {
    throw PatternError("grid " + to_string(grid) +
                       " is not a CUDA grid (x in 1..2^31-1, y in 1..65535 blocks)");
  }
  if (block_index.x < 0 || block_index.y < 0 || block_index.x >= grid.x ||
      block_index.y >= grid.y) {
    throw PatternError("block index " + to_string(block_index) + " is not in grid " +
                       to_string(grid));
  }
  try {
    IndexExpression expression(index);
  } catch (const IndexExpressionError& e) {
    throw PatternError(e.what());
  }
}

Space parse_space(std::string_view text) {
  if (text == "global") return Space::Global;
  if (text == "shared") return Space::Shared;
  throw PatternError("space must be global or shared (got \"" + std::string(text) + "\")");
}

Op parse_op(std::string_view text) {
  if (text == "load") return Op::Load;
  if (text == "store") return Op::Store;
  throw PatternError("op must be load or store (got \"" + std::string(text) + "\")");
}

BlockShape parse_block(std::string_view text) {
  const auto bad = [&] {
    return PatternError("block must be XxY with positive integers, e.g. 32x8 (got \"" +
                        std::string(text) + "\")");
  };
  const auto x_pos = text.find_first_of("xX");
  if (x_pos == std::string_view::npos) throw bad();
  BlockShape block;
  const auto parse = [&](std::string_view part, int& value) {
    const auto* end = part.data() + part.size();
    const auto [ptr, ec] = std::from_chars(part.data(), end, value);
    if (ec != std::errc() || ptr != end || part.empty() || value < 1) throw bad();
  };
  parse(text.substr(0, x_pos), block.x);
  parse(text.substr(x_pos + 1), block.y);
  return block;
}

std::string_view to_string(Space space) {
  return space == Space::Global ? "global" : "shared";
}
std::string_view to_string(Op op) {
  return op == Op::Load ? "load" : "store";
}
std::string to_string(const BlockShape& block) {
  return std::to_string(block.x) + "x" + std::to_string(block.y);
}

WarpAccesses evaluate_lanes(const AccessPattern& pattern) {
  pattern.validate();
  IndexExpression expression(pattern.index);
  WarpAccesses lanes{};
  for (int lane = 0; lane < kWarpSize; ++lane) {
    LaneAccess& a = lanes[lane];
    a.lane = lane;
    const int tid = pattern.warp * kWarpSize + lane;
    if (tid >= pattern.block.threads()) continue;  // past the end of the block: inactive
    a.active = true;
    a.tx = tid % pattern.block.x;
    a.ty = tid / pattern.block.x;
    try {
      a.index = expression.evaluate({.lane = lane,
                                     .tx = a.tx,
                                     .ty = a.ty,
                                     .bdx = pattern.block.x,
                                     .bdy = pattern.block.y,
                                     .warp = pattern.warp,
                                     .bx = pattern.block_index.x,
                                     .by = pattern.block_index.y,
                                     .gdx = pattern.grid.x,
                                     .gdy = pattern.grid.y});
    } catch (const IndexExpressionError& e) {
      throw PatternError(e.what());
    }
    if (a.index < 0) {
      throw PatternError("index expression \"" + pattern.index + "\" gives " +
                         std::to_string(a.index) + " for lane " + std::to_string(lane) +
                         " (tx=" + std::to_string(a.tx) + ", ty=" + std::to_string(a.ty) +
                         "); element indices must be >= 0");
    }
    a.address = a.index * pattern.word_bytes;
  }
  return lanes;
}

std::string describe(const AccessPattern& p) {
  return std::string(to_string(p.space)) + " " + std::string(to_string(p.op)) + ", " +
         std::to_string(p.word_bytes) + "-byte words, index " + p.index + ", block " +
         to_string(p.block) + ", warp " + std::to_string(p.warp);
}

}  // namespace warplens::model
