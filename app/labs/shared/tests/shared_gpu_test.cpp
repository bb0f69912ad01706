// GPU tests of the shared-memory labs (ctest label "gpu"): skipped cleanly without a CUDA device.
// The bank probe's and the transposes' traces must equal their host twins; the transposes,
// the matrix multiplies and the reductions must check out against the CPU; bad parameters are
// refused before anything runs. No timing thresholds here: performance goes to the bench.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu.h"
#include "shared_lab.h"

namespace warplens::test {
namespace {

using gpu::BankProbeParams;

class SharedGpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    query_ = gpu::query_device();
    if (!query_.device) GTEST_SKIP() << "no CUDA device: " << query_.reason;
    lab_ = std::make_unique<gpu::SharedLab>(*query_.device);
  }
  gpu::DeviceQuery query_;
  std::unique_ptr<gpu::SharedLab> lab_;
};

/// What the trace of warp `warp` must hold: slot 0, lane l = thread 32 warp + l, its byte
/// offset from shared_element_index() when it is active, zero otherwise.
TraceRecords expected_trace(const BankProbeParams& p, int warp) {
  TraceRecords t{};
  const int threads = p.block_x * p.block_y;
  for (int lane = 0; lane < kTraceLanes; ++lane) {
    const int tid = 32 * warp + lane;
    if (tid >= threads || !shared_thread_active(tid, p.index)) continue;
    const int tx = tid % p.block_x, ty = tid / p.block_x;
    const auto byte = static_cast<std::uint32_t>(
        shared_element_index(tx, ty, p.block_x, p.block_y, p.index) * p.index.word_bytes);
    t[lane] = LaneTraceRecord{byte, 0u, static_cast<std::uint32_t>(p.index.word_bytes), 1u};
  }
  return t;
}

std::string describe(const BankProbeParams& p, int warp) {
  return std::string(gpu::to_string(p.index.kind)) + " word " + std::to_string(p.index.word_bytes) +
         " offset " + std::to_string(p.index.offset) + " stride " + std::to_string(p.index.stride) +
         " block " + std::to_string(p.block_x) + "x" + std::to_string(p.block_y) + " warp " +
         std::to_string(warp) + (p.op == gpu::SharedOp::Store ? " store" : " load");
}

void expect_same_trace(const TraceRecords& got, const TraceRecords& want, const std::string& what) {
  for (int i = 0; i < kTraceRecords; ++i) {
    EXPECT_EQ(got[i].address_lo, want[i].address_lo) << what << ", record " << i;
    EXPECT_EQ(got[i].address_hi, want[i].address_hi) << what << ", record " << i;
    EXPECT_EQ(got[i].word_bytes, want[i].word_bytes) << what << ", record " << i;
    EXPECT_EQ(got[i].active, want[i].active) << what << ", record " << i;
  }
}

struct TraceCase {
  BankProbeParams params;
  int warp = 0;
};

