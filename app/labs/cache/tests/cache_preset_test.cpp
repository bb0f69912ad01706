// The cache lab's presets round-trip (tests/preset_round_trip.h): every built-in scenario, the
// monkey's changes, the knobs it leaves alone, and a bad value refused.
#include <gtest/gtest.h>

#include <string>

#include "cache_lab_unit.h"
#include "cache_preset.h"
#include "preset_round_trip.h"

namespace warplens::app {
namespace {

using test::expect_refused;
using test::expect_state_round_trips;
using test::replaced;
using test::written_preset;

struct CacheHost {
  explicit CacheHost(Lab) {}
  static CacheState state_of(const Scenario& s) { return cache_scenario(s); }
  void apply(const Scenario& s) { session.set(state_of(s)); }
  [[nodiscard]] std::string section() const {
    return toml_text(cache_preset_section(session.state()));
  }
  CacheSession session{false};
};

TEST(PresetWriter, EveryBuiltInCacheScenarioRoundTrips) {
  test::builtin_round_trips<CacheHost>(Lab::Cache);
}
TEST(PresetWriter, CacheLabSurvivesTheMonkey) {
  test::monkey_round_trips<CacheHost>(Lab::Cache);
}

// The panel's knobs the monkey does not turn, each to values the panel offers.
TEST(PresetWriter, CacheKnobsTheMonkeyLeavesAloneRoundTrip) {
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
}

TEST(PresetWriter, ABadCacheValueInAWrittenPresetGivesTheParsersError) {
  CacheHost cache(Lab::Cache);
  cache.apply(find_scenario("read-path"));
  const std::string c = written_preset(cache, Lab::Cache, find_scenario("read-path"));
  expect_refused(replaced(c, "image_side = 4096", "image_side = 100"),
                 "image side 100 is not a power of two");
  expect_refused(replaced(c, "radius = 2", "radius = 'two'"), "\"radius\" must be");
}

}  // namespace
}  // namespace warplens::app
