// The cache lab in the window, without a GPU: the session's model (carveout table, rounding, L1
// left, predicted blocks per SM), its refusals, and the view drawn headless (EGL) into PNGs under
// the build's out/ folder, model-only and with injected measurements, checked by their pixels.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>

#include "cache_session.h"
#include "cache_ui.h"
#include "cache_ui_internal.h"
#include "gl_program.h"
#include "headless_context.h"
#include "headless_gl_test.h"
#include "imgui_layer.h"
#include "layout_audit.h"
#include "legend_slot.h"
#include "pixel_count.h"
#include "png_writer.h"
#include "read_path_model.h"
#include "view_layout.h"

namespace warplens::test {
namespace {

using app::CacheResults;
using app::CacheSection;
using app::CacheSession;
using app::CacheState;

TEST(ReadPathModel, AColumnOfCentresTouchesALineALaneRowMajorAndPairsOfRowsInMortonOrder) {
  // Warp 0's 32 centres are one column, 32 rows apart: row-major, every lane its own sector and
  // line in each of the 16 loads. Morton order puts two rows in a sector and four in a line
  // (bits x0 y0 x1 y1 x2): the aligned loads (dy 0) take 16 sectors in 8 lines, the others
  // straddle one more pair and group: dy -1, 0, 1, 2 -> 17, 16, 17, 16 sectors and 9, 8, 9, 9
  // lines, the same for each dx.
  const app::WarpLoadModel rm = app::column_tile_load_model(4096, false);
  EXPECT_EQ(rm.loads, 16);
  EXPECT_DOUBLE_EQ(rm.sectors, 32.0);
  EXPECT_DOUBLE_EQ(rm.lines, 32.0);
  const app::WarpLoadModel z = app::column_tile_load_model(4096, true);
  EXPECT_EQ(z.loads, 16);
  EXPECT_DOUBLE_EQ(z.sectors, 16.5);
  EXPECT_DOUBLE_EQ(z.lines, 8.75);
  EXPECT_THROW((void)app::column_tile_load_model(100, true), std::invalid_argument);
}

TEST(ReadPathModel, TheWindowsStripCoversTwoRowSegmentsAndScatteredReadsALineALane) {
  // Warp 0 of block (1, 1): centres x 16..31 on rows 16 and 17. Row-major, radius 0: each row is
  // 64 aligned bytes, 2 sectors of one line. Radius 2: dx = 0 keeps that; dx = -2, -1, 1, 2 shift
  // the row by 4 or 8 bytes into a third sector, so (2 + 4 x 3) / 5 = 2.8 sectors a row; a row
  // leaves its line only for dx > 0 (x 32, 33 are bytes 128..135): (3 x 1 + 2 x 2) / 5 = 1.4.
  gpu::ReadPathParams p;
  p.pattern = gpu::ReadPattern::Local2D;
  p.radius = 0;
  app::WarpLoadModel m = app::read_load_model(p);
  EXPECT_EQ(m.loads, 1);
  EXPECT_DOUBLE_EQ(m.sectors, 4.0);
  EXPECT_DOUBLE_EQ(m.lines, 2.0);
  p.radius = 2;
  m = app::read_load_model(p);
  EXPECT_EQ(m.loads, 25);
  EXPECT_DOUBLE_EQ(m.sectors, 5.6);
  EXPECT_DOUBLE_EQ(m.lines, 2.8);
  // Morton order, radius 0: the 16 x 2 strip from (16, 16) is two 8 x 2 blocks of Z order whose
  // 16 pixels each are 64 contiguous bytes: 4 sectors again, in 2 lines.
  p.pattern = gpu::ReadPattern::Morton;
  p.radius = 0;
  m = app::read_load_model(p);
  EXPECT_DOUBLE_EQ(m.sectors, 4.0);
  EXPECT_DOUBLE_EQ(m.lines, 2.0);
  // Scattered over a 64 MiB image: 32 pseudo-random pixels, each its own sector and line.
  p.pattern = gpu::ReadPattern::Scattered;
  p.scattered_reads = 4;
  m = app::read_load_model(p);
  EXPECT_EQ(m.loads, 4);
  EXPECT_DOUBLE_EQ(m.sectors, 32.0);
  EXPECT_DOUBLE_EQ(m.lines, 32.0);
  p.radius = 9;  // refused as check_read_path refuses it
  EXPECT_THROW((void)app::read_load_model(p), std::invalid_argument);
}

TEST(CacheSessionModel, WithoutAGpuTheReadPathSaysItsBarsAreTheModels) {
  // Without a GPU the read path draws the model's sectors and lines; GB/s need one.
  CacheSession session(false);
  CacheState s;
  s.section = CacheSection::ReadPath;
  session.set(s);
  const std::string text = app::cache_ui_detail::no_gpu_note(session);
  EXPECT_NE(text.find("need a GPU"), std::string::npos) << text;
  EXPECT_NE(text.find("the model's sectors and lines"), std::string::npos) << text;
  s.section = CacheSection::Constant;  // its model line is drawn
  session.set(s);
  EXPECT_NE(app::cache_ui_detail::no_gpu_note(session).find("the model's are drawn"),
            std::string::npos);
}

TEST(CacheSessionModel, WithoutAGpuTheModelStillAnswers) {
  CacheSession session(false);
  EXPECT_FALSE(session.gpu_mode());
  EXPECT_TRUE(session.idle());
  EXPECT_NE(session.no_gpu_text().find("need a GPU"), std::string::npos);
  const auto& m = session.model();
  EXPECT_EQ(m.table.cc_major, 9);
  EXPECT_FALSE(m.table_from_device);
  EXPECT_EQ(m.optin_limit_bytes, 227 * 1024);

  CacheState s;
  s.carveout = 50;
  s.dynamic_shared_bytes = 20 * 1024;
  session.set(s);
  EXPECT_TRUE(session.error().empty());
  const auto& c = session.model().current;
  EXPECT_DOUBLE_EQ(c.choice.requested_kib, 114.0);  // 50 % of 228 KiB
  EXPECT_EQ(c.choice.rounded_kib, 132);
  EXPECT_EQ(c.choice.l1_kib, 256 - 132);
  EXPECT_EQ(c.blocks_per_sm, 6);  // 132 KiB / (20 + 1 reserved) KiB
  EXPECT_DOUBLE_EQ(c.occupancy_percent, 75.0);
  EXPECT_EQ(c.limiter, "shared memory");
  // The table covers 0 .. the opt-in limit and includes the current row's answer.
  ASSERT_FALSE(session.model().sweep.empty());
  EXPECT_EQ(session.model().sweep.front().dynamic_shared_bytes, 0);
  EXPECT_EQ(session.model().sweep.back().dynamic_shared_bytes, 227 * 1024);
  EXPECT_EQ(session.model().sweep.front().blocks_per_sm, 8);  // threads limit
  // Nothing is measured and nothing runs.
  const CacheResults r = session.measured();
  EXPECT_FALSE(r.busy);
  EXPECT_TRUE(r.occupancy.empty() && r.l1.empty() && r.constant.empty() && r.read.empty());
  EXPECT_FALSE(session.measurement_current());

  s.section = CacheSection::Constant;
  s.k = 8;
  session.set(s);
  ASSERT_EQ(session.model().lane_groups.size(), 8u);
  EXPECT_EQ(session.model().lane_groups[3], (std::vector<int>{3, 11, 19, 27}));
}

TEST(CacheSessionModel, BadParametersAreRefusedAndChangeNothing) {
  CacheSession session(false);
  CacheState good;
  good.carveout = 100;
  session.set(good);
  ASSERT_TRUE(session.error().empty());

  CacheState bad = good;
  bad.carveout = 101;
  session.set(bad);
  EXPECT_NE(session.error().find("carveout 101 is outside -1..100"), std::string::npos)
      << session.error();
  EXPECT_EQ(session.state().carveout, 100);

  bad = good;
  bad.dynamic_shared_bytes = 228 * 1024;
  session.set(bad);
  EXPECT_NE(session.error().find("opt-in limit"), std::string::npos) << session.error();
  EXPECT_EQ(session.state().dynamic_shared_bytes, good.dynamic_shared_bytes);

  bad = good;
  bad.k = 33;
  session.set(bad);
  EXPECT_NE(session.error().find("parameters refused"), std::string::npos);
  EXPECT_EQ(session.state().k, good.k);

  session.set(good);  // a good state clears the message
  EXPECT_TRUE(session.error().empty());
  EXPECT_TRUE(session.idle());
}

TEST(CacheSessionModel, SameMeasurementIgnoresTheRingedPoint) {
  CacheState a, b;
  b.k = 17;
  b.working_set_bytes = 512 * 1024;
  b.read.path = gpu::ReadPath::Texture;
  for (auto s :
       {CacheSection::Carveout, CacheSection::L1, CacheSection::Constant, CacheSection::ReadPath})
    EXPECT_TRUE(app::same_cache_measurement(s, a, b));
  b.carveout = 0;
  b.read.side = 1024;
  EXPECT_FALSE(app::same_cache_measurement(CacheSection::Carveout, a, b));
  EXPECT_FALSE(app::same_cache_measurement(CacheSection::ReadPath, a, b));
  EXPECT_EQ(app::l1_working_sets().size(), 12u);
  EXPECT_EQ(app::parse_cache_section("read-path"), CacheSection::ReadPath);
  EXPECT_THROW(app::parse_cache_section("tex"), std::invalid_argument);
}

// --- rendering ---------------------------------------------------------------------------------

// Made-up measurements shaped like an H100's: a knee where the working set outgrows the L1 left.
CacheResults fake_results(const CacheSession& session) {
  CacheResults r;
  const auto& m = session.model();
  for (int carveout : app::l1_carveouts()) {
    const auto left = gpu::carveout_capacity(m.table, carveout, m.reserved_bytes, 1);
    for (auto ws : app::l1_working_sets()) {
      gpu::L1GatherMeasurement p;
      p.carveout = carveout;
      p.working_set_bytes = ws;
      p.expected = left;
      const double l1 = left.l1_kib * 1024.0;
      p.fits_l1 = static_cast<double>(ws) <= l1;
      p.ns_per_access = p.fits_l1 ? 0.030 : 0.030 + 0.12 * (1 - l1 / static_cast<double>(ws));
      r.l1.push_back(p);
    }
  }
  for (int k = 1; k <= 32; ++k) {
    gpu::ConstantMeasurement c;
    c.k = k;
    c.ns_per_request = 0.11 * k + 0.02;
    c.cycles_per_request = 4.0 * k;
    c.lane_groups = gpu::constant_lane_groups(k);
    c.verified = true;
    r.constant.push_back(c);
  }
  const double gbps[3][5] = {
      {310, 2400, 2900, 900, 1900}, {330, 2600, 3100, 1000, 2000}, {290, 2700, 2700, 2100, 2100}};
  for (int pi = 0; pi < 3; ++pi) {
    for (int gi = 0; gi < 5; ++gi) {
      gpu::ReadPathMeasurement x;
      x.params = session.state().read;
      x.params.path = app::read_paths()[static_cast<std::size_t>(pi)];
      x.params.pattern = app::read_patterns()[static_cast<std::size_t>(gi)];
      x.gbps = gbps[pi][gi];
      x.timing.median_ms = 1.0;
      x.verified = true;
      r.read.push_back(x);
      app::ReadHitPoint hit;
      hit.params = x.params;
      hit.rate.percent = 40.0 + 11.0 * gi;
      r.read_hit.push_back(hit);
    }
  }
  for (const auto& p : r.l1) {
    app::L1HitPoint hit;
    hit.carveout = p.carveout;
    hit.working_set_bytes = p.working_set_bytes;
    const double l1 = p.expected.l1_kib * 1024.0;
    hit.rate.percent =
        p.fits_l1 ? 98.0 : std::max(2.0, 98.0 * l1 / static_cast<double>(p.working_set_bytes));
    r.l1_hit.push_back(hit);
  }
  for (const auto& row : m.carveout_sweep) {
    gpu::SharedHungryMeasurement h;
    h.occupancy.carveout = row.carveout;
    h.occupancy.model = row.choice;
    h.occupancy.blocks_per_sm = row.blocks_per_sm;
    h.observed_blocks_per_sm = row.blocks_per_sm;
    h.timing.median_ms = 4.0 / std::max(row.blocks_per_sm, 1);
    h.timing.min_ms = 0.95 * h.timing.median_ms;
    h.timing.max_ms = 1.1 * h.timing.median_ms;
    h.timing.runs = 7;
    r.hungry_sweep.push_back(h);
  }
  for (const auto& row : m.sweep) {
    gpu::OccupancyInfo o;
    o.carveout = session.state().carveout;
    o.dynamic_shared_bytes = row.dynamic_shared_bytes;
    o.blocks_per_sm = row.blocks_per_sm;
    r.occupancy.push_back(o);
  }
  gpu::SharedHungryMeasurement h;
  h.occupancy.blocks_per_sm = m.current.blocks_per_sm;
  h.observed_blocks_per_sm = m.current.blocks_per_sm;
  h.timing.median_ms = 0.842;
  h.timing.runs = 7;
  r.hungry = h;
  r.carveout_of = r.l1_of = r.constant_of = r.read_of = session.state();
  return r;
}

class CacheUiRender : public test::HeadlessGlTest {
 protected:
  // The cache lab as the window lays it out: parameters left, the view, the numbers under it.
  static viz::Image render(CacheSession& session, viz::ThemeName theme_name,
                           const std::string& file, float scale = 1.0f, int width = 0,
                           int height = 0) {
    // The window's size: 1600x1000 grown with the scale, unless given (a projector's, laid out
    // as the presenter layout does).
    const int w = width > 0 ? width : static_cast<int>(1600 * scale);
    const int h = height > 0 ? height : static_cast<int>(1000 * scale);
    viz::ImGuiLayer layer(nullptr, scale, theme_name);
    const viz::Theme& theme = viz::theme(theme_name);
    viz::RenderTarget target;
    for (int frame = 0; frame < 3; ++frame) {
      target.bind(w, h);
      glClearColor(theme.background.r, theme.background.g, theme.background.b, 1);
      glClear(GL_COLOR_BUFFER_BIT);
      layer.begin_frame(w, h, 1.0f / 60.0f);
      const float fw = static_cast<float>(w), fh = static_cast<float>(h);
      const app::CacheResults results = session.measured();
      app::CacheAside aside;  // notes the view has no room for: the numbers show them
      if (width > 0) {
        // A projector's window, laid out as the presenter layout does: the view takes the
        // window's height less the strip of knobs and the status line, the numbers stand
        // beside it in the presenter's column.
        const float view_w = fw - app::presenter_numbers_width(fw, scale) - 8 * scale;
        const float view_h =
            fh - 2 * ImGui::GetFrameHeight() - 2 * ImGui::GetStyle().WindowPadding.y - 16 * scale;
        app::LegendSlot legend;  // the legends go beside the view
        app::LegendSlot::Scope beside(legend);
        app::draw_cache_view(session, results, layer, theme, {0, 0}, {view_w, view_h}, false,
                             aside);
        app::draw_cache_numbers(session, results, theme, {view_w, 0}, {fw - view_w, view_h}, aside,
                                scale);
      } else {
        const float left = 340 * scale, view_h = fh * 0.68f;
        app::draw_cache_parameters(session, results, theme, {0, 0}, {left, fh}, false);
        app::draw_cache_view(session, results, layer, theme, {left, 0}, {fw - left, view_h}, false,
                             aside);
        app::draw_cache_numbers(session, results, theme, {left, view_h}, {fw - left, fh - view_h},
                                aside, scale);
      }
      target.bind(w, h);
      layer.end_frame();
    }
    glFinish();
    viz::Image image = viz::read_framebuffer(w, h);
    std::filesystem::create_directories(WARPLENS_TEST_OUT_DIR);
    viz::write_png(image, std::string(WARPLENS_TEST_OUT_DIR) + "/" + file);
    return image;
  }
};

TEST_F(CacheUiRender, CarveoutBarSplitsSharedAndL1AsTheModelSays) {
  CacheSession session(false);
  CacheState s;
  s.carveout = 50;
  s.dynamic_shared_bytes = 20 * 1024;
  session.set(s);
  const auto& theme = viz::theme(viz::ThemeName::Light);
  const auto image = render(session, viz::ThemeName::Light, "cache-carveout-model-light.png");
  // The bar: shared (sector colour) 132 KiB against L1 124 KiB, on one scale and one height.
  const int shared = count_color(image, theme.sector);
  const int l1 = count_color(image, theme.lanes[21]);
  ASSERT_GT(shared, 1000);
  ASSERT_GT(l1, 1000);
  EXPECT_NEAR(static_cast<double>(shared) / l1, 132.0 / 124.0, 0.15);
  // Six resident block slots in the block colours, two empty.
  int resident = 0;
  for (int i = 0; i < 8; ++i)
    resident += count_color(image, app::cache_series_color(theme, i, 8)) > 500;
  EXPECT_EQ(resident, 6);

  s.carveout = 0;  // max L1: the request rounds to 0, raised to 32 KiB to hold one block
  session.set(s);
  const auto l1_image = render(session, viz::ThemeName::Dark, "cache-carveout-maxl1-dark.png");
  const auto& dark = viz::theme(viz::ThemeName::Dark);
  EXPECT_GT(count_color(l1_image, dark.lanes[21]), 3 * count_color(l1_image, dark.sector));
  s.dynamic_shared_bytes = 100 * 1024;  // over 48 KiB: the opt-in
  s.carveout = 100;
  session.set(s);
  render(session, viz::ThemeName::Light, "cache-carveout-optin-light.png");
  render(session, viz::ThemeName::Light, "cache-carveout-optin-light-2x.png", 2.0f);
}

TEST_F(CacheUiRender, ModelOnlyPlotsDrawTheModelUnderAQuietNote) {
  CacheSession session(false);
  CacheState s;
  for (auto section : {CacheSection::L1, CacheSection::Constant, CacheSection::ReadPath}) {
    s.section = section;
    session.set(s);
    const auto image = render(session, viz::ThemeName::Light,
                              std::string("cache-") + app::to_string(section) + "-model-light.png");
    // Issue 32: nothing measured, yet the L1 sweep draws the model's knee of each carveout (a
    // dashed line in the carveout's colour), and "Measured lines need a GPU" is a quiet note,
    // not the warning colour.
    if (section == CacheSection::L1) {
      EXPECT_GT(
          count_color(image, app::cache_series_color(viz::theme(viz::ThemeName::Light), 3, 4)), 50);
    }
    // The read path's bars: the model's sectors per warp load in the sector colour.
    if (section == CacheSection::ReadPath) {
      EXPECT_GT(count_color(image, viz::theme(viz::ThemeName::Light).sector), 20000);
    }
    EXPECT_LT(count_color(image, viz::theme(viz::ThemeName::Light).warning, 40), 50);
  }
}

TEST_F(CacheUiRender, InjectedMeasurementsFillThePlots) {
  CacheSession session(false);
  CacheState s;
  s.section = CacheSection::L1;
  s.working_set_bytes = 128 * 1024;
  session.set(s);
  session.inject_results_for_test(fake_results(session));
  for (auto theme_name : {viz::ThemeName::Light, viz::ThemeName::Dark}) {
    const auto& theme = viz::theme(theme_name);
    const std::string suffix = theme_name == viz::ThemeName::Light ? "-light.png" : "-dark.png";
    s.section = CacheSection::L1;
    session.set(s);
    auto image = render(session, theme_name, "cache-l1-measured" + suffix);
    for (int i = 0; i < 4; ++i)  // one line per carveout (the default dashed over max L1)
      EXPECT_GT(count_color(image, app::cache_series_color(theme, i, 4), 10), i == 0 ? 40 : 150)
          << "carveout line " << i;

    s.section = CacheSection::Constant;
    s.k = 4;
    session.set(s);
    image = render(session, theme_name, "cache-constant-measured" + suffix);
    // k = 4: four read colours in the lane row.
    for (int g = 0; g < 4; ++g)
      EXPECT_GT(count_color(image, theme.lanes[g * 31 / 3]), 400) << "read " << g;
    EXPECT_GT(count_color(image, theme.overfetch, 10), 100);  // the model line

    s.section = CacheSection::ReadPath;
    session.set(s);
    image = render(session, theme_name, "cache-read-path-measured" + suffix);
    for (int pi = 0; pi < 3; ++pi)  // five bars per path, tall ones
      EXPECT_GT(count_color(image, app::cache_series_color(theme, pi, 3)), 20000) << "path " << pi;

    s.read.pattern = gpu::ReadPattern::ColumnTile;  // the 4x4 tile group's row-major bar ringed
    session.set(s);
    render(session, theme_name, "cache-read-path-tile-measured" + suffix);

    s.section = CacheSection::Carveout;
    s.carveout = 100;
    s.dynamic_shared_bytes = 48 * 1024;
    session.set(s);
    session.inject_results_for_test(fake_results(session));
    render(session, theme_name, "cache-carveout-measured" + suffix);
  }
}

// On a projector (1280x720 at 3x) the read-path bars are too narrow for their GB/s values: the
// values stand stacked above each group, one line per load path after its colour, so none is
// hidden (the layout audit finds nothing on the bars).
TEST_F(CacheUiRender, ReadPathValuesStackAboveNarrowBars) {
  CacheSession session(false);
  CacheState s;
  s.section = CacheSection::ReadPath;
  session.set(s);
  app::CacheResults r = fake_results(session);
  // Four digits in every bar, as the H100's L1-resident groups measure (6479, 4015 GB/s).
  for (std::size_t i = 0; i < r.read.size(); ++i) r.read[i].gbps = i % 3 == 2 ? 4015 : 6479;
  session.inject_results_for_test(r);
  for (const auto& [w, h, scale] : {std::tuple{1280, 720, 3.0f}, std::tuple{1920, 1080, 3.0f}}) {
    app::LayoutAudit audit;
    viz::Image image;
    {
      app::LayoutAudit::Scope scope(audit);
      image = render(session, viz::ThemeName::Light,
                     "cache-read-path-stacked-" + std::to_string(w) + ".png", scale, w, h);
    }
    for (const auto& f : audit.findings())
      EXPECT_EQ(f.text.find("read-path bars"), std::string::npos)
          << w << "x" << h << ": " << f.text;
    const auto& theme = viz::theme(viz::ThemeName::Light);
    for (int pi = 0; pi < 3; ++pi)  // the bars and the values' swatches
      EXPECT_GT(count_color(image, app::cache_series_color(theme, pi, 3)), 2000) << "path " << pi;
  }
}

// The carveout sweep's plots: the model's staircase without a GPU, the measured points with one.
TEST_F(CacheUiRender, CarveoutSweepPlotsTimeAndResidency) {
  CacheSession session(false);
  CacheState s;
  s.carveout = 57;  // one of the sweep's carveouts: its points are ringed
  s.dynamic_shared_bytes = 20 * 1024;
  session.set(s);
  const auto& m = session.model();
  ASSERT_EQ(m.carveout_sweep.size(), 11u);  // the default + one per capacity of CC 9.0
  EXPECT_EQ(m.carveout_sweep.front().carveout, gpu::kCarveoutDefault);
  EXPECT_EQ(m.carveout_sweep.back().blocks_per_sm, 8);   // 228 KiB: the thread limit
  EXPECT_EQ(m.carveout_sweep[1].blocks_per_sm, 1);       // 0 %: raised to 32 KiB, one block
  EXPECT_EQ(m.carveout_sweep[1].choice.rounded_kib, 0);  // what the carveout asked for
  EXPECT_EQ(m.carveout_sweep[1].choice.shared_kib, 32);  // what a 21 KiB block needs
  const auto& light = viz::theme(viz::ThemeName::Light);
  const auto model_only = render(session, viz::ThemeName::Light, "cache-carveout-sweep-model.png");
  const int model_line = count_color(model_only, light.overfetch, 10);
  EXPECT_GT(model_line, 200);  // the occupancy and residency staircases

  session.inject_results_for_test(fake_results(session));
  const auto image = render(session, viz::ThemeName::Light, "cache-carveout-sweep-light.png");
  // The measured points: time and the API's blocks in one colour, the %smid residency in another.
  const int api = count_color(image, app::cache_series_color(light, 0, 3), 10);
  const int seen = count_color(image, app::cache_series_color(light, 2, 3), 10);
  EXPECT_GT(api, count_color(model_only, app::cache_series_color(light, 0, 3), 10) + 200);
  EXPECT_GT(seen, count_color(model_only, app::cache_series_color(light, 2, 3), 10) + 100);
  render(session, viz::ThemeName::Dark, "cache-carveout-sweep-dark.png");
  render(session, viz::ThemeName::Light, "cache-carveout-sweep-light-2x.png", 2.0f);
}

// The L1 hit rates from the counters: a second plot under the L1 sweep, numbers in the read-path
// bars, and the one-line reason in the warning colour when they could not be read.
TEST_F(CacheUiRender, HitRatesShowOrSayWhyNot) {
  CacheSession session(false);
  CacheState s;
  s.section = CacheSection::L1;
  session.set(s);
  CacheResults r = fake_results(session);
  session.inject_results_for_test(r);
  const auto& light = viz::theme(viz::ThemeName::Light);
  const auto with_hits = render(session, viz::ThemeName::Light, "cache-l1-hit-light.png");
  CacheResults without = r;
  without.l1_hit.clear();
  without.l1_hit_note = "hardware counters off (WARPLENS_NO_COUNTERS is set)";
  session.inject_results_for_test(without);
  const auto no_hits = render(session, viz::ThemeName::Light, "cache-l1-no-hit-light.png");
  // With the counters, a second plot of the four carveout lines (the hit rates); without, the
  // time plot alone. (Its pixels cannot tell: the one wide plot draws as much line colour as
  // two narrower ones, with the knee labels in the lines' colours.)
  const auto with_plots = app::cache_ui_detail::l1_plots(session, r);
  const auto no_plots = app::cache_ui_detail::l1_plots(session, without);
  ASSERT_EQ(with_plots.size(), 2u);
  EXPECT_EQ(no_plots.size(), 1u);
  EXPECT_EQ(with_plots[1].series.size(), 4u);
  for (const auto& se : with_plots[1].series) EXPECT_FALSE(se.y.empty()) << se.label;
  // And the view draws it: more of the 100 % line's colour (its long fall in the hit plot).
  EXPECT_GT(count_color(with_hits, app::cache_series_color(light, 3, 4), 10),
            count_color(no_hits, app::cache_series_color(light, 3, 4), 10) + 100);
  EXPECT_GT(count_color(no_hits, light.warning, 40),
            count_color(with_hits, light.warning, 40) + 100);

  s.section = CacheSection::ReadPath;
  session.set(s);
  without = r;
  for (auto& h : without.read_hit)
    if (h.params.path == gpu::ReadPath::Texture) {
      h.rate.percent.reset();
      h.rate.unavailable = "L1 hit rate not available for the texture path: ...";
    }
  without.read_hit_note = "L1 hit rate not available for the texture path: ...";
  session.inject_results_for_test(without);
  const auto image = render(session, viz::ThemeName::Light, "cache-read-path-no-tex-hit.png");
  EXPECT_GT(count_color(image, light.warning, 40), 100);
}

}  // namespace
}  // namespace warplens::test
