// Presets written from a lab's current parameters (preset_writer.h) read back to the same state:
// every built-in scenario, 200 of the soak's random changes per lab (its monkey,
// random_session_change), the panel's knobs the monkey leaves alone, and a bad value written by
// hand still refused with the parser's error. Host only: the labs' sessions with host sinks, no
// GL, no GPU.
#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <string>
#include <vector>

#include "cache_lab_unit.h"
#include "cache_preset.h"
#include "flight_lab_unit.h"
#include "flight_preset.h"
#include "global_lab.h"
#include "global_preset.h"
#include "kernel_lab_unit.h"
#include "kernel_preset.h"
#include "preset_writer.h"
#include "scenarios.h"
#include "shared_labs.h"
#include "shared_preset.h"
#include "stand_in_lab.h"
#include "tile_lab_unit.h"
#include "tile_preset.h"
#include "trace_sink.h"

namespace warplens::app {
namespace {

// Each lab without its GL views: the session the lab unit holds (host sinks, model only), the
// state the unit's apply() sets for a scenario, and its table as the unit's preset_section()
// writes it.
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

struct CacheHost {
  explicit CacheHost(Lab) {}
  static CacheState state_of(const Scenario& s) { return cache_scenario(s); }
  void apply(const Scenario& s) { session.set(state_of(s)); }
  [[nodiscard]] std::string section() const {
    return toml_text(cache_preset_section(session.state()));
  }
  CacheSession session{false};
};

struct FlightHost {
  explicit FlightHost(Lab) {}
  static FlightState state_of(const Scenario& s) { return flight_scenario(s); }
  void apply(const Scenario& s) { session.set(state_of(s)); }
  [[nodiscard]] std::string section() const {
    return toml_text(flight_preset_section(session.state()));
  }
  FlightSession session{false};
};

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

// A LabInstance that only writes its table (current_preset_text needs no more).
class SectionLab final : public test::StandInLab {
 public:
  explicit SectionLab(std::function<std::string()> section) : section_(std::move(section)) {}
  [[nodiscard]] std::string preset_section() const override { return section_(); }

