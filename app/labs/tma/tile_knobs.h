// The tile lab's knobs, one line each (knob.h): the fill (TMA or the threads), the swizzle mode,
// element size, rows, columns, the threads' row pitch, and the warp's read (row, column or
// ldmatrix; its index, matrices and .trans). Its preset section ([tile]), its reader, the soak's
// monkey and the parameter panel are driven from this table.
#pragma once

#include <string>
#include <vector>

#include "knob.h"
#include "tile_session.h"

namespace warplens::app {

/// The table, in the order the preset writes its knobs.
const std::vector<Knob<TileState>>& tile_knobs();

/// "tma" or "threads" (the fill knob's preset names).
std::string tile_fill_name(gpu::TileFill fill);

}  // namespace warplens::app
