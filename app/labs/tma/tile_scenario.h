// The tile lab's part of a scenario: the [tile] table of a preset.
#pragma once

#include <any>

#include "scenario.h"
#include "tile_session.h"
#include "toml_fields.h"

namespace warplens::app {

/// Parses [tile]: fill (tma | threads), swizzle (none, 32B, 64B, 128B), element_bytes (1, 2,
/// 4), rows, cols, pitch_bytes (the threads' fill), read (row | column | ldmatrix), index,
/// matrices (1, 2, 4), trans. Throws ScenarioError naming the file and the problem (the lab's
/// refusals: gpu::check_tile_read). Its writing side: tile_preset.h.
std::any parse_tile_table(const ScenarioTable& scenario);

/// The lab's parameters of a tile scenario (std::logic_error otherwise).
inline const TileState& tile_scenario(const Scenario& s) {
  return lab_parameters<TileState>(s, "tile");
}

}  // namespace warplens::app
