// The bank probe's and the transposes' host side (no GPU): parameter checks and their messages,
// the tile accesses the transpose view shows, and the transposes' global accesses.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

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

// --- transpose: the vectorized variant --------------------------------------------------------

TEST(TransposeVectorized, NamesParseAndTheVariantIsLast) {
  EXPECT_EQ(gpu::kTransposeVariants.back(), gpu::TransposeVariant::Vectorized);
  for (auto v : gpu::kTransposeVariants)
    EXPECT_EQ(gpu::parse_transpose_variant(gpu::to_string(v)), v) << gpu::to_string(v);
  EXPECT_STREQ(gpu::to_string(gpu::TransposeVariant::Vectorized), "vectorized");
  try {
    gpu::parse_transpose_variant("float4");
    ADD_FAILURE() << "an unknown variant was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_TRUE(contains(e.what(), "swizzled or vectorized")) << e.what();
  }
}

TEST(TransposeVectorized, RefusesMatricesNotMadeOfWholeDoubleTiles) {
  gpu::TransposeParams p;
  p.variant = gpu::TransposeVariant::Vectorized;
  EXPECT_NO_THROW(gpu::check_transpose(p, kPlenty));  // tile 32, 8 rows, n 8192
  EXPECT_FALSE(gpu::transpose_refusal(p).has_value());
  p.n = 96;  // three 32-tiles, one and a half 64-tiles
  try {
    gpu::check_transpose(p, kPlenty);
    ADD_FAILURE() << "n = 96 was accepted for 64 x 64 tiles";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "the vectorized transpose moves 64 x 64 tiles (2 x the tile of 32): matrix size 96 "
              "is not a multiple of 64");
  }
  EXPECT_THROW(gpu::transpose_global_trace(p, 0, false), std::invalid_argument);
  const auto refused = gpu::transpose_refusal(p);
  ASSERT_TRUE(refused.has_value());
  EXPECT_TRUE(refused->refused);
  EXPECT_FALSE(refused->verified);
  EXPECT_EQ(refused->gbps, 0.0);
  EXPECT_EQ(refused->check.rfind("refused: the vectorized transpose moves 64 x 64", 0), 0u)
      << refused->check;
  // The same n suits every other variant: only the vectorized one is refused.
  for (auto v : gpu::kTransposeVariants) {
    p.variant = v;
    EXPECT_EQ(gpu::transpose_refusal(p).has_value(), v == gpu::TransposeVariant::Vectorized)
        << gpu::to_string(v);
  }
  p.variant = gpu::TransposeVariant::Vectorized;
  p.n = 32;  // one 32-tile: not even one 64-tile
  EXPECT_THROW(gpu::check_transpose(p, kPlenty), std::invalid_argument);
  p.tile = 16;  // 32 x 32 tiles
  EXPECT_NO_THROW(gpu::check_transpose(p, kPlenty));
  p.tile = 24;
  p.n = 96;
  EXPECT_THROW(gpu::check_transpose(p, kPlenty), std::invalid_argument);
  p.tile = 32;
  p.rows_per_block = 3;
  p.n = 8192;
  EXPECT_THROW(gpu::check_transpose(p, kPlenty), std::invalid_argument);
}

TEST(TransposeVectorized, IndicesAreTheKernels) {
  // thread (tx, ty) of block (bx, by), tile 16: a 32 x 32 block tile, float2 columns 2 tx
  const int n = 256, tile = 16, tx = 3, ty = 5, bx = 2, by = 7, b = 32;
  const gpu::TransposeVariant v = gpu::TransposeVariant::Vectorized;
  EXPECT_EQ(gpu::transpose_block_tile(v, tile), b);
  EXPECT_EQ(gpu::transpose_access_floats(v), 2);
  EXPECT_EQ(gpu::transpose_block_x(v, tile), tile);  // T x rows threads, as the others
  const gpu::TransposeGlobalIndex g = gpu::transpose_global_index(v, tile, n, tx, ty, bx, by);
  EXPECT_EQ(g.read, (by * b + ty) * n + bx * b + 2 * tx);
  EXPECT_EQ(g.write, (bx * b + ty) * n + by * b + 2 * tx);
  // The kernel on the host, from the same index functions: every block loads its float2s into
  // tile[2T][2T + 1], then stores them transposed. Tile 8, 4 rows, n 32 (16 x 16 block tiles);
  // in[i] = i, so out[r][c] must hold c n + r.
  const int small = 32, t8 = 8, rows = 4, bt = 16;
  std::vector<int> out(small * small, -1), smem(bt * (bt + 1), -1);
  for (int by2 = 0; by2 < small / bt; ++by2) {
    for (int bx2 = 0; bx2 < small / bt; ++bx2) {
      for (int phase = 0; phase < 2; ++phase) {
        for (int ty2 = 0; ty2 < rows; ++ty2) {
          for (int tx2 = 0; tx2 < t8; ++tx2) {
            for (int j = 0; j < bt; j += rows) {
              const auto h = gpu::transpose_global_index(v, t8, small, tx2, ty2 + j, bx2, by2);
              EXPECT_EQ(h.read % 2, 0) << "float2 accesses are 8-byte aligned";
              EXPECT_EQ(h.write % 2, 0);
              for (int k = 0; k < 2; ++k) {
                const auto at = static_cast<std::size_t>(shared_element_index(
                    tx2, ty2 + j, t8, rows, gpu::transpose_tile_index(v, t8, phase == 1, k)));
                if (phase == 0) {
                  smem[at] = h.read + k;
                } else {
                  out[static_cast<std::size_t>(h.write + k)] = smem[at];
                }
              }
            }
          }
        }
      }
    }
  }
  for (int i = 0; i < small * small; ++i)
    EXPECT_EQ(out[static_cast<std::size_t>(i)], (i % small) * small + i / small) << i;
}

