// Totals of the memory model over a whole launch (kernel_totals.h).
#include "kernel_totals.h"

#include <algorithm>

namespace warplens::gpu {

namespace {

// The tile clearing's stores of warp `warp` of one block: 16-byte words k = tid + j x threads
// below the tile's 16-byte words, one instruction per j with an active lane.
KernelOpTotals tile_clear_of_warp(const KernelProgram& p, int warp, model::HardwareModel hw) {
  KernelOpTotals t;
  const std::int64_t words = (p.tile.bytes() + 15) / 16;
  const std::int64_t threads = p.block.threads();
  for (std::int64_t base = 0; base < words; base += threads) {
    model::WarpAccesses lanes{};
    bool any = false;
    for (int lane = 0; lane < model::kWarpSize; ++lane) {
      lanes[lane].lane = lane;
      const std::int64_t tid = std::int64_t{warp} * model::kWarpSize + lane;
      const std::int64_t k = base + tid;
      if (tid >= threads || k >= words) continue;
      lanes[lane].active = true;
      lanes[lane].index = k;
      lanes[lane].address = k * 16;
      any = true;
    }
    if (!any) break;
    t.requests += 1;
    t.cost += model::analyze_shared(lanes, 16, model::Op::Store, hw).wavefronts;
  }
  return t;
}

void add(KernelOpTotals& to, const KernelOpTotals& from, double times) {
  to.requests += from.requests * times;
  to.cost += from.cost * times;
}

}  // namespace

KernelTotals model_totals(const KernelProgram& p, model::HardwareModel hw, std::int64_t max_warps) {
  check_program(p);
  KernelTotals t;
  const int block_warps = p.block.warps();
  const std::int64_t blocks = std::int64_t{p.grid.x} * p.grid.y;
  t.warps = blocks * block_warps;
  const std::int64_t n = std::min(t.warps, std::max<std::int64_t>(max_warps, 2));
  t.exact = n == t.warps;
  std::vector<TracedWarp> warps;
  warps.reserve(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    // Evenly spread, the first (i = 0) and the last (i = n - 1) included.
    const std::int64_t linear = n == 1 ? 0 : i * (t.warps - 1) / (n - 1);
    const std::int64_t block = linear / block_warps;
    warps.push_back({static_cast<int>(block % p.grid.x), static_cast<int>(block / p.grid.x),
                     static_cast<int>(linear % block_warps)});
  }
  t.warps_evaluated = n;
  const double scale = static_cast<double>(t.warps) / static_cast<double>(n);
  for (const auto& rows : model_warps(p, warps, hw)) {
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const KernelRowModel& m = rows[r];
      const bool store = p.rows[r].op == model::Op::Store;
      if (m.global && m.global->active_lanes > 0) {
        KernelOpTotals& to = store ? t.global_store : t.global_load;
        add(to, {1, static_cast<double>(m.global->transactions)}, scale);
      } else if (m.shared && m.shared->active_lanes > 0) {
        KernelOpTotals& to = store ? t.shared_store : t.shared_load;
        add(to, {1, static_cast<double>(m.shared->wavefronts)}, scale);
      }
    }
  }
  t.tile_cleared = p.tile.bytes() > 0 && !tile_loads_read_stored_words(p);
  if (t.tile_cleared) {
    for (int w = 0; w < block_warps; ++w) add(t.tile_clear, tile_clear_of_warp(p, w, hw), 1);
    const double per_block_requests = t.tile_clear.requests, per_block_cost = t.tile_clear.cost;
    t.tile_clear = {per_block_requests * static_cast<double>(blocks),
                    per_block_cost * static_cast<double>(blocks)};
    add(t.shared_store, t.tile_clear, 1);
  }
  return t;
}

}  // namespace warplens::gpu
