// The cache lab's knobs, one line each (knob.h): the section shown, the carveout, the shared-hungry
// kernel's dynamic shared memory, the L1 sweep's working set, the constant reads' k, and the read
// path's path, pattern, image side, radius and scattered reads. Its preset section ([cache]), its
// reader and the soak's monkey are driven from this table; the panel keeps its own sliders (a
// working set by its index in the sweep, the image side by its power of two).
#pragma once

#include <vector>

#include "cache_session.h"
#include "knob.h"

namespace warplens::app {

/// The table, in the order the preset writes its knobs.
const std::vector<Knob<CacheState>>& cache_knobs();

}  // namespace warplens::app
