// The model's side of the read path (read_path_model.h).
#include "read_path_model.h"

#include <cstdint>

#include "memory_model.h"

namespace warplens::app {

namespace {

constexpr int kBlockSide = 16;  // the read-path kernel's 16 x 16 threads per block

// The pixel lane `lane` of warp 0 reads at load `load` (0 .. reads_per_thread - 1, in the
// kernel's loop order), as (x, y).
void lane_pixel(const gpu::ReadPathParams& p, int lane, int load, std::uint32_t* x,
                std::uint32_t* y) {
  const auto tid = static_cast<std::uint32_t>(lane);
  switch (p.pattern) {
    case gpu::ReadPattern::Scattered: {
      // Block (0, 0): thread (tx, ty) is pixel (tx, ty), its hash input y * side + x.
      const std::uint32_t thread =
          (tid / kBlockSide) * static_cast<std::uint32_t>(p.side) + tid % kBlockSide;
      gpu::scattered_pixel(thread, load, p.side, x, y);
      return;
    }
    case gpu::ReadPattern::Local2D:
    case gpu::ReadPattern::Morton: {
      // Block (1, 1): warp 0's centres are the 16 x 2 strip from (16, 16); a radius of at most 4
      // keeps the window inside the image.
      const int width = 2 * p.radius + 1;
      const int dy = load / width - p.radius, dx = load % width - p.radius;
      *x = static_cast<std::uint32_t>(kBlockSide + static_cast<int>(tid % kBlockSide) + dx);
      *y = static_cast<std::uint32_t>(kBlockSide + static_cast<int>(tid / kBlockSide) + dy);
      return;
    }
    case gpu::ReadPattern::ColumnTile:
    case gpu::ReadPattern::ColumnTileMorton: {
      // Block 1 of the second row of pieces: its centres start at (8, 32), so the tile's offsets
      // (-1 .. 2) stay inside the image.
      const auto block = static_cast<std::uint32_t>(p.side / 8 + 1);
      std::uint32_t cx = 0, cy = 0;
      gpu::column_tile_centre(block, tid, p.side, &cx, &cy);
      const int dy = load / gpu::kColumnTileSide + gpu::kColumnTileFirst;
      const int dx = load % gpu::kColumnTileSide + gpu::kColumnTileFirst;
      *x = static_cast<std::uint32_t>(static_cast<int>(cx) + dx);
      *y = static_cast<std::uint32_t>(static_cast<int>(cy) + dy);
      return;
    }
  }
}

}  // namespace

WarpLoadModel read_load_model(const gpu::ReadPathParams& params) {
  gpu::check_read_path(params);
  WarpLoadModel m;
  m.loads = gpu::reads_per_thread(params);
  for (int load = 0; load < m.loads; ++load) {
    model::WarpAccesses lanes{};
    for (int lane = 0; lane < model::kWarpSize; ++lane) {
      std::uint32_t x = 0, y = 0;
      lane_pixel(params, lane, load, &x, &y);
      const std::int64_t pixel =
          gpu::reads_morton(params.pattern)
              ? gpu::morton_encode(x, y)
              : static_cast<std::int64_t>(y) * params.side + static_cast<std::int64_t>(x);
      model::LaneAccess& a = lanes[static_cast<std::size_t>(lane)];
      a.lane = lane;
      a.active = true;
      a.tx = lane;
      a.index = pixel;
      a.address = pixel * 4;
    }
    const model::GlobalAnalysis g = model::analyze_global(lanes, 4, model::Op::Load);
    m.sectors += static_cast<double>(g.sectors.size());
    m.lines += static_cast<double>(g.lines.size());
  }
  m.sectors /= m.loads;
  m.lines /= m.loads;
  return m;
}

WarpLoadModel column_tile_load_model(int side, bool morton) {
  gpu::ReadPathParams p;
  p.pattern = morton ? gpu::ReadPattern::ColumnTileMorton : gpu::ReadPattern::ColumnTile;
  p.side = side;
  return read_load_model(p);
}

}  // namespace warplens::app
