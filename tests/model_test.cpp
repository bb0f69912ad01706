// The memory-system model: access patterns -> lane addresses -> sectors, transactions, banks and
// wavefronts. Expected numbers come from the rules in memory_model.h and design.md ("Memory-system
// facts"); each is worked out in a comment where it is not obvious.
#include "access_pattern.h"
#include "memory_model.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace warplens::model {
namespace {

using Sectors = std::vector<std::int64_t>;

AccessPattern pattern(const std::string& index, int word_bytes = 4, Space space = Space::Global,
                      Op op = Op::Load, BlockShape block = {32, 1}, int warp = 0) {
  return {.space = space,
          .op = op,
          .word_bytes = word_bytes,
          .block = block,
          .index = index,
          .warp = warp};
}

AccessPattern shared_pattern(const std::string& index, int word_bytes = 4,
                             BlockShape block = {32, 1}, int warp = 0) {
  return pattern(index, word_bytes, Space::Shared, Op::Load, block, warp);
}

GlobalAnalysis global(const AccessPattern& p, HardwareModel model = HardwareModel::Modern) {
  return analyze_global(evaluate_lanes(p), p.word_bytes, p.op, model);
}

SharedAnalysis shared(const AccessPattern& p, HardwareModel model = HardwareModel::Modern) {
  return analyze_shared(evaluate_lanes(p), p.word_bytes, p.op, model);
}

// Names a parameterized test after its case's `name`.
template <typename Case>
std::string case_name(const testing::TestParamInfo<Case>& param_info) {
  return param_info.param.name;
}

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

constexpr auto kFermiCa = HardwareModel::FermiCaching;
constexpr auto kFermiCg = HardwareModel::FermiL2Only;
constexpr auto kKepler = HardwareModel::Kepler;
constexpr auto kG80 = HardwareModel::G80;

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

// --- Shared, modern --------------------------------------------------------------------------

struct SharedCase {
  const char* name;
  const char* index;
  int word_bytes;
  BlockShape block;
  int warp;
  int wavefronts;
  bool broadcast;
  std::int64_t requested_bytes;
};

class ModernSharedTest : public testing::TestWithParam<SharedCase> {};

TEST_P(ModernSharedTest, CountsWavefronts) {
  const SharedCase& c = GetParam();
  const SharedAnalysis r = shared(shared_pattern(c.index, c.word_bytes, c.block, c.warp));
  EXPECT_EQ(r.model, HardwareModel::Modern);
  EXPECT_EQ(r.bank_count, 32);
  EXPECT_EQ(r.bank_width_bytes, 4);
  EXPECT_EQ(r.active_lanes, 32);
  EXPECT_EQ(r.wavefronts, c.wavefronts);
  EXPECT_EQ(r.broadcast, c.broadcast);
  EXPECT_EQ(r.requested_bytes, c.requested_bytes);
  EXPECT_EQ(r.moved_bytes, static_cast<std::int64_t>(c.wavefronts) * 32 * 4);
  EXPECT_DOUBLE_EQ(r.efficiency(),
                   static_cast<double>(c.requested_bytes) / static_cast<double>(r.moved_bytes));
}

INSTANTIATE_TEST_SUITE_P(
    Seeds, ModernSharedTest,
    testing::Values(
        SharedCase{"Consecutive", "lane", 4, {32, 1}, 0, 1, false, 128},
        // Words 0, 2, ..., 62: lanes l and l + 16 share a bank.
        SharedCase{"Stride2", "2 * lane", 4, {32, 1}, 0, 2, false, 128},
        // Words 0, 4, ..., 124: 8 banks, 4 distinct words each.
        SharedCase{"Stride4", "4 * lane", 4, {32, 1}, 0, 4, false, 128},
        // Column of a 32x32 tile: every lane in bank 0.
        SharedCase{"Column", "lane * 32", 4, {32, 1}, 0, 32, false, 128},
        // One padding word per row moves each lane to its own bank.
        SharedCase{"PaddedColumn", "lane * 33", 4, {32, 1}, 0, 1, false, 128},
        // The same column read in a 32x32 block: warp 5 is ty = 5, tx = lane.
        SharedCase{"TileColumn", "tx * 32 + ty", 4, {32, 32}, 5, 32, false, 128},
        SharedCase{"PaddedTileColumn", "tx * 33 + ty", 4, {32, 32}, 5, 1, false, 128},
        SharedCase{"TileRow", "ty * 32 + tx", 4, {32, 32}, 5, 1, false, 128},
        // Every lane reads one word: a broadcast, counted once in requested bytes.
        SharedCase{"Broadcast", "0", 4, {32, 1}, 0, 1, true, 4},
        SharedCase{"PairsShareWords", "lane / 2", 4, {32, 1}, 0, 1, true, 64},
        // 8-byte words: one phase of the whole warp; 64 distinct 4-byte words, two per bank.
        SharedCase{"Words8", "lane", 8, {32, 1}, 0, 2, false, 256},
        // The warp reads 4-byte words 0,1, 4,5, ..., 124,125: banks 0..1 serve words 0,1,
        // 32,33, 64,65 and 96,97 -> 4.
        SharedCase{"Words8Stride2", "2 * lane", 8, {32, 1}, 0, 4, false, 256},
        // 16-byte words: two half-warp phases of two wavefronts each.
        SharedCase{"Words16", "lane", 16, {32, 1}, 0, 4, false, 512},
        // Half-warp phase: words 0-3, 8-11, ..., 120-123 -> banks 0-3 serve words 0-3, 32-35,
        // 64-67 and 96-99 -> 4 per phase.
        SharedCase{"Words16Stride2", "2 * lane", 16, {32, 1}, 0, 8, false, 512},
        // Sub-word accesses: four lanes share each 4-byte word (two for 2-byte words).
        SharedCase{"Words1", "lane", 1, {32, 1}, 0, 1, true, 32},
        SharedCase{"Words2", "lane", 2, {32, 1}, 0, 1, true, 64},
        // 1-byte words 32 apart: each in word 8*lane, bank (8*lane)%32 -> 4 banks x 8 words.
        SharedCase{"Words1Stride32", "32 * lane", 1, {32, 1}, 0, 8, false, 32}),
    case_name<SharedCase>);

TEST(SharedTest, PerLaneBankIsAddressOver4Mod32) {
  for (const char* index : {"lane", "2 * lane", "lane * 33", "7 * lane + 3", "lane / 3"}) {
    for (const int word_bytes : {1, 2, 4, 8, 16}) {
      SCOPED_TRACE(std::string(index) + ", " + std::to_string(word_bytes) + "-byte words");
      const SharedAnalysis r = shared(shared_pattern(index, word_bytes));
      const int phase_lanes = shared_phase_lanes(word_bytes, HardwareModel::Modern);
      for (int l = 0; l < kWarpSize; ++l) {
        const SharedLane& s = r.lanes[l];
        EXPECT_EQ(s.access.lane, l);
        EXPECT_EQ(s.bank, static_cast<int>((s.access.address / 4) % 32)) << "lane " << l;
        EXPECT_EQ(s.bank_words, word_bytes <= 4 ? 1 : word_bytes / 4) << "lane " << l;
        EXPECT_EQ(s.phase, l / phase_lanes) << "lane " << l;
      }
    }
  }
}

TEST(SharedTest, PaddedColumnPutsLaneInBankLane) {
  const SharedAnalysis r = shared(shared_pattern("lane * 33"));
  for (int l = 0; l < kWarpSize; ++l) EXPECT_EQ(r.lanes[l].bank, l);
  const SharedAnalysis column = shared(shared_pattern("lane * 32"));
  for (int l = 0; l < kWarpSize; ++l) EXPECT_EQ(column.lanes[l].bank, 0);
  ASSERT_EQ(column.phases.size(), 1u);
  EXPECT_EQ(column.phases[0].distinct_words_per_bank[0], 32);
  for (int b = 1; b < 32; ++b) EXPECT_EQ(column.phases[0].distinct_words_per_bank[b], 0) << b;
}

TEST(SharedTest, PhasesFollowWordSize) {
  // A phase carries up to 256 bytes: the whole warp up to 8-byte words, half-warps for 16.
  struct Expected {
    int word_bytes;
    int phases;
    int lanes_per_phase;
    int wavefronts_per_phase;  // s[lane]: lanes x word bytes / 128 bytes, at least 1
  };
  for (const Expected e : {Expected{1, 1, 32, 1}, Expected{2, 1, 32, 1}, Expected{4, 1, 32, 1},
                           Expected{8, 1, 32, 2}, Expected{16, 2, 16, 2}}) {
    SCOPED_TRACE(e.word_bytes);
    const SharedAnalysis r = shared(shared_pattern("lane", e.word_bytes));
    ASSERT_EQ(static_cast<int>(r.phases.size()), e.phases);
    for (int p = 0; p < e.phases; ++p) {
      const SharedPhase& phase = r.phases[static_cast<std::size_t>(p)];
      EXPECT_EQ(phase.first_lane, p * e.lanes_per_phase);
      EXPECT_EQ(phase.lane_count, e.lanes_per_phase);
      EXPECT_EQ(phase.wavefronts, e.wavefronts_per_phase);
      ASSERT_EQ(phase.distinct_words_per_bank.size(), 32u);
    }
    EXPECT_EQ(r.wavefronts, e.phases * e.wavefronts_per_phase);
  }
  // 8-byte words, one phase: 32 lanes x 2 banks cover every bank twice.
  const SharedAnalysis words8 = shared(shared_pattern("lane", 8));
  for (int b = 0; b < 32; ++b) EXPECT_EQ(words8.phases[0].distinct_words_per_bank[b], 2) << b;
  EXPECT_EQ(words8.lanes[31].phase, 0);
  // 16-byte words, two phases: each half-warp's 16 lanes x 4 banks cover every bank twice, and
  // lane 16 opens the second phase.
  const SharedAnalysis words16 = shared(shared_pattern("lane", 16));
  for (const SharedPhase& phase : words16.phases)
    for (int b = 0; b < 32; ++b) EXPECT_EQ(phase.distinct_words_per_bank[b], 2) << b;
  EXPECT_EQ(words16.lanes[15].phase, 0);
  EXPECT_EQ(words16.lanes[16].phase, 1);
}

TEST(SharedTest, WideWordsCostWhatAnH100Measures) {
  // CUPTI's l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld on an H100 (warplens verify).
  struct Measured {
    const char* index;
    int word_bytes;
    int phases;
    int wavefronts;
  };
  for (const Measured m : {
           Measured{"0", 8, 1, 1},          // every lane on one 8-byte word
           Measured{"0", 16, 2, 2},         // every lane on one 16-byte word: one per half-warp
           Measured{"lane", 8, 1, 2},       // 256 distinct bytes in one phase
           Measured{"lane", 16, 2, 4},      // two half-warp phases of two
           Measured{"lane % 16", 8, 1, 1},  // both half-warps read the same 16 words
       }) {
    SCOPED_TRACE(std::string(m.index) + ", " + std::to_string(m.word_bytes) + "-byte words");
    const SharedAnalysis r = shared(shared_pattern(m.index, m.word_bytes));
    EXPECT_EQ(static_cast<int>(r.phases.size()), m.phases);
    EXPECT_EQ(r.wavefronts, m.wavefronts);
  }
}

TEST(SharedTest, BroadcastIsPerPhase) {
  const SharedAnalysis r = shared(shared_pattern("0"));
  ASSERT_EQ(r.phases.size(), 1u);
  EXPECT_TRUE(r.phases[0].broadcast);
  EXPECT_EQ(r.phases[0].distinct_words_per_bank[0], 1);
  // 16-byte words: lanes 0..15 all read words 0..3 in phase 0 (one wavefront), lanes 16..31
  // read words 4*l..4*l+3 = 64..127 in phase 1 (every bank twice: two wavefronts).
  const SharedAnalysis mixed = shared(shared_pattern("lane / 16 * lane", 16));
  ASSERT_EQ(mixed.phases.size(), 2u);
  EXPECT_TRUE(mixed.phases[0].broadcast);
  EXPECT_FALSE(mixed.phases[1].broadcast);
  EXPECT_TRUE(mixed.broadcast);
  EXPECT_EQ(mixed.phases[0].wavefronts, 1);
  EXPECT_EQ(mixed.phases[1].wavefronts, 2);
  EXPECT_EQ(mixed.wavefronts, 3);
  // 8-byte words: the whole warp is one phase, so the broadcast half and the distinct half share
  // it: banks 0 and 1 serve words 0,1 (lanes 0..15) and 32,33 (lane 16) -> 2.
  const SharedAnalysis one_phase = shared(shared_pattern("lane / 16 * lane", 8));
  ASSERT_EQ(one_phase.phases.size(), 1u);
  EXPECT_TRUE(one_phase.phases[0].broadcast);
  EXPECT_EQ(one_phase.phases[0].distinct_words_per_bank[0], 2);
  EXPECT_EQ(one_phase.phases[0].distinct_words_per_bank[2], 1);
  EXPECT_EQ(one_phase.wavefronts, 2);
}

TEST(SharedTest, InactiveLanesCostNothing) {
  // Block 8x3: 24 active lanes (0..23); inactive lanes would all be "word 0".
  const SharedAnalysis r = shared(shared_pattern("lane * 32 + 1", 4, {8, 3}));
  EXPECT_EQ(r.active_lanes, 24);
  EXPECT_EQ(r.wavefronts, 24);  // 24 distinct words, all in bank 1
  EXPECT_EQ(r.phases[0].distinct_words_per_bank[1], 24);
  EXPECT_EQ(r.phases[0].distinct_words_per_bank[0], 0);
  EXPECT_FALSE(r.broadcast);
  EXPECT_EQ(r.requested_bytes, 96);
  const SharedAnalysis consecutive = shared(shared_pattern("tx + ty * bdx", 4, {8, 3}));
  EXPECT_EQ(consecutive.active_lanes, 24);
  EXPECT_EQ(consecutive.wavefronts, 1);
  EXPECT_EQ(consecutive.requested_bytes, 96);
}

TEST(SharedTest, NoActiveLaneCostsNothing) {
  const WarpAccesses none{};
  const SharedAnalysis r = analyze_shared(none, 4, Op::Load);
  EXPECT_EQ(r.active_lanes, 0);
  EXPECT_EQ(r.wavefronts, 0);
  EXPECT_FALSE(r.broadcast);
  EXPECT_EQ(r.moved_bytes, 0);
  EXPECT_EQ(r.efficiency(), 0.0);
}

TEST(SharedTest, StoresCountTheSame) {
  for (const char* index : {"lane", "2 * lane", "lane * 32", "lane * 33"}) {
    SCOPED_TRACE(index);
    AccessPattern load = shared_pattern(index);
    AccessPattern store = load;
    store.op = Op::Store;
    const SharedAnalysis l = shared(load);
    const SharedAnalysis s = shared(store);
    EXPECT_EQ(s.op, Op::Store);
    EXPECT_EQ(s.wavefronts, l.wavefronts);
    EXPECT_EQ(s.moved_bytes, l.moved_bytes);
  }
}

TEST(SharedTest, ColumnEfficiencyIsOneThirtySecond) {
  const SharedAnalysis r = shared(shared_pattern("lane * 32"));
  EXPECT_EQ(r.requested_bytes, 128);
  EXPECT_EQ(r.moved_bytes, 32 * 128);
  EXPECT_DOUBLE_EQ(r.efficiency(), 1.0 / 32.0);
}

// --- Shared, historical teaching models -------------------------------------------------------

TEST(HistoricalSharedTest, PhaseLanes) {
  EXPECT_EQ(shared_phase_lanes(1, HardwareModel::Modern), 32);
  EXPECT_EQ(shared_phase_lanes(4, HardwareModel::Modern), 32);
  EXPECT_EQ(shared_phase_lanes(8, HardwareModel::Modern), 32);
  EXPECT_EQ(shared_phase_lanes(16, HardwareModel::Modern), 16);
  EXPECT_EQ(shared_phase_lanes(4, kKepler), 32);
  EXPECT_EQ(shared_phase_lanes(8, kKepler), 32);
  EXPECT_EQ(shared_phase_lanes(16, kKepler), 16);
  EXPECT_EQ(shared_phase_lanes(1, kG80), 16);
  EXPECT_EQ(shared_phase_lanes(4, kG80), 16);
  EXPECT_EQ(shared_phase_lanes(8, kG80), 8);
  EXPECT_EQ(shared_phase_lanes(16, kG80), 4);
  // The Fermi models keep the Programming Guide's 128-byte phases on the modern bank layout:
  // half-warps for 8-byte words, quarter-warps for 16-byte words.
  EXPECT_EQ(shared_phase_lanes(4, kFermiCa), 32);
  EXPECT_EQ(shared_phase_lanes(8, kFermiCa), 16);
  EXPECT_EQ(shared_phase_lanes(16, kFermiCa), 8);
}

TEST(HistoricalSharedTest, KeplerEightByteBanks) {
  // 32 banks of 8 bytes; 8-byte words are one phase of the whole warp.
  const SharedAnalysis r = shared(shared_pattern("lane", 8), kKepler);
  EXPECT_EQ(r.bank_count, 32);
  EXPECT_EQ(r.bank_width_bytes, 8);
  EXPECT_EQ(r.phases.size(), 1u);
  EXPECT_EQ(r.wavefronts, 1);
  EXPECT_EQ(r.moved_bytes, 256);
  EXPECT_DOUBLE_EQ(r.efficiency(), 1.0);
  for (int l = 0; l < kWarpSize; ++l) {
    EXPECT_EQ(r.lanes[l].bank, l);
    EXPECT_EQ(r.lanes[l].bank_words, 1);
  }
}

TEST(HistoricalSharedTest, KeplerFourByteWords) {
  // Two 4-byte words per 8-byte bank word: stride 2 is still conflict free.
  const SharedAnalysis consecutive = shared(shared_pattern("lane"), kKepler);
  EXPECT_EQ(consecutive.wavefronts, 1);
  for (int l = 0; l < kWarpSize; ++l) EXPECT_EQ(consecutive.lanes[l].bank, l / 2);
  EXPECT_EQ(shared(shared_pattern("2 * lane"), kKepler).wavefronts, 1);
  // Stride 64 words = 256 bytes = 32 bank words: every lane in bank 0.
  EXPECT_EQ(shared(shared_pattern("64 * lane"), kKepler).wavefronts, 32);
  // 16-byte words: two half-warp phases, each lane two bank words.
  const SharedAnalysis words16 = shared(shared_pattern("lane", 16), kKepler);
  EXPECT_EQ(words16.phases.size(), 2u);
  EXPECT_EQ(words16.wavefronts, 2);
  EXPECT_EQ(words16.lanes[3].bank_words, 2);
}

TEST(HistoricalSharedTest, G80SixteenBanksHalfWarps) {
  const SharedAnalysis r = shared(shared_pattern("lane"), kG80);
  EXPECT_EQ(r.bank_count, 16);
  EXPECT_EQ(r.bank_width_bytes, 4);
  ASSERT_EQ(r.phases.size(), 2u);
  EXPECT_EQ(r.phases[0].wavefronts, 1);
  EXPECT_EQ(r.phases[1].wavefronts, 1);
  EXPECT_EQ(r.wavefronts, 2);
  EXPECT_EQ(r.moved_bytes, 2 * 16 * 4);
  EXPECT_DOUBLE_EQ(r.efficiency(), 1.0);
  EXPECT_EQ(r.lanes[17].bank, 1);
  EXPECT_EQ(r.lanes[17].phase, 1);
}

TEST(HistoricalSharedTest, G80Conflicts) {
  // Stride 16: each half-warp's 16 words all land in bank 0 -> 16 + 16.
  const SharedAnalysis stride16 = shared(shared_pattern("16 * lane"), kG80);
  EXPECT_EQ(stride16.phases[0].wavefronts, 16);
  EXPECT_EQ(stride16.phases[1].wavefronts, 16);
  EXPECT_EQ(stride16.wavefronts, 32);
  // Stride 2: banks 0, 2, ..., 14 twice per half-warp -> 2 + 2.
  EXPECT_EQ(shared(shared_pattern("2 * lane"), kG80).wavefronts, 4);
  // An odd stride is conflict free.
  EXPECT_EQ(shared(shared_pattern("17 * lane"), kG80).wavefronts, 2);
  // The padding that fixes a 32-wide column works with 16 banks too: 33 = 2 * 16 + 1.
  EXPECT_EQ(shared(shared_pattern("33 * lane"), kG80).wavefronts, 2);
  // 8-byte words: quarter-warp phases of 8 lanes x 2 banks; 16-byte: eighth-warps of 4 x 4.
  const SharedAnalysis words8 = shared(shared_pattern("lane", 8), kG80);
  EXPECT_EQ(words8.phases.size(), 4u);
  EXPECT_EQ(words8.wavefronts, 4);
  const SharedAnalysis words16 = shared(shared_pattern("lane", 16), kG80);
  EXPECT_EQ(words16.phases.size(), 8u);
  EXPECT_EQ(words16.wavefronts, 8);
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
                                 BlockShape{32, 33}, BlockShape{2048, 1}}) {
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
  for (const char* index : {"lane +", "", "foo", "(lane", "bx"}) {
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
}  // namespace warplens::model
