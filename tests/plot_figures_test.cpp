// The cache and bytes-in-flight labs' plots as figures (FigurePanel::Plot, plot_figure.h), headless
// and without a GPU: model only, every plot draws the model's lines and names them as the model's,
// says "model only" and draws no measured point; with measurements built by hand, the measured
// points are drawn where they were measured (the PNG has their colour at their place) and the
// "model only" line is gone; the bytes-in-flight line follows the loaded-latency probe once it
// measured; `render --panel plot` writes SVG, PDF and PNG.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "cache_figures.h"
#include "cache_scenario.h"
#include "figure_cairo.h"
#include "flight_figures.h"
#include "flight_scenario.h"
#include "lab.h"
#include "panel_figure.h"
#include "scenarios.h"
#include "test_support.h"

namespace warplens::app {
namespace {

using test::kWarplens;

using viz::FigureRole;

const viz::Theme& light() {
  return viz::theme(viz::ThemeName::Light);
}

bool same(viz::Rgb a, viz::Rgb b) {
  return a.r == b.r && a.g == b.g && a.b == b.b;
}

// Lines and points of the figure drawn in `color` (plot series, marks and markers).
int drawn_in(const viz::Figure& f, viz::Rgb color, FigureRole role) {
  int n = 0;
  for (const auto& item : f.items) {
    if (const auto* l = std::get_if<viz::FigureLine>(&item); l && l->role == role)
      n += same(l->color, color);
    if (const auto* r = std::get_if<viz::FigureRect>(&item); r && r->role == role && r->filled)
      n += same(r->fill, color);
  }
  return n;
}

bool has_text(const viz::Figure& f, const std::string& word) {
  for (const auto* t : f.texts())
    if (t->text.find(word) != std::string::npos) return true;
  return false;
}

std::string svg_of(const viz::Figure& f) {
  return viz::render_figure(f, viz::FigureFormat::Svg, 160);
}

test::Png png_of(const viz::Figure& f, const std::string& name) {
  const std::string path = test::temp_path(name + ".png");
  viz::write_figure(f, viz::FigureFormat::Png, 160, path);
  test::Png png = test::load_png(path);
  std::remove(path.c_str());
  return png;
}

// Every plot scenario of the two labs, model only: the model's lines, named, and nothing measured.
TEST(PlotFigures, ModelOnlyDrawsTheModelsLinesAndSaysSo) {
  int scenarios = 0;
  for (const Scenario& s : builtin_scenarios()) {
    if (s.lab != Lab::Cache && s.lab != Lab::Flight) continue;
    const auto lab = lab_info(s.lab).make(/*use_gpu=*/false);
    lab->apply(s, std::nullopt);
    lab->update();
    const auto panels = lab->figures()->figure_panels();
    if (std::find(panels.begin(), panels.end(), FigurePanel::Plot) == panels.end()) continue;
    ++scenarios;
    const auto data = lab->figures()->figure_panel(FigurePanel::Plot);
    ASSERT_TRUE(data) << s.name;
    ASSERT_FALSE(data->plots.empty()) << s.name;
    EXPECT_TRUE(data->measured.empty()) << s.name;
    EXPECT_FALSE(data->gpu_trace) << s.name;
    for (const FigurePlot& p : data->plots) EXPECT_EQ(p.measured_points(), 0u) << s.name;
    const viz::Figure f = panel_figure(*data, light(), "host model \u2022 test");
    std::string model_only;
    for (const auto* t : f.texts(FigureRole::ModelOnly)) model_only += t->text + " ";
    EXPECT_EQ(model_only.rfind("model only", 0), 0u) << s.name << ": " << model_only;
    EXPECT_NE(model_only.find("CUDA device"), std::string::npos) << s.name << ": " << model_only;
    // The model's lines: its series (over-fetch colour) or its vertical marks, in the legend as
    // the model's.
    int model_lines = drawn_in(f, light().overfetch, FigureRole::Series);
    int vertical = 0;
    for (const auto& item : f.items)
      if (const auto* l = std::get_if<viz::FigureLine>(&item);
          l && l->role == FigureRole::Series && l->x0 == l->x1)
        ++vertical;
    EXPECT_GT(model_lines + vertical, 0) << s.name << ": no model line";
    EXPECT_TRUE(has_text(f, "model")) << s.name << ": the legend names no model";
    // No measured marker: every point drawn is the model's (the Little's-law current point, the
    // constant cache's reads).
    int points = 0;
    for (const auto& item : f.items)
      if (const auto* r = std::get_if<viz::FigureRect>(&item);
          r && r->role == FigureRole::Point && r->filled)
        ++points;
    int model_points = 0;
    for (const FigurePlot& p : data->plots)
      for (const FigureSeries& se : p.series)
        if (se.model && se.markers) model_points += static_cast<int>(se.y.size());
    EXPECT_LE(points, model_points) << s.name;
    // The SVG holds the words, the PNG the model's colour.
    const std::string svg = svg_of(f);
    EXPECT_NE(svg.find("model only"), std::string::npos) << s.name;
    const test::Png png = png_of(f, "plot-" + s.name);
    ASSERT_TRUE(png.rgba) << s.name;
    EXPECT_GT(test::count_near(png, light().overfetch, 40) +
                  test::count_near(png, light().muted_text, 40),
              100)
        << s.name;
  }
  EXPECT_EQ(scenarios, 7);  // carveout, l1, constant; one float, four floats, Volkov, ladder
}

TEST(PlotFigures, ConstantModelOnlyCountsReadsAndMeasuredCyclesReplaceThem) {
  CacheSession cache(false);
  cache.set(cache_scenario(find_scenario("constant-broadcast")));
  auto data = cache_figure_panel(cache, cache.measured(), FigurePanel::Plot);
  ASSERT_TRUE(data);
  ASSERT_EQ(data->plots.size(), 1u);
  const FigureSeries& reads = data->plots[0].series.back();
  EXPECT_TRUE(reads.model);
  ASSERT_EQ(reads.y.size(), 32u);
  EXPECT_EQ(reads.y[31], 32) << "k = 32: 32 reads";
  EXPECT_NE(data->plots[0].y_label.find("reads"), std::string::npos);

  CacheResults r;
  for (int k = 1; k <= 32; ++k) {
    gpu::ConstantMeasurement m;
    m.k = k;
    m.cycles_per_request = 40.0 * k + 10;
    r.constant.push_back(m);
  }
  r.constant_of = cache.state();
  cache.inject_results_for_test(r);
  data = cache_figure_panel(cache, cache.measured(), FigurePanel::Plot);
  ASSERT_TRUE(data);
  EXPECT_FALSE(data->measured.empty());
  const FigurePlot& p = data->plots[0];
  EXPECT_EQ(p.measured_points(), 32u);
  EXPECT_NE(p.y_label.find("cycles"), std::string::npos);
  EXPECT_DOUBLE_EQ(p.series.back().y[3], 4 * 50.0) << "k x the broadcast (k = 1: 50 cycles)";
  const viz::Figure f = panel_figure(*data, light(), "");
  EXPECT_TRUE(f.texts(FigureRole::ModelOnly).empty());
  // The measured points in the measured series' colour, at their place in the PNG.
  const viz::Rgb measured = figure_color(p.series.front().color, light());
  EXPECT_EQ(drawn_in(f, measured, FigureRole::Point), 32);
  const test::Png png = png_of(f, "constant-measured");
  ASSERT_TRUE(png.rgba);
  const viz::FigurePage page = viz::figure_page(f, 160);
  for (const auto& item : f.items) {
    const auto* rect = std::get_if<viz::FigureRect>(&item);
    if (!rect || rect->role != FigureRole::Point || !same(rect->fill, measured)) continue;
    const int x = static_cast<int>(0.5f * (rect->rect.x0 + rect->rect.x1) * page.px_per_unit);
    const int y = static_cast<int>(0.5f * (rect->rect.y0 + rect->rect.y1) * page.px_per_unit);
    EXPECT_GT(test::count_near_in(png, measured, x - 2, y - 2, x + 3, y + 3, 30), 4);
    break;
  }
}

TEST(PlotFigures, L1SweepMarksTheL1EachCarveoutLeavesAndDrawsMeasuredPoints) {
  CacheSession cache(false);
  cache.set(cache_scenario(find_scenario("carveout-l1")));
  auto data = cache_figure_panel(cache, cache.measured(), FigurePanel::Plot);
  ASSERT_TRUE(data);
  ASSERT_EQ(data->plots.size(), 1u) << "no hit-rate plot before the counters were read";
  EXPECT_EQ(data->plots[0].x_marks.size(), l1_carveouts().size());
  for (const FigureXMark& m : data->plots[0].x_marks) {
    EXPECT_EQ(m.label.rfind("model: L1 ", 0), 0u) << m.label;
    EXPECT_GT(m.x, 0);
  }
  CacheResults r;
  for (int c : l1_carveouts())
    for (auto ws : l1_working_sets()) {
      gpu::L1GatherMeasurement m;
      m.carveout = c;
      m.working_set_bytes = ws;
      m.ns_per_access = ws < 32 * 1024 ? 0.5 : 2.0;
      r.l1.push_back(m);
    }
  r.l1_of = cache.state();
  cache.inject_results_for_test(r);
  data = cache_figure_panel(cache, cache.measured(), FigurePanel::Plot);
  ASSERT_TRUE(data);
  EXPECT_EQ(data->plots[0].measured_points(), l1_carveouts().size() * l1_working_sets().size());
  const viz::Figure f = panel_figure(*data, light(), "");
  EXPECT_TRUE(f.texts(FigureRole::ModelOnly).empty());
  int points = 0;
  for (const auto& item : f.items)
    if (const auto* rect = std::get_if<viz::FigureRect>(&item);
        rect && rect->role == FigureRole::Point && rect->filled)
      ++points;
  EXPECT_EQ(points, static_cast<int>(l1_carveouts().size() * l1_working_sets().size()));
}

FlightResults ladder_and_copies() {
  FlightResults r;
  r.limits = gpu::FlightDeviceLimits{};
  r.limits->sm = gpu::model_sm_limits();
  r.limits->levels = {256 * 1024, std::int64_t{50} << 20};
  r.limits->cc_major = 9;
  r.limits->theoretical_gbps = 3352;
  r.memcpy = gpu::MemcpyMeasurement{};
  r.memcpy->gbps = 2900;
  for (const auto& row : ladder_rows())
    for (auto ws : gpu::ladder_working_sets(r.limits->levels.l2_bytes)) {
      gpu::LatencyPoint p;
      p.params = {ws, row.path, row.lanes};
      p.ns_per_load = ws <= 128 * 1024 ? 20 : ws <= (std::int64_t{25} << 20) ? 150 : 530;
      p.verified = true;
      r.ladder.push_back(p);
    }
  for (int bif_kib : {1, 4, 16, 64}) {
    gpu::StreamMeasurement m;
    m.params.word_bytes = 4;
    m.bytes_in_flight_per_sm = bif_kib * 1024;
    m.residency.warps_per_sm = 8;
    m.residency.blocks_per_sm = 1;
    m.gbps = std::min(2900.0, 400.0 * bif_kib);
    m.verified = true;
    r.stream.push_back(m);
  }
  return r;
}

TEST(PlotFigures, FlightPlotsDrawMeasuredPointsAndTheLineWithTheProbesWall) {
  FlightSession flight(false);
  FlightState st = flight_scenario(find_scenario("flight-latency-ladder"));
  flight.set(st);
  FlightResults r = ladder_and_copies();
  flight.inject_results_for_test(r);
  auto ladder = flight_figure_panel(flight, flight.measured(), FigurePanel::Plot);
  ASSERT_TRUE(ladder);
  EXPECT_EQ(ladder->plots[0].measured_points(), r.ladder.size());
  EXPECT_FALSE(ladder->plots[0].references.empty()) << "the plateaus, once measured";
  // Named without their value: the chart's label adds it once ("DRAM 530 ns"; it had read
  // "DRAM: 530 ns 530 ns").
  for (const auto& ref : ladder->plots[0].references)
    EXPECT_EQ(ref.label.find(" ns"), std::string::npos) << ref.label;
  EXPECT_TRUE(panel_figure(*ladder, light(), "").texts(FigureRole::ModelOnly).empty());

  st.section = FlightSection::LittlesLaw;
  flight.set(st);
  auto law = flight_figure_panel(flight, flight.measured(), FigurePanel::Plot);
  ASSERT_TRUE(law);
  EXPECT_EQ(law->plots[0].measured_points(), r.stream.size());
  // The model's curve is its first line; then the idle-latency line, which meets cudaMemcpy at
  // the knee (where its mark stands).
  const auto model_lines = [](const FigurePlot& plot) {
    std::vector<const FigureSeries*> lines;
    for (const FigureSeries& se : plot.series)
      if (se.model && se.lines) lines.push_back(&se);
    return lines;
  };
  auto lines = model_lines(law->plots[0]);
  ASSERT_EQ(lines.size(), 2u);
  const FigureSeries* line = lines[0];
  EXPECT_NE(line->label.find("ns/B"), std::string::npos) << line->label;
  const FigureSeries& idle = *lines[1];
  EXPECT_NE(idle.label.find("idle latency"), std::string::npos) << idle.label;
  ASSERT_FALSE(idle.x.empty());
  EXPECT_DOUBLE_EQ(idle.x.back(), flight.model().knee_bytes / 1024.0);
  EXPECT_DOUBLE_EQ(idle.y.back(), flight.model().peak_gbps);
  bool knee_marked = false;
  for (const FigureXMark& mark : law->plots[0].x_marks)
    knee_marked = knee_marked || mark.x == idle.x.back();
  EXPECT_TRUE(knee_marked) << "the knee's mark stands where the idle line meets cudaMemcpy";
  const double linear_at_16k = flight_line_gbps(flight.model(), 16384);

  // The probe: idle 530 ns, 600 ns at 1000 GB/s, 1600 ns at 2800 GB/s; the batches 20 ns apart
  // at idle and 150 ns at 2800 GB/s (1536 B apart).
  const auto point = [](int load, int batch, double ns, double gbps) {
    gpu::LoadedLatencyPoint p;
    p.copy_blocks_per_sm = load;
    p.batch_bytes = batch;
    p.ns_per_load = ns;
    p.copy_gbps = gbps;
    p.verified = true;
    return p;
  };
  r.probe = {point(0, 0, 530, 0),     point(0, 512, 330, 0),     point(0, 2048, 350, 0),
             point(2, 0, 600, 1000),  point(2, 512, 400, 1000),  point(2, 2048, 440, 1000),
             point(7, 0, 1600, 2800), point(7, 512, 1400, 2800), point(7, 2048, 1550, 2800)};
  flight.inject_results_for_test(r);
  // The probe's idle warp chase is the ladder's L0 (530 ns): the line takes the probe's wall (the
  // batch chase rises from 330 to 1400 ns, x 4.2, where the linear growth gives x 2), below the
  // linear line near the peak, and its legend says so.
  ASSERT_TRUE(flight.model().loaded);
  law = flight_figure_panel(flight, flight.measured(), FigurePanel::Plot);
  ASSERT_TRUE(law);
  lines = model_lines(law->plots[0]);
  ASSERT_FALSE(lines.empty());
  line = lines[0];
  EXPECT_NE(line->label.find("ns/B"), std::string::npos) << line->label;
  EXPECT_NE(line->label.find("near the wall"), std::string::npos) << line->label;
  EXPECT_LT(flight_line_gbps(flight.model(), 16384), linear_at_16k);
  const viz::Figure f = panel_figure(*law, light(), "");
  EXPECT_TRUE(has_text(f, "ns/B"));
}

// The verb: `render --panel plot` in each format, model only.
TEST(PlotFiguresCommand, RenderPanelPlotWritesSvgPdfAndPng) {
  for (const char* scenario : {"flight-one-float", "flight-latency-ladder", "carveout-l1",
                               "constant-broadcast", "carveout-occupancy"}) {
    for (const char* ext : {"svg", "pdf", "png"}) {
      const std::string out = test::temp_path(std::string(scenario) + "-plot." + ext);
      const auto r = test::run_command(kWarplens + " render --model-only --scenario " + scenario +
                                       " --panel plot --format " + ext + " --out " + out);
      ASSERT_EQ(r.exit_code, 0) << scenario << " " << ext << ": " << r.output;
      std::ifstream in(out, std::ios::binary);
      const std::string bytes((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
      ASSERT_GT(bytes.size(), 500u) << scenario << " " << ext;
      if (std::string(ext) == "svg") {
        EXPECT_NE(bytes.find("model only"), std::string::npos) << scenario;
        EXPECT_NE(bytes.find("model"), std::string::npos) << scenario;
      }
      if (std::string(ext) == "png") {
        const test::Png png = test::load_png(out);
        ASSERT_TRUE(png.rgba) << scenario;
        EXPECT_LT(test::count_near(png, light().background), png.width * png.height * 98 / 100)
            << scenario << ": blank?";
      }
      std::remove(out.c_str());
    }
  }
  // The async copies have no plot.
  const auto r = test::run_command(kWarplens +
                                   " render --model-only --scenario flight-async --panel plot "
                                   "--out " +
                                   test::temp_path("x.svg"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
}

}  // namespace
}  // namespace warplens::app
