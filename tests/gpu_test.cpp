// GPU tests (ctest label "gpu"): skipped cleanly without a CUDA device. The instrumented
// kernel's trace must equal the host twin's addresses, through host memory and through the
// CUDA-GL interop buffer the warp view draws from.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

#include "copy_pattern.h"
#include "copy_session.h"
#include "figures.h"
#include "frontends.h"
#include "gl_interop.h"
#include "global_lab.h"
#include "gpu.h"
#include "headless_context.h"
#include "headless_frames.h"
#include "heat_strip.h"
#include "memory_model.h"
#include "scenarios.h"
#include "shared_labs.h"
#include "warp_view.h"

namespace warplens::test {
namespace {

class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    query_ = gpu::query_device();
    if (!query_.device) GTEST_SKIP() << "no CUDA device: " << query_.reason;
  }
  /// The copy cases, with the matrix ones padded as this device's cudaMallocPitch pads.
  [[nodiscard]] std::vector<gpu::CopyParams> device_cases() const;
  gpu::DeviceQuery query_;
};

std::vector<gpu::CopyParams> cases() {
  std::vector<gpu::CopyParams> list = {{4, 0, 1, 256},  {4, 1, 1, 256},  {4, 0, 2, 256},
                                       {4, 0, 32, 256}, {1, 3, 5, 256},  {2, 7, 3, 256},
                                       {8, 1, 9, 256},  {16, 0, 1, 256}, {16, 5, 64, 256}};
  for (IndexKind kind : {IndexKind::Permuted, IndexKind::SameWord, IndexKind::Scattered}) {
    for (int w : {1, 4, 16}) {
      gpu::CopyParams p;
      p.word_bytes = w;
      p.kind = kind;
      p.offset = 3;
      p.seed = 2024;
      list.push_back(p);
    }
  }
  for (auto side : {gpu::PatternSide::Read, gpu::PatternSide::Write}) {
    for (auto path : {gpu::LoadPath::L2Only, gpu::LoadPath::ReadOnly}) {
      gpu::CopyParams p;
      p.stride = 3;
      p.side = side;
      p.path = path;
      list.push_back(p);
    }
  }
  gpu::CopyParams store;
  store.side = gpu::PatternSide::Write;
  store.kind = IndexKind::Scattered;
  list.push_back(store);
  for (auto layout : {gpu::StructLayout::ArrayOfStructs, gpu::StructLayout::StructOfArrays}) {
    gpu::CopyParams s;
    s.layout = layout;
    list.push_back(s);
  }
  return list;
}

const std::vector<gpu::CopyParams> kCases = cases();

std::vector<gpu::CopyParams> GpuTest::device_cases() const {
  auto list = kCases;
  for (bool pitched : {false, true}) {
    for (bool by_column : {false, true}) {
      gpu::CopyParams m;
      m.matrix_width = 120;
      m.matrix_pitched = pitched;
      m.matrix_by_column = by_column;
      m.block_y = by_column ? 8 : 16;
      m.pitch_alignment = query_.device->pitch_alignment;
      list.push_back(m);
    }
  }
  return list;
}
constexpr std::int64_t kTestBuffer = gpu::kModelBufferBytes;

TEST_F(GpuTest, TracedAddressesEqualTheHostTwin) {
  gpu::CopyLab lab(*query_.device, kTestBuffer);
  std::printf("cudaMallocPitch row alignment on %s: %d B\n", query_.device->name.c_str(),
              query_.device->pitch_alignment);
  for (const auto& p : device_cases()) {
    for (int warp : {0, 3, 7}) {
      const auto traced = lab.trace_to_host(p, warp);
      const auto twin = host_twin_trace(p, warp);
      EXPECT_TRUE(same_trace(traced, twin))
          << gpu::to_string(p.kind) << " " << gpu::to_string(p.side) << " W=" << p.word_bytes
          << " K=" << p.offset << " S=" << p.stride << " warp " << warp;
      // And the model, evaluating the pattern's expression, agrees with both.
      EXPECT_TRUE(same_trace(model_trace(p, warp), traced));
    }
  }
}

TEST_F(GpuTest, HeatmapKernelCountsWhatTheHostTwinCounts) {
  gpu::CopyLab lab(*query_.device, kTestBuffer);
  for (const auto& p : device_cases()) {
    const auto gpu_heat = lab.heatmap_to_host(p);
    const auto host_heat = host_twin_heatmap(p, gpu::plan_copy(p, lab.buffer_bytes()).threads);
    int mismatches = 0;
    for (int i = 0; i < kHeatSectors; ++i) {
      mismatches +=
          gpu_heat[i].requests != host_heat[i].requests || gpu_heat[i].bytes != host_heat[i].bytes;
    }
    EXPECT_EQ(mismatches, 0) << gpu::to_string(p.kind) << " " << gpu::to_string(p.side)
                             << " W=" << p.word_bytes << " K=" << p.offset << " S=" << p.stride;
  }
}

