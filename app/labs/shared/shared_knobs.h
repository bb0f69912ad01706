// The shared-memory labs' knobs, one line each (knob.h): the bank lab's access (its pattern, its
// block shape as a text knob "32x1", the warp shown), and the transpose, matrix-multiply and
// reduction labs' kernel parameters and what their bank views show. Their preset tables, their
// parsers and the soak's monkey are driven from these tables (shared_preset.cpp,
// shared_scenario.cpp, shared_random_change.cpp).
#pragma once

#include <vector>

#include "knob.h"
#include "shared_session.h"

namespace warplens::app {

const std::vector<Knob<SharedState>>& banks_knobs();
const std::vector<Knob<SharedState>>& transpose_knobs();
const std::vector<Knob<SharedState>>& matmul_knobs();
const std::vector<Knob<SharedState>>& reduction_knobs();

}  // namespace warplens::app