TEST(TransposeVectorized, TileIsPaddedTwiceTheTileTwoWordsALane) {
  gpu::TransposeParams t;
  t.variant = gpu::TransposeVariant::Vectorized;  // tile 32, 8 rows: tile[64][65]
  const BankProbeParams w = gpu::transpose_tile_write(t), r = gpu::transpose_tile_read(t);
  for (const BankProbeParams* b : {&w, &r}) {
    EXPECT_EQ(b->index.kind, SharedPatternKind::Tile);
    EXPECT_EQ(b->index.word_bytes, 4);
    EXPECT_EQ(b->index.tile_width, 64);
    EXPECT_EQ(b->index.pitch_elements, 65);
    EXPECT_EQ(b->index.lane_elements, 2);
    EXPECT_EQ(b->index.field, 0);  // the view shows the first float of each float2
    EXPECT_FALSE(b->index.swizzle);
    EXPECT_EQ(b->block_x, 32);
    EXPECT_EQ(b->block_y, 8);
    EXPECT_NO_THROW(gpu::plan_bank_probe(*b, kH100Shared));
  }
  EXPECT_EQ(w.op, gpu::SharedOp::Store);
  EXPECT_EQ(r.op, gpu::SharedOp::Load);
  EXPECT_FALSE(w.index.by_column);
  EXPECT_TRUE(r.index.by_column);
  // tile[ty][2 tx + k] and tile[2 tx + k][ty]
  EXPECT_EQ(shared_element_index(5, 3, 32, 8, w.index), 3 * 65 + 10);
  EXPECT_EQ(shared_element_index(5, 3, 32, 8, r.index), 10 * 65 + 3);
  const SharedIndexParams second = gpu::transpose_tile_index(t.variant, t.tile, true, 1);
  EXPECT_EQ(shared_element_index(5, 3, 32, 8, second), 11 * 65 + 3);
  // The write stores element (row, col) where the read looks for it, for both floats.
  for (int k = 0; k < 2; ++k) {
    const SharedIndexParams wk = gpu::transpose_tile_index(t.variant, t.tile, false, k);
    for (int row = 0; row < 64; ++row) {
      for (int tx = 0; tx < 32; ++tx) {
        // the write of (row, 2 tx + k): thread (tx, row); the read of it: thread (row / 2, 2 tx
        // + k) as its float row % 2
        const SharedIndexParams rr = gpu::transpose_tile_index(t.variant, t.tile, true, row % 2);
        EXPECT_EQ(shared_element_index(tx, row, 32, 8, wk),
                  shared_element_index(row / 2, 2 * tx + k, 32, 8, rr));
      }
    }
  }
  // Element k = 2 is not one of a float2's floats.
  BankProbeParams bad = w;
  bad.index.field = 2;
  EXPECT_THROW(gpu::plan_bank_probe(bad, kH100Shared), std::invalid_argument);
  bad.index.field = 0;
  bad.index.lane_elements = 0;
  EXPECT_THROW(gpu::plan_bank_probe(bad, kH100Shared), std::invalid_argument);
}

TEST(TransposeVectorized, WarpMovesTwoHundredFiftySixContiguousBytes) {
  gpu::TransposeParams t;
  t.variant = gpu::TransposeVariant::Vectorized;
  t.tile = 32;
  t.rows_per_block = 8;
  t.n = 1024;
  for (bool write : {false, true}) {
    for (int warp : {0, 7}) {
      const TraceRecords trace = gpu::transpose_global_trace(t, warp, write);
      // row ty = warp of the 64 x 64 tile: 32 float2, 256 bytes, 8 sectors, two 128-byte lines
      for (int k = 0; k < kTraceLanes; ++k) {
        EXPECT_EQ(byte_of(trace[k]), std::uint64_t{1024} * 4 * warp + 8u * k)
            << (write ? "write" : "read") << " warp " << warp << " lane " << k;
        EXPECT_EQ(trace[k].word_bytes, 8u);
        EXPECT_EQ(trace[k].active, 1u);
      }
      for (int i = kTraceLanes; i < kTraceRecords; ++i) EXPECT_EQ(trace[i].active, 0u);
    }
  }
  EXPECT_THROW(gpu::transpose_global_trace(t, 8, false), std::invalid_argument);  // 8 warps
  // Tile 8, 1 row: 8 threads, lanes 8..31 idle; a warp covers rows of 16 floats.
  t.tile = 8;
  t.rows_per_block = 1;
  t.n = 64;
  const TraceRecords small = gpu::transpose_global_trace(t, 0, true);
  for (int k = 0; k < kTraceLanes; ++k) EXPECT_EQ(small[k].active, k < 8 ? 1u : 0u) << k;
  EXPECT_EQ(byte_of(small[7]), 7u * 8);
}

}  // namespace
}  // namespace warplens::test
