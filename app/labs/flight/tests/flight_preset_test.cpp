// The bytes-in-flight lab's presets round-trip (tests/preset_round_trip.h): every built-in
// scenario, the monkey's changes and the knobs it leaves alone.
#include <gtest/gtest.h>

#include <string>

#include "flight_lab_unit.h"
#include "flight_preset.h"
#include "preset_round_trip.h"

namespace warplens::app {
namespace {

using test::expect_state_round_trips;

struct FlightHost {
  explicit FlightHost(Lab) {}
  static FlightState state_of(const Scenario& s) { return flight_scenario(s); }
  void apply(const Scenario& s) { session.set(state_of(s)); }
  [[nodiscard]] std::string section() const {
    return toml_text(flight_preset_section(session.state()));
  }
  FlightSession session{false};
};

TEST(PresetWriter, EveryBuiltInFlightScenarioRoundTrips) {
  test::builtin_round_trips<FlightHost>(Lab::Flight);
}
TEST(PresetWriter, FlightLabSurvivesTheMonkey) {
  test::monkey_round_trips<FlightHost>(Lab::Flight);
}

// The panel's knobs the monkey does not turn, each to values the panel offers.
TEST(PresetWriter, FlightKnobsTheMonkeyLeavesAloneRoundTrip) {
  FlightState f;
  f.section = FlightSection::Async;
  f.stream = {16, 8, 32, 100 * 1024, true};
  f.working_set_bytes = std::int64_t{128} << 20;
  expect_state_round_trips<FlightHost>(Lab::Flight, f, "flight");
}

}  // namespace
}  // namespace warplens::app
