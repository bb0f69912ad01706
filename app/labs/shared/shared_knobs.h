// The transpose, matrix-multiply and reduction labs' knobs, one line each (knob.h): each lab's
// kernel parameters and what its bank view shows. Their preset tables, their parsers and the
// soak's monkey are driven from these tables (shared_preset.cpp, shared_scenario.cpp,
// shared_random_change.cpp). The bank lab's access (a pattern, a block shape as text) keeps its
// own code.
#pragma once

#include <vector>

#include "knob.h"
#include "shared_session.h"

namespace warplens::app {

const std::vector<Knob<SharedState>>& transpose_knobs();
const std::vector<Knob<SharedState>>& matmul_knobs();
const std::vector<Knob<SharedState>>& reduction_knobs();

}  // namespace warplens::app
