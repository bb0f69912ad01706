// The model's side of the read path's 4 x 4 tiles (read_path_model.h).
#include "read_path_model.h"

#include <cstdint>

#include "cache_lab.h"
#include "memory_model.h"

namespace warplens::app {

TileLoadModel column_tile_load_model(int side, bool morton) {
  gpu::ReadPathParams p;
  p.pattern = morton ? gpu::ReadPattern::ColumnTileMorton : gpu::ReadPattern::ColumnTile;
  p.side = side;
  gpu::check_read_path(p);
  // Block 1 of the second row of pieces: its centres start at (8, 32), so the tile's offsets
  // (-1 .. 2) stay inside the image and nothing is clamped.
  const auto block = static_cast<std::uint32_t>(side / 8 + 1);
  TileLoadModel m;
  for (int dy = gpu::kColumnTileFirst; dy < gpu::kColumnTileFirst + gpu::kColumnTileSide; ++dy) {
    for (int dx = gpu::kColumnTileFirst; dx < gpu::kColumnTileFirst + gpu::kColumnTileSide; ++dx) {
      model::WarpAccesses lanes{};
      for (int lane = 0; lane < model::kWarpSize; ++lane) {
        std::uint32_t cx = 0, cy = 0;
        gpu::column_tile_centre(block, static_cast<std::uint32_t>(lane), side, &cx, &cy);
        const auto x = static_cast<std::uint32_t>(static_cast<int>(cx) + dx);
        const auto y = static_cast<std::uint32_t>(static_cast<int>(cy) + dy);
        const std::int64_t pixel =
            morton ? gpu::morton_encode(x, y)
                   : static_cast<std::int64_t>(y) * side + static_cast<std::int64_t>(x);
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
      ++m.loads;
    }
  }
  m.sectors /= m.loads;
  m.lines /= m.loads;
  return m;
}

}  // namespace warplens::app