std::vector<TraceCase> trace_cases() {
  std::vector<TraceCase> cases;
  for (int w : {1, 2, 4, 8, 16}) {
    for (int stride : {0, 1, 2, 3, 32}) {
      TraceCase c;
      c.params.index.word_bytes = w;
      c.params.index.stride = stride;
      c.params.index.offset = w == 1 ? 5 : 1;
      c.params.block_x = 128;
      c.warp = 2;
      cases.push_back(c);
    }
  }
  {  // the column of a 32x32 tile: plain, padded, swizzled
    for (int variant = 0; variant < 3; ++variant) {
      TraceCase c;
      c.params.index.kind = SharedPatternKind::Tile;
      c.params.index.by_column = true;
      c.params.index.pitch_elements = variant == 1 ? 33 : 32;
      c.params.index.swizzle = variant == 2;
      c.params.block_x = 32;
      c.params.block_y = 32;
      c.warp = 5;
      cases.push_back(c);
    }
  }
  {
    TraceCase c;
    c.params.index.kind = SharedPatternKind::Struct;
    c.params.index.struct_words = 3;
    c.params.index.field = 1;
    c.params.op = gpu::SharedOp::Store;
    cases.push_back(c);
  }
  for (auto kind : {SharedPatternKind::Interleaved, SharedPatternKind::Blocked}) {
    TraceCase c;
    c.params.index.kind = kind;
    c.params.index.part = 1;
    c.params.index.word_bytes = 8;
    c.params.block_x = 64;
    c.warp = 1;
    cases.push_back(c);
  }
  {  // a 2D block where a warp spans rows: 16 x 16
    TraceCase c;
    c.params.index.kind = SharedPatternKind::Tile;
    c.params.index.tile_width = 16;
    c.params.index.pitch_elements = 16;
    c.params.index.by_column = true;
    c.params.block_x = 16;
    c.params.block_y = 16;
    c.warp = 3;
    cases.push_back(c);
  }
  // The labs' own accesses: a transpose tile read, a matmul read, reduction steps with idle lanes.
  gpu::TransposeParams t;
  t.variant = gpu::TransposeVariant::Swizzled;
  cases.push_back({gpu::transpose_tile_read(t), 1});
  t.variant = gpu::TransposeVariant::Vectorized;  // tile[64][65], two words a lane
  cases.push_back({gpu::transpose_tile_read(t), 3});
  cases.push_back({gpu::transpose_tile_write(t), 5});
  gpu::MatmulParams mm;
  mm.block_size = 16;
  cases.push_back({gpu::matmul_read_a(mm, 3), 2});
  cases.push_back({gpu::matmul_read_b(mm, 7), 2});
  gpu::ReductionParams r;
  r.block_threads = 256;
  for (auto v : {gpu::ReductionVariant::InterleavedDivergent,
                 gpu::ReductionVariant::InterleavedStrided, gpu::ReductionVariant::Sequential}) {
    r.variant = v;
    cases.push_back({gpu::reduction_step(r, 2, true), 0});
    cases.push_back({gpu::reduction_step(r, 1, false), 1});
  }
  return cases;
}

TEST_F(SharedGpuTest, TraceEqualsHostTwin) {
  for (const TraceCase& c : trace_cases()) {
    const TraceRecords got = lab_->trace_bank_to_host(c.params, c.warp);
    expect_same_trace(got, expected_trace(c.params, c.warp), describe(c.params, c.warp));
  }
}

TEST_F(SharedGpuTest, TraceOfAPatternAbove48KiB) {
  BankProbeParams p;
  p.block_x = 1024;
  p.index.word_bytes = 16;
  p.index.stride = 5;  // 5116 x 16 B: 80 KiB of dynamic shared memory, past the 48 KiB default
  if (query_.device->shared_bytes_per_block_optin < 96 * 1024) GTEST_SKIP() << "small GPU";
  EXPECT_GT(gpu::plan_bank_probe(p, query_.device->shared_bytes_per_block_optin).shared_bytes,
            48 * 1024);
  for (int warp : {0, 31}) {
    expect_same_trace(lab_->trace_bank_to_host(p, warp), expected_trace(p, warp),
                      describe(p, warp));
  }
  const auto m = lab_->measure_bank(p, 31, 2, 1);
  EXPECT_GT(m.cycles_per_request, 0);
  EXPECT_GT(m.gbps, 0);
}

