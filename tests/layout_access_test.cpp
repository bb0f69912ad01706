// A CuTe layout as a warp's access (model/layout_access.h): its index expression evaluated by the
// index-expression machinery gives the layout's offsets, for layouts written here and for many
// made at random (swizzles, negative strides, offsets, lane layouts included); lanes outside the
// layout are refused; and a swizzle read down the tile's columns meets the bank model.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "index_expression.h"
#include "layout_access.h"
#include "memory_model.h"

namespace warplens::model {
namespace {

// The expression's value for thread tx, by the machinery analyze and the labs use.
std::int64_t expression_at(IndexExpression& e, std::int64_t tx) {
  ThreadCoordinates t;
  t.tx = tx;
  t.lane = tx % kWarpSize;
  t.bdx = 1024;
  return e.evaluate(t);
}

// Every thread of the access: the expression against evaluate_layout_lane.
void expect_expression_matches(const LayoutAccess& access, std::int64_t threads) {
  const std::string text = layout_index_expression(access);
  IndexExpression e(text);
  for (std::int64_t tx = 0; tx < threads; ++tx) {
    ASSERT_EQ(expression_at(e, tx), evaluate_layout_lane(access, tx).offset)
        << access.layout.text() << " at tx " << tx << ": " << text;
  }
}

TEST(LayoutExpression, TheIssuesExampleReadsAsWritten) {
  EXPECT_EQ(layout_index_expression(parse_layout("(8,4):(32,1)")), "(tx % 8) * 32 + tx / 8");
  EXPECT_EQ(layout_index_expression(parse_layout("32:1")), "tx");
  EXPECT_EQ(layout_index_expression(parse_layout("(_1,32):(_0,_2)")), "tx * 2");
  EXPECT_EQ(layout_index_expression(parse_layout("(4,8):(0,1)")), "tx / 4");
  EXPECT_EQ(layout_index_expression(parse_layout("Sw<3,4,3> o (8,64):(64,1)")),
            "((tx % 8) * 64 + tx / 8) ^ ((((tx % 8) * 64 + tx / 8) & 0x380) >> 3)");
  EXPECT_EQ(layout_index_expression(parse_layout("Sw<2,0,-3> o 32:1")), "tx ^ ((tx & 0x3) << 3)");
  EXPECT_EQ(layout_index_expression(parse_layout("(4,8):(-1,4)"), "lane"),
            "-(lane % 4) + (lane / 4) * 4");
  EXPECT_EQ(layout_index_expression(parse_layout("Sw<1,0,1> o 7 o 1:0")), "7 ^ ((7 & 0x2) >> 1)");
}

TEST(LayoutExpression, WrittenLayoutsGiveTheirOffsets) {
  const char* const layouts[] = {
      "(8,4):(32,1)",
      "(2,(2,2)):(4,(2,1))",
      "(3,(2,3)):(3,(12,1))",
      "((4,2),(2,2)):((2,1),(8,16))",
      "(32,32):(1,33)",
      "(32,32):(32,1)",
      "(4,(2,4)):(1,(16,4))",
      "(_8,_64):(_64,_1)",
      "Swizzle<3,4,3> o (8,64):(64,1)",
      "Swizzle<3,3,3> o (8,64):(64,1)",
      "Swizzle<2,0,3> o (8,8):(8,1)",
      "Swizzle<3,0,-3> o (8,8):(8,1)",
      "Swizzle<2,1,3> o ((2,2,2),(2,2,2)):((32,2,8),(4,1,16))",  // swizzle_layout.cpp's
      "Sw<3,4,3> o 64 o (16,16):(1,16)",
      "(8,4):(-1,8)",
      "(1,32,1):(5,3,7)",
  };
  for (const char* text : layouts) {
    SCOPED_TRACE(text);
    const LayoutAccess access = parse_layout_access(text);
    expect_expression_matches(access, access.layout.size());
  }
}

// A random shape: extents 1..8, tuples of 1..3 modes nested up to two levels, at most `leaves`
// extents in all.
IntTuple random_shape(std::mt19937& rng, int depth, int& leaves) {
  std::uniform_int_distribution<int> modes(1, 3), extent(1, 8), nest(0, 3);
  std::vector<IntTuple> m;
  const int n = modes(rng);
  for (int i = 0; i < n && leaves > 0; ++i) {
    if (depth < 2 && nest(rng) == 0) {
      m.push_back(random_shape(rng, depth + 1, leaves));
    } else {
      m.push_back(IntTuple::leaf(extent(rng)));
      --leaves;
    }
  }
  if (m.empty()) m.push_back(IntTuple::leaf(extent(rng)));
  return IntTuple::tuple(std::move(m));
}

// One with at most 6 extents and 4096 indices.
IntTuple random_shape(std::mt19937& rng) {
  for (;;) {
    int leaves = 6;
    IntTuple shape = random_shape(rng, 0, leaves);
    if (shape.product() <= 4096) return shape;
  }
}

IntTuple random_stride_like(std::mt19937& rng, const IntTuple& shape) {
  if (!shape.is_tuple) return IntTuple::leaf(std::uniform_int_distribution<int>(-40, 80)(rng));
  std::vector<IntTuple> m;
  for (const auto& mode : shape.modes) m.push_back(random_stride_like(rng, mode));
  return IntTuple::tuple(std::move(m));
}

TEST(LayoutExpression, RandomLayoutsAndSwizzlesGiveTheirOffsets) {
  std::mt19937 rng(20261127);
  int layouts = 0, swizzled = 0;
  for (int round = 0; round < 400; ++round) {
    const IntTuple shape = random_shape(rng);
    std::string text;
    std::uniform_int_distribution<int> coin(0, 2);
    if (coin(rng) != 0) {
      const int b = std::uniform_int_distribution<int>(0, 3)(rng);
      const int m = std::uniform_int_distribution<int>(0, 4)(rng);
      int s = std::uniform_int_distribution<int>(b == 0 ? 0 : b, 5)(rng);
      if (coin(rng) == 0) s = -s;
      text = "Swizzle<" + std::to_string(b) + "," + std::to_string(m) + "," + std::to_string(s) +
             "> o " + std::to_string(std::uniform_int_distribution<int>(0, 3)(rng) * 100) + " o ";
      ++swizzled;
    }
    text += shape.text();
    if (coin(rng) != 0) text += ":" + random_stride_like(rng, shape).text();  // else compact
    SCOPED_TRACE(text);
    const LayoutAccess access = parse_layout_access(text);
    expect_expression_matches(access, access.layout.size());
    ++layouts;
  }
  EXPECT_EQ(layouts, 400);
  EXPECT_GT(swizzled, 200);
}

TEST(LayoutExpression, LaneLayoutsPickEachThreadsCoordinate) {
  // A permutation of 32 lanes over a 32-element layout, and a TV layout ((32),(4)) over 128
  // elements: thread tx takes value 0, index tx * 4.
  const LayoutAccess perm = parse_layout_access("(8,4):(32,1)", "(4,8):(8,1)");
  expect_expression_matches(perm, 32);
  EXPECT_EQ(evaluate_layout_lane(perm, 1).index, 8);
  EXPECT_EQ(evaluate_layout_lane(perm, 1).offset, 1);  // index 8 is (0,1) of (8,4)
  const LayoutAccess tv = parse_layout_access("Sw<3,4,3> o (8,64):(64,1)", "((32),(4)):((4),(1))");
  expect_expression_matches(tv, 32);
  EXPECT_EQ(evaluate_layout_lane(tv, 3).index, 12);
  EXPECT_EQ(evaluate_layout_lane(tv, 3).coordinate.text(), "(4,1)");
  // Random permutations of (2,4,4) as lane layouts.
  std::mt19937 rng(7);
  for (int round = 0; round < 50; ++round) {
    std::vector<int> order = {0, 1, 2};
    std::shuffle(order.begin(), order.end(), rng);
    const int extents[3] = {2, 4, 4};
    int stride[3] = {0, 0, 0}, running = 1;
    for (const int mode : order) {
      stride[mode] = running;
      running *= extents[mode];
    }
    const std::string lanes = "(2,4,4):(" + std::to_string(stride[0]) + "," +
                              std::to_string(stride[1]) + "," + std::to_string(stride[2]) + ")";
    SCOPED_TRACE(lanes);
    expect_expression_matches(parse_layout_access("Swizzle<2,2,3> o (8,16):(16,1)", lanes), 32);
  }
}

TEST(LayoutAccess, ThreadsOutsideTheLayoutAreRefused) {
  const LayoutAccess small = parse_layout_access("(4,4):(4,1)");
  EXPECT_NO_THROW(check_layout_threads(small, 16));
  EXPECT_THROW(check_layout_threads(small, 32), LayoutError);
  const LayoutAccess outside = parse_layout_access("(8,4):(32,1)", "32:2");  // 2 tx up to 62
  EXPECT_NO_THROW((void)evaluate_layout_lane(outside, 15));
  try {
    (void)evaluate_layout_lane(outside, 16);
    FAIL();
  } catch (const LayoutError& e) {
    EXPECT_NE(std::string(e.what()).find("tx = 16"), std::string::npos) << e.what();
  }
}

// --- the bank model --------------------------------------------------------------------------

// The warp's lanes 0..31 (block 32x1) reading the access's offsets in words of `word_bytes`.
WarpAccesses lanes_of(const LayoutAccess& access, int word_bytes) {
  WarpAccesses lanes{};
  for (int i = 0; i < kWarpSize; ++i) {
    lanes[i].lane = i;
    lanes[i].active = true;
    lanes[i].tx = i;
    lanes[i].index = evaluate_layout_lane(access, i).offset;
    lanes[i].address = lanes[i].index * word_bytes;
  }
  return lanes;
}

// Wavefronts counted here from the banks alone: the most distinct 4-byte words one bank serves
// (words up to 4 bytes: one phase).
int most_words_in_a_bank(const WarpAccesses& lanes) {
  std::vector<std::vector<std::int64_t>> words(32);
  for (const auto& l : lanes) {
    const std::int64_t word = l.address / 4;
    auto& bank = words[word % 32];
    if (std::find(bank.begin(), bank.end(), word) == bank.end()) bank.push_back(word);
  }
  std::size_t most = 0;
  for (const auto& bank : words) most = std::max(most, bank.size());
  return static_cast<int>(most);
}

TEST(LayoutBanks, Swizzle343AgainstThePlainTileReadDownItsColumns) {
  // Lane i takes coordinate i of the 8 x 64 row-major tile: lanes 0..7 read column 0 top to
  // bottom, lanes 8..15 column 1, and so on (first mode fastest).
  const LayoutAccess plain = parse_layout_access("(8,64):(64,1)");
  const LayoutAccess swizzled = parse_layout_access("Swizzle<3,4,3> o (8,64):(64,1)");
  EXPECT_EQ(evaluate_layout_lane(plain, 9).coordinate.text(), "(1,1)");
  for (const int word_bytes : {2, 4}) {
    SCOPED_TRACE(word_bytes);
    const WarpAccesses p = lanes_of(plain, word_bytes), s = lanes_of(swizzled, word_bytes);
    const SharedAnalysis ap = analyze_shared(p, word_bytes, Op::Load);
    const SharedAnalysis as = analyze_shared(s, word_bytes, Op::Load);
    EXPECT_EQ(ap.wavefronts, most_words_in_a_bank(p));
    EXPECT_EQ(as.wavefronts, most_words_in_a_bank(s));
    EXPECT_LT(as.wavefronts, ap.wavefronts) << "the swizzle spreads the column over more banks";
    // The same numbers from the expression through the pattern machinery.
    AccessPattern pattern;
    pattern.space = Space::Shared;
    pattern.word_bytes = word_bytes;
    pattern.index = layout_index_expression(swizzled);
    EXPECT_EQ(analyze_shared(evaluate_lanes(pattern), word_bytes, Op::Load).wavefronts,
              as.wavefronts);
  }
}

}  // namespace
}  // namespace warplens::model
