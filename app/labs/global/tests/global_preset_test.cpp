// The global lab's presets round-trip (tests/preset_round_trip.h): every built-in scenario, the
// monkey's changes, the knobs it leaves alone, and a bad value written by hand is refused.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "global_lab.h"
#include "global_preset.h"
#include "preset_round_trip.h"
#include "trace_sink.h"

namespace warplens::app {
namespace {

using test::expect_refused;
using test::expect_round_trip;
using test::expect_state_round_trips;
using test::replaced;
using test::scenarios_of;
using test::written_preset;

struct GlobalHost {
  explicit GlobalHost(Lab) {}
  static CopyState state_of(const Scenario& s) { return global_state(global_scenario(s)); }
  void apply(const Scenario& s) { session.set(state_of(s)); }
  [[nodiscard]] std::string section() const {
    return toml_text(global_preset_section(session.state()));
  }
  HostWarpTraceSink warp;
  HostSink<SectorHeatmap> heat;
  CopySession session{warp, heat, false};
};

TEST(PresetWriter, EveryBuiltInGlobalScenarioRoundTrips) {
  test::builtin_round_trips<GlobalHost>(Lab::Global);
}

// The global lab's monkey on its state alone (random_state_change, what random_session_change
// sets): a CopySession's set() draws the whole launch's heatmap (20 ms), so only every 10th state
// (and the last) goes through labs, the one it is set on and a fresh one the preset is applied to.
TEST(PresetWriter, GlobalLabSurvivesTheMonkey) {
  const auto scenarios = scenarios_of(Lab::Global);
  std::mt19937 rng(2024);
  CopyState state;
  std::size_t next = 0;
  for (int round = 0; round < 200; ++round) {
    const Scenario& shown = *scenarios[next % scenarios.size()];
    if (round % 25 == 24) {
      state = GlobalHost::state_of(shown);
      ++next;
    }
    (void)random_state_change(state, rng);
    const std::string what = "global round " + std::to_string(round);
    if (round % 10 == 9) {
      GlobalHost host(Lab::Global);
      host.session.set(state);
      ASSERT_EQ(host.session.error(), "") << what;
      ASSERT_TRUE(host.session.state() == state) << what;
      expect_round_trip(host, Lab::Global, shown, what);
    } else {
      const std::string text =
          preset_text(Lab::Global, shown, toml_text(global_preset_section(state)));
      EXPECT_TRUE(GlobalHost::state_of(parse_preset(text, "written.toml")) == state) << what << "\n"
                                                                                     << text;
    }
    if (HasFailure()) return;
  }
}
// The panel's knobs the monkey does not turn, each to values the panel offers.
TEST(PresetWriter, GlobalKnobsTheMonkeyLeavesAloneRoundTrip) {
  {
    CopyState s;  // a permuted pattern's seed, a path, stores, a historical model, warps 3..6
    s.params.kind = IndexKind::Permuted;
    s.params.seed = 2147483647;
    s.params.path = gpu::LoadPath::ReadOnly;
    s.params.side = gpu::PatternSide::Write;
    s.params.offset = 64;
    s.model = model::HardwareModel::FermiL2Only;
    s.warp = 3;
    s.warps = 4;
    expect_state_round_trips<GlobalHost>(Lab::Global, s, "global: permuted");
    s.params.kind = IndexKind::Scattered;
    s.params.seed = 0;
    s.model = model::HardwareModel::G80;
    expect_state_round_trips<GlobalHost>(Lab::Global, s, "global: scattered");
  }
  {
    GlobalHost host(Lab::Global);  // a struct's field z, then the struct layout turned off
    CopyState s;
    s.params.layout = gpu::StructLayout::ArrayOfStructs;
    s.field = 2;
    host.session.set(s);
    s.params.layout = gpu::StructLayout::None;
    host.session.set(s);
    EXPECT_EQ(host.session.state().field, 0) << "no struct, no field but x (as presets say)";
    expect_round_trip(host, Lab::Global, find_scenario("aligned"), "global: struct off");
  }
  {
    CopyState s;  // struct of arrays, field z
    s.params.layout = gpu::StructLayout::StructOfArrays;
    s.field = 2;
    expect_state_round_trips<GlobalHost>(Lab::Global, s, "global: soa field z");
  }
  {
    CopyState s;  // a matrix 200 wide by column, padded, 8x32 blocks; then switched off
    s.params.matrix_width = 200;
    s.params.matrix_by_column = true;
    s.params.matrix_pitched = true;
    s.params.block_y = 32;
    expect_state_round_trips<GlobalHost>(Lab::Global, s, "global: matrix");
    s.params.matrix_width = 0;  // the panel's matrix checkbox off keeps by column and padding
    s.params.block_y = 1;
    expect_state_round_trips<GlobalHost>(Lab::Global, s, "global: matrix off");
  }
}

TEST(PresetWriter, ABadGlobalValueInAWrittenPresetGivesTheParsersError) {
  GlobalHost global(Lab::Global);
  global.apply(find_scenario("aligned"));
  const std::string text = written_preset(global, Lab::Global, find_scenario("aligned"));
  expect_refused(replaced(text, "word_bytes = 4", "word_bytes = 3"),
                 "word bytes must be 1, 2, 4, 8 or 16 (got 3)");
  expect_refused(replaced(text, "model = 'modern'", "model = 'volta'"), "model must be");
}

}  // namespace
}  // namespace warplens::app
