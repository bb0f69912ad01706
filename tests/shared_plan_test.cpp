// The shared-memory labs' host side (no GPU): parameter checks and their messages, the tile
// accesses the transpose and matrix-multiply views show, the transposes' global accesses, and
// the reduction steps.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "shared_lab.h"

namespace warplens::test {
namespace {

using gpu::BankProbeParams;

constexpr int kH100Shared = 227 * 1024;
constexpr std::int64_t kPlenty = std::int64_t{64} << 30;

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
  p.index.pitch = 33;
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
  p.index.pitch = 31;
  EXPECT_TRUE(contains(refusal(p), "pitch")) << refusal(p);
  p.index.pitch = 24;
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
  EXPECT_EQ(w.index.pitch, 32);
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
    EXPECT_EQ(r.index.pitch, pitch);
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

// --- matrix multiply ---------------------------------------------------------------------------

TEST(MatmulPlan, Checks) {
  gpu::MatmulParams p;
  EXPECT_NO_THROW(gpu::check_matmul(p, kPlenty));
  p.block_size = 0;
  EXPECT_NO_THROW(gpu::check_matmul(p, kPlenty));
  p.block_size = 12;
  EXPECT_THROW(gpu::check_matmul(p, kPlenty), std::invalid_argument);
  p.block_size = 16;
  p.n = 48;
  EXPECT_THROW(gpu::check_matmul(p, kPlenty), std::invalid_argument);
  p.n = 4096;  // 3 x 64 MiB
  EXPECT_THROW(gpu::check_matmul(p, std::int64_t{100} << 20), std::invalid_argument);
}

TEST(MatmulPlan, ReadsOfTheInnerLoop) {
  gpu::MatmulParams p;
  p.block_size = 16;
  const auto a = gpu::matmul_read_a(p, 5), b = gpu::matmul_read_b(p, 5);
  EXPECT_EQ(a.index.kind, SharedPatternKind::MatmulA);
  EXPECT_EQ(b.index.kind, SharedPatternKind::MatmulB);
  for (const auto& r : {a, b}) {
    EXPECT_EQ(r.index.pitch, 16);
    EXPECT_EQ(r.index.field, 5);
    EXPECT_EQ(r.block_x, 16);
    EXPECT_EQ(r.block_y, 16);
    EXPECT_EQ(r.index.word_bytes, 4);
  }
  // blockA[ty][k], blockB[k][tx]
  EXPECT_EQ(shared_element_index(3, 9, 16, 16, a.index), 9 * 16 + 5);
  EXPECT_EQ(shared_element_index(3, 9, 16, 16, b.index), 5 * 16 + 3);
  // largest index 15 x 16 + 5 = 245: 246 words = 984 B, rounded to 992
  EXPECT_EQ(gpu::plan_bank_probe(a, kH100Shared).shared_bytes, 992);
  EXPECT_THROW(gpu::matmul_read_a(p, 16), std::invalid_argument);
  p.block_size = 0;
  EXPECT_THROW(gpu::matmul_read_a(p, 0), std::invalid_argument);
  EXPECT_THROW(gpu::matmul_read_b(p, 0), std::invalid_argument);
}

// --- reduction ---------------------------------------------------------------------------------

TEST(ReductionPlan, Checks) {
  gpu::ReductionParams p;
  EXPECT_NO_THROW(gpu::check_reduction(p, kPlenty));
  p.block_threads = 96;
  EXPECT_THROW(gpu::check_reduction(p, kPlenty), std::invalid_argument);
  p.block_threads = 32;
  EXPECT_THROW(gpu::check_reduction(p, kPlenty), std::invalid_argument);
  p.block_threads = 2048;
  EXPECT_THROW(gpu::check_reduction(p, kPlenty), std::invalid_argument);
  p.block_threads = 256;
  p.elements = 0;
  EXPECT_THROW(gpu::check_reduction(p, kPlenty), std::invalid_argument);
  p.elements = 1000;  // a partial last block is fine
  EXPECT_NO_THROW(gpu::check_reduction(p, kPlenty));
  p.elements = 1 << 24;  // 64 MiB
  EXPECT_THROW(gpu::check_reduction(p, std::int64_t{32} << 20), std::invalid_argument);
}

TEST(ReductionPlan, Steps) {
  gpu::ReductionParams p;
  p.block_threads = 256;
  EXPECT_EQ(gpu::reduction_steps(p), 8);
  p.block_threads = 1024;
  EXPECT_EQ(gpu::reduction_steps(p), 10);
  p.block_threads = 64;
  EXPECT_EQ(gpu::reduction_steps(p), 6);
}

TEST(ReductionPlan, SequentialStepZero) {
  gpu::ReductionParams p;
  p.variant = gpu::ReductionVariant::Sequential;
  p.block_threads = 256;
  const auto first = gpu::reduction_step(p, 0, false), second = gpu::reduction_step(p, 0, true);
  EXPECT_EQ(first.index.active_threads, 128);
  EXPECT_EQ(first.index.offset, 0);
  EXPECT_EQ(second.index.offset, 128);
  EXPECT_EQ(second.index.stride, 1);
  EXPECT_EQ(first.block_x, 256);
  EXPECT_EQ(first.block_y, 1);
  EXPECT_EQ(first.index.word_bytes, 4);
  const auto last = gpu::reduction_step(p, 7, true);
  EXPECT_EQ(last.index.active_threads, 1);
  EXPECT_EQ(last.index.offset, 1);
  EXPECT_THROW(gpu::reduction_step(p, 8, false), std::invalid_argument);
  EXPECT_THROW(gpu::reduction_step(p, -1, false), std::invalid_argument);
}

TEST(ReductionPlan, InterleavedDivergent) {
  gpu::ReductionParams p;
  p.variant = gpu::ReductionVariant::InterleavedDivergent;
  p.block_threads = 128;
  const auto s = gpu::reduction_step(p, 2, true);  // s = 4
  EXPECT_EQ(s.index.active_every, 8);
  EXPECT_EQ(s.index.offset, 4);
  EXPECT_EQ(s.index.stride, 1);
  EXPECT_TRUE(shared_thread_active(8, s.index));
  EXPECT_FALSE(shared_thread_active(4, s.index));
  EXPECT_EQ(shared_element_index(8, 0, 128, 1, s.index), 12);
}

TEST(ReductionPlan, InterleavedStrided) {
  gpu::ReductionParams p;
  p.variant = gpu::ReductionVariant::InterleavedStrided;
  p.block_threads = 256;
  const auto s = gpu::reduction_step(p, 1, false);  // s = 2: index 4 tid
  EXPECT_EQ(s.index.stride, 4);
  EXPECT_EQ(s.index.active_threads, 64);
  EXPECT_EQ(s.index.offset, 0);
  EXPECT_EQ(gpu::reduction_step(p, 1, true).index.offset, 2);
  EXPECT_EQ(shared_element_index(63, 0, 256, 1, s.index), 252);
  // every step's accesses stay inside the block's 256 words
  for (int step = 0; step < gpu::reduction_steps(p); ++step) {
    for (bool second : {false, true}) {
      EXPECT_LE(
          gpu::plan_bank_probe(gpu::reduction_step(p, step, second), kH100Shared).shared_bytes,
          256 * 4);
    }
  }
}

// --- the kernels' builders ---------------------------------------------------------------------

TEST(KernelIndexParams, AreWhatTheViewsShow) {
  // The kernels build their shared-memory index parameters with these host-device helpers from
  // compile-time constants; the bank view gets them through the *_tile_* / *_read_* / step
  // functions. Both must be the same values.
  for (auto v : {gpu::TransposeVariant::Tiled, gpu::TransposeVariant::Padded,
                 gpu::TransposeVariant::Swizzled}) {
    for (int tile : {8, 16, 32}) {
      gpu::TransposeParams t;
      t.variant = v;
      t.tile = tile;
      t.rows_per_block = tile / 4;
      EXPECT_EQ(gpu::transpose_tile_write(t).index, gpu::transpose_tile_index(v, tile, false));
      EXPECT_EQ(gpu::transpose_tile_read(t).index, gpu::transpose_tile_index(v, tile, true));
    }
  }
  for (int block : {8, 16, 32}) {
    gpu::MatmulParams m;
    m.block_size = block;
    for (int k = 0; k < block; ++k) {
      EXPECT_EQ(gpu::matmul_read_a(m, k).index, gpu::matmul_read_index(block, k, false));
      EXPECT_EQ(gpu::matmul_read_b(m, k).index, gpu::matmul_read_index(block, k, true));
      // and they are the seeds' blockA[ty][k] and blockB[k][tx]
      for (int ty = 0; ty < block; ++ty) {
        for (int tx = 0; tx < block; ++tx) {
          ASSERT_EQ(shared_element_index(tx, ty, block, block, gpu::matmul_read_a(m, k).index),
                    ty * block + k);
          ASSERT_EQ(shared_element_index(tx, ty, block, block, gpu::matmul_read_b(m, k).index),
                    k * block + tx);
        }
      }
    }
  }
  for (auto v : {gpu::ReductionVariant::InterleavedDivergent,
                 gpu::ReductionVariant::InterleavedStrided, gpu::ReductionVariant::Sequential}) {
    gpu::ReductionParams r;
    r.variant = v;
    r.block_threads = 512;
    for (int step = 0; step < gpu::reduction_steps(r); ++step) {
      EXPECT_EQ(gpu::reduction_step(r, step, true).index, gpu::reduction_index(v, 512, step, true));
    }
  }
}

TEST(KernelIndexParams, ReductionStepsAreHarrisKernels) {
  // Harris 1-3 written out, against the active threads and indices of every step.
  const int threads = 256;
  gpu::ReductionParams r;
  r.block_threads = threads;
  for (auto v : {gpu::ReductionVariant::InterleavedDivergent,
                 gpu::ReductionVariant::InterleavedStrided, gpu::ReductionVariant::Sequential}) {
    r.variant = v;
    for (int step = 0; step < gpu::reduction_steps(r); ++step) {
      const int s = v == gpu::ReductionVariant::Sequential ? threads >> (step + 1) : 1 << step;
      const auto a = gpu::reduction_step(r, step, false).index;
      const auto b = gpu::reduction_step(r, step, true).index;
      for (int tid = 0; tid < threads; ++tid) {
        bool active = false;
        int first = 0;
        switch (v) {
          case gpu::ReductionVariant::InterleavedDivergent:
            active = tid % (2 * s) == 0;
            first = tid;
            break;
          case gpu::ReductionVariant::InterleavedStrided:
            first = 2 * s * tid;
            active = first < threads;
            break;
          case gpu::ReductionVariant::Sequential:
            active = tid < s;
            first = tid;
            break;
        }
        ASSERT_EQ(shared_thread_active(tid, a), active) << gpu::to_string(v) << " s " << s;
        if (!active) continue;
        ASSERT_EQ(shared_element_index(tid, 0, threads, 1, a), first);
        ASSERT_EQ(shared_element_index(tid, 0, threads, 1, b), first + s);
      }
    }
  }
}

// --- names -------------------------------------------------------------------------------------

TEST(SharedNames, RoundTrip) {
  for (auto v :
       {gpu::TransposeVariant::Copy, gpu::TransposeVariant::Naive, gpu::TransposeVariant::Tiled,
        gpu::TransposeVariant::Padded, gpu::TransposeVariant::Swizzled}) {
    EXPECT_EQ(gpu::parse_transpose_variant(gpu::to_string(v)), v);
  }
  for (auto v : {gpu::ReductionVariant::InterleavedDivergent,
                 gpu::ReductionVariant::InterleavedStrided, gpu::ReductionVariant::Sequential}) {
    EXPECT_EQ(gpu::parse_reduction_variant(gpu::to_string(v)), v);
  }
  for (auto k : {SharedPatternKind::Strided, SharedPatternKind::Tile, SharedPatternKind::Struct,
                 SharedPatternKind::Interleaved, SharedPatternKind::Blocked,
                 SharedPatternKind::MatmulA, SharedPatternKind::MatmulB}) {
    EXPECT_EQ(gpu::parse_shared_pattern_kind(gpu::to_string(k)), k);
  }
  EXPECT_STREQ(gpu::to_string(gpu::ReductionVariant::InterleavedStrided), "interleaved");
  EXPECT_THROW(gpu::parse_transpose_variant("diagonal"), std::invalid_argument);
  EXPECT_THROW(gpu::parse_reduction_variant(""), std::invalid_argument);
  EXPECT_THROW(gpu::parse_shared_pattern_kind("tiles"), std::invalid_argument);
}

}  // namespace
}  // namespace warplens::test
