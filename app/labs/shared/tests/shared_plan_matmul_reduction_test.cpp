// The matrix multiply's and the reduction's host side (no GPU): checks, the inner loop's tile
// reads, the reduction steps, the kernels' index builders and the labs' names.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "shared_lab.h"
#include "shared_plan_test_support.h"

namespace warplens::test {
namespace {

using gpu::BankProbeParams;

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
    EXPECT_EQ(r.index.pitch_elements, 16);
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
