// The tile lab's presets round-trip (tests/preset_round_trip.h): every built-in scenario and the
// monkey's changes.
#include <gtest/gtest.h>

#include <string>

#include "preset_round_trip.h"
#include "tile_lab_unit.h"
#include "tile_preset.h"
#include "trace_sink.h"

namespace warplens::app {
namespace {

struct TileHost {
  explicit TileHost(Lab) {}
  static TileState state_of(const Scenario& s) { return tile_scenario(s); }
  void apply(const Scenario& s) { session.set(state_of(s)); }
  [[nodiscard]] std::string section() const {
    return toml_text(tile_preset_section(session.state()));
  }
  HostSink<TraceRecords> bank;
  TileSession session{bank, false};
};

TEST(PresetWriter, EveryBuiltInTileScenarioRoundTrips) {
  test::builtin_round_trips<TileHost>(Lab::Tile);
}
TEST(PresetWriter, TileLabSurvivesTheMonkey) {
  test::monkey_round_trips<TileHost>(Lab::Tile);
}

}  // namespace
}  // namespace warplens::app
