// The bank probe's and the transposes' host side (no GPU): parameter checks and their messages,
// the tile accesses the transpose view shows, and the transposes' global accesses.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "shared_lab.h"
#include "shared_plan_test_support.h"

namespace warplens::test {
namespace {

using gpu::BankProbeParams;

/// The message plan_bank_probe throws, or "" when it accepts the parameters.
std::string refusal(const BankProbeParams& p, int max_shared = kH100Shared) {
  try {
    gpu::plan_bank_probe(p, max_shared);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// --- bank probe ------------------------------------------------------------------------------

TEST(BankPlan, ConflictFreeWarp) {
  BankProbeParams p;  // 32 threads, 4-byte words, stride 1
  const auto plan = gpu::plan_bank_probe(p, kH100Shared);
  EXPECT_EQ(plan.threads, 32);
  EXPECT_EQ(plan.shared_bytes, 128);
}

TEST(BankPlan, SizeIsLargestIndexPlusOneRoundedTo16) {
  BankProbeParams p;
  p.index.word_bytes = 1;
  p.index.stride = 3;
  p.index.offset = 2;
  // largest index 2 + 3 x 31 = 95: 96 bytes
  EXPECT_EQ(gpu::plan_bank_probe(p, kH100Shared).shared_bytes, 96);
  p.index.stride = 1;
  p.index.offset = 0;  // 32 bytes
  EXPECT_EQ(gpu::plan_bank_probe(p, kH100Shared).shared_bytes, 32);
  p.block_x = 5;  // 5 bytes -> 16
  EXPECT_EQ(gpu::plan_bank_probe(p, kH100Shared).shared_bytes, 16);
}

TEST(BankPlan, CountsOnlyActiveThreads) {
  BankProbeParams p;
  p.block_x = 256;
  p.index.active_threads = 16;  // threads 0..15: 16 words
  EXPECT_EQ(gpu::plan_bank_probe(p, kH100Shared).shared_bytes, 64);
}

TEST(BankPlan, TwoDimensionalBlocks) {
  BankProbeParams p;
  p.block_x = 32;
  p.block_y = 32;
  p.index.kind = SharedPatternKind::Tile;
  p.index.by_column = true;
  p.index.pitch_elements = 33;
  const auto plan = gpu::plan_bank_probe(p, kH100Shared);
  EXPECT_EQ(plan.threads, 1024);
  // largest: row 31 x 33 + column 31 = 1054 -> 1055 x 4 = 4220 -> 4224
  EXPECT_EQ(plan.shared_bytes, 4224);
}

TEST(BankPlan, RefusesBadWordSizes) {
  for (int w : {0, 3, 5, 32, -4}) {
    BankProbeParams p;
    p.index.word_bytes = w;
    EXPECT_TRUE(contains(refusal(p), "word bytes")) << w;
  }
}

TEST(BankPlan, RefusesBadBlocks) {
  BankProbeParams p;
  p.block_x = 0;
  EXPECT_TRUE(contains(refusal(p), "block dimensions"));
  p.block_x = 32;
  p.block_y = -1;
  EXPECT_TRUE(contains(refusal(p), "block dimensions"));
  p.block_x = 64;
  p.block_y = 32;
  EXPECT_TRUE(contains(refusal(p), "1024 threads"));
  p.block_x = 1024;
  p.block_y = 1;
  EXPECT_EQ(refusal(p), "");
}

TEST(BankPlan, RefusesNegativeIndexNamingThreadAndValue) {
  BankProbeParams p;
  p.index.offset = -3;
  const std::string m = refusal(p);
  EXPECT_TRUE(contains(m, "thread (0, 0)")) << m;
  EXPECT_TRUE(contains(m, "-3")) << m;
}

TEST(BankPlan, RefusesNegativeStride) {
  BankProbeParams p;
  p.index.stride = -1;
  EXPECT_TRUE(contains(refusal(p), "stride")) << refusal(p);
  p.index.stride = 0;  // a broadcast: allowed
  EXPECT_EQ(refusal(p), "");
  EXPECT_EQ(gpu::plan_bank_probe(p, kH100Shared).shared_bytes, 16);
}

TEST(BankPlan, RefusesBadTiles) {
  BankProbeParams p;
  p.index.kind = SharedPatternKind::Tile;
  p.index.tile_width = 32;
  p.index.pitch_elements = 31;
  EXPECT_TRUE(contains(refusal(p), "pitch")) << refusal(p);
  p.index.pitch_elements = 24;
  p.index.tile_width = 24;
  p.index.swizzle = true;
  EXPECT_TRUE(contains(refusal(p), "power-of-two")) << refusal(p);
  p.index.swizzle = false;
  EXPECT_EQ(refusal(p), "");
  p.index.tile_width = 0;
  EXPECT_TRUE(contains(refusal(p), "tile width")) << refusal(p);
}

TEST(BankPlan, RefusesFieldOutsideStruct) {
  BankProbeParams p;
  p.index.kind = SharedPatternKind::Struct;
  p.index.struct_words = 3;
  p.index.field = 3;
  EXPECT_TRUE(contains(refusal(p), "field 3")) << refusal(p);
  p.index.field = -1;
  EXPECT_TRUE(contains(refusal(p), "field")) << refusal(p);
  p.index.field = 2;
  EXPECT_EQ(refusal(p), "");
}

TEST(BankPlan, RefusesPatternsTooLargeForSharedMemory) {
  BankProbeParams p;
  p.block_x = 1024;
  p.index.word_bytes = 16;
  p.index.stride = 19;  // 1023 x 19 + 1 = 19438 words x 16 B = 311008 B -> 304 KiB
  const std::string m = refusal(p);
  EXPECT_EQ(m, "the pattern needs 304 KiB of shared memory; this GPU allows 227 KiB per block");
  p.index.stride = 14;  // 14323 words x 16 B = 229168 B, under 227 KiB = 232448 B
  EXPECT_EQ(refusal(p), "");
  EXPECT_TRUE(contains(refusal(p, 48 * 1024), "allows 48 KiB")) << refusal(p, 48 * 1024);
  EXPECT_EQ(m.find('\n'), std::string::npos);
}

TEST(BankPlan, HugeValuesAreRefusedNotOverflowed) {
  BankProbeParams p;
  p.index.stride = 1 << 30;
  EXPECT_NE(refusal(p), "");
  p.index.stride = 1;
  p.index.offset = 1 << 30;
  EXPECT_NE(refusal(p), "");
}

// --- transpose ---------------------------------------------------------------------------------

TEST(TransposePlan, Checks) {
  gpu::TransposeParams p;
  EXPECT_NO_THROW(gpu::check_transpose(p, kPlenty));
  p.tile = 24;
  EXPECT_THROW(gpu::check_transpose(p, kPlenty), std::invalid_argument);
  p.tile = 32;
  p.rows_per_block = 3;
  EXPECT_THROW(gpu::check_transpose(p, kPlenty), std::invalid_argument);
  p.rows_per_block = 32;
  EXPECT_NO_THROW(gpu::check_transpose(p, kPlenty));
  p.n = 1000;  // not a multiple of 32
  EXPECT_THROW(gpu::check_transpose(p, kPlenty), std::invalid_argument);
  p.n = 0;
  EXPECT_THROW(gpu::check_transpose(p, kPlenty), std::invalid_argument);
  p.n = 8192;  // 2 x 256 MiB
  try {
    gpu::check_transpose(p, std::int64_t{100} << 20);
    ADD_FAILURE() << "a transpose larger than free memory was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "the transpose needs 512 MiB of device memory; 100 MiB are free");
  }
}

TEST(TransposePlan, TileWriteIsByRow) {
  gpu::TransposeParams t;
  t.variant = gpu::TransposeVariant::Tiled;
  t.tile = 32;
  t.rows_per_block = 8;
  const BankProbeParams w = gpu::transpose_tile_write(t);
  EXPECT_EQ(w.index.kind, SharedPatternKind::Tile);
  EXPECT_EQ(w.index.word_bytes, 4);
  EXPECT_EQ(w.index.tile_width, 32);
  EXPECT_EQ(w.index.pitch_elements, 32);
  EXPECT_FALSE(w.index.by_column);
  EXPECT_FALSE(w.index.swizzle);
  EXPECT_EQ(w.op, gpu::SharedOp::Store);
  EXPECT_EQ(w.block_x, 32);
  EXPECT_EQ(w.block_y, 8);
  // tile[ty][tx]
  EXPECT_EQ(shared_element_index(5, 3, 32, 8, w.index), 3 * 32 + 5);
  EXPECT_NO_THROW(gpu::plan_bank_probe(w, kH100Shared));
}

TEST(TransposePlan, TileReadIsByColumn) {
  gpu::TransposeParams t;
  t.tile = 16;
  t.rows_per_block = 4;
  for (auto v : {gpu::TransposeVariant::Tiled, gpu::TransposeVariant::Padded,
                 gpu::TransposeVariant::Swizzled}) {
    t.variant = v;
    const BankProbeParams r = gpu::transpose_tile_read(t);
    EXPECT_TRUE(r.index.by_column);
    EXPECT_EQ(r.op, gpu::SharedOp::Load);
    EXPECT_EQ(r.block_x, 16);
    EXPECT_EQ(r.block_y, 4);
    const int pitch = v == gpu::TransposeVariant::Padded ? 17 : 16;
    EXPECT_EQ(r.index.pitch_elements, pitch);
    EXPECT_EQ(r.index.swizzle, v == gpu::TransposeVariant::Swizzled);
    // tile[tx][ty], or tile[tx][ty ^ tx % 16] when swizzled
    const int tx = 7, ty = 2;
    const int column = v == gpu::TransposeVariant::Swizzled ? (ty ^ (tx % 16)) : ty;
    EXPECT_EQ(shared_element_index(tx, ty, 16, 4, r.index), tx * pitch + column);
  }
}

TEST(TransposePlan, SwizzledWriteAndReadAgreeOnEveryElement) {
  // The write stores element (row, column) where the read looks for it.
  gpu::TransposeParams t;
  t.variant = gpu::TransposeVariant::Swizzled;
  t.tile = 32;
  t.rows_per_block = 32;
  const auto w = gpu::transpose_tile_write(t), r = gpu::transpose_tile_read(t);
  for (int row = 0; row < 32; ++row) {
    for (int col = 0; col < 32; ++col) {
      // the write of (row, col): thread tx = col, ty = row; the read: tx = row, ty = col
      EXPECT_EQ(shared_element_index(col, row, 32, 32, w.index),
                shared_element_index(row, col, 32, 32, r.index));
    }
  }
}

TEST(TransposePlan, CopyAndNaiveHaveNoTile) {
  gpu::TransposeParams t;
  t.variant = gpu::TransposeVariant::Copy;
  EXPECT_THROW(gpu::transpose_tile_write(t), std::invalid_argument);
  t.variant = gpu::TransposeVariant::Naive;
  EXPECT_THROW(gpu::transpose_tile_read(t), std::invalid_argument);
}

// --- transpose: global accesses ---------------------------------------------------------------

std::uint64_t byte_of(const LaneTraceRecord& r) {
  return (std::uint64_t{r.address_hi} << 32) | r.address_lo;
}

TEST(TransposeGlobal, IndicesAreTheKernels) {
  // thread (tx, ty) of block (bx, by), tile 16, n 256: x = 16 bx + tx, y = 16 by + ty
  const int n = 256, tile = 16, tx = 3, ty = 5, bx = 2, by = 7;
  const int x = bx * tile + tx, y = by * tile + ty;
  using gpu::TransposeVariant;
  for (auto v : {TransposeVariant::Copy, TransposeVariant::Naive, TransposeVariant::Tiled,
                 TransposeVariant::Padded, TransposeVariant::Swizzled}) {
    const gpu::TransposeGlobalIndex g = gpu::transpose_global_index(v, tile, n, tx, ty, bx, by);
    EXPECT_EQ(g.read, y * n + x) << gpu::to_string(v);
    const int write = v == TransposeVariant::Copy    ? y * n + x
                      : v == TransposeVariant::Naive ? x * n + y
                                                     : (bx * tile + ty) * n + (by * tile + tx);
    EXPECT_EQ(g.write, write) << gpu::to_string(v);
  }
}

TEST(TransposeGlobal, NaiveWriteIsAColumn) {
  gpu::TransposeParams t;
  t.variant = gpu::TransposeVariant::Naive;
  t.tile = 32;
  t.rows_per_block = 8;
  t.n = 8192;
  for (int warp : {0, 3}) {
    const TraceRecords trace = gpu::transpose_global_trace(t, warp, true);
    for (int k = 0; k < kTraceLanes; ++k) {
      // lane k: tx = k, ty = warp; out[x * n + y]
      EXPECT_EQ(byte_of(trace[k]), (std::uint64_t{8192} * k + warp) * 4) << "lane " << k;
      EXPECT_EQ(trace[k].word_bytes, 4u);
      EXPECT_EQ(trace[k].active, 1u);
      if (k > 0) {
        EXPECT_NE(byte_of(trace[k]) / 32, byte_of(trace[k - 1]) / 32);  // each in its own sector
      }
    }
    for (int i = kTraceLanes; i < kTraceRecords; ++i) EXPECT_EQ(trace[i].active, 0u);
  }
  // The naive read is a row: coalesced.
  const TraceRecords read = gpu::transpose_global_trace(t, 0, false);
  for (int k = 0; k < kTraceLanes; ++k) EXPECT_EQ(byte_of(read[k]), 4u * k);
}

TEST(TransposeGlobal, TiledReadAndWriteAreCoalesced) {
  gpu::TransposeParams t;
  t.tile = 32;
  t.rows_per_block = 8;
  t.n = 1024;
  for (auto v : {gpu::TransposeVariant::Tiled, gpu::TransposeVariant::Padded,
                 gpu::TransposeVariant::Swizzled}) {
    t.variant = v;
    for (bool write : {false, true}) {
      for (int warp : {0, 7}) {
        const TraceRecords trace = gpu::transpose_global_trace(t, warp, write);
        // row ty = warp of the tile, 32 consecutive floats: 4 sectors, one 128-byte line
        for (int k = 0; k < kTraceLanes; ++k) {
          EXPECT_EQ(byte_of(trace[k]), std::uint64_t{1024} * 4 * warp + 4u * k)
              << gpu::to_string(v) << (write ? " write" : " read") << " warp " << warp << " lane "
              << k;
          EXPECT_EQ(trace[k].active, 1u);
        }
      }
    }
  }
}

TEST(TransposeGlobal, CopyReadsWhereItWrites) {
  gpu::TransposeParams t;
  t.variant = gpu::TransposeVariant::Copy;
  for (int tile : {8, 16, 32}) {
    t.tile = tile;
    t.rows_per_block = tile;
    t.n = 4 * tile;
    const int warps = tile * tile / 32;
    for (int warp = 0; warp < warps; ++warp) {
      const TraceRecords r = gpu::transpose_global_trace(t, warp, false);
      const TraceRecords w = gpu::transpose_global_trace(t, warp, true);
      for (int i = 0; i < kTraceRecords; ++i) {
        EXPECT_EQ(r[i].address_lo, w[i].address_lo);
        EXPECT_EQ(r[i].address_hi, w[i].address_hi);
        EXPECT_EQ(r[i].active, w[i].active);
      }
    }
  }
}

TEST(TransposeGlobal, SmallBlocksLeaveLanesIdleAndWarpsAreChecked) {
  gpu::TransposeParams t;
  t.variant = gpu::TransposeVariant::Tiled;
  t.tile = 8;
  t.rows_per_block = 1;  // 8 threads: lanes 8..31 idle
  t.n = 64;
  const TraceRecords trace = gpu::transpose_global_trace(t, 0, false);
  for (int k = 0; k < kTraceLanes; ++k) EXPECT_EQ(trace[k].active, k < 8 ? 1u : 0u) << k;
  EXPECT_THROW(gpu::transpose_global_trace(t, 1, false), std::invalid_argument);
  EXPECT_THROW(gpu::transpose_global_trace(t, -1, true), std::invalid_argument);
  t.rows_per_block = 8;  // 64 threads, 2 warps; warp 1 = rows 4..7
  const TraceRecords second = gpu::transpose_global_trace(t, 1, false);
  EXPECT_EQ(byte_of(second[0]), std::uint64_t{64} * 4 * 4);
  EXPECT_EQ(byte_of(second[9]), (std::uint64_t{64} * 5 + 1) * 4);
  EXPECT_THROW(gpu::transpose_global_trace(t, 2, false), std::invalid_argument);
  t.tile = 24;
  EXPECT_THROW(gpu::transpose_global_trace(t, 0, false), std::invalid_argument);
  t.tile = 8;
  t.n = 100;  // not a multiple of 8
  EXPECT_THROW(gpu::transpose_global_trace(t, 0, false), std::invalid_argument);
}

}  // namespace
}  // namespace warplens::test
