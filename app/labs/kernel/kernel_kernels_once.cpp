// The own-kernel lab's part of `warplens-bench kernels-once` (kernels_once.h) and its small
// programs: every generated kernel compiled with NVRTC and run once, its trace compared with the
// model and `out` with the host simulation.
#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kernel_scenario.h"
#include "lab_id.h"
#include "measure_kernel.h"

namespace warplens::app {

namespace {

gpu::KernelRow row(gpu::KernelSpace space, model::Op op, std::string index, bool sync = false) {
  gpu::KernelRow r;
  r.space = space;
  r.op = op;
  r.index = std::move(index);
  r.sync_after = sync;
  return r;
}

constexpr auto kIn = gpu::KernelSpace::In;
constexpr auto kOut = gpu::KernelSpace::Out;
constexpr auto kTile = gpu::KernelSpace::Tile;
constexpr auto kLoad = model::Op::Load;
constexpr auto kStore = model::Op::Store;

// An n x n transpose of floats in 32 x 32 blocks, one element per thread; `pitch` 0: naive.
KernelState transpose(int n, int pitch) {
  KernelState s;
  gpu::KernelProgram& p = s.program;
  p.block = {32, 32};
  p.grid = {n / 32, n / 32};
  p.in = p.out = {std::int64_t{n} * n, 4};
  p.constants = {{"n", n}};
  if (pitch == 0) {
    p.rows = {row(kIn, kLoad, "(by*32+ty)*n + bx*32+tx"),
              row(kOut, kStore, "(bx*32+tx)*n + by*32+ty")};
    return s;
  }
  p.tile = {32 * std::int64_t{pitch}, 4};
  p.constants.push_back({"p", pitch});
  p.rows = {row(kIn, kLoad, "(by*32+ty)*n + bx*32+tx"), row(kTile, kStore, "ty*p + tx", true),
            row(kTile, kLoad, "tx*p + ty"), row(kOut, kStore, "(bx*32+ty)*n + by*32+tx")};
  return s;
}

}  // namespace

std::vector<std::pair<std::string, KernelState>> kernel_small_programs() {
  std::vector<std::pair<std::string, KernelState>> v;
  KernelState copy;
  copy.program.block = {256, 1};
  copy.program.grid = {256, 1};
  copy.program.in = copy.program.out = {256 * 256, 4};
  copy.program.rows = {row(kIn, kLoad, "bx*bdx + tx"), row(kOut, kStore, "bx*bdx + tx")};
  v.emplace_back("copy, 4 B", copy);
  KernelState copy16 = copy;
  for (auto& r : copy16.program.rows) r.word_bytes = 16;
  copy16.program.rows[0].path = gpu::LoadPath::L2Only;
  copy16.program.in = copy16.program.out = {256 * 256, 16};
  v.emplace_back("copy, 16 B through __ldcg", copy16);
  v.emplace_back("transpose naive, n = 256", transpose(256, 0));
  v.emplace_back("transpose tiled, n = 256", transpose(256, 32));
  v.emplace_back("transpose padded, n = 256", transpose(256, 33));
  KernelState aos = copy;
  aos.program.in = {3 * 256 * 256, 4};
  aos.program.rows = {row(kIn, kLoad, "3*(bx*bdx + tx)"), row(kOut, kStore, "bx*bdx + tx")};
  aos.program.rows[0].path = gpu::LoadPath::ReadOnly;
  v.emplace_back("AoS field x through __ldg", aos);
  for (const char* step : {"2*s*tx", "tx + s"}) {
    KernelState red = copy;
    red.program.tile = {2048, 4};
    red.program.constants = {{"s", 4}};
    red.program.rows = {row(kIn, kLoad, "bx*bdx + tx"), row(kTile, kStore, "tx", true),
                        row(kTile, kLoad, step), row(kOut, kStore, "bx*bdx + tx")};
    v.emplace_back(std::string("reduction step tile[") + step + "]", red);
  }
  KernelState far = copy;
  far.program.rows = {row(kIn, kLoad, "lane*1000000 + 2000000000"), row(kOut, kStore, "-tx"),
                      row(kOut, kStore, "bx*bdx + tx")};
  v.emplace_back("far out of range", far);
  KernelState bytes = copy;
  bytes.program.rows = {row(kIn, kLoad, "(bx*bdx + tx)*3"), row(kOut, kStore, "bx*bdx + tx")};
  bytes.program.rows[0].word_bytes = 1;
  bytes.program.rows[1].word_bytes = 2;
  v.emplace_back("1-byte loads, 2-byte stores", bytes);
  return v;
}

std::vector<KernelRun> kernel_kernels_once(const gpu::DeviceInfo& device,
                                           const std::vector<const Scenario*>& scenarios) {
  KernelRunLog log(to_string(Lab::Kernel));
  std::unique_ptr<gpu::KernelLab> lab;
  try {
    lab = std::make_unique<gpu::KernelLab>(device);
  } catch (const std::exception& e) {
    log.fail("own kernel (NVRTC)", std::string("the lab did not start: ") + e.what());
    return log.take();
  }
  const auto once = [&](const std::string& name, const KernelState& st) {
    log.run("own kernel (NVRTC)", name, [&] {
      const auto model = gpu::model_warp(st.program, st.traced);
      const gpu::KernelRun run = lab->run(st.program, st.traced, 1, 0);
      for (std::size_t r = 0; r < model.size(); ++r)
        if (!trace_matches_model(run.traced[r], model[r]))
          return RunCheck{false,
                          "row " + std::to_string(r + 1) + ": the trace differs from the model"};
      return RunCheck{!run.checked || run.verified, "traces match the model; " + run.check};
    });
  };
  for (const auto& [name, st] : kernel_small_programs()) once(name, st);
  // The scenarios' programs on a grid of at most 4 x 4 blocks (kernels-once keeps every lab's
  // work small for the sanitizers; the generated code is the scenario's own, the launch comment
  // aside). `warplens measure --scenario` runs them at their full size (scripts/gpu-check-kernel
  // puts those under memcheck).
  for (const Scenario* s : scenarios) {
    KernelState st = kernel_scenario(*s);
    st.program.grid = {std::min(st.program.grid.x, 4), std::min(st.program.grid.y, 4)};
    st.traced.block_x = std::min(st.traced.block_x, st.program.grid.x - 1);
    st.traced.block_y = std::min(st.traced.block_y, st.program.grid.y - 1);
    once("scenario " + s->name + " (grid clipped to 4 x 4 blocks)", st);
  }
  return log.take();
}

}  // namespace warplens::app
