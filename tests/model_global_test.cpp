// The global-memory model: lane addresses -> sectors, lines and transactions, modern and in the
// historical teaching models. Expected numbers follow memory_model.h and design.md ("Memory-system
// facts"); each is worked out in a comment where it is not obvious.
#include "model_test_support.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace warplens::model::test {
namespace {

using Sectors = std::vector<std::int64_t>;

// --- Global, modern --------------------------------------------------------------------------

struct GlobalCase {
  const char* name;
  const char* index;
  int word_bytes;
  int sectors;
  int lines;
  std::int64_t requested_bytes;
  std::int64_t moved_bytes;
};

class ModernGlobalTest : public testing::TestWithParam<GlobalCase> {};

TEST_P(ModernGlobalTest, CountsDistinctSectorsForLoadsAndStores) {
  const GlobalCase& c = GetParam();
  for (const Op op : {Op::Load, Op::Store}) {
    SCOPED_TRACE(std::string(to_string(op)));
    const GlobalAnalysis r = global(pattern(c.index, c.word_bytes, Space::Global, op));
    EXPECT_EQ(r.model, HardwareModel::Modern);
    EXPECT_EQ(r.op, op);
    EXPECT_EQ(r.word_bytes, c.word_bytes);
    EXPECT_EQ(r.active_lanes, 32);
    EXPECT_EQ(r.requests, 1);
    EXPECT_EQ(static_cast<int>(r.sectors.size()), c.sectors);
    EXPECT_EQ(static_cast<int>(r.lines.size()), c.lines);
    EXPECT_EQ(r.transactions, c.sectors);
    EXPECT_EQ(r.transaction_bytes, kSectorBytes);
    EXPECT_EQ(r.requested_bytes, c.requested_bytes);
    EXPECT_EQ(r.moved_bytes, c.moved_bytes);
    EXPECT_EQ(r.moved_bytes, static_cast<std::int64_t>(c.sectors) * kSectorBytes);
    EXPECT_DOUBLE_EQ(r.efficiency(),
                     static_cast<double>(c.requested_bytes) / static_cast<double>(c.moved_bytes));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Seeds, ModernGlobalTest,
    testing::Values(
        // 32 x 4 bytes = 128 bytes from 0: sectors 0..3, line 0.
        GlobalCase{"Aligned4", "lane", 4, 4, 1, 128, 128},
        // Bytes 4..131: sectors 0..4, lines 0..1.
        GlobalCase{"MisalignedByOne4", "lane + 1", 4, 5, 2, 128, 160},
        // Every lane reads word 0: one sector, 4 distinct bytes.
        GlobalCase{"AllLanesSameWord", "0", 4, 1, 1, 4, 32},
        // Bytes 0..251 every 8: sectors 0..7, lines 0..1; half of each sector is used.
        GlobalCase{"Stride2", "2 * lane", 4, 8, 2, 128, 256},
        // One 4-byte field of a 12-byte struct: bytes 0..375 every 12 -> sectors 0..11, lines 0..2.
        GlobalCase{"StructField12", "3 * lane", 4, 12, 3, 128, 384},
        // Every lane its own sector and line.
        GlobalCase{"Stride32", "32 * lane", 4, 32, 32, 128, 1024},
        GlobalCase{"Reversed", "31 - lane", 4, 4, 1, 128, 128},
        // Lanes pair up on words: 16 words, 64 bytes.
        GlobalCase{"PairsShareWords", "lane / 2", 4, 2, 1, 64, 64},
        GlobalCase{"Words1", "lane", 1, 1, 1, 32, 32},
        GlobalCase{"Words2", "lane", 2, 2, 1, 64, 64},
        GlobalCase{"Words8", "lane", 8, 8, 2, 256, 256},
        // Bytes 8..263: sectors 0..8, lines 0..2.
        GlobalCase{"MisalignedByOne8", "lane + 1", 8, 9, 3, 256, 288},
        // A 16-byte load of 32 lanes is one request of 16 sectors.
        GlobalCase{"Words16", "lane", 16, 16, 4, 512, 512}),
    case_name<GlobalCase>);

TEST(GlobalTest, ListsDistinctSectorsAndLinesAscending) {
  const GlobalAnalysis r = global(pattern("lane + 1"));
  EXPECT_EQ(r.sectors, (Sectors{0, 1, 2, 3, 4}));
  EXPECT_EQ(r.lines, (Sectors{0, 1}));
  const GlobalAnalysis reversed = global(pattern("64 - 2 * lane"));  // bytes 256 down to 8
  EXPECT_EQ(reversed.sectors, (Sectors{0, 1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(reversed.lines, (Sectors{0, 1, 2}));
}

TEST(GlobalTest, PerLaneSectorAndLine) {
  const GlobalAnalysis r = global(pattern("5 * lane + 3"));
  for (int l = 0; l < kWarpSize; ++l) {
    SCOPED_TRACE(l);
    const std::int64_t address = (5 * l + 3) * 4;
    EXPECT_EQ(r.lanes[l].access.lane, l);
    EXPECT_EQ(r.lanes[l].access.address, address);
    EXPECT_EQ(r.lanes[l].sector, address / 32);
    EXPECT_EQ(r.lanes[l].line, address / 128);
  }
}

TEST(GlobalTest, SecondWarpOfA2DBlock) {
  // Block 32x2, warp 1 is row ty = 1: elements 32..63, bytes 128..255.
  const GlobalAnalysis r = global(pattern("tx + ty * bdx", 4, Space::Global, Op::Load, {32, 2}, 1));
  EXPECT_EQ(r.sectors, (Sectors{4, 5, 6, 7}));
  EXPECT_EQ(r.lines, (Sectors{1}));
  EXPECT_DOUBLE_EQ(r.efficiency(), 1.0);
}

TEST(GlobalTest, InactiveLanesTouchNothing) {
  // Block 8x3: 24 active lanes read bytes 0..95; inactive lanes (address 0) add nothing.
  const GlobalAnalysis r = global(pattern("lane + 8", 4, Space::Global, Op::Load, {8, 3}));
  EXPECT_EQ(r.active_lanes, 24);
  EXPECT_EQ(r.sectors, (Sectors{1, 2, 3}));  // bytes 32..127
  EXPECT_EQ(r.requested_bytes, 96);
  EXPECT_EQ(r.moved_bytes, 96);
  EXPECT_EQ(r.requests, 1);
}

TEST(GlobalTest, NoActiveLaneMovesNothing) {
  const WarpAccesses none{};
  const GlobalAnalysis r = analyze_global(none, 4, Op::Load);
  EXPECT_EQ(r.active_lanes, 0);
  EXPECT_TRUE(r.sectors.empty());
  EXPECT_TRUE(r.lines.empty());
  EXPECT_EQ(r.requests, 1);  // the instruction still issues
  EXPECT_EQ(r.transactions, 0);
  EXPECT_EQ(r.requested_bytes, 0);
  EXPECT_EQ(r.moved_bytes, 0);
  EXPECT_EQ(r.efficiency(), 0.0);
}

// --- Global, historical teaching models -------------------------------------------------------

struct HistoricalGlobalCase {
  const char* name;
  HardwareModel model;
  Op op;
  const char* index;
  int word_bytes;
  int requests;
  int transactions;
  int transaction_bytes;  ///< 0 when transactions of different sizes mix
  std::int64_t moved_bytes;
};

class HistoricalGlobalCaseTest : public testing::TestWithParam<HistoricalGlobalCase> {};

TEST_P(HistoricalGlobalCaseTest, SplitsRequestsAndCountsTransactions) {
  const HistoricalGlobalCase& c = GetParam();
  const GlobalAnalysis r = global(pattern(c.index, c.word_bytes, Space::Global, c.op), c.model);
  EXPECT_EQ(r.model, c.model);
  EXPECT_EQ(r.requests, c.requests);
  EXPECT_EQ(r.transactions, c.transactions);
  EXPECT_EQ(r.transaction_bytes, c.transaction_bytes);
  EXPECT_EQ(r.moved_bytes, c.moved_bytes);
}

INSTANTIATE_TEST_SUITE_P(
    Models, HistoricalGlobalCaseTest,
    testing::Values(
        // Fermi caching loads: 128-byte lines per 128 bytes of words.
        HistoricalGlobalCase{"FermiCaAligned", kFermiCa, Op::Load, "lane", 4, 1, 1, 128, 128},
        HistoricalGlobalCase{"FermiCaMisaligned", kFermiCa, Op::Load, "lane + 1", 4, 1, 2, 128,
                             256},
        HistoricalGlobalCase{"FermiCaStride32", kFermiCa, Op::Load, "32 * lane", 4, 1, 32, 128,
                             4096},
        // 8-byte words: two half-warp requests of one line each; 16-byte: four quarter-warps.
        HistoricalGlobalCase{"FermiCaWords8", kFermiCa, Op::Load, "lane", 8, 2, 2, 128, 256},
        HistoricalGlobalCase{"FermiCaWords16", kFermiCa, Op::Load, "lane", 16, 4, 4, 128, 512},
        // Stores bypass L1: 32-byte segments.
        HistoricalGlobalCase{"FermiCaStoreMisaligned", kFermiCa, Op::Store, "lane + 1", 4, 1, 5, 32,
                             160},
        // L2-only loads: 32-byte segments.
        HistoricalGlobalCase{"FermiCgMisaligned", kFermiCg, Op::Load, "lane + 1", 4, 1, 5, 32, 160},
        HistoricalGlobalCase{"FermiCgWords8", kFermiCg, Op::Load, "lane", 8, 2, 8, 32, 256},
        HistoricalGlobalCase{"KeplerMisaligned", kKepler, Op::Load, "lane + 1", 4, 1, 5, 32, 160},
        // G80: per half-warp, one 64-byte transaction when thread k reads word k of a 64-byte
        // aligned segment...
        HistoricalGlobalCase{"G80Aligned", kG80, Op::Load, "lane", 4, 2, 2, 64, 128},
        HistoricalGlobalCase{"G80AlignedStore", kG80, Op::Store, "lane", 4, 2, 2, 64, 128},
        // ...otherwise one 32-byte transaction per thread.
        HistoricalGlobalCase{"G80Misaligned", kG80, Op::Load, "lane + 1", 4, 2, 32, 32, 1024},
        HistoricalGlobalCase{"G80SameWord", kG80, Op::Load, "0", 4, 2, 32, 32, 1024},
        // Swapping neighbours breaks the "thread k reads word k" rule of CC 1.0/1.1.
        HistoricalGlobalCase{"G80Permuted", kG80, Op::Load, "lane ^ 1", 4, 2, 32, 32, 1024},
        // Half-warp 0 coalesces (64 bytes); half-warp 1 reads 17..32, misaligned (16 x 32 bytes).
        HistoricalGlobalCase{"G80Mixed", kG80, Op::Load, "lane + lane / 16", 4, 2, 17, 0, 576},
        HistoricalGlobalCase{"G80Words8", kG80, Op::Load, "lane", 8, 2, 2, 128, 256},
        HistoricalGlobalCase{"G80Words16", kG80, Op::Load, "lane", 16, 2, 4, 128, 512},
        // 1- and 2-byte words never coalesce.
        HistoricalGlobalCase{"G80Words1", kG80, Op::Load, "lane", 1, 2, 32, 32, 1024},
        HistoricalGlobalCase{"G80Words2", kG80, Op::Load, "lane", 2, 2, 32, 32, 1024}),
    case_name<HistoricalGlobalCase>);

TEST(HistoricalGlobalTest, FermiCachingMisalignedEfficiency) {
  const GlobalAnalysis r = global(pattern("lane + 1"), kFermiCa);
  EXPECT_EQ(r.requested_bytes, 128);
  EXPECT_DOUBLE_EQ(r.efficiency(), 0.5);
  // The modern fields are model-independent.
  EXPECT_EQ(r.sectors.size(), 5u);
  EXPECT_EQ(r.lines.size(), 2u);
}

TEST(HistoricalGlobalTest, G80SkipsHalfWarpsWithNoActiveLane) {
  // Block 8x1: only half-warp 0 has threads, and they read word k of segment 0.
  const GlobalAnalysis r = global(pattern("lane", 4, Space::Global, Op::Load, {8, 1}), kG80);
  EXPECT_EQ(r.requests, 1);
  EXPECT_EQ(r.transactions, 1);
  EXPECT_EQ(r.transaction_bytes, 64);
}

}  // namespace
}  // namespace warplens::model::test
