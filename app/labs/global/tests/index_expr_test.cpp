// The copy kernel's index functions as values (index_expr.h): what they print for the model and
// for the window, and that the printed model expression evaluates, through the analyze grammar,
// to what the kernel's own evaluation gives (the same check the GPU test makes on the trace).
#include <gtest/gtest.h>

#include "access_pattern.h"
#include "copy_pattern.h"
#include "index_math.h"

namespace warplens {
namespace {

using index_expr::ExpressionStyle;

gpu::CopyParams params(IndexKind kind, std::int64_t offset, std::int64_t stride,
                       std::uint32_t seed = 1) {
  gpu::CopyParams p;
  p.kind = kind;
  p.offset = offset;
  p.stride = stride;
  p.seed = seed;
  return p;
}

TEST(IndexFunctions, PrintForTheWindowInCsNotation) {
  EXPECT_EQ(index_text(params(IndexKind::Strided, 1, 2), ExpressionStyle::Display), "1 + 2\u00d7i");
  EXPECT_EQ(index_text(params(IndexKind::SameWord, 0, 1), ExpressionStyle::Display),
            "0 + 32\u00d7(i/32)");
  EXPECT_EQ(index_text(params(IndexKind::Permuted, 4, 1, 3), ExpressionStyle::Display),
            "4 + 32\u00d7(i/32) + ((i & 31)\u00d77 + 3) % 32");
  EXPECT_EQ(index_text(params(IndexKind::Scattered, 0, 1, 5), ExpressionStyle::Display),
            "0 + scatter(i)");
}

TEST(IndexFunctions, PrintForTheModelInTheAnalyzeGrammar) {
  EXPECT_EQ(index_text(params(IndexKind::Strided, 1, 2), ExpressionStyle::Analyze),
            "1 + 2*(32*warp + lane)");
  // The scattered hash in full: the model evaluates every round the kernel does.
  const std::string scattered =
      index_text(params(IndexKind::Scattered, 0, 1, 5), ExpressionStyle::Analyze);
  EXPECT_NE(scattered.find("40503"), std::string::npos) << scattered;
  EXPECT_NE(scattered.find(">> 11"), std::string::npos) << scattered;
  EXPECT_NE(scattered.find(">> 7"), std::string::npos) << scattered;
}

TEST(IndexFunctions, ParenthesesFollowCsPrecedence) {
  using namespace index_expr;
  const Env env{0, 7, 3, 1};
  constexpr ThreadIndex g{};
  EXPECT_EQ(to_expression_text(g - (g - 1), env, ExpressionStyle::Display), "i - (i - 1)");
  EXPECT_EQ(to_expression_text(g + g + 1, env, ExpressionStyle::Display), "i + i + 1");
  EXPECT_EQ(to_expression_text(g * (g / 2), env, ExpressionStyle::Display), "i\u00d7(i/2)");
  EXPECT_EQ(to_expression_text((g + 1) * 2, env, ExpressionStyle::Display), "(i + 1)\u00d72");
  EXPECT_EQ(to_expression_text(g ^ (g >> 3), env, ExpressionStyle::Display), "i ^ i >> 3");
  // Parameters and literals fold into one value.
  EXPECT_EQ(to_expression_text(Offset{} + (Stride{} * 2 + 1) * g, env, ExpressionStyle::Display),
            "7 + 7\u00d7i");
}

TEST(IndexFunctions, ModelTextEvaluatesToTheKernelsIndexForEveryKind) {
  for (IndexKind kind :
       {IndexKind::Strided, IndexKind::Permuted, IndexKind::SameWord, IndexKind::Scattered}) {
    for (std::uint32_t seed : {1u, 6u, 31u, 1234567u}) {
      const gpu::CopyParams p = params(kind, 5, 3, seed);
      for (int warp : {0, 3, 7}) {
        const model::AccessPattern pattern = copy_access_pattern(p, warp);
        const auto lanes = model::evaluate_lanes(pattern);
        for (int lane = 0; lane < 32; ++lane) {
          ASSERT_EQ(lanes[static_cast<std::size_t>(lane)].index,
                    element_index(32 * warp + lane, index_params(p)))
              << pattern.index << " lane " << lane << " warp " << warp;
        }
      }
    }
  }
}

}  // namespace
}  // namespace warplens
