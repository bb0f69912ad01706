// A lab's knobs as one table (knob.h): the same table writes a preset, reads it back, refuses a
// bad value with the key, and drives the soak's monkey; each lab's table round-trips every knob
// it declares.
#include "knob.h"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <stdexcept>
#include <string>

#include "cache_knobs.h"
#include "flight_knobs.h"
#include "global_knobs.h"
#include "scenario.h"
#include "shared_knobs.h"

namespace warplens::app {
namespace {

enum class Shape { Square, Round };

struct State {
  std::int64_t offset = 0;
  int word = 4;
  Shape shape = Shape::Square;
  bool padded = false;
  int depth = 0;
};

std::vector<Knob<State>> knobs() {
  using S = State;
  // One push_back each: GCC 12 fails (an internal compiler error) on the whole table as one
  // braced list of designated initializers.
  std::vector<Knob<S>> k;
  k.push_back({.key = "offset",
               .label = "Offset (elements)",
               .low = 0,
               .high = 64,
               .picks = {0, 5},
               .wide = true,
               .required = true,
               .get = [](const S& s) { return s.offset; },
               .set = [](S& s, std::int64_t v) { s.offset = v; }});
  k.push_back({.key = "word_bytes",
               .label = "Word size",
               .style = KnobStyle::Radio,
               .values = {4, 8},
               .picks = {4, 8},
               .get = [](const S& s) { return std::int64_t{s.word}; },
               .set = [](S& s, std::int64_t v) { s.word = static_cast<int>(v); }});
  k.push_back({.key = "shape",
               .label = "Shape",
               .style = KnobStyle::Combo,
               .values = {0, 1},
               .names = {"square", "round"},
               .get = [](const S& s) { return static_cast<std::int64_t>(s.shape); },
               .set = [](S& s, std::int64_t v) { s.shape = static_cast<Shape>(v); }});
  k.push_back({.key = "tile.padded",
               .label = "padded",
               .style = KnobStyle::Check,
               .get = [](const S& s) { return std::int64_t{s.padded}; },
               .set = [](S& s, std::int64_t v) { s.padded = v != 0; },
               .written = [](const S& s) { return s.padded; }});
  k.push_back({.key = "depth",
               .label = "Depth",
               .picks = {3},
               .get = [](const S& s) { return std::int64_t{s.depth}; },
               .set = [](S& s, std::int64_t v) { s.depth = static_cast<int>(v); },
               .then = [](S& s) { s.word = 8; },
               .applies = [](const S& s) { return s.shape == Shape::Round; }});
  return k;
}

State read_text(const std::string& text) {
  const toml::table t = toml::parse(text);
  const std::string origin = "my.toml";
  State s;
  read_knobs(ScenarioTable{t, origin}, t, s, knobs());
  return s;
}

std::string refusal(const std::string& text) {
  try {
    (void)read_text(text);
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(Knob, APresetWrittenFromTheTableReadsBackTheSameState) {
  State s;
  s.offset = 1LL << 40;  // a wide knob keeps 64 bits
  s.word = 8;
  s.shape = Shape::Round;
  s.padded = true;
  toml::table t;
  write_knobs(t, s, knobs());
  EXPECT_EQ(t["shape"].value<std::string>(), "round");  // a named knob by its name
  EXPECT_EQ(t["tile"]["padded"].value<bool>(), true);   // a nested key in its table
  EXPECT_FALSE(t.contains("depth") && !t["depth"].is_integer());
  const std::string origin = "my.toml";
  State back;
  read_knobs(ScenarioTable{t, origin}, t, back, knobs());
  EXPECT_EQ(back.offset, s.offset);
  EXPECT_EQ(back.word, 8);
  EXPECT_EQ(back.shape, Shape::Round);
  EXPECT_TRUE(back.padded);
}

TEST(Knob, AKnobWhoseWrittenSaysNoIsLeftOut) {
  toml::table t;
  write_knobs(t, State{}, knobs());
  EXPECT_FALSE(t.contains("tile"));
  EXPECT_TRUE(t.contains("offset"));
}

TEST(Knob, AbsentKnobsKeepTheirDefaultsAndARequiredOneIsAsked) {
  const State s = read_text("offset = 3\n");
  EXPECT_EQ(s.offset, 3);
  EXPECT_EQ(s.word, 4);
  EXPECT_EQ(refusal("word_bytes = 8\n"), "my.toml: missing or mistyped key \"offset\"");
}

TEST(Knob, BadValuesAreRefusedWithTheirKey) {
  EXPECT_EQ(refusal("offset = 1\nshape = \"oval\"\n"),
            "my.toml: shape must be square or round (got \"oval\")");
  EXPECT_EQ(refusal("offset = 1\nshape = 3\n"), "my.toml: shape must be square or round (got 3)");
  EXPECT_EQ(refusal("offset = 1\nword_bytes = 4294967300\n"),
            "my.toml: \"word_bytes\" must be a 32-bit integer");
  EXPECT_EQ(refusal("offset = 1\n[tile]\npadded = 1\n"),
            "my.toml: \"tile.padded\" must be true or false");
  EXPECT_EQ(refusal("offset = 1e31\n"), "my.toml: missing or mistyped key \"offset\"");
}

TEST(Knob, TheMonkeyMovesOnlyKnobsThatApplyAndHavePicks) {
  std::mt19937 rng(7);
  std::set<std::string> moved;
  for (int i = 0; i < 200; ++i) {
    State s;  // square: depth does not apply; shape and padded have no picks
    ASSERT_TRUE(random_knob_change(rng, s, knobs()));
    EXPECT_EQ(s.depth, 0);
    EXPECT_EQ(s.shape, Shape::Square);
    EXPECT_FALSE(s.padded);
    if (s.offset != 0) moved.insert("offset");
    if (s.word != 4) moved.insert("word");
  }
  EXPECT_EQ(moved, (std::set<std::string>{"offset", "word"}));
  State round;
  round.shape = Shape::Round;
  bool depth_moved = false;
  for (int i = 0; i < 50 && !depth_moved; ++i) {
    State s = round;
    ASSERT_TRUE(random_knob_change(rng, s, knobs()));
    if (s.depth == 3) {
      depth_moved = true;
      EXPECT_EQ(s.word, 8);  // its `then` ran
    }
  }
  EXPECT_TRUE(depth_moved);
  std::vector<Knob<State>> none;
  State s;
  EXPECT_FALSE(random_knob_change(rng, s, none));
}

// A lab's table: every value a knob offers (or the ends of its range) written into a preset
// reads back as that value. `prepare` puts the state where the knob applies.
template <typename State, typename Prepare>
void expect_round_trip(const std::vector<Knob<State>>& knobs, Prepare prepare) {
  for (const auto& k : knobs) {
    if (k.get_string) continue;  // string knobs: their own tests
    for (std::int64_t v : k.values.empty() ? std::vector<std::int64_t>{k.low, k.high} : k.values) {
      State s;
      prepare(k, s);
      k.set(s, v);
      toml::table t;
      write_knobs(t, s, knobs);
      State back;
      const std::string origin = "lab.toml";
      read_knobs(ScenarioTable{t, origin}, t, back, knobs);
      EXPECT_EQ(k.get(back), v) << k.key;
    }
  }
}

TEST(Knob, TheGlobalLabsKnobsRoundTripEveryValueTheyOffer) {
  expect_round_trip(global_knobs(), [](const Knob<CopyState>& k, CopyState& s) {
    if (k.key.rfind("matrix.", 0) == 0) s.params.matrix_width = 64;
    if (k.key == "field") s.params.layout = gpu::StructLayout::ArrayOfStructs;
  });
}

TEST(Knob, TheCacheLabsKnobsRoundTripEveryValueTheyOffer) {
  expect_round_trip(cache_knobs(), [](const Knob<CacheState>&, CacheState&) {});
}

TEST(Knob, TheBankLabsKnobsRoundTripEveryValueTheyOffer) {
  expect_round_trip(banks_knobs(), [](const Knob<SharedState>& k, SharedState& s) {
    if (k.key == "pitch" || k.key == "by" || k.key == "swizzle")
      s.probe.index.kind = SharedPatternKind::Tile;
  });
  const Knob<SharedState>* block = find_knob(banks_knobs(), "block");
  ASSERT_NE(block, nullptr);
  SharedState s;
  s.probe.block_x = 16;
  s.probe.block_y = 16;
  toml::table t;
  write_knobs(t, s, banks_knobs());
  EXPECT_EQ(t["block"].value_or(std::string()), "16x16");  // a text knob is written as its text
  EXPECT_EQ(block->label_of(block->get(s)), "16x16");      // and the panel shows that text
}

TEST(Knob, ATextKnobRefusesWhatItsParserRefusesWithTheKey) {
  const std::string origin = "banks.toml";
  const auto refused = [&](const std::string& text) -> std::string {
    const toml::table t = toml::parse(text);
    SharedState s;
    try {
      read_knobs(ScenarioTable{t, origin}, t, s, banks_knobs());
    } catch (const ScenarioError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(refused("block = \"32x0\"\n").find("banks.toml: block: "), std::string::npos);
  EXPECT_EQ(refused("block = 5\n"), "banks.toml: \"block\" must be a text, e.g. \"32x1\"");
  EXPECT_EQ(refused("by = \"diagonal\"\n"),
            "banks.toml: by must be row or column (got \"diagonal\")");
  EXPECT_EQ(refused("block = \"16x16\"\nwarp = 7\n"), "");
}

TEST(Knob, TheBankLabsLayoutIsAStringKnobWrittenAsTypedAndRefusedWithWhere) {
  SharedState s;
  s.probe.index.word_bytes = 2;
  set_bank_layout(s, "Swizzle<3,4,3> o (8,64):(64,1)");
  ASSERT_EQ(s.probe.index.kind, SharedPatternKind::Layout);
  toml::table t;
  write_knobs(t, s, banks_knobs());
  EXPECT_EQ(t["pattern"].value_or(std::string()), "layout");
  EXPECT_EQ(t["layout"].value_or(std::string()), "Swizzle<3,4,3> o (8,64):(64,1)");
  const std::string origin = "banks.toml";
  SharedState back;
  read_knobs(ScenarioTable{t, origin}, t, back, banks_knobs());
  EXPECT_EQ(back, s);
  // Lane 2 takes coordinate (2,0): offset 128, its bits 7-9 (1) XORed into bits 4-6: 128 ^ 16.
  EXPECT_EQ(shared_element_index(2, 0, 32, 1, back.probe.index), 128 ^ 16);

  // Not a layout: the key, then where; the state keeps its pattern.
  const auto refused = [&](const std::string& text) -> std::string {
    const toml::table bad = toml::parse(text);
    SharedState r;
    try {
      read_knobs(ScenarioTable{bad, origin}, bad, r, banks_knobs());
    } catch (const ScenarioError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(
      refused("pattern = \"layout\"\nlayout = \"(8,4:(32,1)\"\n").find("banks.toml: layout: "),
      std::string::npos);
  EXPECT_EQ(refused("layout = 8\n"),
            "banks.toml: \"layout\" must be a text, e.g. \"(8,4):(32,1)\"");
  SharedState kept;
  EXPECT_THROW(set_bank_layout(kept, "(8,4):(32,1,2)"), std::invalid_argument);
  EXPECT_EQ(kept, SharedState{});
  // The pattern alone takes the layout last written.
  EXPECT_EQ(refused("pattern = \"layout\"\n"), "");
  SharedState only;
  const toml::table p = toml::parse("pattern = \"layout\"\n");
  read_knobs(ScenarioTable{p, origin}, p, only, banks_knobs());
  EXPECT_EQ(shared_element_index(1, 0, 32, 1, only.probe.index), 32);  // (8,4):(32,1): lane 1
}

TEST(Knob, TheTransposeMatmulAndReductionKnobsRoundTripEveryValueTheyOffer) {
  for (const auto* knobs : {&transpose_knobs(), &matmul_knobs(), &reduction_knobs()})
    expect_round_trip(*knobs, [](const Knob<SharedState>&, SharedState&) {});
}

TEST(Knob, TheFlightLabsKnobsRoundTripEveryValueTheyOffer) {
  expect_round_trip(flight_knobs(), [](const Knob<FlightState>&, FlightState&) {});
}

}  // namespace
}  // namespace warplens::app
