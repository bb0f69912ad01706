// Access patterns before the model counts anything: lanes evaluated from an index expression and a
// block shape, spaces/ops/blocks/models parsed and named, and the errors a bad pattern gives.
#include "model_test_support.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace warplens::model::test {
namespace {

// --- Lane evaluation -------------------------------------------------------------------------

TEST(EvaluateLanesTest, FullWarpAddressesAreIndexTimesWordBytes) {
  const WarpAccesses lanes = evaluate_lanes(pattern("3 * lane + 1", 8));
  for (int l = 0; l < kWarpSize; ++l) {
    SCOPED_TRACE(l);
    EXPECT_EQ(lanes[l].lane, l);
    EXPECT_TRUE(lanes[l].active);
    EXPECT_EQ(lanes[l].tx, l);
    EXPECT_EQ(lanes[l].ty, 0);
    EXPECT_EQ(lanes[l].index, 3 * l + 1);
    EXPECT_EQ(lanes[l].address, (3 * l + 1) * 8);
  }
}

TEST(EvaluateLanesTest, ThreadIdIsTyTimesBdxPlusTx) {
  // Block 16x4, warp 1: thread ids 32..63, i.e. tx = tid % 16, ty = tid / 16 (2 and 3).
  const WarpAccesses lanes = evaluate_lanes(
      pattern("warp * 1000 + ty * bdx + tx + bdy * 10000", 4, Space::Global, Op::Load, {16, 4}, 1));
  for (int l = 0; l < kWarpSize; ++l) {
    SCOPED_TRACE(l);
    const int tid = 32 + l;
    EXPECT_TRUE(lanes[l].active);
    EXPECT_EQ(lanes[l].tx, tid % 16);
    EXPECT_EQ(lanes[l].ty, tid / 16);
    EXPECT_EQ(lanes[l].index, 1000 + tid + 40000);
  }
}

TEST(EvaluateLanesTest, LanesPastTheEndOfTheBlockAreInactive) {
  // Block 8x3 holds 24 threads: warp 0 has lanes 0..23 active, 24..31 inactive.
  const WarpAccesses lanes =
      evaluate_lanes(pattern("tx + ty * bdx", 4, Space::Global, Op::Load, {8, 3}));
  for (int l = 0; l < kWarpSize; ++l) {
    SCOPED_TRACE(l);
    EXPECT_EQ(lanes[l].lane, l);
    if (l < 24) {
      EXPECT_TRUE(lanes[l].active);
      EXPECT_EQ(lanes[l].tx, l % 8);
      EXPECT_EQ(lanes[l].ty, l / 8);
      EXPECT_EQ(lanes[l].index, l);
      EXPECT_EQ(lanes[l].address, 4 * l);
    } else {
      EXPECT_FALSE(lanes[l].active);
      EXPECT_EQ(lanes[l].index, 0);
      EXPECT_EQ(lanes[l].address, 0);
    }
  }
}

TEST(EvaluateLanesTest, LastWarpOfAnOddBlockHasOneLane) {
  // Block 33x1: warp 1 is thread 32 alone (tx = 32, ty = 0).
  const WarpAccesses lanes = evaluate_lanes(pattern("tx", 4, Space::Global, Op::Load, {33, 1}, 1));
  EXPECT_TRUE(lanes[0].active);
  EXPECT_EQ(lanes[0].tx, 32);
  EXPECT_EQ(lanes[0].ty, 0);
  EXPECT_EQ(lanes[0].index, 32);
  for (int l = 1; l < kWarpSize; ++l) EXPECT_FALSE(lanes[l].active) << l;
}

TEST(EvaluateLanesTest, InactiveLanesAreNotEvaluated) {
  // "7 - lane" is negative for lanes 8..31, but only lanes 0..7 exist in an 8x1 block.
  const WarpAccesses lanes =
      evaluate_lanes(pattern("7 - lane", 4, Space::Global, Op::Load, {8, 1}));
  for (int l = 0; l < 8; ++l) EXPECT_EQ(lanes[l].index, 7 - l);
}

// --- Parsing and names ------------------------------------------------------------------------

TEST(ParseTest, Space) {
  EXPECT_EQ(parse_space("global"), Space::Global);
  EXPECT_EQ(parse_space("shared"), Space::Shared);
  EXPECT_EQ(to_string(Space::Global), "global");
  EXPECT_EQ(to_string(Space::Shared), "shared");
  EXPECT_THROW(static_cast<void>(parse_space("local")), PatternError);
  EXPECT_THROW(static_cast<void>(parse_space("")), PatternError);
}

TEST(ParseTest, Op) {
  EXPECT_EQ(parse_op("load"), Op::Load);
  EXPECT_EQ(parse_op("store"), Op::Store);
  EXPECT_EQ(to_string(Op::Load), "load");
  EXPECT_EQ(to_string(Op::Store), "store");
  EXPECT_THROW(static_cast<void>(parse_op("read")), PatternError);
}

TEST(ParseTest, Block) {
  EXPECT_EQ(parse_block("32x8"), (BlockShape{32, 8}));
  EXPECT_EQ(parse_block("16X4"), (BlockShape{16, 4}));
  EXPECT_EQ(parse_block("1x1"), (BlockShape{1, 1}));
  EXPECT_EQ(to_string(BlockShape{32, 8}), "32x8");
  for (const char* bad :
       {"32x0", "0x32", "32", "x8", "32x", "32x8x", "-1x8", "ax8", "32 x 8", "", "32x-1"}) {
    SCOPED_TRACE(bad);
    try {
      static_cast<void>(parse_block(bad));
      ADD_FAILURE() << "parsed";
    } catch (const PatternError& e) {
      EXPECT_NE(std::string(e.what()), "");
    }
  }
}

TEST(ParseTest, HardwareModel) {
  for (const HardwareModel m : {HardwareModel::Modern, kFermiCa, kFermiCg, kKepler, kG80}) {
    EXPECT_EQ(parse_hardware_model(to_string(m)), m);
    EXPECT_FALSE(describe(m).empty());
  }
  EXPECT_EQ(parse_hardware_model("fermi-ca"), HardwareModel::FermiCaching);
  EXPECT_EQ(parse_hardware_model("fermi-cg"), HardwareModel::FermiL2Only);
  EXPECT_THROW(static_cast<void>(parse_hardware_model("volta")), PatternError);
  EXPECT_THROW(static_cast<void>(parse_hardware_model("")), PatternError);
}

TEST(ParseTest, DescribePattern) {
  EXPECT_EQ(describe(AccessPattern{}), "global load, 4-byte words, index lane, block 32x1, warp 0");
  EXPECT_EQ(describe(pattern("lane * 33", 8, Space::Shared, Op::Store, {32, 4}, 3)),
            "shared store, 8-byte words, index lane * 33, block 32x4, warp 3");
}

// --- Pattern errors ---------------------------------------------------------------------------

std::string pattern_error(const AccessPattern& p) {
  try {
    static_cast<void>(evaluate_lanes(p));
  } catch (const PatternError& e) {
    return e.what();
  }
  return "";
}

TEST(PatternErrorTest, IsAnInvalidArgument) {
  EXPECT_THROW(static_cast<void>(evaluate_lanes(pattern("lane", 3))), std::invalid_argument);
}

TEST(PatternErrorTest, WordBytes) {
  for (const int word_bytes : {0, 3, 5, 32, -4}) {
    SCOPED_TRACE(word_bytes);
    EXPECT_THROW(pattern("lane", word_bytes).validate(), PatternError);
    EXPECT_NE(pattern_error(pattern("lane", word_bytes)), "");
  }
  EXPECT_NE(pattern_error(pattern("lane", 3)).find('3'), std::string::npos);
  for (const int word_bytes : {1, 2, 4, 8, 16}) {
    EXPECT_NO_THROW(pattern("lane", word_bytes).validate()) << word_bytes;
  }
}

TEST(PatternErrorTest, BlockShape) {
  for (const BlockShape block : {BlockShape{0, 1}, BlockShape{32, 0}, BlockShape{-32, 1},
                                 BlockShape{32, 33}, BlockShape{2048, 1},
                                 // x * y overflowed int (found by fuzz_cli under UBSan).
                                 BlockShape{1788246478, 32}, BlockShape{65536, 65536}}) {
    SCOPED_TRACE(to_string(block));
    EXPECT_NE(pattern_error(pattern("lane", 4, Space::Global, Op::Load, block)), "");
  }
  EXPECT_NO_THROW(pattern("lane", 4, Space::Global, Op::Load, {1024, 1}).validate());
  EXPECT_NO_THROW(pattern("lane", 4, Space::Global, Op::Load, {32, 32}).validate());
}

TEST(PatternErrorTest, WarpOutOfRange) {
  EXPECT_NE(pattern_error(pattern("lane", 4, Space::Global, Op::Load, {32, 1}, 1)), "");
  EXPECT_NE(pattern_error(pattern("lane", 4, Space::Global, Op::Load, {32, 1}, -1)), "");
  EXPECT_NE(pattern_error(pattern("lane", 4, Space::Global, Op::Load, {32, 2}, 2)), "");
  EXPECT_NE(pattern_error(pattern("lane", 4, Space::Global, Op::Load, {8, 3}, 1)), "");
  EXPECT_NO_THROW(pattern("lane", 4, Space::Global, Op::Load, {33, 1}, 1).validate());
  EXPECT_NO_THROW(pattern("lane", 4, Space::Global, Op::Load, {32, 32}, 31).validate());
}

TEST(PatternErrorTest, NegativeIndexNamesLaneAndValue) {
  const std::string message = pattern_error(pattern("lane - 5"));
  EXPECT_NE(message.find("-5"), std::string::npos) << message;
  EXPECT_NE(message.find("lane 0"), std::string::npos) << message;
  // The first negative lane need not be lane 0.
  const std::string later = pattern_error(pattern("20 - lane"));
  EXPECT_NE(later.find("-1"), std::string::npos) << later;
  EXPECT_NE(later.find("lane 21"), std::string::npos) << later;
  // validate() checks syntax only; the value check happens per lane.
  EXPECT_NO_THROW(pattern("lane - 5").validate());
}

TEST(PatternErrorTest, BadExpression) {
  for (const char* index : {"lane +", "", "foo", "(lane", "bz"}) {
    SCOPED_TRACE(index);
    EXPECT_THROW(pattern(index).validate(), PatternError);
    EXPECT_NE(pattern_error(pattern(index)), "");
  }
}

TEST(PatternErrorTest, EvaluationErrorBecomesPatternError) {
  // Lanes 0..2 give 0, 0, 2; lane 3 divides by zero.
  const std::string division = pattern_error(pattern("lane / (3 - lane)"));
  EXPECT_NE(division.find("division by zero"), std::string::npos) << division;
  EXPECT_NE(division.find("lane 3"), std::string::npos) << division;
  EXPECT_NE(pattern_error(pattern("lane << tx", 4, Space::Global, Op::Load, {64, 1}, 1)), "");
  EXPECT_NE(pattern_error(pattern("lane * 65536 * 65536")), "");
}

}  // namespace
}  // namespace warplens::model::test
