// The bytes-in-flight lab's knobs, one line each (knob.h): the section shown, the Little's-law
// copy's word size, loads per thread, block size, dynamic shared memory and grid stride, and the
// latency ladder's ringed working set. Its preset section ([flight]), its reader and the soak's
// monkey are driven from this table.
#pragma once

#include <vector>

#include "flight_session.h"
#include "knob.h"

namespace warplens::app {

/// The table, in the order the preset writes its knobs.
const std::vector<Knob<FlightState>>& flight_knobs();

}  // namespace warplens::app
