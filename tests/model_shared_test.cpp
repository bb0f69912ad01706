// The shared-memory model: lane addresses -> banks, phases and wavefronts, modern and in the
// historical teaching models (Fermi, Kepler, G80). Expected numbers follow memory_model.h and
// design.md ("Memory-system facts"), worked out in a comment where they are not obvious.
#include "model_test_support.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace warplens::model::test {
namespace {

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
  EXPECT_DOUBLE_EQ(r.byte_efficiency(),
                   static_cast<double>(c.requested_bytes) / static_cast<double>(r.moved_bytes));
  // Shared efficiency is wavefronts needed / used: 1 without a conflict, broadcasts included.
  EXPECT_DOUBLE_EQ(r.efficiency(),
                   static_cast<double>(r.min_wavefronts) / static_cast<double>(r.wavefronts));
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

}  // namespace
}  // namespace warplens::model::test
