// The own-kernel lab's presets round-trip (tests/preset_round_trip.h): every built-in scenario,
// the monkey's changes, the knobs it leaves alone, and a bad value refused.
#include <gtest/gtest.h>

#include <string>

#include "kernel_lab_unit.h"
#include "kernel_preset.h"
#include "preset_round_trip.h"
#include "trace_sink.h"

namespace warplens::app {
namespace {

using test::expect_refused;
using test::expect_state_round_trips;
using test::replaced;
using test::scenarios_of;
using test::written_preset;

struct KernelHost {
  explicit KernelHost(Lab) {}
  static KernelState state_of(const Scenario& s) { return kernel_scenario(s); }
  void apply(const Scenario& s) { session.set(state_of(s)); }
  [[nodiscard]] std::string section() const {
    return toml_text(kernel_preset_section(session.state()));
  }
  HostWarpTraceSink warp;
  HostSink<TraceRecords> bank;
  KernelSession session{warp, bank, false};
};

TEST(PresetWriter, EveryBuiltInKernelScenarioRoundTrips) {
  test::builtin_round_trips<KernelHost>(Lab::Kernel);
}
TEST(PresetWriter, KernelLabSurvivesTheMonkey) {
  test::monkey_round_trips<KernelHost>(Lab::Kernel);
}

// The panel's knobs the monkey does not turn, each to values the panel offers.
TEST(PresetWriter, KernelKnobsTheMonkeyLeavesAloneRoundTrip) {
  KernelState k = kernel_scenario(*scenarios_of(Lab::Kernel).front());
  k.model = model::HardwareModel::FermiCaching;   // as `--model fermi-ca` sets it (new key)
  k.program.constants = {{"n", 8192}, {"m", 4}};  // not in name order: kept as entered
  k.program.rows.front().sync_after = true;
  expect_state_round_trips<KernelHost>(Lab::Kernel, k, "kernel");
}

TEST(PresetWriter, ABadKernelValueInAWrittenPresetGivesTheParsersError) {
  KernelHost kernel(Lab::Kernel);
  const Scenario& k = *scenarios_of(Lab::Kernel).front();
  kernel.apply(k);
  const std::string kt = written_preset(kernel, Lab::Kernel, k);
  expect_refused(replaced(kt, "model = 'modern'", "model = 'kepler2'"), "model must be");
}

// tile_row, the tile's row as the view draws it: written where set, and refused with its reason
// where the view could not draw it.
TEST(PresetWriter, ATileRowRoundTripsAndOneTheViewCannotDrawIsRefused) {
  KernelHost kernel(Lab::Kernel);
  const Scenario& padded = find_scenario("kernel-transpose-padded");
  kernel.apply(padded);
  EXPECT_EQ(kernel.session.state().tile_row, 33);
  const std::string kt = written_preset(kernel, Lab::Kernel, padded);
  EXPECT_NE(kt.find("tile_row = 33"), std::string::npos) << kt;
  expect_refused(replaced(kt, "tile_row = 33", "tile_row = 65"), "tile_row must be 0");
  expect_refused(
      replaced(kt, "elements = 1056, word_bytes = 4 }", "elements = 32, word_bytes = 4 }"),
      "needs a tile of at least");
  expect_refused(
      replaced(kt, "elements = 1056, word_bytes = 4 }", "elements = 1056, word_bytes = 8 }"),
      "4-byte words only");
}

}  // namespace
}  // namespace warplens::app
