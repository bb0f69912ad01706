// The bytes-in-flight lab's parameters as a preset: the [flight] table that parse_flight_table
// reads back to the same state (the writing side of flight_scenario.h).
#pragma once

#include "flight_scenario.h"

namespace warplens::app {

/// A table holding the [flight] table of `state`: every key parse_flight_table reads, spelled as
/// it reads them. Sizes go in KiB, as the parser reads them (the panel sets whole KiB).
toml::table flight_preset_section(const FlightState& state);

}  // namespace warplens::app
