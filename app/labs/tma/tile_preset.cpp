#include "tile_preset.h"

#include <utility>

#include "tile_knobs.h"

namespace warplens::app {

toml::table tile_preset_section(const TileState& state) {
  toml::table tile;
  write_knobs(tile, state, tile_knobs());
  toml::table section;
  section.insert("tile", std::move(tile));
  return section;
}

}  // namespace warplens::app
