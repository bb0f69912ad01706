// The memory model's totals for a whole launch of a "Your kernel" program (kernel_program.h):
// what the hardware counters of one launch count (kernels/counters.h), predicted warp by warp.
//
// Counted as CUPTI counts them on Volta and later (the verify catalog's rules,
// app/core/counter_checks_model.cpp): one request per warp-level instruction that has at least
// one lane in range (a warp whose lanes all skip the access does not issue it); a global
// request's 32-byte sectors (GlobalAnalysis::transactions, modern model); a shared instruction's
// wavefronts (SharedAnalysis::wavefronts). Where the generated kernel clears the tile before the
// first row (kernel_source.cpp, tile_loads_read_stored_words: 16-byte stores, thread t storing
// words t, t + threads, ...), those shared stores are counted too, and reported apart
// (tile_clear).
//
// Grids of at most `max_warps` warps are evaluated warp by warp (exact); larger grids are
// evaluated at `max_warps` warps spread evenly over the grid (the first and the last included)
// and scaled to the grid's warps: exact for programs whose every warp does the same, an estimate
// otherwise (KernelTotals::exact says which).
#pragma once

#include <cstdint>

#include "kernel_program.h"

namespace warplens::gpu {

/// Requests (warp-level instructions) and the sectors (global) or wavefronts (shared) they cost.
struct KernelOpTotals {
  double requests = 0;
  double cost = 0;  ///< sectors (global) or wavefronts (shared)
  [[nodiscard]] double per_request() const { return requests > 0 ? cost / requests : 0.0; }
};

struct KernelTotals {
  KernelOpTotals global_load, global_store, shared_load, shared_store;
  KernelOpTotals tile_clear;         ///< the tile clearing's stores (also in shared_store)
  std::int64_t warps = 0;            ///< warps of the grid
  std::int64_t warps_evaluated = 0;  ///< warps whose lanes were evaluated
  bool exact = false;                ///< every warp evaluated
  /// The kernel clears the tile first (a tile load reads a word no earlier row stored:
  /// !tile_loads_read_stored_words); false without a tile.
  bool tile_cleared = false;
};

inline constexpr std::int64_t kTotalsMaxWarps = 256;  ///< ~6 ms on the GL thread per edit

/// Throws std::invalid_argument as model_warps does (an invalid program, an index that cannot
/// be evaluated).
KernelTotals model_totals(const KernelProgram& program,
                          model::HardwareModel hw = model::HardwareModel::Modern,
                          std::int64_t max_warps = kTotalsMaxWarps);

}  // namespace warplens::gpu
