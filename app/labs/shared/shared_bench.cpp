// warplens-bench's tables of the shared-memory family (LabParts::bench_tables), one per lab:
// bank-probe throughput against the 128 B/clk/SM limit, the transpose variants x tile sizes
// relative to the copy kernel, matmul GFLOP/s by BLOCK_SIZE and the three reductions. GB/s are
// 10^9 B/s of read + write (the reduction's: of input read). Throw GpuError on CUDA failure.
#include "shared_bench.h"

#include <cstdio>
#include <string>
#include <vector>

#include "shared_lab.h"
#include "shared_pattern.h"

namespace warplens::app {

namespace {

gpu::BankProbeParams probe(int word_bytes, int stride, bool column = false, int pitch = 32,
                           bool swizzle = false) {
  gpu::BankProbeParams p;
  p.index.word_bytes = word_bytes;
  p.index.stride = stride;
  if (column) {
    p.index.kind = SharedPatternKind::Tile;
    p.index.tile_width = 32;
    p.index.pitch_elements = pitch;
    p.index.by_column = true;
    p.index.swizzle = swizzle;
    p.block_x = p.block_y = 32;
  }
  return p;
}

}  // namespace

void banks_bench_tables(const gpu::DeviceInfo& d, int runs) {
  gpu::SharedLab lab(d);
  std::printf(
      "\nshared-memory bank probe: one warp alone (clock64 cycles per request) and the whole GPU "
      "(bytes per SM per SM clock, from each SM's clock64 span; limit 32 banks x 4 B = 128)\n");
  std::printf("%-34s %11s %11s %10s %9s %8s %9s\n", "access", "wavefronts", "cycles/req", "GB/s",
              "B/clk/SM", "% of 128", "SM MHz");
  struct Row {
    const char* name;
    gpu::BankProbeParams p;
  };
  const Row rows[] = {
      {"4-byte, stride 1 (conflict-free)", probe(4, 1)},
      {"4-byte, stride 2", probe(4, 2)},
      {"4-byte, stride 32", probe(4, 32)},
      {"4-byte, all lanes one word", probe(4, 0)},
      {"8-byte, stride 1", probe(8, 1)},
      {"16-byte, stride 1", probe(16, 1)},
      {"tile[32][32] column", probe(4, 1, true, 32)},
      {"tile[32][33] column", probe(4, 1, true, 33)},
      {"tile[32][32] column, XOR swizzle", probe(4, 1, true, 32, true)},
  };
  for (const auto& r : rows) {
    const auto m = lab.measure_bank(r.p, 0, runs);
    std::printf("%-34s %11d %11.2f %10.0f %9.1f %8.1f %9.0f\n", r.name,
                analyze_probe(r.p, 0).wavefronts, m.cycles_per_request, m.gbps,
                m.bytes_per_clock_per_sm, 100.0 * m.fraction_of_limit, m.sm_clock_mhz);
  }
}

void transpose_bench_tables(const gpu::DeviceInfo& d, int runs) {
  gpu::SharedLab lab(d);
  // Three passes over the table, a cell the median of its passes (as the sweeps in bench.cpp):
  // on an H100 machine a spell of slow launches once took a run's vectorized transpose from
  // 96-98 % of its copy to 94 %.
  constexpr int kPasses = 3;
  std::printf(
      "\ntranspose of 8192 x 8192 floats, GB/s = read + write, %% of the copy kernel with "
      "the same tiles (vectorized: 2 x 2 of them per block, float2); each cell the median of %d "
      "passes over the table; every result checked element by element\n",
      kPasses);
  std::printf("%-6s %-6s", "tile", "rows");
  for (auto v : gpu::kTransposeVariants) std::printf(" %15s", gpu::to_string(v));
  std::printf("\n");
  const std::vector<int> tiles = {8, 16, 32};
  const std::size_t variants = gpu::kTransposeVariants.size();
  // gbps[tile][variant]: one value per pass; verified only if every pass was.
  std::vector<std::vector<std::vector<double>>> gbps(tiles.size(),
                                                     std::vector<std::vector<double>>(variants));
  std::vector<std::vector<bool>> verified(tiles.size(), std::vector<bool>(variants, true));
  for (int pass = 0; pass < kPasses; ++pass) {
    for (std::size_t t = 0; t < tiles.size(); ++t) {
      const int tile = tiles[t];
      for (std::size_t v = 0; v < variants; ++v) {
        const gpu::TransposeParams p{gpu::kTransposeVariants[v], tile, tile < 8 ? tile : 8, 8192};
        if (gpu::transpose_refusal(p)) continue;
        const auto m = lab.measure_transpose(p, runs);
        gbps[t][v].push_back(m.gbps);
        verified[t][v] = verified[t][v] && m.verified;
      }
    }
  }
  for (std::size_t t = 0; t < tiles.size(); ++t) {
    std::printf("%-6d %-6d", tiles[t], tiles[t] < 8 ? tiles[t] : 8);
    double copy = 0;
    for (std::size_t v = 0; v < variants; ++v) {
      if (gbps[t][v].empty()) {
        std::printf(" %15s", "refused");
        continue;
      }
      const double value = gpu::median_of(gbps[t][v]);
      if (gpu::kTransposeVariants[v] == gpu::TransposeVariant::Copy) copy = value;
      std::printf(" %6.0f (%5.1f%%)%s", value, 100.0 * value / copy, verified[t][v] ? "" : "!");
    }
    std::printf("\n");
  }
}

void matmul_bench_tables(const gpu::DeviceInfo& d, int /*runs*/) {
  gpu::SharedLab lab(d);
  std::printf(
      "\nmatrix multiply C = A B, 4096 x 4096 floats, GFLOP/s = 2 n^3 / time; 256 "
      "entries of C checked in double precision\n");
  for (int block : gpu::kMatmulBlockSizes) {
    const auto m = lab.measure_matmul({block, 4096}, 5, 1);
    std::printf("%-22s %10.0f GFLOP/s  %s\n",
                block ? ("tiled, BLOCK_SIZE " + std::to_string(block)).c_str() : "naive", m.gflops,
                m.verified ? "verified" : "WRONG RESULT");
  }
}

void reduction_bench_tables(const gpu::DeviceInfo& d, int runs) {
  gpu::SharedLab lab(d);
  std::printf("\nreduction of 2^26 unsigned integers, 256 threads per block, GB/s of input read\n");
  for (auto v : gpu::kReductionVariants) {
    const auto m = lab.measure_reduction({v, 256, std::int64_t{1} << 26}, runs);
    std::printf("%-22s %10.0f GB/s %9.3f ms  %s\n", gpu::to_string(v), m.gbps, m.timing.median_ms,
                m.verified ? "verified" : "WRONG RESULT");
  }
}

}  // namespace warplens::app
