#include "tile_scenario.h"

#include <stdexcept>

#include "tile_knobs.h"

namespace warplens::app {

std::any parse_tile_table(const ScenarioTable& scenario) {
  const toml::table& t = scenario.section("tile");
  TileState s;
  read_knobs(scenario, t, s, tile_knobs());
  try {
    check_tile_state(s);
  } catch (const std::invalid_argument& e) {
    throw scenario.error(e.what());
  }
  return s;
}

}  // namespace warplens::app