TEST_F(GpuTest, InteropRoundTripFillsTheGlBufferTheViewDraws) {
  viz::HeadlessContext context(query_.device->index);
  viz::WarpView view;
  gpu::CopyLab lab(*query_.device, kTestBuffer);
  gpu::GlInteropBuffer interop(view.interop_buffer());
  for (const auto& p : kCases) {
    void* device_buffer = interop.map();
    lab.trace_to_device(p, 2, 4, device_buffer);
    interop.unmap();
    EXPECT_TRUE(same_trace(view.contents(), host_twin_trace(p, 2, 4)))
        << "W=" << p.word_bytes << " K=" << p.offset << " S=" << p.stride;
  }
}

TEST_F(GpuTest, SessionTracesThroughInteropAndMeasures) {
  viz::HeadlessContext context(query_.device->index);
  viz::WarpView view;
  viz::HeatStrip heat;
  app::CopySession session(view, heat, true);
  session.set({{4, 1, 1, 256}, 0});
  for (int i = 0; i < 30000 && !session.idle(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    session.update();
  }
  ASSERT_TRUE(session.idle()) << session.error();
  EXPECT_EQ(session.error(), "");
  EXPECT_EQ(session.trace_source(), app::TraceSource::GpuKernel);
  ASSERT_TRUE(session.traced().has_value());
  EXPECT_EQ(session.traced()->sectors, session.predicted().sectors);
  EXPECT_EQ(session.traced()->sectors.size(), 5u);
  const auto m = session.measured();
  ASSERT_TRUE(m.copy && m.memcpy);
  EXPECT_GT(m.copy->gbps, 0.0);
  EXPECT_GT(m.memcpy->gbps, 0.0);
  EXPECT_GE(m.copy->timing.runs, 10);
}

TEST_F(GpuTest, EveryPatternRunsAndTheIdealCopyIsNearMemcpy) {
  gpu::CopyLab lab(*query_.device, kTestBuffer);
  for (const auto& p : device_cases()) {
    EXPECT_GT(lab.measure(p, 10, 1).gbps, 1.0)
        << gpu::to_string(p.kind) << " matrix " << p.matrix_width;
  }
  // Speed is the bench's business; here only that both run and report something real.
  EXPECT_GT(lab.measure_memcpy(10).gbps, 0.0);
  EXPECT_GT(lab.measure_ideal_copy(10).gbps, 0.0);
}

TEST_F(GpuTest, TracesFollowParametersWhileASweepRuns) {
  viz::HeadlessContext context(query_.device->index);
  viz::WarpView view;
  viz::HeatStrip heat;
  app::CopySession session(view, heat, true);
  session.set({{4, 0, 1, 256}, 0});
  for (int i = 0; i < 30000 && !session.idle(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    session.update();
  }
  session.start_sweep(app::SweepAxis::Stride, {4, 0, 1, 256});
  session.set({{4, 0, 3, 256}, 0});  // stride 3 while the sweep measures
  bool traced = false;
  for (int i = 0; i < 30000 && !traced; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    session.update();
    traced = session.traced() && session.traced()->sectors.size() == 12;
  }
  EXPECT_TRUE(traced) << "the trace of stride 3 never arrived: " << session.error();
  for (int i = 0; i < 60000 && !session.idle(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    session.update();
  }
  ASSERT_TRUE(session.sweep().has_value());
  EXPECT_TRUE(session.sweep()->complete()) << session.error();
  EXPECT_EQ(session.sweep()->points.size(), 64u);
}

TEST_F(GpuTest, ACancelledSweepKeepsItsPoints) {
  gpu::CopyLab lab(*query_.device, kTestBuffer);
  std::atomic<bool> cancel{false};
  const auto result = app::run_sweep(lab, *query_.device, app::SweepAxis::Stride, {4, 0, 1, 256},
                                     10, &cancel, [&](const app::SweepResult& partial) {
                                       if (partial.points.size() == 5) cancel = true;
                                     });
  EXPECT_TRUE(result.cancelled);
  EXPECT_FALSE(result.complete());
  ASSERT_EQ(result.points.size(), 5u);
  EXPECT_GT(result.points[4].measured.gbps, 0.0);
  EXPECT_EQ(result.points[4].x, 5.0);
}

TEST_F(GpuTest, MeasureTimesTheCopyAndRefusesOutOfBufferOffsets) {
  gpu::CopyLab lab(*query_.device);
  EXPECT_GE(lab.buffer_bytes(), 8 * query_.device->l2_bytes);
  const auto m = lab.measure({4, 0, 1, 256}, 10);
  EXPECT_EQ(m.timing.runs, 10);
  EXPECT_GT(m.gbps, 10.0);
  EXPECT_LE(m.timing.min_ms, m.timing.median_ms);
  EXPECT_THROW(lab.measure({4, lab.buffer_bytes(), 1, 256}, 10), std::invalid_argument);
  EXPECT_THROW(lab.measure({4, 0, 0, 256}, 10), std::invalid_argument);
}

TEST_F(GpuTest, AnAllocationLargerThanTheGpuIsAClearError) {
  try {
    gpu::CopyLab lab(*query_.device, query_.device->global_memory_bytes);
    FAIL() << "expected GpuError";
  } catch (const gpu::GpuError& e) {
    EXPECT_NE(std::string(e.what()).find("MiB"), std::string::npos) << e.what();
  }
  // The device still works afterwards.
  gpu::CopyLab lab(*query_.device, kTestBuffer);
  EXPECT_GT(lab.measure({4, 0, 1, 256}, 10).gbps, 1.0);
}

TEST_F(GpuTest, ABCompareMeasuresBothSidesAndTheirRatio) {
  // The padding A/B scenario: A's 32-way conflicted column read against B's padded one. Both
  // sides are timed on the GPU (taking turns) and B / A follows the wavefronts.
  viz::HeadlessContext context(query_.device->index);
  app::ViewOptions options;
  app::HeadlessScene scene(options);
  app::UiState ui;
  ui.interactive = false;
  const auto& catalog = app::builtin_scenarios();
  int index = -1;
  for (int i = 0; i < static_cast<int>(catalog.size()); ++i)
    if (catalog[static_cast<std::size_t>(i)].name == "ab-tile-32x32-vs-32x33") index = i;
  ASSERT_GE(index, 0);
  app::apply_scenario(ui, scene.labs, index);
  ASSERT_TRUE(ui.compare);
  ASSERT_NE(scene.labs.made_a(app::Lab::Banks), nullptr);
  ASSERT_TRUE(scene.wait_until_idle(std::chrono::seconds(120)));
  const app::SharedSession& a = scene.labs.get_a<app::BankLab>(app::Lab::Banks).session();
  const app::SharedSession& b = scene.labs.get<app::BankLab>(app::Lab::Banks).session();
  EXPECT_EQ(a.predicted().wavefronts, 32);
  EXPECT_EQ(b.predicted().wavefronts, 1);
  const app::Headline ha = scene.labs.side_a(app::Lab::Banks).compare_column().headline;
  const app::Headline hb = scene.labs.lab(app::Lab::Banks).compare_column().headline;
  ASSERT_TRUE(ha.value && hb.value) << a.error() << " / " << b.error();
  const auto ratio = app::headline_ratio(ha, hb);
  ASSERT_TRUE(ratio.has_value());
  // 32 wavefronts against 1: the padded read is many times faster (about 30x on an H100).
  EXPECT_GT(*ratio, 8.0) << "A " << *ha.value << " GB/s, B " << *hb.value << " GB/s";
  const auto numbers =
      app::figure_numbers(catalog[static_cast<std::size_t>(index)], ui, scene.labs);
  ASSERT_TRUE(numbers.contains("compare"));
  EXPECT_EQ(numbers["compare"]["a"]["scenario"], "tile-column-32x32");
  EXPECT_NEAR(numbers["compare"]["headline"]["b_over_a"].get<double>(), *ratio, 1e-9);
}

// `render --view offset-sweep` (and a lesson step's view): the shell asks the lab that has the
// views under its view (LabInfo::bottom_views) to open the view, and the global lab starts its
// sweep around the scenario's copy, which completes on the GPU.
TEST_F(GpuTest, ASweepViewOpenedThroughTheRegistryStartsTheGlobalLabsSweep) {
  viz::HeadlessContext context(query_.device->index);
  app::ViewOptions options;
  options.use_gpu = true;
  options.scenario = "stride-2";
  options.view = app::BottomView::OffsetSweep;
  app::HeadlessScene scene(options);
  const app::UiState ui = app::initial_ui(options, scene.labs, /*interactive=*/false);
  (void)ui;
  const app::CopySession& copy = scene.labs.get<app::GlobalLab>(app::Lab::Global).session();
  ASSERT_TRUE(copy.sweep_running() || copy.sweep().has_value())
      << "no sweep started: " << copy.error();
  ASSERT_TRUE(scene.wait_until_idle(std::chrono::seconds(120)));
  ASSERT_TRUE(copy.sweep().has_value());
  EXPECT_TRUE(copy.sweep()->complete()) << copy.error();
  EXPECT_EQ(copy.sweep()->axis, app::SweepAxis::Offset);
}

}  // namespace
}  // namespace warplens::test
