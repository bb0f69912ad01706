// The tile lab's parameters as a preset: the [tile] table that parse_tile_table reads back to
// the same state (the writing side of tile_scenario.h).
#pragma once

#include "tile_scenario.h"

namespace warplens::app {

/// A table holding the [tile] table of `state`: every key parse_tile_table reads.
toml::table tile_preset_section(const TileState& state);

}  // namespace warplens::app
