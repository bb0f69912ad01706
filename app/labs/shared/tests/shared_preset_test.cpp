// The shared-memory labs' presets round-trip (tests/preset_round_trip.h): every built-in scenario
// of the four, the monkey's changes, the knobs it leaves alone, and a bad value refused.
#include <gtest/gtest.h>

#include <string>

#include "preset_round_trip.h"
#include "shared_labs.h"
#include "shared_preset.h"
#include "trace_sink.h"

namespace warplens::app {
namespace {

using test::expect_refused;
using test::expect_state_round_trips;
using test::replaced;
using test::written_preset;

struct SharedHost {
  explicit SharedHost(Lab lab) : session(banks, global, false, lab) {}
  static SharedState state_of(const Scenario& s) { return shared_scenario(s); }
  void apply(const Scenario& s) { session.set(state_of(s)); }
  [[nodiscard]] std::string section() const {
    return toml_text(shared_preset_section(session.state()));
  }
  HostSink<TraceRecords> banks;
  HostWarpTraceSink global;
  SharedSession session;
};

TEST(PresetWriter, EveryBuiltInSharedScenarioRoundTrips) {
  for (Lab lab : {Lab::Banks, Lab::Transpose, Lab::Matmul, Lab::Reduction})
    test::builtin_round_trips<SharedHost>(lab);
}
TEST(PresetWriter, BankLabSurvivesTheMonkey) {
  test::monkey_round_trips<SharedHost>(Lab::Banks);
}
TEST(PresetWriter, TransposeLabSurvivesTheMonkey) {
  test::monkey_round_trips<SharedHost>(Lab::Transpose);
}
TEST(PresetWriter, MatmulLabSurvivesTheMonkey) {
  test::monkey_round_trips<SharedHost>(Lab::Matmul);
}
TEST(PresetWriter, ReductionLabSurvivesTheMonkey) {
  test::monkey_round_trips<SharedHost>(Lab::Reduction);
}

// The panels' knobs the monkey does not turn, each to values the panel offers.
TEST(PresetWriter, SharedKnobsTheMonkeyLeavesAloneRoundTrip) {
  SharedState banks;  // a 16-wide tile padded by 1, by column, in a 16x16 block, warp 5
  banks.lab = Lab::Banks;
  banks.probe.index.kind = SharedPatternKind::Tile;
  banks.probe.index.tile_width = 16;
  banks.probe.index.pitch_elements = 17;
  banks.probe.index.by_column = true;
  banks.probe.block_x = 16;
  banks.probe.block_y = 16;
  banks.warp = 5;
  banks.model = model::HardwareModel::Kepler;
  expect_state_round_trips<SharedHost>(Lab::Banks, banks, "banks: tile");
  banks.probe.index.pitch_elements = 16;
  banks.probe.index.swizzle = true;
  expect_state_round_trips<SharedHost>(Lab::Banks, banks, "banks: swizzled tile");
  banks = SharedState{};
  banks.lab = Lab::Banks;
  banks.probe.index.kind = SharedPatternKind::Struct;
  banks.probe.index.struct_words = 5;
  banks.probe.index.field = 3;
  banks.probe.index.word_bytes = 8;
  banks.probe.block_x = 200;
  banks.warp = 6;
  banks.model = model::HardwareModel::G80;
  expect_state_round_trips<SharedHost>(Lab::Banks, banks, "banks: struct");
  for (auto kind : {SharedPatternKind::Interleaved, SharedPatternKind::Blocked}) {
    banks = SharedState{};
    banks.lab = Lab::Banks;
    banks.probe.index.kind = kind;
    banks.probe.index.part = 1;
    expect_state_round_trips<SharedHost>(Lab::Banks, banks, "banks: second part");
  }
  SharedState t;  // the shared labs' memory model, a matrix size the monkey does not pick
  t.lab = Lab::Transpose;
  t.transpose.variant = gpu::TransposeVariant::Vectorized;
  t.transpose.tile = 16;
  t.transpose.rows_per_block = 4;
  t.transpose.n = 1024;
  t.transpose_read = false;
  t.transpose_view = TransposeView::GlobalWrite;
  t.model = model::HardwareModel::Kepler;
  expect_state_round_trips<SharedHost>(Lab::Transpose, t, "transpose");
  SharedState m;
  m.lab = Lab::Matmul;
  m.matmul = {32, 512};
  m.matmul_k = 31;
  m.matmul_b = true;
  m.model = model::HardwareModel::G80;
  expect_state_round_trips<SharedHost>(Lab::Matmul, m, "matmul");
  SharedState r;
  r.lab = Lab::Reduction;
  r.reduction.variant = gpu::ReductionVariant::InterleavedStrided;
  r.reduction.elements = std::int64_t{1} << 20;
  r.reduction.block_threads = 1024;
  r.reduction_step = 9;
  r.reduction_second = true;
  r.model = model::HardwareModel::Kepler;
  expect_state_round_trips<SharedHost>(Lab::Reduction, r, "reduction");
}

TEST(PresetWriter, ABadSharedValueInAWrittenPresetGivesTheParsersError) {
  SharedHost transpose(Lab::Transpose);
  transpose.apply(find_scenario("transpose"));
  const std::string t = written_preset(transpose, Lab::Transpose, find_scenario("transpose"));
  expect_refused(replaced(t, "model = 'modern'", "model = 'volta'"), "model must be");
}

}  // namespace
}  // namespace warplens::app
