// "Your kernel" on the GPU (label gpu; skipped without a device): the built-in kinds of program
// (naive, tiled and padded transposes, AoS vs SoA reads, a matrix read by column) compile with
// NVRTC for the device, run, verify `out` against the host simulation, and their traced warp
// equals the host model row by row; an out-of-range index is harmless and counted; a source
// NVRTC refuses comes back with its log and leaves the lab usable; the module cache is bounded.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>

#include "kernel_lab.h"

namespace warplens {
namespace {

using gpu::KernelProgram;
using gpu::KernelSpace;
using model::Op;

constexpr auto kDefault = gpu::LoadPath::Default;

KernelProgram transpose(int n, int variant) {  // 0 naive, 1 tiled, 2 padded
  KernelProgram p;
  p.in = p.out = {std::int64_t{n} * n, 4};
  if (variant == 0) {
    p.block = {32, 8};
    p.grid = {n / 32, n / 8};
    p.constants = {{"n", n}};
    p.rows = {{KernelSpace::In, Op::Load, 4, kDefault, "(by*bdy + ty)*n + bx*bdx + tx"},
              {KernelSpace::Out, Op::Store, 4, kDefault, "(bx*bdx + tx)*n + by*bdy + ty"}};
    return p;
  }
  const int pitch = variant == 2 ? 33 : 32;
  p.block = {32, 32};
  p.grid = {n / 32, n / 32};
  p.tile = {32 * pitch, 4};
  p.constants = {{"n", n}, {"pitch", pitch}};
  p.rows = {{KernelSpace::In, Op::Load, 4, kDefault, "(by*32 + ty)*n + bx*32 + tx"},
            {KernelSpace::Tile, Op::Store, 4, kDefault, "ty*pitch + tx", true},
            {KernelSpace::Tile, Op::Load, 4, kDefault, "tx*pitch + ty"},
            {KernelSpace::Out, Op::Store, 4, kDefault, "(bx*32 + ty)*n + by*32 + tx"}};
  return p;
}

// Three 4-byte fields per thread, as an array of structs or a struct of arrays; the thread
// stores the last field it read.
KernelProgram struct_read(bool soa, int threads) {
  KernelProgram p;
  p.block = {256, 1};
  p.grid = {threads / 256, 1};
  p.in = {3 * std::int64_t{threads}, 4};
  p.out = {threads, 4};
  p.constants = {{"count", threads}};
  const char* g = "bx*bdx + tx";
  for (int f = 0; f < 3; ++f)
    p.rows.push_back({KernelSpace::In, Op::Load, 4, gpu::LoadPath::L2Only,
                      soa ? std::to_string(f) + "*count + " + g
                          : "3*(" + std::string(g) + ") + " + std::to_string(f)});
  p.rows.push_back({KernelSpace::Out, Op::Store, 4, kDefault, g});
  return p;
}

KernelProgram by_column(int n) {
  KernelProgram p;
  p.block = {32, 8};
  p.grid = {n / 32, n / 8};
  p.in = p.out = {std::int64_t{n} * n, 4};
  p.constants = {{"n", n}};
  p.rows = {
      {KernelSpace::In, Op::Load, 4, gpu::LoadPath::ReadOnly, "(bx*bdx + tx)*n + by*bdy + ty"},
      {KernelSpace::Out, Op::Store, 4, kDefault, "(by*bdy + ty)*n + bx*bdx + tx"}};
  return p;
}

class KernelGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto q = gpu::query_device();
    if (!q.device) GTEST_SKIP() << "no CUDA device: " << q.reason;
    lab_ = std::make_unique<gpu::KernelLab>(*q.device, 4);
  }
  // Runs `p`, expects it verified and its trace equal to the model for `warp`.
  gpu::KernelRun expect_runs(const KernelProgram& p, const gpu::TracedWarp& warp) {
    const auto run = lab_->run(p, warp, 10, 2);
    EXPECT_TRUE(run.checked) << run.check;
    EXPECT_TRUE(run.verified) << run.check;
    const auto model = gpu::model_warp(p, warp);
    EXPECT_EQ(run.traced.size(), model.size());
    for (std::size_t r = 0; r < model.size() && r < run.traced.size(); ++r) {
      SCOPED_TRACE("row " + std::to_string(r + 1));
      EXPECT_EQ(run.traced[r].cost(), model[r].cost());
      for (int lane = 0; lane < model::kWarpSize; ++lane) {
        EXPECT_EQ(run.traced[r].lanes[lane].active, model[r].lanes[lane].active) << lane;
        if (model[r].lanes[lane].active) {
          EXPECT_EQ(run.traced[r].lanes[lane].address, model[r].lanes[lane].address) << lane;
        }
      }
    }
    EXPECT_GT(run.gbps, 0);
    EXPECT_GE(run.timing.runs, 10);
    return run;
  }
  std::unique_ptr<gpu::KernelLab> lab_;
};