TEST_F(SharedGpuTest, Stride32ConflictsCostSeveralTimesStride1) {
  BankProbeParams p;
  p.index.stride = 1;
  const auto free_of_conflicts = lab_->measure_bank(p, 0, 2, 1);
  p.index.stride = 32;
  const auto conflicts = lab_->measure_bank(p, 0, 2, 1);
  EXPECT_GT(free_of_conflicts.cycles_per_request, 0);
  EXPECT_GT(conflicts.cycles_per_request, 4 * free_of_conflicts.cycles_per_request)
      << "stride 1: " << free_of_conflicts.cycles_per_request
      << " cycles per request, stride 32: " << conflicts.cycles_per_request;
  // The whole-GPU numbers exist and move the same way.
  EXPECT_GT(free_of_conflicts.gbps, conflicts.gbps);
  EXPECT_GT(free_of_conflicts.bytes_per_clock_per_sm, conflicts.bytes_per_clock_per_sm);
  EXPECT_GT(free_of_conflicts.sm_clock_mhz, 0);
  EXPECT_GT(free_of_conflicts.fraction_of_limit, 0);
  EXPECT_EQ(free_of_conflicts.repeats, conflicts.repeats);
  EXPECT_EQ(free_of_conflicts.timing.runs, 2);
}

TEST_F(SharedGpuTest, EveryWordSizeAndOpMeasures) {
  for (int w : {1, 2, 4, 8, 16}) {
    for (auto op : {gpu::SharedOp::Load, gpu::SharedOp::Store}) {
      BankProbeParams p;
      p.index.word_bytes = w;
      p.op = op;
      p.block_x = 256;
      const auto m = lab_->measure_bank(p, 7, 1, 0);
      EXPECT_GT(m.gbps, 0) << describe(p, 7);
      EXPECT_GT(m.cycles_per_request, 0) << describe(p, 7);
      EXPECT_EQ(m.plan.threads, 256);
    }
  }
}

TEST_F(SharedGpuTest, TransposesAreVerified) {
  for (auto v : gpu::kTransposeVariants) {  // vectorized too: n is a multiple of 2 tile
    for (int tile : {8, 16, 32}) {
      for (int rows : {1, tile / 4, tile}) {
        gpu::TransposeParams p;
        p.variant = v;
        p.tile = tile;
        p.rows_per_block = rows;
        p.n = 1024 + 2 * tile;  // not a power of two
        const auto m = lab_->measure_transpose(p, 2, 1);
        EXPECT_TRUE(m.verified) << gpu::to_string(v) << " tile " << tile << " rows " << rows << ": "
                                << m.check;
        EXPECT_GT(m.gbps, 0);
        EXPECT_EQ(m.timing.runs, 2);
      }
    }
  }
}

TEST_F(SharedGpuTest, TransposeTraceEqualsHostTwin) {
  for (auto v : gpu::kTransposeVariants) {
    for (int tile : {8, 16, 32}) {
      for (int rows : {1, tile}) {
        gpu::TransposeParams p;
        p.variant = v;
        p.tile = tile;
        p.rows_per_block = rows;
        p.n = 2048;
        const int warps = (gpu::transpose_block_x(v, tile) * rows + 31) / 32;
        for (int warp : {0, warps / 2, warps - 1}) {
          for (bool write : {false, true}) {
            const std::string what = std::string(gpu::to_string(v)) + " tile " +
                                     std::to_string(tile) + " rows " + std::to_string(rows) +
                                     " warp " + std::to_string(warp) + (write ? " write" : " read");
            expect_same_trace(lab_->trace_transpose_to_host(p, warp, write),
                              gpu::transpose_global_trace(p, warp, write), what);
          }
        }
      }
    }
  }
  // The lab's default matrix size, 8192 x 8192: the naive write is a column 32 KiB apart.
  gpu::TransposeParams p;
  p.variant = gpu::TransposeVariant::Naive;
  p.n = 8192;
  const TraceRecords column = lab_->trace_transpose_to_host(p, 2, true);
  expect_same_trace(column, gpu::transpose_global_trace(p, 2, true), "naive 8192 write");
  EXPECT_EQ(column[31].address_lo, (31u * 8192u + 2u) * 4u);
}

