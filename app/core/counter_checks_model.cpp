// The model side of the counter checks: the cost per request (sectors or wavefronts) of a
// verify case over its whole launch, from the host twins of the copy, transpose and bank-probe
// kernels' index functions and the memory model's counting rules.
#include "counter_checks.h"

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

#include "index_math.h"
#include "memory_model.h"
#include "shared_index.h"
#include "shared_pattern.h"

namespace warplens::app {

namespace {

/// Distinct values among the first n of `sectors` (sorts them).
int distinct(std::array<std::int64_t, 32>& sectors, int n) {
  std::sort(sectors.begin(), sectors.begin() + n);
  return static_cast<int>(std::unique(sectors.begin(), sectors.begin() + n) - sectors.begin());
}

struct Sum {
  double sectors = 0, requests = 0;
  void add(int s) {
    if (s > 0) {
      sectors += s;
      requests += 1;
    }
  }
  [[nodiscard]] double mean() const { return requests > 0 ? sectors / requests : 0.0; }
};

/// Sectors of warp w of the flat pattern copy (host twin: element_index).
int copy_warp_sectors(const gpu::CopyPlan& plan, int word_bytes, std::int64_t w) {
  std::array<std::int64_t, 32> s{};
  int n = 0;
  for (std::int64_t g = 32 * w; g < std::min(32 * w + 32, plan.threads); ++g) {
    s[static_cast<std::size_t>(n++)] = element_index(g, plan.index) * word_bytes / 32;
  }
  return distinct(s, n);
}

double copy_model(const gpu::CopyParams& p, std::int64_t buffer_bytes) {
  const gpu::CopyPlan plan = gpu::plan_copy(p, buffer_bytes);
  if (p.layout != gpu::StructLayout::None) {
    // Three load requests per warp, one per field; every warp starts a multiple of 384 bytes
    // (array of structures) or 128 bytes (structure of arrays) from the base, and the struct
    // count is a multiple of 32, so warp 0 stands for all.
    const bool soa = p.layout == gpu::StructLayout::StructOfArrays;
    Sum sum;
    for (int f = 0; f < gpu::kStructFields; ++f) {
      std::array<std::int64_t, 32> s{};
      for (int g = 0; g < 32; ++g) s[g] = struct_field_index(g, f, soa, plan.threads) * 4 / 32;
      sum.add(distinct(s, 32));
    }
    return sum.mean();
  }
  if (p.matrix_width != 0) {
    // Block by block; blocks whose addresses differ only by a shift are costed once. By row,
    // block (bx, by) is block (bx, 0) shifted by by x bdy x pitch bytes; by column, block
    // (bx, by) is block (0, by) shifted by bx x bdx x pitch. A shift by D moves the same number
    // of distinct sectors as a shift by D mod 32, so interior blocks (no row past the matrix)
    // are keyed by (the other block index, shift mod 32). Edge blocks are costed directly.
    const std::int64_t bdx = p.block_threads / p.block_y, bdy = p.block_y;
    const std::int64_t warps = (bdx * bdy + 31) / 32;
    const auto block_cost = [&](std::int64_t bx, std::int64_t by) {
      Sum sum;
      for (std::int64_t w = 0; w < warps; ++w) {
        std::array<std::int64_t, 32> s{};
        int n = 0;
        for (std::int64_t tid = 32 * w; tid < std::min(32 * w + 32, bdx * bdy); ++tid) {
          const MatrixCell cell =
              matrix_cell(tid % bdx, tid / bdx, bx, by, bdx, bdy, p.matrix_by_column);
          if (cell.row >= plan.rows || cell.column >= p.matrix_width) continue;
          s[static_cast<std::size_t>(n++)] = (cell.row * plan.pitch_bytes + cell.column * 4) / 32;
        }
        if (n > 0) sum.add(distinct(s, n));
      }
      return sum;
    };
    const std::int64_t others = p.matrix_by_column ? plan.grid_y : plan.grid_x;
    std::vector<std::optional<Sum>> cache(static_cast<std::size_t>(others * 32));
    Sum total;
    for (std::int64_t by = 0; by < plan.grid_y; ++by) {
      for (std::int64_t bx = 0; bx < plan.grid_x; ++bx) {
        const std::int64_t along = p.matrix_by_column ? bx : by;  // the index that shifts rows
        const std::int64_t other = p.matrix_by_column ? by : bx;
        const std::int64_t rows_per_block = p.matrix_by_column ? bdx : bdy;
        Sum cost;
        if ((along + 1) * rows_per_block <= plan.rows) {
          const std::int64_t shift = along * rows_per_block * plan.pitch_bytes % 32;
          std::optional<Sum>& slot = cache[static_cast<std::size_t>(other * 32 + shift)];
          if (!slot) {
            // A block of the same shape at row offset `shift` bytes: cost block `along` = 0
            // with its addresses shifted, i.e. the key's representative.
            Sum rep;
            for (std::int64_t w = 0; w < warps; ++w) {
              std::array<std::int64_t, 32> s{};
              int n = 0;
              for (std::int64_t tid = 32 * w; tid < std::min(32 * w + 32, bdx * bdy); ++tid) {
                const MatrixCell cell =
                    matrix_cell(tid % bdx, tid / bdx, p.matrix_by_column ? 0 : bx,
                                p.matrix_by_column ? by : 0, bdx, bdy, p.matrix_by_column);
                if (cell.column >= p.matrix_width) continue;
                s[static_cast<std::size_t>(n++)] =
                    (shift + cell.row * plan.pitch_bytes + cell.column * 4) / 32;
              }
              if (n > 0) rep.add(distinct(s, n));
            }
            slot = rep;
          }
          cost = *slot;
        } else {
          cost = block_cost(bx, by);
        }
        total.sectors += cost.sectors;
        total.requests += cost.requests;
      }
    }
    return total.mean();
  }
  const std::int64_t warps = (plan.threads + 31) / 32;
  if (p.kind == IndexKind::Scattered) {
    Sum sum;
    for (std::int64_t w = 0; w < warps; ++w) sum.add(copy_warp_sectors(plan, p.word_bytes, w));
    return sum.mean();
  }
  // Strided, permuted, same-word: warp w's elements are warp 0's moved by 32 x w x stride
  // elements, a multiple of 32 bytes, so every full warp costs what warp 0 costs; only the
  // launch's last warp may be partial.
  const double first = copy_warp_sectors(plan, p.word_bytes, 0);
  const double last = copy_warp_sectors(plan, p.word_bytes, warps - 1);
  return (first * static_cast<double>(warps - 1) + last) / static_cast<double>(warps);
}

/// The transpose kernel's global read or write: every warp of block (0, 0) at every step j
/// (blocks differ by whole multiples of 32 bytes: B x 4 and B x n x 4 bytes for the block's tile
/// B). A vectorized lane's 8 bytes are 8-byte aligned, so they sit in one sector.
double transpose_model(const gpu::TransposeParams& t, bool write) {
  gpu::check_transpose(t, std::int64_t{1} << 62);
  const int block_x = gpu::transpose_block_x(t.variant, t.tile);
  const int block_tile = gpu::transpose_block_tile(t.variant, t.tile);
  const int threads = block_x * t.rows_per_block;
  Sum sum;
  for (int w = 0; w < (threads + 31) / 32; ++w) {
    for (int j = 0; j < block_tile; j += t.rows_per_block) {
      std::array<std::int64_t, 32> s{};
      int n = 0;
      for (int tid = 32 * w; tid < std::min(32 * w + 32, threads); ++tid) {
        const gpu::TransposeGlobalIndex g = gpu::transpose_global_index(
            t.variant, t.tile, t.n, tid % block_x, tid / block_x + j, 0, 0);
        s[static_cast<std::size_t>(n++)] = std::int64_t{write ? g.write : g.read} * 4 / 32;
      }
      sum.add(distinct(s, n));
    }
  }
  return sum.mean();
}

/// The bank probe: the mean over the block's warps that have an active lane (every block of the
/// launch runs the same block).
double bank_model(const gpu::BankProbeParams& probe) {
  (void)gpu::plan_bank_probe(probe, gpu::kModelSharedBytesPerBlock);
  const int warps = (probe.block_x * probe.block_y + 31) / 32;
  double wavefronts = 0, requests = 0;
  for (int w = 0; w < warps; ++w) {
    const model::SharedAnalysis a = analyze_probe(probe, w);
    if (a.active_lanes == 0) continue;
    wavefronts += a.wavefronts;
    requests += 1;
  }
  return requests > 0 ? wavefronts / requests : 0.0;
}

}  // namespace

double model_per_request(const CounterCase& c, std::int64_t buffer_bytes) {
  switch (c.kind) {
    case CaseKind::Copy: return copy_model(c.copy, buffer_bytes);
    case CaseKind::Bank: return bank_model(c.probe);
    case CaseKind::TransposeGlobal: return transpose_model(c.transpose, c.transpose_write);
    case CaseKind::LabLaunch: return c.lab_launch.model;
  }
  return 0;
}

}  // namespace warplens::app
