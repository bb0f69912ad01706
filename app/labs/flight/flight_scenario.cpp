#include "flight_scenario.h"

#include <stdexcept>

#include "shared_lab.h"

namespace warplens::app {

std::any parse_flight_table(const ScenarioTable& scenario) {
  const toml::table& t = scenario.section("flight");
  FlightState f;
  try {
    f.section = parse_flight_section(string_value(t, "section", "littles-law"));
    f.stream.word_bytes = scenario.int_value(t, "word_bytes", 4);
    f.stream.loads_per_thread = scenario.int_value(t, "loads_per_thread", 1);
    f.stream.block_threads = scenario.int_value(t, "block_threads", 256);
    f.stream.dynamic_shared_bytes =
        std::int64_t{1024} * scenario.int_value(t, "dynamic_shared_kib", 0);
    f.stream.grid_stride = t["grid_stride"].value_or(false);
    gpu::check_stream(f.stream, gpu::kModelSharedBytesPerBlock);
    f.working_set_bytes = std::int64_t{1024} * scenario.int_value(t, "working_set_kib", 64);
    gpu::check_chase({f.working_set_bytes, gpu::LoadPath::Default, 1}, std::int64_t{1} << 40);
  } catch (const std::invalid_argument& e) {
    throw scenario.error(e.what());
  }
  return f;
}

}  // namespace warplens::app