TEST_F(SharedGpuTest, TransposeTraceThenMeasureIsVerified) {
  // The trace allocates the matrix buffers first: the measurement must still find its input.
  gpu::TransposeParams p;
  p.n = 1024 + 96;
  for (auto v : {gpu::TransposeVariant::Naive, gpu::TransposeVariant::Swizzled}) {
    p.variant = v;
    lab_->trace_transpose_to_host(p, 1, true);
    const auto m = lab_->measure_transpose(p, 1, 0);
    EXPECT_TRUE(m.verified) << gpu::to_string(v) << ": " << m.check;
    expect_same_trace(lab_->trace_transpose_to_host(p, 3, false),
                      gpu::transpose_global_trace(p, 3, false), "after the measurement");
  }
  p.variant = gpu::TransposeVariant::Vectorized;  // whole 64 x 64 tiles
  p.n = 1024 + 64;
  lab_->trace_transpose_to_host(p, 1, true);
  const auto m = lab_->measure_transpose(p, 1, 0);
  EXPECT_TRUE(m.verified) << "vectorized: " << m.check;
  expect_same_trace(lab_->trace_transpose_to_host(p, 3, false),
                    gpu::transpose_global_trace(p, 3, false), "vectorized after the measurement");
}

TEST_F(SharedGpuTest, VectorizedTransposeIsVerifiedAndTracedAtTheLabsSize) {
  // The lab's default, 8192 x 8192 floats, tile 32, 8 rows: 64 x 64 tiles of float2; every
  // element checked, and the traced warp's 8-byte lanes are the host twin's.
  gpu::TransposeParams p;
  p.variant = gpu::TransposeVariant::Vectorized;
  const auto m = lab_->measure_transpose(p, 3, 1);
  EXPECT_TRUE(m.verified) << m.check;
  EXPECT_FALSE(m.refused);
  EXPECT_GT(m.gbps, 0);
  for (int warp : {0, 7}) {
    for (bool write : {false, true}) {
      const TraceRecords traced = lab_->trace_transpose_to_host(p, warp, write);
      expect_same_trace(traced, gpu::transpose_global_trace(p, warp, write),
                        "vectorized 8192 warp " + std::to_string(warp));
      EXPECT_EQ(traced[0].word_bytes, 8u);
    }
  }
}

TEST_F(SharedGpuTest, TransposeTraceRefusesBadParameters) {
  gpu::TransposeParams p;  // tile 32 x 8 rows: warps 0..7
  p.n = 1024;
  EXPECT_THROW(lab_->trace_transpose_to_host(p, 8, false), std::invalid_argument);
  EXPECT_THROW(lab_->trace_transpose_to_host(p, -1, true), std::invalid_argument);
  p.tile = 24;
  EXPECT_THROW(lab_->trace_transpose_to_host(p, 0, false), std::invalid_argument);
  p.tile = 32;
  p.n = 1000;
  EXPECT_THROW(lab_->trace_transpose_to_host(p, 0, false), std::invalid_argument);
  p.n = 1024;
  p.variant = gpu::TransposeVariant::Vectorized;
  p.n = 1056;  // 33 tiles of 32: not whole 64 x 64 tiles
  EXPECT_THROW(lab_->trace_transpose_to_host(p, 0, false), std::invalid_argument);
  EXPECT_THROW(lab_->measure_transpose(p, 1, 0), std::invalid_argument);
  p.n = 1024;
  expect_same_trace(lab_->trace_transpose_to_host(p, 7, true),
                    gpu::transpose_global_trace(p, 7, true), "vectorized after the refusals");
  p.variant = gpu::TransposeVariant::Tiled;
  expect_same_trace(lab_->trace_transpose_to_host(p, 7, true),
                    gpu::transpose_global_trace(p, 7, true), "after the refusals");
}

TEST_F(SharedGpuTest, MatrixMultipliesAreVerified) {
  for (int block : {0, 8, 16, 32}) {
    for (int n : {256, 608}) {
      gpu::MatmulParams p;
      p.block_size = block;
      p.n = n;
      const auto m = lab_->measure_matmul(p, 1, 1);
      EXPECT_TRUE(m.verified) << "block " << block << " n " << n << ": " << m.check;
      EXPECT_GE(m.checked_entries, 256);
      EXPECT_LT(m.max_relative_error, 1e-4);
      EXPECT_GT(m.gflops, 0);
    }
  }
}

