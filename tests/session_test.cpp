// The labs' sessions without GL and without a GPU: each publishes its traces to host-memory sinks
// (trace_sink.h), so its logic (parameters, refusals, the host model's trace, the historical
// models' transactions, the transpose's global view) is checked in CI like any other code.
#include <gtest/gtest.h>

#include "copy_pattern.h"
#include "copy_session.h"
#include "shared_session.h"
#include "trace_sink.h"
#include "ui_widgets.h"

namespace warplens::app {
namespace {

TEST(CopySessionWithoutGl, PublishesTheHostModelsTraceAndHeatmap) {
  HostWarpTraceSink warp;
  HostSink<SectorHeatmap> heat;
  CopySession session(warp, heat, /*use_gpu=*/false);
  CopyState state;
  state.params.offset = 1;  // one 4-byte word off: 5 sectors per request
  state.warps = 2;
  session.set(state);
  EXPECT_EQ(session.error(), "");
  EXPECT_TRUE(session.idle());
  EXPECT_EQ(session.trace_source(), TraceSource::HostModel);
  EXPECT_TRUE(same_trace(warp.contents(), model_trace(state.params, 0, 2)));
  EXPECT_TRUE(same_trace(session.trace(), warp.contents()));
  EXPECT_EQ(session.predicted().sectors.size(), 5u);
  EXPECT_EQ(session.predicted_totals().summed_sectors, 10u);
  EXPECT_TRUE(warp.transactions().empty()) << "the modern model shades sectors from the trace";
  // The heatmap of the whole launch: the first sector is asked for by one warp request and the
  // first 4 bytes of the buffer are skipped.
  const SectorHeatmap h = heat.contents();
  EXPECT_EQ(h[0].requests, 1u);
  EXPECT_EQ(h[0].bytes, 28u);
  EXPECT_EQ(session.heatmap()[0].bytes, 28u);
}

TEST(CopySessionWithoutGl, RefusedParametersKeepWhatIsShown) {
  HostWarpTraceSink warp;
  HostSink<SectorHeatmap> heat;
  CopySession session(warp, heat, false);
  CopyState good;
  good.params.stride = 2;
  session.set(good);
  const TraceRecords shown = warp.contents();
  CopyState bad = good;
  bad.params.word_bytes = 3;
  session.set(bad);
  EXPECT_NE(session.error().find("parameters refused"), std::string::npos) << session.error();
  EXPECT_EQ(session.state(), good);
  EXPECT_TRUE(same_trace(warp.contents(), shown));
  CopyState too_many_warps = good;
  too_many_warps.warp = 7;
  too_many_warps.warps = 2;  // warps 7..8 of a 256-thread block
  session.set(too_many_warps);
  EXPECT_NE(session.error().find("not all in block 0"), std::string::npos) << session.error();
  session.set(good);
  EXPECT_EQ(session.error(), "") << "good parameters clear the error";
}

TEST(CopySessionWithoutGl, HistoricalModelsPublishTheirTransactions) {
  HostWarpTraceSink warp;
  HostSink<SectorHeatmap> heat;
  CopySession session(warp, heat, false);
  CopyState state;
  state.params.offset = 1;
  state.model = model::HardwareModel::FermiCaching;
  session.set(state);
  // Fermi's caching loads move whole 128-byte lines: a misaligned warp touches two.
  ASSERT_EQ(warp.transactions().size(), 2u);
  EXPECT_EQ(warp.transactions()[0].begin, 0u);
  EXPECT_EQ(warp.transactions()[0].end, 128u);
  EXPECT_EQ(warp.transactions()[1].begin, 128u);
  EXPECT_EQ(warp.transactions()[1].end, 256u);
  state.model = model::HardwareModel::Modern;
  session.set(state);
  EXPECT_TRUE(warp.transactions().empty());
}

// A struct layout shows one field's load at a time: the strip holds that request alone, so it
// agrees with the per-request numbers (issue 13); the totals still count all three loads.
TEST(CopySessionWithoutGl, StructLayoutsShowOneFieldsLoad) {
  HostWarpTraceSink warp;
  HostSink<SectorHeatmap> heat;
  CopySession session(warp, heat, false);
  CopyState state;
  state.params.layout = gpu::StructLayout::ArrayOfStructs;
  state.field = 1;  // y
  session.set(state);
  ASSERT_EQ(session.error(), "");
  const TraceRecords aos = warp.contents();
  for (int lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(aos[lane].active, 1u) << "lane " << lane;
    EXPECT_EQ(trace_address(aos[lane]), std::uint64_t(12 * lane + 4)) << "lane " << lane;
    EXPECT_EQ(aos[lane].word_bytes, 4u);
  }
  EXPECT_EQ(traced_warps(aos), 1) << "one warp slot: field y's request alone";
  EXPECT_TRUE(same_trace(session.trace(), aos));
  EXPECT_EQ(session.predicted().sectors.size(), 12u);
  EXPECT_NEAR(session.predicted().efficiency(), 1.0 / 3.0, 1e-9);  // 128 of 384 bytes
  EXPECT_EQ(percent_text(session.predicted().efficiency()), "33.3 %");
  EXPECT_EQ(session.predicted_totals().warps, 3) << "the totals count the three loads";
  EXPECT_EQ(session.predicted_totals().summed_sectors, 36u);
  EXPECT_EQ(session.predicted_totals().distinct_sectors, 12u);

  state.params.layout = gpu::StructLayout::StructOfArrays;
  state.field = 2;  // z: the third array, 2^25 floats after the first
  session.set(state);
  ASSERT_EQ(session.error(), "");
  const TraceRecords soa = warp.contents();
  for (int lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(soa[lane].active, 1u) << "lane " << lane;
    EXPECT_EQ(trace_address(soa[lane]), std::uint64_t(2 * gpu::kStructCount * 4 + 4 * lane))
        << "lane " << lane;
  }
  EXPECT_EQ(traced_warps(soa), 1);
  EXPECT_EQ(session.predicted().sectors.size(), 4u);
  EXPECT_DOUBLE_EQ(session.predicted().efficiency(), 1.0);
  EXPECT_EQ(percent_text(session.predicted().efficiency()), "100.0 %");
  EXPECT_EQ(session.predicted_totals().summed_sectors, 12u);

  CopyState bad = state;
  bad.field = 3;
  session.set(bad);
  EXPECT_NE(session.error().find("not x, y or z"), std::string::npos) << session.error();
  EXPECT_EQ(session.state(), state) << "refused parameters change nothing";
}

TEST(SharedSessionWithoutGl, PublishesTheBankAccessOfTheShownWarp) {
  HostSink<TraceRecords> banks;
  HostWarpTraceSink global;
  SharedSession session(banks, global, false, Lab::Banks);
  SharedState state = session.state();
  state.probe.index.stride = 32;  // every lane in bank 0: a 32-way conflict
  session.set(state);
  EXPECT_EQ(session.error(), "");
  EXPECT_FALSE(session.traced_on_gpu());
  EXPECT_EQ(session.predicted().wavefronts, 32);
  const TraceRecords t = banks.contents();
  for (int lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(trace_address(t[lane]), std::uint64_t(lane) * 32 * 4) << "lane " << lane;
    EXPECT_EQ(t[lane].active, 1u);
  }
  SharedState bad = session.state();
  bad.probe.index.word_bytes = 5;
  session.set(bad);
  EXPECT_NE(session.error().find("parameters refused"), std::string::npos) << session.error();
  EXPECT_EQ(session.state().probe.index.stride, 32) << "refused parameters change nothing";
}

TEST(SharedSessionWithoutGl, TransposeGlobalViewsGoToTheGlobalSink) {
  HostSink<TraceRecords> banks;
  HostWarpTraceSink global;
  SharedSession session(banks, global, false, Lab::Transpose);
  SharedState state = session.state();
  state.transpose.variant = gpu::TransposeVariant::Naive;
  state.transpose_view = TransposeView::GlobalRead;
  session.set(state);
  ASSERT_TRUE(session.shows_global());
  const auto read = global.contents();
  EXPECT_TRUE(same_trace(read, session.global_trace()));
  EXPECT_EQ(read[0].active, 1u);
  // The naive transpose reads a row of the matrix: the warp's 32 floats in 4 sectors ...
  EXPECT_EQ(session.global_predicted().sectors.size(), 4u);
  state.transpose_view = TransposeView::GlobalWrite;
  session.set(state);
  // ... and writes a column: a sector per lane.
  EXPECT_FALSE(same_trace(global.contents(), read));
  EXPECT_EQ(session.global_predicted().sectors.size(), 32u);
}

TEST(SharedSessionWithoutGl, VectorizedTransposeShowsEightByteLanesAndItsTile) {
  HostSink<TraceRecords> banks;
  HostWarpTraceSink global;
  SharedSession session(banks, global, false, Lab::Transpose);
  SharedState state = session.state();
  state.transpose.variant = gpu::TransposeVariant::Vectorized;  // tile 32, 8 rows, n 8192
  state.transpose_view = TransposeView::GlobalRead;
  session.set(state);
  ASSERT_TRUE(session.shows_global());
  EXPECT_EQ(global.contents()[0].word_bytes, 8u);
  // A warp's 32 float2: 256 contiguous bytes, 8 sectors, every byte asked for.
  EXPECT_EQ(session.global_predicted().sectors.size(), 8u);
  EXPECT_DOUBLE_EQ(session.global_predicted().efficiency(), 1.0);
  state.transpose_view = TransposeView::Tile;
  session.set(state);
  ASSERT_TRUE(session.access().has_value());
  EXPECT_EQ(session.access()->index.pitch_elements, 65);  // tile[64][65]
  EXPECT_EQ(session.predicted().wavefronts, 2);           // lanes two words apart: 2-way
  // n not made of whole 64 x 64 tiles: refused, and the state stays as it was.
  SharedState bad = session.state();
  bad.transpose.n = 96;
  session.set(bad);
  EXPECT_NE(session.error().find("not a multiple of 64"), std::string::npos) << session.error();
  EXPECT_EQ(session.state().transpose.n, 8192);
}

}  // namespace
}  // namespace warplens::app
