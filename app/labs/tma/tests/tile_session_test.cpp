// The tile lab's app half without a GPU and without GL: the session's state and model (the CuTe
// layout, the placement, the read's lanes and wavefronts, the trace it publishes), its refusals,
// the knob table's round trip, and the built-in scenarios' numbers against their texts.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "scenarios.h"
#include "tile_knobs.h"
#include "tile_scenario.h"
#include "tile_session.h"
#include "tile_ui.h"
#include "trace_sink.h"

namespace warplens::app {
namespace {

TEST(TileSession, TheDefaultIsTheTmas128ByteSwizzleReadByColumn) {
  HostSink<TraceRecords> banks;
  TileSession session(banks, false);
  EXPECT_FALSE(session.gpu_mode());
  EXPECT_EQ(session.model().layout_text, "Sw<3,2,3> o (32,32):(32,1)");
  EXPECT_EQ(session.model().analysis.wavefronts, 4);
  EXPECT_EQ(session.model().lanes.active, 32);
  // The published trace is the model's lanes: lane r reads element (r, 0), in bank 4 (r mod 8).
  const TraceRecords t = banks.contents();
  for (int r = 0; r < 32; ++r) {
    const auto& rec = t[static_cast<std::size_t>(r)];
    EXPECT_EQ(rec.active, 1u);
    EXPECT_EQ(rec.word_bytes, 4u);
    EXPECT_EQ((rec.address_lo / 4) % 32, static_cast<std::uint32_t>(4 * (r % 8))) << r;
  }
  EXPECT_FALSE(session.unsupported());  // no GPU: nothing to refuse
  EXPECT_TRUE(session.idle());
}

TEST(TileSession, TheStoredTileIsThePlacementInverted) {
  TileState s;
  s.tile = {gpu::TileFill::Threads, gpu::TmaSwizzle::None, 2, 32, 64, 144};
  s.read = {gpu::TileReadKind::Ldmatrix, 0, 4, false};
  const TileModel m = tile_model(s);
  ASSERT_EQ(m.stored.size(), 32u * 144 / 2);
  int padding = 0;
  for (std::size_t slot = 0; slot < m.stored.size(); ++slot) {
    if (m.stored[slot] < 0) {
      ++padding;
      continue;
    }
    EXPECT_EQ(m.placement[static_cast<std::size_t>(m.stored[slot])],
              static_cast<std::int32_t>(slot * 2));
  }
  EXPECT_EQ(padding, 32 * 8);  // 16 bytes of each row: 8 two-byte slots
  EXPECT_EQ(m.layout_text, "(32,64):(72,1)");
  EXPECT_EQ(m.analysis.wavefronts, 4);
}

TEST(TileSession, ARefusedChangeKeepsTheStateAndSaysWhy) {
  HostSink<TraceRecords> banks;
  TileSession session(banks, false);
  const TileState before = session.state();
  TileState bad = before;
  bad.read.kind = gpu::TileReadKind::Ldmatrix;  // of 4-byte elements
  session.set(bad);
  EXPECT_TRUE(session.state() == before);
  EXPECT_NE(session.error().find("ldmatrix reads 16-bit elements"), std::string::npos)
      << session.error();
  TileState wide = before;
  wide.tile.cols = 64;  // 256-byte rows under the 128-byte swizzle
  session.set(wide);
  EXPECT_TRUE(session.state() == before);
  EXPECT_NE(session.error().find("wider than"), std::string::npos) << session.error();
  TileState good = before;
  good.tile.swizzle = gpu::TmaSwizzle::None;
  session.set(good);
  EXPECT_EQ(session.error(), "");
  EXPECT_EQ(session.model().analysis.wavefronts, 32);
}

TEST(TileSession, TheCountersAgreeOnlyWithinAHundredthOfAWavefront) {
  TileState s;
  const TileModel m = tile_model(s);
  TileResults r;
  EXPECT_FALSE(tile_counters_agree(m, r));
  r.wavefronts_per_request = 4.0;
  EXPECT_TRUE(tile_counters_agree(m, r));
  r.wavefronts_per_request = 4.5;
  EXPECT_FALSE(tile_counters_agree(m, r));
}

TEST(TileKnobs, EveryValueTheyOfferRoundTrips) {
  const std::string origin = "knobs.toml";
  for (const auto& k : tile_knobs()) {
    std::vector<std::int64_t> values = k.values;
    if (values.empty()) values = k.picks;
    for (const std::int64_t v : values) {
      TileState s;
      if (k.key == "pitch_bytes") s.tile.fill = gpu::TileFill::Threads;
      k.set(s, v);
      toml::table t;
      write_knobs(t, s, tile_knobs());
      TileState back;
      read_knobs(ScenarioTable{t, origin}, t, back, tile_knobs());
      EXPECT_EQ(k.get(back), v) << k.key;
      EXPECT_TRUE(back == s) << k.key << " = " << v;
    }
  }
}

TEST(TileScenarios, EachNumberOfItsTextsIsTheModels) {
  // name -> the model's wavefronts per request, and the layout shown beside the tile.
  const std::map<std::string, std::pair<int, std::string>> expected = {
      {"tma-no-swizzle-column", {32, "(32,32):(32,1)"}},
      {"tma-128b-swizzle", {4, "Sw<3,2,3> o (32,32):(32,1)"}},
      {"ldmatrix-no-swizzle", {32, "(32,64):(64,1)"}},
      {"ldmatrix-128b-swizzle", {4, "Sw<3,3,3> o (32,64):(64,1)"}},
      {"ldmatrix-padded", {4, "(32,64):(72,1)"}},
  };
  int seen = 0;
  for (const Scenario& s : builtin_scenarios()) {
    if (s.lab != Lab::Tile) continue;
    ++seen;
    const auto it = expected.find(s.name);
    ASSERT_NE(it, expected.end()) << s.name;
    const TileModel m = tile_model(tile_scenario(s));
    const int w = it->second.first;
    EXPECT_EQ(m.analysis.wavefronts, w) << s.name;
    EXPECT_EQ(m.layout_text, it->second.second) << s.name;
    const std::string counted = std::to_string(w) + ".00 with a tick";
    EXPECT_NE(s.look_for.find(counted), std::string::npos) << s.name << ": " << s.look_for;
    EXPECT_NE(s.look_for.find(std::to_string(w) + " wavefronts per request"), std::string::npos)
        << s.name;
    if (s.name.rfind("ldmatrix", 0) == 0) {
      // 16-byte rows: the model serves 16 lanes (256 bytes, 2 wavefronts at least) per phase.
      ASSERT_EQ(m.analysis.phases.size(), 2u) << s.name;
      EXPECT_EQ(m.analysis.phases.front().wavefronts, w / 2) << s.name;
      EXPECT_EQ(m.analysis.phases.front().min_wavefronts, 2) << s.name;
    }
  }
  EXPECT_EQ(seen, 5);
}

}  // namespace
}  // namespace warplens::app