TEST_F(KernelGpu, TransposesVerifyAndTraceTheModel) {
  for (int variant : {0, 1, 2}) {
    SCOPED_TRACE("variant " + std::to_string(variant));
    const auto run = expect_runs(transpose(1024, variant), {3, 2, 5});
    for (auto oor : run.out_of_range) EXPECT_EQ(oor, 0);
    EXPECT_EQ(run.requested_bytes, 2 * 1024 * 1024 * 4);
  }
}

TEST_F(KernelGpu, StructReadsAndColumnsVerify) {
  expect_runs(struct_read(false, 1 << 16), {7, 0, 3});
  expect_runs(struct_read(true, 1 << 16), {7, 0, 3});
  expect_runs(by_column(512), {1, 2, 3});
}

TEST_F(KernelGpu, LargeProgramRunsUnverified) {
  const auto run = lab_->run(transpose(8192, 2), {10, 20, 7}, 10, 2);
  EXPECT_FALSE(run.checked);
  EXPECT_NE(run.check.find("not verified"), std::string::npos);
  const auto model = gpu::model_warp(transpose(8192, 2), {10, 20, 7});
  for (std::size_t r = 0; r < model.size(); ++r) EXPECT_EQ(run.traced[r].cost(), model[r].cost());
  EXPECT_GT(run.gbps, 100);
}

TEST_F(KernelGpu, OutOfRangeIsHarmlessAndCounted) {
  auto p = transpose(256, 0);
  p.rows[0].index = "(by*bdy + ty)*n + bx*bdx + tx - 7";          // 7 lanes before the start
  p.rows[1].index = "(bx*bdx + tx)*n + by*bdy + ty + 100000000";  // all past the end
  const auto run = lab_->run(p, {0, 0, 0}, 10, 1);
  EXPECT_EQ(run.out_of_range[0], 7);
  EXPECT_EQ(run.out_of_range[1], 256 * 256);
  EXPECT_TRUE(run.verified) << run.check;  // out stays zero, as simulated
  // The lab still works.
  expect_runs(transpose(256, 1), {0, 0, 0});
}

TEST_F(KernelGpu, CompileErrorCarriesTheLogAndLeavesTheLabUsable) {
  try {
    lab_->load("extern \"C\" __global__ void warplens_kernel() { not_declared = 3; }");
    FAIL() << "NVRTC accepted a bad source";
  } catch (const gpu::KernelCompileError& e) {
    EXPECT_NE(e.log().find("not_declared"), std::string::npos) << e.log();
  }
  expect_runs(transpose(256, 0), {0, 0, 0});
}

TEST_F(KernelGpu, ModulesAreCachedAndBounded) {
  auto p = transpose(256, 0);
  const auto first = lab_->run(p, {}, 10, 1);
  const auto again = lab_->run(p, {}, 10, 1);
  EXPECT_FALSE(first.from_cache);
  EXPECT_TRUE(again.from_cache);
  for (int n = 2; n < 9; ++n) {
    p.constants[0].value = 256 + n;  // a different source each time
    lab_->load(gpu::generate_source(p));
  }
  EXPECT_EQ(lab_->cached_modules(), 4u);
}

TEST_F(KernelGpu, RefusedProgramThrowsBeforeCompiling) {
  auto p = transpose(256, 0);
  p.rows[0].index = "lane / (tx - 3)";
  EXPECT_THROW(lab_->run(p, {}, 10, 1), std::invalid_argument);
  expect_runs(transpose(256, 0), {0, 0, 0});
}

}  // namespace
}  // namespace warplens
