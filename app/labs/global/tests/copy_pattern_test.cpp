// The copy kernel's index function (element_index, run by the kernel and its host twin) and the
// index expression the model evaluates must give the same addresses for every pattern.
#include <gtest/gtest.h>

#include <vector>

#include "copy_pattern.h"
#include "memory_model.h"

namespace warplens {
namespace {

std::vector<gpu::CopyParams> all_patterns() {
  std::vector<gpu::CopyParams> list;
  for (IndexKind kind :
       {IndexKind::Strided, IndexKind::Permuted, IndexKind::SameWord, IndexKind::Scattered}) {
    for (int w : {1, 4, 16}) {
      for (std::int64_t offset : {0, 3}) {
        for (std::uint32_t seed : {1u, 7u, 2024u}) {
          gpu::CopyParams p;
          p.word_bytes = w;
          p.kind = kind;
          p.offset = offset;
          p.stride = kind == IndexKind::Strided ? 1 + seed % 9 : 1;
          p.seed = seed;
          list.push_back(p);
        }
      }
    }
  }
  return list;
}

TEST(CopyPattern, ModelExpressionEqualsTheHostTwinForEveryPattern) {
  for (const auto& p : all_patterns()) {
    for (int warp : {0, 5, 7}) {
      const auto pattern = copy_access_pattern(p, warp);
      const auto model = model_trace(p, warp);
      const auto twin = host_twin_trace(p, warp);
      for (int lane = 0; lane < kTraceLanes; ++lane) {
        ASSERT_EQ(model[lane].address_lo, twin[lane].address_lo)
            << gpu::to_string(p.kind) << " seed " << p.seed << " warp " << warp << " lane " << lane
            << ": " << pattern.index;
        ASSERT_EQ(model[lane].address_hi, twin[lane].address_hi);
      }
    }
  }
}

TEST(CopyPattern, SeveralWarpsFillConsecutiveSlots) {
  gpu::CopyParams p;
  p.stride = 3;
  const auto twin = host_twin_trace(p, 2, 4);
  const auto model = model_trace(p, 2, 4);
  EXPECT_EQ(traced_warps(twin), 4);
  for (int i = 0; i < kTraceRecords; ++i) {
    ASSERT_EQ(twin[i].address_lo, model[i].address_lo) << "record " << i;
    ASSERT_EQ(twin[i].active, model[i].active) << "record " << i;
  }
  // Slot 1 is warp 3: thread 96 reads element 288.
  EXPECT_EQ(twin[32].address_lo, 288u * 4);
  EXPECT_EQ(twin[4 * 32].active, 0u);
}

TEST(CopyPattern, HostHeatmapCountsWarpRequestsPerSector) {
  gpu::CopyParams aligned;
  const auto a =
      host_twin_heatmap(aligned, gpu::plan_copy(aligned, gpu::kModelBufferBytes).threads);
  EXPECT_EQ(a[0].requests, 1u);
  EXPECT_EQ(a[0].bytes, 32u);
  EXPECT_EQ(a[kHeatSectors - 1].requests, 1u);
  gpu::CopyParams misaligned;
  misaligned.offset = 1;
  const auto m =
      host_twin_heatmap(misaligned, gpu::plan_copy(misaligned, gpu::kModelBufferBytes).threads);
  EXPECT_EQ(m[0].requests, 1u);  // bytes 4..31 by warp 0
  EXPECT_EQ(m[0].bytes, 28u);
  EXPECT_EQ(m[4].requests, 2u);  // warp 0's last lane and warp 1's first seven
  EXPECT_EQ(m[4].bytes, 32u);
  gpu::CopyParams same;
  same.kind = IndexKind::SameWord;
  const auto s = host_twin_heatmap(same, gpu::plan_copy(same, gpu::kModelBufferBytes).threads);
  EXPECT_EQ(s[0].requests, 1u);  // warp 0 on word 0
  EXPECT_EQ(s[0].bytes, 128u);   // 32 lanes x 4 bytes asked, one sector moved
  EXPECT_EQ(s[4].requests, 1u);  // warp 1 on word 32 (byte 128)
  EXPECT_EQ(s[1].requests, 0u);
}

TEST(CopyPattern, StructFieldsAsArrayOfStructsAndStructOfArrays) {
  for (auto layout : {gpu::StructLayout::ArrayOfStructs, gpu::StructLayout::StructOfArrays}) {
    gpu::CopyParams p;
    p.layout = layout;
    for (int warp : {0, 5}) {
      const auto twin = host_twin_trace(p, warp);
      const auto model = model_trace(p, warp);
      EXPECT_EQ(traced_warps(twin), 3);  // one slot per field load
      for (int i = 0; i < kTraceRecords; ++i) {
        ASSERT_EQ(twin[i].address_lo, model[i].address_lo)
            << gpu::to_string(layout) << " record " << i;
        ASSERT_EQ(twin[i].address_hi, model[i].address_hi);
      }
    }
    // The seed's numbers: each of the three loads moves 12 sectors (AoS) or 4 (SoA).
    for (int field = 0; field < 3; ++field) {
      const auto a = model::analyze_global(model::evaluate_lanes(struct_field_pattern(p, 0, field)),
                                           4, model::Op::Load);
      EXPECT_EQ(a.sectors.size(), layout == gpu::StructLayout::ArrayOfStructs ? 12u : 4u);
    }
    const auto plan = gpu::plan_copy(p, gpu::kModelBufferBytes);
    EXPECT_EQ(plan.threads, gpu::kStructCount);
    EXPECT_EQ(plan.requested_bytes, gpu::kStructCount * 16);
  }
  gpu::CopyParams bad;
  bad.layout = gpu::StructLayout::ArrayOfStructs;
  bad.word_bytes = 8;
  EXPECT_THROW(gpu::plan_copy(bad, gpu::kModelBufferBytes), std::invalid_argument);
}

TEST(CopyPattern, MatrixReadsByRowAndColumnMatchTheModel) {
  for (bool pitched : {false, true}) {
    for (bool by_column : {false, true}) {
      for (int block_y : {8, 16, 32}) {
        gpu::CopyParams p;
        p.matrix_width = 120;
        p.matrix_pitched = pitched;
        p.matrix_by_column = by_column;
        p.block_y = block_y;
        for (int warp : {0, 1, 5}) {
          const auto twin = host_twin_trace(p, warp, 2);
          const auto model = model_trace(p, warp, 2);
          for (int i = 0; i < 64; ++i) {
            ASSERT_EQ(twin[i].address_lo, model[i].address_lo)
                << "pitched " << pitched << " by column " << by_column << " block_y " << block_y
                << " warp " << warp << " record " << i;
          }
        }
      }
    }
  }
  gpu::CopyParams p;
  p.matrix_width = 120;
  p.block_y = 8;
  EXPECT_EQ(gpu::matrix_pitch_bytes(p), 480);
  p.matrix_pitched = true;
  EXPECT_EQ(gpu::matrix_pitch_bytes(p), 512);
  p.pitch_alignment = 256;
  EXPECT_EQ(gpu::matrix_pitch_bytes(p), 512);
  p.pitch_alignment = 32;
  EXPECT_EQ(gpu::matrix_pitch_bytes(p), 480);
  // Warp 1 of a 32x8 block reads row 1: 4 sectors (480 is a multiple of 32) over 2 lines.
  p.matrix_pitched = false;
  const auto row1 =
      model::analyze_global(model::evaluate_lanes(copy_access_pattern(p, 1)), 4, model::Op::Load);
  EXPECT_EQ(row1.sectors.size(), 4u);
  EXPECT_EQ(row1.lines.size(), 2u);
  p.matrix_by_column = true;
  const auto column =
      model::analyze_global(model::evaluate_lanes(copy_access_pattern(p, 0)), 4, model::Op::Load);
  EXPECT_EQ(column.sectors.size(), 32u);
  const auto plan = gpu::plan_copy(p, gpu::kModelBufferBytes);
  EXPECT_EQ(plan.pitch_bytes, 480);
  EXPECT_LE(plan.rows * plan.pitch_bytes, gpu::kModelBufferBytes);
  p.matrix_width = 8;
  EXPECT_THROW(gpu::plan_copy(p, gpu::kModelBufferBytes), std::invalid_argument);
  p.matrix_width = 120;
  p.word_bytes = 8;
  EXPECT_THROW(gpu::plan_copy(p, gpu::kModelBufferBytes), std::invalid_argument);
}

TEST(CopyPattern, MatrixHeatmapShowsThePadding) {
  gpu::CopyParams p;
  p.matrix_width = 120;
  p.block_y = 8;
  const auto unpadded = host_twin_heatmap(p, 0);
  for (int s = 0; s < kHeatSectors; ++s) {
    ASSERT_EQ(unpadded[s].requests, 1u) << "sector " << s;  // rows of 480 B tile the memory
    ASSERT_EQ(unpadded[s].bytes, 32u) << "sector " << s;
  }
  p.matrix_pitched = true;  // rows of 512 B: the last sector of each row is padding
  const auto pitched = host_twin_heatmap(p, 0);
  EXPECT_EQ(pitched[14].requests, 1u);
  EXPECT_EQ(pitched[15].requests, 0u);
  EXPECT_EQ(pitched[16].requests, 1u);
  p.matrix_by_column = true;  // each warp request touches 32 rows, one sector each
  const auto columns = host_twin_heatmap(p, 0);
  EXPECT_EQ(columns[0].requests, 8u);  // columns 0..7 share sector 0, one request per column
  EXPECT_EQ(columns[0].bytes, 32u);
}

TEST(CopyPattern, StoresAreAnalysedAsStores) {
  gpu::CopyParams p;
  p.side = gpu::PatternSide::Write;
  p.stride = 2;
  const auto pattern = copy_access_pattern(p, 0);
  EXPECT_EQ(pattern.op, model::Op::Store);
  EXPECT_EQ(model::analyze_global(model::evaluate_lanes(pattern), 4, pattern.op).sectors.size(),
            8u);
}

TEST(CopyPattern, PermutedStaysInsideEachGroupOf32AndCoversIt) {
  IndexParams index;
  index.kind = IndexKind::Permuted;
  for (std::uint32_t seed : {0u, 5u, 31u, 1000u}) {
    index.seed = seed;
    std::vector<bool> seen(64);
    for (std::int64_t g = 0; g < 64; ++g) {
      const auto e = element_index(g, index);
      ASSERT_EQ(e / 32, g / 32);
      seen[static_cast<std::size_t>(e)] = true;
    }
    for (bool s : seen) EXPECT_TRUE(s);
  }
}

TEST(CopyPattern, ScatteredIsABijectionOfItsWindow) {
  IndexParams index;
  index.kind = IndexKind::Scattered;
  index.seed = 2024;
  index.offset = 11;
  std::vector<bool> seen(static_cast<std::size_t>(kScatterWindow));
  for (std::int64_t g = 0; g < kScatterWindow; ++g) {
    const auto e = element_index(g, index) - index.offset;
    ASSERT_TRUE(e >= 0 && e < kScatterWindow);
    ASSERT_FALSE(seen[static_cast<std::size_t>(e)]) << "element " << e << " read twice";
    seen[static_cast<std::size_t>(e)] = true;
  }
  // One warp's lanes land in (nearly) 32 different sectors: the point of the scenario.
  gpu::CopyParams p;
  p.kind = IndexKind::Scattered;
  p.seed = 2024;
  const auto a =
      model::analyze_global(model::evaluate_lanes(copy_access_pattern(p, 0)), 4, model::Op::Load);
  EXPECT_GE(a.sectors.size(), 30u);
}

TEST(CopyPlan, RefusesWhatWouldLeaveTheBuffer) {
  gpu::CopyParams p;
  EXPECT_NO_THROW(gpu::plan_copy(p, gpu::kModelBufferBytes));
  p.offset = gpu::kModelBufferBytes;  // elements: far past the end
  EXPECT_THROW(gpu::plan_copy(p, gpu::kModelBufferBytes), std::invalid_argument);
  p = {};
  p.kind = IndexKind::Scattered;
  EXPECT_THROW(gpu::plan_copy(p, 16 << 20), std::invalid_argument);  // window does not fit
  p = {};
  p.stride = std::int64_t{1} << 22;  // fewer elements than one block of threads
  EXPECT_THROW(gpu::plan_copy(p, gpu::kModelBufferBytes), std::invalid_argument);
  p = {};
  p.kind = IndexKind::Permuted;
  p.seed = 3000000000u;  // beyond what the model's 32-bit expressions can hold
  EXPECT_THROW(gpu::plan_copy(p, gpu::kModelBufferBytes), std::invalid_argument);
  p.seed = 2000000001u;  // allowed: the model uses it modulo 32, as the kernel does
  EXPECT_EQ(model_trace(p, 0)[3].address_lo, host_twin_trace(p, 0)[3].address_lo);
  p = {};
  p.stride = 64;
  p.word_bytes = 16;
  const auto plan = gpu::plan_copy(p, gpu::kModelBufferBytes);
  EXPECT_LE(plan.pattern_span_bytes, gpu::kModelBufferBytes);
  EXPECT_EQ(plan.requested_bytes, 2 * plan.threads * 16);
}

}  // namespace
}  // namespace warplens
