#include "flight_scenario.h"

#include <stdexcept>

#include "flight_knobs.h"
#include "shared_lab.h"

namespace warplens::app {

std::any parse_flight_table(const ScenarioTable& scenario) {
  const toml::table& t = scenario.section("flight");
  FlightState f;
  read_knobs(scenario, t, f, flight_knobs());
  try {
    gpu::check_stream(f.stream, gpu::kModelSharedBytesPerBlock);
    gpu::check_chase({f.working_set_bytes, gpu::LoadPath::Default, 1}, std::int64_t{1} << 40);
  } catch (const std::invalid_argument& e) {
    throw scenario.error(e.what());
  }
  return f;
}

}  // namespace warplens::app
