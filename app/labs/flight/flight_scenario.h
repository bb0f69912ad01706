// The bytes-in-flight lab's part of a scenario: the [flight] table of a preset.
#pragma once

#include <any>

#include "flight_session.h"
#include "scenario.h"
#include "toml_fields.h"

namespace warplens::app {

/// Parses [flight]: section (latency | littles-law | async), word_bytes (4, 8, 16),
/// loads_per_thread (1, 2, 4, 8), block_threads (32 .. 1024, a power of two),
/// dynamic_shared_kib (KiB per block), grid_stride (true/false) and working_set_kib (the ringed
/// point of the ladder). Throws ScenarioError naming the file and the problem. Its writing side:
/// flight_preset.h.
std::any parse_flight_table(const ScenarioTable& scenario);

/// The lab's parameters of a bytes-in-flight scenario (std::logic_error otherwise).
inline const FlightState& flight_scenario(const Scenario& s) {
  return lab_parameters<FlightState>(s, "flight");
}

}  // namespace warplens::app
