// The tile lab's parts for the registry (lab_parts.h).
#include "lab_parts.h"
#include "measure_tile.h"
#include "tile_lab_unit.h"
#include "tile_scenario.h"
#include "tile_verify.h"

namespace warplens::app {

LabParts lab_parts_Tile() {
  return {nullptr,          make_lab<TileLabUnit>, parse_tile_table, tile_scenario_counter_case,
          measure_tile_lab, tile_kernels_once,     tile_verify_cases};
}

}  // namespace warplens::app
