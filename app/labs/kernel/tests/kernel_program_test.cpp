// "Your kernel" on the host (no GPU): the program's checks, the expression grammar's new names,
// the traced warp's model against analyze's, bounds checks, the simulation, the generated source
// (key lines, and NVRTC accepts it when the toolkit is there), and the module cache's bound.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "access_pattern.h"
#include "index_expression.h"
#include "kernel_lab.h"
#include "kernel_module_cache.h"
#include "kernel_program.h"

namespace warplens {
namespace {

using gpu::KernelProgram;
using gpu::KernelRow;
using gpu::KernelSpace;
using model::Op;

// The naive transpose of an n x n matrix of floats: read a row, write a column.
KernelProgram naive_transpose(int n) {
  KernelProgram p;
  p.block = {32, 8};
  p.grid = {n / 32, n / 8};
  p.in = {std::int64_t{n} * n, 4};
  p.out = {std::int64_t{n} * n, 4};
  p.constants = {{"n", n}};
  p.rows = {
      {KernelSpace::In, Op::Load, 4, gpu::LoadPath::Default, "(by*bdy + ty)*n + bx*bdx + tx"},
      {KernelSpace::Out, Op::Store, 4, gpu::LoadPath::Default, "(bx*bdx + tx)*n + by*bdy + ty"}};
  return p;
}

// The tiled transpose through a 32 x 32 tile (blocks of 32 x 32 threads), padded or not.
KernelProgram tiled_transpose(int n, bool padded) {
  KernelProgram p;
  const int pitch = padded ? 33 : 32;
  p.block = {32, 32};
  p.grid = {n / 32, n / 32};
  p.in = p.out = {std::int64_t{n} * n, 4};
  p.tile = {32 * pitch, 4};
  p.constants = {{"n", n}, {"pitch", pitch}};
  p.rows = {
      {KernelSpace::In, Op::Load, 4, gpu::LoadPath::Default, "(by*32 + ty)*n + bx*32 + tx"},
      {KernelSpace::Tile, Op::Store, 4, gpu::LoadPath::Default, "ty*pitch + tx", true},
      {KernelSpace::Tile, Op::Load, 4, gpu::LoadPath::Default, "tx*pitch + ty"},
      {KernelSpace::Out, Op::Store, 4, gpu::LoadPath::Default, "(bx*32 + ty)*n + by*32 + tx"}};
  return p;
}

std::string message_of(const KernelProgram& p) {
  try {
    gpu::check_program(p);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(KernelExpression, GridNamesHaveAnalyzesDefaults) {
  model::IndexExpression e("bx + 10*by + 100*gdx + 1000*gdy");
  EXPECT_EQ(e.evaluate({}), 1100);
  EXPECT_EQ(e.evaluate({.bx = 3, .by = 2, .gdx = 4, .gdy = 5}), 3 + 20 + 400 + 5000);
}

TEST(KernelExpression, NamedConstants) {
  model::IndexExpression e("ty*n + tx", {{"n", 8192}});
  EXPECT_EQ(e.evaluate({.tx = 3, .ty = 2}), 2 * 8192 + 3);
  EXPECT_THROW(model::IndexExpression("lane", {{"tx", 1}}), model::IndexExpressionError);
  EXPECT_THROW(model::IndexExpression("lane", {{"int", 1}}), model::IndexExpressionError);
  EXPECT_THROW(model::IndexExpression("lane", {{"N", 1}}), model::IndexExpressionError);
  EXPECT_THROW(model::IndexExpression("lane", {{"wl_x", 1}}), model::IndexExpressionError);
  EXPECT_THROW(model::IndexExpression("lane", {{"n", 1}, {"n", 2}}), model::IndexExpressionError);
  EXPECT_THROW(model::IndexExpression("lane", {{"n", std::int64_t{1} << 31}}),
               model::IndexExpressionError);
  EXPECT_THROW(model::IndexExpression("m + lane", {{"n", 1}}), model::IndexExpressionError);
}

TEST(KernelExpression, ErrorsKnowTheirColumn) {
  try {
    model::IndexExpression e("lane + $");
    FAIL() << "accepted";
  } catch (const model::IndexExpressionError& e) {
    EXPECT_EQ(e.position(), 7);
  }
}

TEST(KernelExpression, AnalyzePatternReadsBlockIndexAndGrid) {
  model::AccessPattern p;
  p.index = "bx*bdx + lane + gdx";
  p.grid = {4, 1};
  p.block_index = {2, 0};
  const auto lanes = model::evaluate_lanes(p);
  EXPECT_EQ(lanes[5].index, 2 * 32 + 5 + 4);
  p.block_index = {4, 0};
  EXPECT_THROW(p.validate(), model::PatternError);
}

TEST(KernelProgramCheck, RefusesWithRowAndColumn) {
  auto p = naive_transpose(256);
  EXPECT_EQ(message_of(p), "");
  p.rows[1].index = "(bx*bdx + tx)*n + by*bdy + ty + q";
  const std::string m = message_of(p);
  EXPECT_NE(m.find("row 2"), std::string::npos) << m;
  EXPECT_NE(m.find("column"), std::string::npos) << m;
  p = naive_transpose(256);
  p.rows[0].word_bytes = 3;
  EXPECT_NE(message_of(p).find("row 1: word bytes"), std::string::npos);
  p = naive_transpose(256);
  p.rows[0].space = KernelSpace::Tile;
  EXPECT_NE(message_of(p).find("needs a tile"), std::string::npos);
  p = naive_transpose(256);
  p.rows[1].path = gpu::LoadPath::L2Only;
  EXPECT_NE(message_of(p).find("global loads only"), std::string::npos);
  p = naive_transpose(256);
  p.rows[0].space = KernelSpace::Out;
  p.rows[0].path = gpu::LoadPath::ReadOnly;
  EXPECT_NE(message_of(p).find("__ldg"), std::string::npos);
  p = naive_transpose(256);
  p.block = {64, 32};
  EXPECT_NE(message_of(p).find("block 64x32"), std::string::npos);
  p = naive_transpose(256);
  p.tile = {300 * 1024, 1};
  EXPECT_NE(message_of(p).find("tile"), std::string::npos);
  p = naive_transpose(256);
  p.rows.assign(9, p.rows[0]);
  EXPECT_NE(message_of(p).find("1 .. 8 rows"), std::string::npos);
  p = naive_transpose(256);
  p.constants.push_back({"a", 1});
  p.constants.push_back({"b", 1});
  p.constants.push_back({"c", 1});
  p.constants.push_back({"d", 1});
  EXPECT_NE(message_of(p).find("at most 4 constants"), std::string::npos);
}

TEST(KernelModel, TracedWarpMatchesAnalyze) {
  const auto p = naive_transpose(256);
  const gpu::TracedWarp w{3, 5, 2};
  const auto rows = gpu::model_warp(p, w);
  ASSERT_EQ(rows.size(), 2u);
  // The same access through analyze's pattern (constants written out).
  model::AccessPattern a;
  a.block = p.block;
  a.grid = p.grid;
  a.block_index = {3, 5};
  a.warp = 2;
  a.index = "(by*bdy + ty)*256 + bx*bdx + tx";
  const auto lanes = model::evaluate_lanes(a);
  const auto expected = model::analyze_global(lanes, 4, Op::Load);
  ASSERT_TRUE(rows[0].global);
  EXPECT_EQ(rows[0].global->sectors, expected.sectors);
  EXPECT_EQ(rows[0].cost(), 4);   // one 128-byte row: 4 sectors
  EXPECT_EQ(rows[1].cost(), 32);  // a column: 32 sectors
  EXPECT_STREQ(rows[1].cost_unit(), "sectors");
}

TEST(KernelModel, TileRowsCountWavefronts) {
  const auto plain = gpu::model_warp(tiled_transpose(256, false), {0, 0, 1});
  const auto padded = gpu::model_warp(tiled_transpose(256, true), {0, 0, 1});
  EXPECT_EQ(plain[1].cost(), 1);   // a tile row
  EXPECT_EQ(plain[2].cost(), 32);  // a tile column, 32-way conflict
  EXPECT_EQ(padded[2].cost(), 1);  // padded: conflict-free
  EXPECT_STREQ(plain[2].cost_unit(), "wavefronts");
}

TEST(KernelModel, OutOfRangeLanesSkipTheAccess) {
  auto p = naive_transpose(256);
  p.rows[0].index = "lane - 4";
  const auto rows = gpu::model_warp(p, {0, 0, 0});
  EXPECT_EQ(rows[0].out_of_range_lanes, 4);
  EXPECT_FALSE(rows[0].lanes[3].active);
  EXPECT_TRUE(rows[0].lanes[4].active);
  p.rows[0].index = "65536 + lane";  // past the end of a 256 x 256 buffer
  EXPECT_EQ(gpu::model_warp(p, {0, 0, 0})[0].out_of_range_lanes, 32);
}

TEST(KernelModel, EvaluationErrorsUseAnalyzesMessage) {
  auto p = naive_transpose(256);
  p.rows[0].index = "lane / (tx - 3)";
  try {
    (void)gpu::model_warp(p, {0, 0, 0});
    FAIL() << "accepted";
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("row 1"), std::string::npos) << m;
    EXPECT_NE(m.find("division by zero"), std::string::npos) << m;
  }
  p.rows[0].index = "1 << (lane + 1)";
  EXPECT_THROW((void)gpu::simulate_program(p), std::invalid_argument);
}

TEST(KernelSimulation, NaiveTransposeWritesTheTranspose) {
  const int n = 64;
  const auto sim = gpu::simulate_program(naive_transpose(n));
  ASSERT_TRUE(sim.complete);
  EXPECT_EQ(sim.ambiguous_bytes, 0);
  EXPECT_EQ(sim.tile_races, 0);
  // out[c*n + r] = in[r*n + c] = r*n + c.
  const auto word = [&](std::int64_t k) {
    std::uint32_t v = 0;
    for (int b = 0; b < 4; ++b)
      v |= std::uint32_t{sim.out[static_cast<std::size_t>(4 * k + b)]} << (8 * b);
    return v;
  };
  EXPECT_EQ(word(5 * n + 7), 7u * n + 5);
  EXPECT_EQ(word(0), 0u);
  EXPECT_EQ(word(std::int64_t{n} * n - 1), std::uint32_t(n * n - 1));
}

TEST(KernelSimulation, TiledTransposesAgreeWithNaive) {
  const auto naive = gpu::simulate_program(naive_transpose(64));
  for (bool padded : {false, true}) {
    const auto tiled = gpu::simulate_program(tiled_transpose(64, padded));
    ASSERT_TRUE(tiled.complete);
    EXPECT_EQ(tiled.tile_races, 0);
    EXPECT_EQ(tiled.out, naive.out);
  }
}

TEST(KernelSimulation, MissingSyncIsARace) {
  auto p = tiled_transpose(64, false);
  p.rows[1].sync_after = false;
  const auto sim = gpu::simulate_program(p);
  EXPECT_GT(sim.tile_races, 0);
  EXPECT_GT(sim.ambiguous_bytes, 0);
}

TEST(KernelSimulation, StoresWithoutLoadsWriteLinearIds) {
  KernelProgram p;
  p.block = {32, 2};
  p.grid = {2, 1};
  p.in = {16, 4};
  p.out = {256, 8};
  p.rows = {{KernelSpace::Out, Op::Store, 8, gpu::LoadPath::Default, "(bx*bdy + ty)*bdx + tx"}};
  const auto sim = gpu::simulate_program(p);
  ASSERT_TRUE(sim.complete);
  EXPECT_EQ(sim.out[8 * 70], 70);  // thread 70 of the grid writes its id
  EXPECT_EQ(sim.out[8 * 70 + 1], 0);
}

TEST(KernelSimulation, PastTheBudgetChecksSampleBlocks) {
  const auto sim = gpu::simulate_program(naive_transpose(8192));
  EXPECT_FALSE(sim.complete);
  EXPECT_NE(sim.why_incomplete.find("budget"), std::string::npos);
  EXPECT_LT(sim.evaluations, 10000);
}

TEST(KernelSimulation, RequestedBytesCountInRangeLanes) {
  const auto p = naive_transpose(64);
  EXPECT_EQ(gpu::requested_global_bytes(p, {}), 2 * 64 * 64 * 4);
  EXPECT_EQ(gpu::requested_global_bytes(p, {0, 10}), 2 * 64 * 64 * 4 - 40);
}

TEST(KernelSource, KeyLines) {
  const std::string s = gpu::generate_source(tiled_transpose(256, true));
  EXPECT_EQ(s, gpu::generate_source(tiled_transpose(256, true)));  // deterministic
  for (const char* line :
       {"extern \"C\" __global__ void warplens_kernel(unsigned char* in, unsigned char* out,",
        "  extern __shared__ __align__(16) unsigned char tile[];", "  const long long n = 256;",
        "  const long long pitch = 33;", "    const long long wl_i = tx*pitch + ty;",
        "    const bool wl_ok = wl_i >= 0 && wl_i < 65536LL;  // in: 262144 bytes / 4",
        "    const bool wl_ok = wl_i >= 0 && wl_i < 1056LL;  // tile: 4224 bytes / 4",
        "  __syncthreads();",
        "    if (wl_ok) *(reinterpret_cast<unsigned int*>(out) + wl_i) = "
        "static_cast<unsigned int>(wl_lo);",
        "    if (!wl_ok && wl_out_of_range) atomicAdd(wl_out_of_range + 3, 1ULL);",
        "<<<dim3(8, 8), dim3(32, 32), 4224>>>"})
    EXPECT_NE(s.find(line), std::string::npos) << line << "\n---\n" << s;
}

TEST(KernelSource, LoadPathsAndUnusedLoads) {
  KernelProgram p;
  p.block = {32, 1};
  p.in = {1 << 10, 4};
  p.rows = {{KernelSpace::In, Op::Load, 16, gpu::LoadPath::L2Only, "lane"},
            {KernelSpace::In, Op::Load, 4, gpu::LoadPath::ReadOnly, "lane"}};
  const std::string s = gpu::generate_source(p);
  EXPECT_NE(s.find("__ldcg(reinterpret_cast<const uint4*>(in) + wl_i)"), std::string::npos) << s;
  EXPECT_NE(s.find("__ldg(reinterpret_cast<const unsigned int*>(in) + wl_i)"), std::string::npos);
  // Neither load is stored: each is kept by a store the compiler cannot rule out.
  EXPECT_NE(s.find("== ~reinterpret_cast<unsigned long long>(out)) out[0] = 1;"),
            std::string::npos);
  if (!gpu::built_with_cuda()) return;
  // Every word size, load path and space through NVRTC.
  p.tile = {1024, 4};
  p.out = {1 << 10, 16};
  for (int w : {1, 2, 4, 8, 16}) {
    p.rows.push_back({KernelSpace::In, Op::Load, w, gpu::LoadPath::L2Only, "lane"});
    p.rows.push_back({KernelSpace::Tile, Op::Store, w, gpu::LoadPath::Default, "lane", true});
    p.rows.push_back({KernelSpace::Out, Op::Store, w, gpu::LoadPath::Default, "lane"});
  }
  p.rows.resize(gpu::kMaxKernelRows);
  EXPECT_NO_THROW(gpu::check_program(p));
  EXPECT_GT(gpu::compile_kernel_source(gpu::generate_source(p), "sm_90").size(), 1000u);
  p.rows.erase(p.rows.begin(), p.rows.begin() + 2);
  p.rows.push_back({KernelSpace::In, Op::Load, 2, gpu::LoadPath::ReadOnly, "lane + n"});
  p.rows.push_back({KernelSpace::Tile, Op::Load, 8, gpu::LoadPath::Default, "lane"});
  p.constants = {{"n", 5}};
  EXPECT_GT(gpu::compile_kernel_source(gpu::generate_source(p), "sm_80").size(), 1000u);
}

// NVRTC needs no GPU: every generated program compiles for the H100's architecture.
TEST(KernelSource, NvrtcCompilesGeneratedSource) {
  if (!gpu::built_with_cuda()) GTEST_SKIP() << "built without the CUDA toolkit";
  for (const auto& p : {naive_transpose(256), tiled_transpose(256, false)}) {
    const auto cubin = gpu::compile_kernel_source(gpu::generate_source(p), "sm_90");
    EXPECT_GT(cubin.size(), 1000u);
  }
}

TEST(KernelSource, NvrtcRefusalCarriesItsLog) {
  if (!gpu::built_with_cuda()) GTEST_SKIP() << "built without the CUDA toolkit";
  try {
    (void)gpu::compile_kernel_source("extern \"C\" __global__ void k() { undeclared = 1; }",
                                     "sm_90");
    FAIL() << "NVRTC accepted a bad source";
  } catch (const gpu::KernelCompileError& e) {
    EXPECT_NE(e.log().find("undeclared"), std::string::npos) << e.log();
  }
}

TEST(KernelModuleCache, BoundedLeastRecentlyUsedFirst) {
  gpu::BoundedCache<int> cache(2);
  cache.insert("a", 1);
  cache.insert("b", 2);
  ASSERT_NE(cache.find("a"), nullptr);  // a is now the most recent
  cache.insert("c", 3);                 // b leaves
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.find("b"), nullptr);
  EXPECT_EQ(*cache.find("a"), 1);
  EXPECT_EQ(*cache.find("c"), 3);
  EXPECT_EQ(cache.evictions(), 1u);
  for (int i = 0; i < 100; ++i) cache.insert(std::to_string(i), i);
  EXPECT_EQ(cache.size(), 2u);
}

}  // namespace
}  // namespace warplens
