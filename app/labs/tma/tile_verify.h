// The tile lab's rows of `warplens verify` (LabInfo::verify_cases): every swizzle mode x element
// size x read kind (a row, two columns) of a tile filled by the TMA (compute capability 9.0) and
// by the threads, every ldmatrix form (.x1/.x2/.x4, plain and .trans) of 16-bit tiles swizzled
// and not, and padded tiles (the threads at a pitch of 144 bytes). Each is a LabLaunchCase
// (counter_checks.h): the model's wavefronts per request (tma_model.h) beside the counters of
// TileLab::counter_launch, read as the difference of kLabLaunchReads reads and none.
#pragma once

#include <optional>
#include <vector>

#include "counter_checks.h"
#include "scenario.h"
#include "tma_lab.h"

namespace warplens::app {

/// The counter case of `read` on `tile`, named e.g. "tile/tma/128B/4B/column-0". Throws
/// std::invalid_argument for parameters check_tile_read refuses.
CounterCase tile_counter_case(const gpu::TileParams& tile, const gpu::TileRead& read);

/// The catalog's tile cases for a GPU of `compute_capability` (10 x major + minor): the TMA's
/// only from 90 on, ldmatrix's from 75 on.
std::vector<CounterCase> tile_verify_cases(int compute_capability);

/// The counter case of a tile-lab scenario's read (LabInfo::counter_case); nullopt for a state
/// the lab refuses.
std::optional<CounterCase> tile_scenario_counter_case(const Scenario& scenario);

}  // namespace warplens::app
