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
      const auto model = trace_from_accesses(model::evaluate_lanes(pattern), p.word_bytes);
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
  p.stride = 64;
  p.word_bytes = 16;
  const auto plan = gpu::plan_copy(p, gpu::kModelBufferBytes);
  EXPECT_LE(plan.pattern_span_bytes, gpu::kModelBufferBytes);
  EXPECT_EQ(plan.requested_bytes, 2 * plan.threads * 16);
}

}  // namespace
}  // namespace warplens