TEST_F(SharedGpuTest, ReductionsAreVerified) {
  for (auto v : {gpu::ReductionVariant::InterleavedDivergent,
                 gpu::ReductionVariant::InterleavedStrided, gpu::ReductionVariant::Sequential}) {
    for (int threads : {64, 256, 1024}) {
      for (std::int64_t elements : {std::int64_t{1} << 20, std::int64_t{1000003}}) {
        gpu::ReductionParams p;
        p.variant = v;
        p.block_threads = threads;
        p.elements = elements;
        const auto m = lab_->measure_reduction(p, 2, 1);
        EXPECT_TRUE(m.verified) << gpu::to_string(v) << " threads " << threads << " elements "
                                << elements << ": " << m.check;
        EXPECT_GT(m.gbps, 0);
      }
    }
  }
}

TEST_F(SharedGpuTest, BadParametersAreRefusedAndTheLabStaysUsable) {
  gpu::TransposeParams t;
  t.tile = 24;  // no such tile
  EXPECT_THROW(lab_->measure_transpose(t), std::invalid_argument);
  t.tile = 32;
  t.n = 1000;  // not a multiple of the tile
  EXPECT_THROW(lab_->measure_transpose(t), std::invalid_argument);
  t.n = 32768 + 32;
  EXPECT_THROW(lab_->measure_transpose(t), std::invalid_argument);
  gpu::MatmulParams mm;
  mm.n = 100;
  EXPECT_THROW(lab_->measure_matmul(mm), std::invalid_argument);
  gpu::ReductionParams r;
  r.block_threads = 100;
  EXPECT_THROW(lab_->measure_reduction(r), std::invalid_argument);

  BankProbeParams p;
  p.block_x = 1024;
  p.index.word_bytes = 16;
  p.index.stride = 32;  // 512 KiB: fits no GPU's shared memory
  EXPECT_THROW(lab_->trace_bank_to_host(p, 0), std::invalid_argument);
  EXPECT_THROW(lab_->measure_bank(p), std::invalid_argument);
  p.index.stride = 1;
  EXPECT_THROW(lab_->trace_bank_to_host(p, 32), std::invalid_argument);  // warps 0..31
  EXPECT_THROW(lab_->measure_bank(p, -1), std::invalid_argument);

  const TraceRecords after = lab_->trace_bank_to_host(p, 31);
  expect_same_trace(after, expected_trace(p, 31), describe(p, 31));
}

TEST_F(SharedGpuTest, CancelledMeasurementsThrowAndTheLabStaysUsable) {
  std::atomic<bool> cancel{true};
  gpu::TransposeParams t;
  t.n = 256;
  try {
    lab_->measure_transpose(t, 3, 1, &cancel);
    ADD_FAILURE() << "a cancelled transpose ran to the end";
  } catch (const gpu::GpuError& e) {
    EXPECT_EQ(std::string(e.what()), "cancelled");
  }
  EXPECT_THROW(lab_->measure_bank(BankProbeParams{}, 0, 3, 1, &cancel), gpu::GpuError);
  gpu::ReductionParams r;
  r.elements = 1 << 16;
  EXPECT_THROW(lab_->measure_reduction(r, 3, 1, &cancel), gpu::GpuError);
  cancel = false;
  EXPECT_TRUE(lab_->measure_transpose(t, 1, 0, &cancel).verified);
  EXPECT_TRUE(lab_->measure_reduction(r, 1, 0, &cancel).verified);
}

TEST_F(SharedGpuTest, TraceStreamIsTheLabs) {
  EXPECT_NE(lab_->trace_stream(), nullptr);
}

}  // namespace
}  // namespace warplens::test