 private:
  std::function<std::string()> section_;
};

std::vector<const Scenario*> scenarios_of(Lab lab) {
  std::vector<const Scenario*> list;
  for (const Scenario& s : builtin_scenarios())
    if (s.lab == lab) list.push_back(&s);
  return list;
}

// Writes `first`'s preset as `shown` and parses it back as a user's preset: the state apply()
// sets for it must be `first`'s, and with `fresh_lab`, so must be the state of a fresh lab of the
// same kind it is applied to (a session's set() is what costs: the global lab's heatmap of the
// whole launch, the own kernel's totals).
template <typename Host>
void expect_round_trip(const Host& first, Lab lab, const Scenario& shown, const std::string& what,
                       bool fresh_lab = true) {
  const SectionLab unit([&] { return first.section(); });
  const std::string text = current_preset_text(unit, lab, shown);
  Scenario back;
  try {
    back = parse_preset(text, "written.toml");
  } catch (const ScenarioError& e) {
    ADD_FAILURE() << what << ": the written preset does not parse: " << e.what() << "\n" << text;
    return;
  }
  EXPECT_EQ(back.lab, lab) << what;
  EXPECT_EQ(back.name, shown.name) << what;
  EXPECT_EQ(back.title, shown.title) << what;
  EXPECT_EQ(back.summary, shown.summary) << what;
  EXPECT_EQ(back.look_for, shown.look_for) << what;
  EXPECT_EQ(back.question, shown.question) << what;
  EXPECT_EQ(back.presenter, shown.presenter) << what;
  EXPECT_TRUE(Host::state_of(back) == first.session.state()) << what << "\n" << text;
  if (!fresh_lab) return;
  Host second(lab);
  second.apply(back);
  EXPECT_EQ(second.session.error(), "") << what << "\n" << text;
  EXPECT_TRUE(second.session.state() == first.session.state()) << what << "\n" << text;
}

// `state` set on a fresh lab (it must be accepted as is), then round-tripped.
template <typename Host, typename State>
void expect_state_round_trips(Lab lab, const State& state, const std::string& what) {
  Host host(lab);
  host.session.set(state);
  ASSERT_EQ(host.session.error(), "") << what;
  ASSERT_TRUE(host.session.state() == state) << what << ": the session changed the state";
  expect_round_trip(host, lab, *scenarios_of(lab).front(), what);
}

template <typename Host>
void builtin_round_trip(const Scenario& s) {
  Host first(s.lab);
  first.apply(s);
  ASSERT_EQ(first.session.error(), "") << s.name;
  expect_round_trip(first, s.lab, s, s.name);
}

TEST(PresetWriter, EveryBuiltInScenarioRoundTrips) {
  ASSERT_FALSE(builtin_scenarios().empty());
  for (const Scenario& s : builtin_scenarios()) {
    switch (s.lab) {
      case Lab::Global: builtin_round_trip<GlobalHost>(s); break;
      case Lab::Banks:
      case Lab::Transpose:
      case Lab::Matmul:
      case Lab::Reduction: builtin_round_trip<SharedHost>(s); break;
      case Lab::Cache: builtin_round_trip<CacheHost>(s); break;
      case Lab::Flight: builtin_round_trip<FlightHost>(s); break;
      case Lab::Kernel: builtin_round_trip<KernelHost>(s); break;
      case Lab::Tile: builtin_round_trip<TileHost>(s); break;
    }
  }
}

// 200 of the soak's random changes (seed 2024) from the lab's default parameters; every 25th
// round the next built-in scenario of the lab is applied first, so the monkey also turns the
// knobs of a matrix, a struct, a tile... Each change is round-tripped, every 10th (and the
// last) also through a fresh lab.
template <typename Host>
void monkey_round_trips(Lab lab) {
  const auto scenarios = scenarios_of(lab);
  ASSERT_FALSE(scenarios.empty()) << to_string(lab);
  std::mt19937 rng(2024);
  Host host(lab);
  std::size_t next = 0;
  int changed = 0;
  for (int round = 0; round < 200; ++round) {
    const auto before = host.session.state();
    const Scenario& shown = *scenarios[next % scenarios.size()];
    if (round % 25 == 24) {
      host.apply(shown);
      ++next;
    }
    random_session_change(host.session, rng);
    changed += !(host.session.state() == before);
    expect_round_trip(host, lab, shown,
                      std::string(to_string(lab)) + " round " + std::to_string(round),
                      round % 10 == 9);
    if (::testing::Test::HasFailure()) return;  // one state's failure, not 200 of them
  }
  EXPECT_GE(changed, 50) << to_string(lab) << ": the monkey changed too little to prove much";
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
TEST(PresetWriter, BankLabSurvivesTheMonkey) {
  monkey_round_trips<SharedHost>(Lab::Banks);
}
TEST(PresetWriter, TransposeLabSurvivesTheMonkey) {
  monkey_round_trips<SharedHost>(Lab::Transpose);
}
TEST(PresetWriter, MatmulLabSurvivesTheMonkey) {
  monkey_round_trips<SharedHost>(Lab::Matmul);
}
TEST(PresetWriter, ReductionLabSurvivesTheMonkey) {
  monkey_round_trips<SharedHost>(Lab::Reduction);
}
TEST(PresetWriter, CacheLabSurvivesTheMonkey) {
  monkey_round_trips<CacheHost>(Lab::Cache);
}
TEST(PresetWriter, FlightLabSurvivesTheMonkey) {
  monkey_round_trips<FlightHost>(Lab::Flight);
}
TEST(PresetWriter, KernelLabSurvivesTheMonkey) {
  monkey_round_trips<KernelHost>(Lab::Kernel);
}
TEST(PresetWriter, TileLabSurvivesTheMonkey) {
  monkey_round_trips<TileHost>(Lab::Tile);
}

// The panels' knobs the monkey does not turn, each to values the panel offers.
TEST(PresetWriter, KnobsTheMonkeyLeavesAloneRoundTrip) {
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
  CacheState c;  // the read path's image side, window radius and scattered reads (new keys)
  c.section = CacheSection::ReadPath;
  c.carveout = 37;
  c.dynamic_shared_bytes = 227 * 1024;
  c.k = 17;
  c.read.pattern = gpu::ReadPattern::ColumnTileMorton;
  c.read.side = 64;
  c.read.radius = 0;
  c.read.scattered_reads = 32;
  expect_state_round_trips<CacheHost>(Lab::Cache, c, "cache: small image");
  c.read.side = 8192;
  c.read.radius = 4;
  c.read.scattered_reads = 1;
  expect_state_round_trips<CacheHost>(Lab::Cache, c, "cache: large image");
  FlightState f;
  f.section = FlightSection::Async;
  f.stream = {16, 8, 32, 100 * 1024, true};
  f.working_set_bytes = std::int64_t{128} << 20;
  expect_state_round_trips<FlightHost>(Lab::Flight, f, "flight");
  KernelState k = kernel_scenario(*scenarios_of(Lab::Kernel).front());
  k.model = model::HardwareModel::FermiCaching;   // as `--model fermi-ca` sets it (new key)
  k.program.constants = {{"n", 8192}, {"m", 4}};  // not in name order: kept as entered
  k.program.rows.front().sync_after = true;
  expect_state_round_trips<KernelHost>(Lab::Kernel, k, "kernel");
}

void expect_refused(const std::string& text, const std::string& message_part) {
  SCOPED_TRACE(text);
  try {
    (void)parse_preset(text, "written.toml");
    ADD_FAILURE() << "parsed without an error";
  } catch (const ScenarioError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("written.toml: ", 0), 0u) << what;
    EXPECT_NE(what.find(message_part), std::string::npos) << what;
  }
}

// `text` with its first `from` replaced by `to` (which must be there).
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from << " not in\n" << text;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

TEST(PresetWriter, ABadValueInAWrittenPresetGivesTheParsersError) {
  GlobalHost global(Lab::Global);
  global.apply(find_scenario("aligned"));
  const std::string text = current_preset_text(SectionLab([&] { return global.section(); }),
                                               Lab::Global, find_scenario("aligned"));
  expect_refused(replaced(text, "word_bytes = 4", "word_bytes = 3"),
                 "word bytes must be 1, 2, 4, 8 or 16 (got 3)");
  expect_refused(replaced(text, "model = 'modern'", "model = 'volta'"), "model must be");

  SharedHost transpose(Lab::Transpose);
  transpose.apply(find_scenario("transpose"));
  const std::string t = current_preset_text(SectionLab([&] { return transpose.section(); }),
                                            Lab::Transpose, find_scenario("transpose"));
  expect_refused(replaced(t, "model = 'modern'", "model = 'volta'"), "model must be");

  CacheHost cache(Lab::Cache);
  cache.apply(find_scenario("read-path"));
  const std::string c = current_preset_text(SectionLab([&] { return cache.section(); }), Lab::Cache,
                                            find_scenario("read-path"));
  expect_refused(replaced(c, "image_side = 4096", "image_side = 100"),
                 "image side 100 is not a power of two");
  expect_refused(replaced(c, "radius = 2", "radius = 'two'"), "\"radius\" must be");

  KernelHost kernel(Lab::Kernel);
  const Scenario& k = *scenarios_of(Lab::Kernel).front();
  kernel.apply(k);
  const std::string kt =
      current_preset_text(SectionLab([&] { return kernel.section(); }), Lab::Kernel, k);
  expect_refused(replaced(kt, "model = 'modern'", "model = 'kepler2'"), "model must be");
}

}  // namespace
}  // namespace warplens::app
