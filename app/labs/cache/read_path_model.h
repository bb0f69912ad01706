// The model's side of the read path: what one warp's loads touch in the row-major and the
// Morton-order image, for every ReadPattern on the plain and __ldg paths (both read the same
// buffers), from the kernel's own address functions (gpu/cache_lab.h: column_tile_centre,
// morton_encode, scattered_pixel) and the memory model (model::analyze_global). The texture path
// reads a cudaArray whose layout the driver chooses: no model.
#pragma once

#include "cache_lab.h"

namespace warplens::app {

/// Per warp load, the mean over warp 0's loads (in the kernel's order) of a block away from the
/// image's edges (no clamping): distinct 32-byte sectors and 128-byte lines, for 4-byte pixels
/// from a 256-byte aligned buffer.
struct WarpLoadModel {
  double sectors = 0;
  double lines = 0;
  int loads = 0;  ///< loads per thread the mean is over (gpu::reads_per_thread)
};

/// The model for `params`'s pattern, side, radius and scattered reads; the path is ignored (the
/// caller leaves out the texture path). Throws std::invalid_argument for parameters
/// check_read_path refuses.
WarpLoadModel read_load_model(const gpu::ReadPathParams& params);

/// The 4 x 4 tiles (ReadPattern::ColumnTile, or ColumnTileMorton where `morton`) of a
/// side x side image.
WarpLoadModel column_tile_load_model(int side, bool morton);

}  // namespace warplens::app
