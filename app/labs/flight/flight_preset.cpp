#include "flight_preset.h"

namespace warplens::app {

toml::table flight_preset_section(const FlightState& state) {
  const gpu::StreamParams& p = state.stream;
  toml::table flight;
  flight.insert("section", to_string(state.section));
  flight.insert("word_bytes", p.word_bytes);
  flight.insert("loads_per_thread", p.loads_per_thread);
  flight.insert("block_threads", p.block_threads);
  flight.insert("dynamic_shared_kib", p.dynamic_shared_bytes / 1024);
  flight.insert("grid_stride", p.grid_stride);
  flight.insert("working_set_kib", state.working_set_bytes / 1024);
  toml::table section;
  section.insert("flight", std::move(flight));
  return section;
}

}  // namespace warplens::app
