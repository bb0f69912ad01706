// The shared-memory labs' part of `warplens-bench kernels-once` (kernels_once.h). Banks: the
// bank probe of every word size, load and store, traced (checked against the host twin) and
// launched over the grid (one block on the one-SM view, 8 accesses per thread); the one-warp
// timed probe for 4-byte loads and stores. Transpose: every variant x tile, verified element by
// element, and the traced launches of the tiled variants. Matmul: naive and every BLOCK_SIZE,
// verified. Reduction: every variant x block size, verified. Then each built-in scenario with
// its matrix or element count made small.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "lab_id.h"
#include "measure_shared.h"
#include "shared_pattern.h"
#include "shared_scenario.h"

namespace warplens::app {

namespace {

constexpr int kTransposeN = 256;  // floats per side: 64 tiles of 32 x 32
constexpr int kMatmulN = 128;
constexpr std::int64_t kReductionElements = std::int64_t{1} << 16;
constexpr int kProbeRepeats = 8;  // accesses per thread of the whole-grid bank probe

RunCheck verified(bool ok, const std::string& check) {
  return {ok, check};
}

// One lab's SharedLab, or a failed row when it cannot be made.
std::unique_ptr<gpu::SharedLab> make_lab(KernelRunLog& log, const gpu::DeviceInfo& device) {
  try {
    return std::make_unique<gpu::SharedLab>(device);
  } catch (const std::exception& e) {
    log.fail("SharedLab", e.what());
    return nullptr;
  }
}

std::string probe_text(const gpu::BankProbeParams& p, int warp) {
  return shared_analyze_command(p, warp) + (p.op == gpu::SharedOp::Store ? " (store)" : "");
}

void probe_runs(KernelRunLog& log, gpu::SharedLab& lab, const gpu::BankProbeParams& p, int warp,
                const std::string& prefix) {
  const std::string what = prefix + probe_text(p, warp);
  log.run("bank_probe, traced", what, [&] {
    const bool same = same_trace(lab.trace_bank_to_host(p, warp), shared_model_trace(p, warp));
    return verified(same, same ? "trace equals the host twin" : "trace differs from the host twin");
  });
  log.run("bank_probe, whole grid", what, [&] {
    lab.launch_bank_once(p, kProbeRepeats);
    return verified(true, "launched and synchronised");
  });
}

void transpose_runs(KernelRunLog& log, gpu::SharedLab& lab, const gpu::TransposeParams& p,
                    const std::string& prefix) {
  const std::string what = prefix + "tile " + std::to_string(p.tile) + ", rows " +
                           std::to_string(p.rows_per_block) + ", n " + std::to_string(p.n);
  const std::string kernel = std::string("transpose ") + gpu::to_string(p.variant);
  log.run(kernel, what, [&] {
    const auto m = lab.measure_transpose(p, 1, 0);
    return verified(m.verified, m.check);
  });
  log.run(kernel + ", traced (read and write side)", what, [&] {
    for (bool write : {false, true}) {
      if (!same_trace(lab.trace_transpose_to_host(p, 0, write),
                      gpu::transpose_global_trace(p, 0, write)))
        return verified(false, std::string("the ") + (write ? "write" : "read") +
                                   " side's trace differs from the host twin");
    }
    return verified(true, "both sides' traces equal the host twin");
  });
}

}  // namespace

std::vector<KernelRun> banks_kernels_once(const gpu::DeviceInfo& device,
                                          const std::vector<const Scenario*>& scenarios) {
  KernelRunLog log(to_string(Lab::Banks));
  const auto lab = make_lab(log, device);
  if (!lab) return log.take();
  for (int w : {1, 2, 4, 8, 16}) {
    for (auto op : {gpu::SharedOp::Load, gpu::SharedOp::Store}) {
      gpu::BankProbeParams p;
      p.index.word_bytes = w;
      p.index.stride = 3;
      p.op = op;
      probe_runs(log, *lab, p, 0, "");
    }
  }
  // The tile by column (plain, padded, swizzled), struct, interleaved and blocked index kinds.
  gpu::BankProbeParams tile;
  tile.block_x = tile.block_y = 32;
  tile.index.kind = SharedPatternKind::Tile;
  tile.index.by_column = true;
  for (int pitch : {32, 33}) {
    tile.index.pitch_elements = pitch;
    probe_runs(log, *lab, tile, 5, "");
  }
  tile.index.pitch_elements = 32;
  tile.index.swizzle = true;
  probe_runs(log, *lab, tile, 5, "");
  for (auto kind :
       {SharedPatternKind::Struct, SharedPatternKind::Interleaved, SharedPatternKind::Blocked}) {
    gpu::BankProbeParams p;
    p.block_x = 64;
    p.index.kind = kind;
    p.index.struct_words = 3;
    p.index.part = 1;
    probe_runs(log, *lab, p, 1, "");
  }
  // The one-warp timed kernel (8192 accesses per thread, so two word/op cases only).
  for (auto op : {gpu::SharedOp::Load, gpu::SharedOp::Store}) {
    gpu::BankProbeParams p;
    p.op = op;
    log.run("bank_probe, one warp + whole grid (timed)", probe_text(p, 0), [&] {
      const auto m = lab->measure_bank(p, 0, 1, 0);
      return verified(m.cycles_per_request > 0, "cycles per request measured");
    });
  }
  for (const Scenario* s : scenarios) {
    const SharedState st = shared_scenario(*s);
    probe_runs(log, *lab, st.probe, st.warp, "scenario " + s->name + ": ");
  }
  return log.take();
}

std::vector<KernelRun> transpose_kernels_once(const gpu::DeviceInfo& device,
                                              const std::vector<const Scenario*>& scenarios) {
  KernelRunLog log(to_string(Lab::Transpose));
  const auto lab = make_lab(log, device);
  if (!lab) return log.take();
  for (int tile : {8, 16, 32}) {
    for (auto variant : gpu::kTransposeVariants) {
      gpu::TransposeParams p;
      p.variant = variant;
      p.tile = tile;
      p.rows_per_block = std::min(tile, 8);
      p.n = kTransposeN;
      transpose_runs(log, *lab, p, "");
    }
  }
  for (const Scenario* s : scenarios) {
    gpu::TransposeParams p = shared_scenario(*s).transpose;
    p.n = std::min(p.n, kTransposeN);
    transpose_runs(log, *lab, p, "scenario " + s->name + ": ");
  }
  return log.take();
}

std::vector<KernelRun> matmul_kernels_once(const gpu::DeviceInfo& device,
                                           const std::vector<const Scenario*>& scenarios) {
  KernelRunLog log(to_string(Lab::Matmul));
  const auto lab = make_lab(log, device);
  if (!lab) return log.take();
  const auto run = [&](gpu::MatmulParams p, const std::string& prefix) {
    p.n = std::min(p.n, kMatmulN);
    const std::string kernel = p.block_size ? "matmul_tiled<" + std::to_string(p.block_size) + ">"
                                            : std::string("matmul_naive");
    log.run(kernel, prefix + "n " + std::to_string(p.n), [&] {
      const auto m = lab->measure_matmul(p, 1, 0);
      return verified(m.verified, m.check);
    });
  };
  for (int block : gpu::kMatmulBlockSizes) run({block, kMatmulN}, "");
  for (const Scenario* s : scenarios) run(shared_scenario(*s).matmul, "scenario " + s->name + ": ");
  return log.take();
}

std::vector<KernelRun> reduction_kernels_once(const gpu::DeviceInfo& device,
                                              const std::vector<const Scenario*>& scenarios) {
  KernelRunLog log(to_string(Lab::Reduction));
  const auto lab = make_lab(log, device);
  if (!lab) return log.take();
  const auto run = [&](gpu::ReductionParams p, const std::string& prefix) {
    p.elements = std::min(p.elements, kReductionElements);
    log.run(std::string("reduction ") + gpu::to_string(p.variant),
            prefix + std::to_string(p.block_threads) + " threads, " + std::to_string(p.elements) +
                " elements",
            [&] {
              const auto m = lab->measure_reduction(p, 1, 0);
              return verified(m.verified, m.check);
            });
  };
  for (int threads : {64, 128, 256, 512, 1024})
    for (auto variant : gpu::kReductionVariants) run({variant, threads, kReductionElements}, "");
  for (const Scenario* s : scenarios)
    run(shared_scenario(*s).reduction, "scenario " + s->name + ": ");
  return log.take();
}

}  // namespace warplens::app
