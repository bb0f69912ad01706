// The model's side of the read path's 4 x 4 tiles (ReadPattern::ColumnTile and
// ColumnTileMorton on the plain and __ldg paths): what one warp's loads touch in the row-major
// and the Morton-order image, from the kernel's own address functions (gpu/cache_lab.h:
// column_tile_centre, morton_encode) and the memory model (model::analyze_global). The texture
// path reads a cudaArray whose layout the driver chooses: no model.
#pragma once

namespace warplens::app {

/// Per warp load, the mean over the 16 loads of the tile (offsets kColumnTileFirst ..
/// kColumnTileFirst + kColumnTileSide - 1 in y, then x, as the kernel loops) of warp 0 of a block
/// away from the image's edges (no clamping): distinct 32-byte sectors and 128-byte lines, for
/// 4-byte pixels from a 256-byte aligned buffer.
struct TileLoadModel {
  double sectors = 0;
  double lines = 0;
  int loads = 0;
};

/// `side`: the image's side in pixels (a power of two >= 64, as check_read_path allows);
/// `morton`: the Morton-order buffer, else row-major. Throws std::invalid_argument for a side
/// check_read_path refuses.
TileLoadModel column_tile_load_model(int side, bool morton);

}  // namespace warplens::app
