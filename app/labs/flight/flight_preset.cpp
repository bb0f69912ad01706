#include "flight_preset.h"

#include <utility>

#include "flight_knobs.h"

namespace warplens::app {

toml::table flight_preset_section(const FlightState& state) {
  toml::table flight;
  write_knobs(flight, state, flight_knobs());
  toml::table section;
  section.insert("flight", std::move(flight));
  return section;
}

}  // namespace warplens::app
