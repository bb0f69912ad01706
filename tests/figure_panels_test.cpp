// The panels beyond banks and warp (issue 14: tile, heatmap, offset-sweep, stride-sweep, bars,
// numbers), model only on Mesa's EGL: for a table of scenarios x panels, the SVG parsed by
// libxml2 holds the expected words as <text> and one drawn shape per shape primitive, the PDF
// read back by pdftotext holds the figure's text (skipped without poppler-utils), the PNG has a
// known element's colour where the element is; the measured panels from measured data built by
// hand (no GPU here), and the model-only numbers saying so; the cache and bytes-in-flight labs'
// numbers as their windows' tables, for every scenario through the verb in each format; `render
// --all --format svg` writes every scenario x panel.
#include <gtest/gtest.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bars_figure.h"
#include "cache_figures.h"
#include "cache_scenario.h"
#include "cache_ui_internal.h"
#include "figure_cairo.h"
#include "flight_figures.h"
#include "flight_scenario.h"
#include "flight_ui_internal.h"
#include "headless_gl_test.h"
#include "lab.h"
#include "numbers_figure.h"
#include "panel_figure.h"
#include "scenarios.h"
#include "sweep_figure.h"
#include "test_support.h"

namespace warplens::app {
namespace {

using test::kWarplens;

using test::run_command;
using test::temp_path;
using viz::FigureRole;

class FigurePanels : public test::HeadlessGlTest {};

std::optional<FigurePanelData> panel_data(const std::string& scenario, FigurePanel panel) {
  const Scenario& s = find_scenario(scenario);
  const auto lab = lab_info(s.lab).make(/*use_gpu=*/false);
  lab->apply(s, std::nullopt);
  lab->update();
  if (lab->figures()->show_figure_panel(panel)) lab->update();  // need not switch: false
  return lab->figures()->figure_panel(panel);
}

// --- the SVG, read back ---------------------------------------------------------------------

struct Svg {
  bool parsed = false;
  std::vector<std::string> texts;  // <text> contents, in order
  int shapes = 0;                  // <path> and <rect> outside <defs>
  int uses = 0;                    // <use> outside <defs> (glyph outlines)
};

void walk(xmlNode* node, Svg& svg) {
  for (xmlNode* n = node; n; n = n->next) {
    if (n->type != XML_ELEMENT_NODE) continue;
    const std::string name = reinterpret_cast<const char*>(n->name);
    if (name == "defs") continue;
    if (name == "text") {
      xmlChar* content = xmlNodeGetContent(n);
      svg.texts.emplace_back(reinterpret_cast<const char*>(content));
      xmlFree(content);
      continue;
    }
    svg.shapes += name == "path" || name == "rect";
    svg.uses += name == "use";
    walk(n->children, svg);
  }
}

Svg read_svg(const std::string& bytes) {
  Svg svg;
  xmlDoc* doc = xmlReadMemory(bytes.data(), static_cast<int>(bytes.size()), "figure.svg", nullptr,
                              XML_PARSE_NONET);
  if (!doc) return svg;
  svg.parsed = true;
  walk(xmlDocGetRootElement(doc)->children, svg);
  xmlFreeDoc(doc);
  return svg;
}

bool holds(const std::vector<std::string>& texts, const std::string& part) {
  for (const auto& t : texts)
    if (t.find(part) != std::string::npos) return true;
  return false;
}

// Shapes cairo draws for the figure: the background, one per fill, stroke, line or hatch.
int shape_primitives(const viz::Figure& f) {
  int n = 1;
  for (const auto& item : f.items) {
    if (const auto* r = std::get_if<viz::FigureRect>(&item))
      n += (r->filled ? 1 : 0) + (r->stroke_width > 0 ? 1 : 0);
    else if (!std::holds_alternative<viz::FigureText>(item))
      n += 1;
  }
  return n;
}

// --- the table --------------------------------------------------------------------------------

struct PanelCase {
  const char* scenario;
  FigurePanel panel;
  std::vector<const char*> words;  // in the SVG's <text>s and the PDF's text
  FigureRole role;                 // a rectangle of this role ...
  int role_count;                  // ... drawn this many times (-1: at least one)
};

void PrintTo(const PanelCase& c, std::ostream* os) {
  *os << c.scenario << " " << to_string(c.panel);
}

std::string case_name(const PanelCase& c) {
  std::string name = std::string(c.scenario) + "_" + to_string(c.panel);
  for (char& ch : name) ch = ch == '-' ? '_' : ch;
  return name;
}

class PanelTable : public FigurePanels, public ::testing::WithParamInterface<PanelCase> {};

const viz::Theme& light() {
  return viz::theme(viz::ThemeName::Light);
}

TEST_P(PanelTable, SvgPdfAndPngHoldThePanelsContent) {
  const PanelCase c = GetParam();
  const auto data = panel_data(c.scenario, c.panel);
  ASSERT_TRUE(data) << c.scenario << " has no " << to_string(c.panel) << " panel";
  const viz::Figure f = panel_figure(
      *data, light(), "host model \u2022 2026-01-01 \u2022 scenario " + std::string(c.scenario));
  ASSERT_GT(f.height, 50);
  std::size_t count = 0;
  for (const auto& item : f.items)
    if (const auto* r = std::get_if<viz::FigureRect>(&item); r && r->role == c.role) ++count;
  if (c.role_count >= 0)
    EXPECT_EQ(count, static_cast<std::size_t>(c.role_count));
  else
    EXPECT_GT(count, 0u);

  // SVG: every word as <text>, no glyph outlines, one shape per shape primitive.
  const Svg svg = read_svg(viz::render_figure(f, viz::FigureFormat::Svg, 160));
  ASSERT_TRUE(svg.parsed);
  EXPECT_EQ(svg.uses, 0);
  EXPECT_EQ(svg.shapes, shape_primitives(f));
  EXPECT_EQ(svg.texts.size(), f.texts().size());
  for (const char* word : c.words) EXPECT_TRUE(holds(svg.texts, word)) << word;
  EXPECT_TRUE(holds(svg.texts, "scenario " + std::string(c.scenario)));

  // PDF: pdftotext reads the same words back.
  if (run_command("pdftotext -v").exit_code == 0) {
    const std::string pdf = temp_path(case_name(c) + ".pdf");
    viz::write_figure(f, viz::FigureFormat::Pdf, 160, pdf);
    const auto text = run_command("pdftotext " + pdf + " -");
    EXPECT_EQ(text.exit_code, 0);
    for (const char* word : c.words)
      EXPECT_NE(text.output.find(word), std::string::npos) << word << " in:\n" << text.output;
    std::remove(pdf.c_str());
  }

  // PNG: the first rectangle of the role in its colour, inside its corner, clear of a conflict
  // frame and of its number.
  const std::string png_path = temp_path(case_name(c) + ".png");
  viz::write_figure(f, viz::FigureFormat::Png, 160, png_path);
  const test::Png png = test::load_png(png_path);
  ASSERT_TRUE(png.rgba);
  const viz::FigurePage page = viz::figure_page(f, 160);
  for (const auto& item : f.items) {
    const auto* r = std::get_if<viz::FigureRect>(&item);
    if (!r || r->role != c.role || !r->filled) continue;
    const int x = static_cast<int>((r->rect.x0 + 3.5f) * page.px_per_unit);
    const int y = static_cast<int>((r->rect.y0 + 3.5f) * page.px_per_unit);
    EXPECT_TRUE(test::near(png.at(x, y), r->fill, 8))
        << "pixel " << x << "," << y << " of the first " << static_cast<int>(c.role);
    break;
  }
  EXPECT_TRUE(test::near(png.at(1, 1), light().background));
  std::remove(png_path.c_str());
}

INSTANTIATE_TEST_SUITE_P(
    Scenarios, PanelTable,
    ::testing::Values(
        PanelCase{"tile-column-32x32",
                  FigurePanel::Tile,
                  {"tile as stored: 32 per row", "Wavefronts per request: 32", "bank conflict"},
                  FigureRole::Element,
                  32 * 32},
        PanelCase{"tile-column-32x33",
                  FigurePanel::Tile,
                  {"tile as stored: 32 + 1 padding per row", "Wavefronts per request: 1"},
                  FigureRole::Element,
                  32 * 32},
        PanelCase{"transpose",
                  FigurePanel::Tile,
                  {"transpose kernel", "most distinct words in one bank: 32"},
                  FigureRole::ConflictMark,
                  32},
        PanelCase{"aligned",
                  FigurePanel::Heatmap,
                  {"counted per 32-byte sector", "64 KiB", "(100.0 %)", "10k"},
                  FigureRole::HeatCell,
                  -1},
        PanelCase{"stride-32",
                  FigurePanel::Heatmap,
                  {"(12.5 %)", "over-fetch"},
                  FigureRole::HeatCell,
                  -1},
        PanelCase{"aligned",
                  FigurePanel::Numbers,
                  {"per warp request", "sectors (32 B)", "100.0 %", "model only"},
                  FigureRole::Rule,
                  -1},
        PanelCase{"stride-32",
                  FigurePanel::Numbers,
                  {"sectors (32 B)", "32", "12.5 %", "model only"},
                  FigureRole::Rule,
                  -1},
        PanelCase{"bank-stride-32",
                  FigurePanel::Numbers,
                  {"wavefronts", "32 (32-way conflict)", "model only"},
                  FigureRole::Rule,
                  -1},
        PanelCase{
            "matmul", FigurePanel::Numbers, {"wavefronts", "model only"}, FigureRole::Rule, -1},
        PanelCase{"kernel-transpose-tiled",
                  FigurePanel::Numbers,
                  {"3 load tile", "32 wavefronts", "whole launch, shared loads", "model only"},
                  FigureRole::Rule,
                  -1},
        PanelCase{"carveout-occupancy",
                  FigurePanel::Numbers,
                  {"dynamic", "limited", "asks", "(driver)", "model only"},
                  FigureRole::Rule,
                  -1},
        PanelCase{"read-path",
                  FigurePanel::Numbers,
                  {"plain load", "__ldg", "texture", "scattered", "model only"},
                  FigureRole::Rule,
                  -1},
        PanelCase{"flight-one-float",
                  FigurePanel::Numbers,
                  {"model GB/s", "bytes in flight per SM", "needs a GPU", "model only"},
                  FigureRole::Rule,
                  -1}),
    [](const auto& param_info) { return case_name(param_info.param); });

// The tile figure's conflict frames where the bank view has them; each word shows its bank.
TEST_F(FigurePanels, TileFramesTheWordsOfAConflictingBank) {
  for (const auto& [scenario, frames] :
       {std::pair<const char*, std::size_t>{"tile-column-32x32", 32},
        std::pair<const char*, std::size_t>{"tile-column-32x33", 0}}) {
    const auto data = panel_data(scenario, FigurePanel::Tile);
    ASSERT_TRUE(data) << scenario;
    const viz::Figure f = panel_figure(*data, light(), "");
    EXPECT_EQ(f.count(FigureRole::ConflictMark), frames) << scenario;
    EXPECT_EQ(f.texts(FigureRole::LaneNumber).size(), 0u) << scenario;
    EXPECT_EQ(f.texts(FigureRole::BankNumber).size(), 32u * 32u) << scenario;
  }
}

TEST_F(FigurePanels, ModelOnlyNumbersSayItAndDrawNoMeasuredTable) {
  const auto data = panel_data("aligned", FigurePanel::Numbers);
  ASSERT_TRUE(data);
  EXPECT_TRUE(data->measured.empty());
  const viz::Figure f = panel_figure(*data, light(), "");
  ASSERT_EQ(f.texts(FigureRole::ModelOnly).size(), 1u);
  EXPECT_NE(f.texts(FigureRole::ModelOnly)[0]->text.find("model only"), std::string::npos);
  for (const auto* t : f.texts(FigureRole::Header))
    EXPECT_EQ(t->text.find("measured"), std::string::npos) << t->text;
  // The window's table: the same rows as global_stat_texts.
  const auto rows = f.texts(FigureRole::Label);
  ASSERT_EQ(rows.size(), data->rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(rows[i]->text, data->rows[i].name);
}

// --- measured panels, from measured data built by hand ------------------------------------------

TEST_F(FigurePanels, MeasuredNumbersAreATableNotModelOnly) {
  auto data = panel_data("aligned", FigurePanel::Numbers);
  ASSERT_TRUE(data);
  data->measured = {{"this copy kernel", "2179 GB/s"},
                    {"cudaMemcpy device\u2192device", "2950 GB/s"}};
  data->measured_title = "measured (read + write, 10\u2079 B/s)";
  const viz::Figure f = numbers_figure(*data, light(), "");
  EXPECT_TRUE(f.texts(FigureRole::ModelOnly).empty());
  const Svg svg = read_svg(viz::render_figure(f, viz::FigureFormat::Svg, 160));
  EXPECT_TRUE(holds(svg.texts, "2179 GB/s"));
  EXPECT_TRUE(holds(svg.texts, "measured (read + write"));
}

TEST_F(FigurePanels, SweepDrawsEveryMeasuredPointAndThePrediction) {
  FigurePanelData d;
  d.panel = FigurePanel::StrideSweep;
  d.x_label = "stride (elements of 4 B)";
  d.memcpy_gbps = 3000;
  d.peak_gbps = 3350;
  d.highlight_x = 2;
  d.access = "copy kernel, stride sweep of 4-byte words";
  d.sweep = {{1, 2400, 2380, 2420, 2450}, {2, 1100, 1090, 1110, 1200}, {4, 560, 550, 570, 600}};
  const viz::Figure f = sweep_figure(d, light(), "measured on NVIDIA H100 \u2022 test");
  EXPECT_EQ(f.count(FigureRole::Point), 3u + 1u) << "three markers and the ring";
  const Svg svg = read_svg(viz::render_figure(f, viz::FigureFormat::Svg, 160));
  for (const char* word :
       {"stride (elements of 4 B)", "cudaMemcpy D2D 3000", "theoretical peak 3350",
        "worst 9.1 % (at stride 2)", "measured (median, IQR)"})
    EXPECT_TRUE(holds(svg.texts, word)) << word;
}

TEST_F(FigurePanels, BarsScaleToTheLargestAndSkipARefusedVariant) {
  FigurePanelData d;
  d.panel = FigurePanel::Bars;
  d.bars_title = "4096\u00d74096 floats \u2022 GB/s = read + write";
  d.bars = {{"naive", 600, "600 GB/s", "verified", false},
            {"tiled", 1200, "1200 GB/s", "verified", true},
            {"vectorized", 0, "refused", "needs n % 4 == 0", false}};
  const viz::Figure f = bars_figure(d, light(), "");
  std::vector<float> widths;
  for (const auto& item : f.items)
    if (const auto* r = std::get_if<viz::FigureRect>(&item); r && r->role == FigureRole::Bar)
      widths.push_back(r->rect.x1 - r->rect.x0);
  ASSERT_EQ(widths.size(), 2u);
  EXPECT_NEAR(widths[0] * 2, widths[1], 0.01f);
  const Svg svg = read_svg(viz::render_figure(f, viz::FigureFormat::Svg, 160));
  for (const char* word : {"naive", "1200 GB/s", "refused", "needs n % 4 == 0"})
    EXPECT_TRUE(holds(svg.texts, word)) << word;
}

TEST_F(FigurePanels, LabsListOnlyThePanelsTheyHave) {
  const auto panels = [](const char* name) {
    const Scenario& s = find_scenario(name);
    const auto lab = lab_info(s.lab).make(false);
    lab->apply(s, std::nullopt);
    lab->update();
    return figure_panel_list(lab->figures()->figure_panels());
  };
  // Model only: no sweep and no bars (they exist once measured).
  EXPECT_EQ(panels("aligned"), "warp, heatmap, numbers");
  EXPECT_EQ(panels("bank-stride-32"), "banks, numbers");
  EXPECT_EQ(panels("tile-column-32x33"), "banks, tile, numbers");
  EXPECT_EQ(panels("transpose"), "banks, warp, tile, numbers");
  EXPECT_EQ(panels("transpose-naive"), "warp, numbers");
  EXPECT_EQ(panels("kernel-copy"), "warp, numbers");
  // Cache, flight: plots (model lines even model only) and numbers; the read paths bars (the
  // model's without a GPU), the async copies bars once measured (below).
  for (const Scenario& s : builtin_scenarios()) {
    if (s.lab != Lab::Cache && s.lab != Lab::Flight) continue;
    std::string want = s.name == "flight-async" ? "numbers" : "plot, numbers";
    if (s.name == "read-path" || s.name == "texture-2d-tile") want = "bars, numbers";
    EXPECT_EQ(panels(s.name.c_str()), want) << s.name;
  }
}

// --- the cache and bytes-in-flight labs: the window's tables, the measured bars -----------------

// The words each scenario's numbers figure holds, model only: the section's row or column names,
// a value of the model's, and "model only".
const std::vector<std::pair<std::string, std::vector<std::string>>>& lab_numbers_words() {
  static const std::vector<std::pair<std::string, std::vector<std::string>>> words = {
      {"carveout-occupancy", {"dynamic", "shared", "limited", "blocks", "default"}},
      {"carveout-l1", {"working", "ns \u00b7 L1 hit", "1 MiB", "\u2713"}},
      {"constant-broadcast", {"cycles /", "broadcast", "reads", "32"}},
      {"read-path", {"plain load", "__ldg", "texture", "row-major"}},
      {"texture-2d-tile", {"plain load", "texture", "Morton", "check"}},
      {"flight-one-float", {"resident warps per SM", "model GB/s", "knee", "needs a GPU"}},
      {"flight-four-floats", {"bytes in flight per SM", "model GB/s", "points measured"}},
      {"flight-volkov", {"model GB/s", "assumed", "knee"}},
      {"flight-latency-ladder", {"L1 plateau", "DRAM plateau", "TLB step", "device levels"}},
      {"flight-async", {"cp.async", "TMA bulk copy", "cudaMemcpy", "in flight"}}};
  return words;
}

std::vector<std::vector<std::string>> texts_of(const FigureTable& t) {
  std::vector<std::vector<std::string>> rows = {t.header};
  for (const auto& row : t.rows) {
    rows.emplace_back();
    for (const FigureCell& c : row) rows.back().push_back(c.text);
  }
  return rows;
}

TEST_F(FigurePanels, CacheAndFlightNumbersAreTheWindowsTables) {
  std::size_t scenarios = 0;
  for (const Scenario& s : builtin_scenarios()) {
    if (s.lab != Lab::Cache && s.lab != Lab::Flight) continue;
    ++scenarios;
    const auto data = panel_data(s.name, FigurePanel::Numbers);
    ASSERT_TRUE(data) << s.name;
    // What the window's numbers panel draws, from the same function.
    std::vector<FigureTable> window;
    if (s.lab == Lab::Cache) {
      CacheSession session(false);
      session.set(cache_scenario(s));
      for (const auto& t : cache_ui_detail::cache_numbers_tables(session, session.measured())) {
        FigureTable& w = window.emplace_back();
        w.highlight = t.current;
        for (const auto& c : t.columns) w.header.push_back(c.name);
        for (const auto& row : t.rows) {
          w.rows.emplace_back();
          for (const auto& c : row)
            w.rows.back().push_back({c.mark.empty() ? c.text : c.text + " " + c.mark, false});
        }
      }
    } else {
      FlightSession session(false);
      session.set(flight_scenario(s));
      FigureTable& w = window.emplace_back();
      for (const auto& row : flight_ui_detail::flight_number_rows(session, session.measured()))
        w.rows.push_back({{row.what, false}, {row.value, false}});
    }
    ASSERT_EQ(data->tables.size(), window.size()) << s.name;
    for (std::size_t i = 0; i < window.size(); ++i) {
      EXPECT_EQ(texts_of(data->tables[i]), texts_of(window[i])) << s.name;
      EXPECT_EQ(data->tables[i].highlight, window[i].highlight) << s.name;
    }
    EXPECT_TRUE(data->measured.empty()) << s.name;
    EXPECT_EQ(data->measured_absent.rfind("measurements need a CUDA device", 0), 0u) << s.name;
    const viz::Figure f = panel_figure(*data, light(), "");
    ASSERT_EQ(f.texts(FigureRole::ModelOnly).size(), 1u) << s.name;
    const Svg svg = read_svg(viz::render_figure(f, viz::FigureFormat::Svg, 160));
    for (const auto& [name, words] : lab_numbers_words())
      for (const auto& w : name == s.name ? words : std::vector<std::string>{})
        EXPECT_TRUE(holds(svg.texts, w)) << s.name << ": " << w;
  }
  EXPECT_EQ(scenarios, lab_numbers_words().size());
  // The models' values without a GPU: Little's law's prediction, the constant cache's reads.
  const auto flight = panel_data("flight-one-float", FigurePanel::Numbers);
  ASSERT_TRUE(flight);
  EXPECT_EQ(flight->tables[0].rows[2][0].text, "model GB/s");
  EXPECT_NE(flight->tables[0].rows[2][1].text.find("(1 + GB/s \u00f7 2950 assumed)"), -1);
  const auto constant = panel_data("constant-broadcast", FigurePanel::Numbers);
  ASSERT_TRUE(constant);
  EXPECT_EQ(constant->tables[0].rows[31][1].text, "32") << "k = 32: 32 reads (model)";
}

TEST_F(FigurePanels, CacheAndFlightBarsOnceMeasured) {
  // The read path: two bars measured by hand, the ringed one highlighted.
  CacheSession cache(false);
  const CacheState st = cache_scenario(find_scenario("read-path"));
  cache.set(st);
  gpu::ReadPathParams other = st.read;
  other.path = st.read.path == gpu::ReadPath::Ldg ? gpu::ReadPath::Plain : gpu::ReadPath::Ldg;
  CacheResults r;
  r.read = {{st.read, 1 << 20, {}, 1800, true, ""}, {other, 1 << 20, {}, 900, true, ""}};
  r.read_of = st;
  cache.inject_results_for_test(r);
  EXPECT_EQ(figure_panel_list(cache_figure_panels(cache, cache.measured())), "bars, numbers");
  const auto bars = cache_figure_panel(cache, cache.measured(), FigurePanel::Bars);
  ASSERT_TRUE(bars);
  ASSERT_EQ(bars->bars.size(), 2u);
  EXPECT_EQ(bars->bars[0].highlight + bars->bars[1].highlight, 1);
  const viz::Figure f = panel_figure(*bars, light(), "");
  EXPECT_EQ(f.count(FigureRole::Bar), 2u);
  EXPECT_TRUE(
      holds(read_svg(viz::render_figure(f, viz::FigureFormat::Svg, 160)).texts, "1800 GB/s"));
  const auto numbers = cache_figure_panel(cache, cache.measured(), FigurePanel::Numbers);
  ASSERT_TRUE(numbers);
  ASSERT_FALSE(numbers->measured.empty()) << "the highlighted row was measured";
  EXPECT_EQ(numbers->measured.front().value, "1800.0");
  EXPECT_TRUE(panel_figure(*numbers, light(), "").texts(FigureRole::ModelOnly).empty());
  CacheResults unshown;  // measured, but not the shown row: still not "model only"
  unshown.read = {r.read[1]};
  cache.inject_results_for_test(unshown);
  const auto counted = cache_figure_panel(cache, cache.measured(), FigurePanel::Numbers);
  ASSERT_TRUE(counted && counted->measured.size() == 1u && counted->measured_absent.empty());

  // The async copies: cp.async measured; TMA and the rest not yet (no bar, no empty series).
  FlightSession flight(false);
  flight.set(flight_scenario(find_scenario("flight-async")));
  EXPECT_EQ(figure_panel_list(flight_figure_panels(flight, flight.measured())), "numbers");
  FlightResults fr;
  gpu::AsyncMeasurement a;
  a.gbps = 2100;
  a.bytes_in_flight_per_sm = 96 * 1024;
  fr.async = {a};
  flight.inject_results_for_test(fr);
  EXPECT_EQ(figure_panel_list(flight_figure_panels(flight, flight.measured())), "bars, numbers");
  const auto async = flight_figure_panel(flight, flight.measured(), FigurePanel::Bars);
  ASSERT_TRUE(async);
  ASSERT_EQ(async->bars.size(), 1u);
  EXPECT_EQ(async->bars[0].text, "2100 GB/s");
  EXPECT_EQ(async->bars[0].note, "96 KiB in flight/SM");
  const auto fn = flight_figure_panel(flight, flight.measured(), FigurePanel::Numbers);
  ASSERT_TRUE(fn);
  ASSERT_EQ(fn->measured.size(), 1u);
  EXPECT_EQ(fn->measured[0].value, "2100 GB/s, 96 KiB in flight/SM");
}

// --- the verb -----------------------------------------------------------------------------------

TEST_F(FigurePanels, RenderAllWritesEveryScenarioTimesPanel) {
  const std::string dir = temp_path("figures");
  std::filesystem::remove_all(dir);
  const auto r = run_command("SOURCE_DATE_EPOCH=1767225600 " + kWarplens +
                             " render --model-only --all --format svg --out " + dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // Every scenario x every panel its lab lists, and nothing else.
  std::set<std::string> expected;
  for (const Scenario& s : builtin_scenarios()) {
    const auto lab = lab_info(s.lab).make(false);
    lab->apply(s, std::nullopt);
    lab->update();
    for (const FigurePanel p : lab->figures()->figure_panels())  // every lab offers figures
      expected.insert(s.name + "-" + to_string(p) + ".svg");
  }
  std::set<std::string> written;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    written.insert(entry.path().filename().string());
  EXPECT_EQ(written, expected);
  EXPECT_GT(written.size(), builtin_scenarios().size());
  // One line per file. Counted as the file paths anywhere in the output: stderr (the ASan build's
  // LeakSanitizer summary) shares the pipe and may sit before a line.
  std::size_t printed = 0;
  for (const std::string& file : expected)
    printed += r.output.find(dir + "/" + file + "\n") != std::string::npos;
  EXPECT_EQ(printed, expected.size()) << "one line per file";
  for (const char* file : {"aligned-heatmap.svg", "transpose-tile.svg", "misaligned-numbers.svg",
                           "carveout-occupancy-numbers.svg", "flight-async-numbers.svg"}) {
    std::ifstream in(dir + "/" + file);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const Svg svg = read_svg(bytes);
    EXPECT_TRUE(svg.parsed) << file;
    EXPECT_TRUE(holds(svg.texts, "2026-01-01")) << file;
  }
  // --panel narrows it to the scenarios that have the panel.
  const std::string tiles = temp_path("tiles");
  std::filesystem::remove_all(tiles);
  const auto t = run_command(kWarplens +
                             " render --model-only --all --panel tile --format png --out " + tiles);
  ASSERT_EQ(t.exit_code, 0) << t.output;
  for (const auto& entry : std::filesystem::directory_iterator(tiles))
    EXPECT_NE(entry.path().filename().string().find("-tile.png"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(tiles + "/transpose-tile.png"));
  std::filesystem::remove_all(dir);
  std::filesystem::remove_all(tiles);
}

// Every cache and bytes-in-flight scenario's numbers through the verb, in each format: the SVG
// and the PDF hold its words and "model only", the PNG is not blank.
TEST(FigurePanelsCommand, CacheAndFlightNumbersRenderAsSvgPdfAndPng) {
  const bool pdftotext = run_command("pdftotext -v").exit_code == 0;
  for (const auto& [scenario, scenario_words] : lab_numbers_words()) {
    std::vector<std::string> words = scenario_words;
    words.emplace_back("model only");
    for (const char* ext : {"svg", "pdf", "png"}) {
      const std::string out = temp_path(scenario + "-numbers." + ext);
      const auto r = run_command(kWarplens + " render --model-only --scenario " + scenario +
                                 " --panel numbers --format " + ext + " --out " + out);
      ASSERT_EQ(r.exit_code, 0) << scenario << " " << ext << ": " << r.output;
      if (std::string(ext) == "svg") {
        std::ifstream in(out);
        const Svg svg = read_svg(
            std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()));
        ASSERT_TRUE(svg.parsed) << scenario;
        for (const auto& w : words) EXPECT_TRUE(holds(svg.texts, w)) << scenario << ": " << w;
      } else if (std::string(ext) == "pdf" && pdftotext) {
        const auto text = run_command("pdftotext " + out + " -");
        for (const auto& w : words)
          EXPECT_NE(text.output.find(w), std::string::npos) << scenario << ": " << w;
      } else if (std::string(ext) == "png") {
        const test::Png png = test::load_png(out);
        ASSERT_TRUE(png.rgba) << scenario;
        const int background = test::count_near(png, light().background);
        EXPECT_LT(background, png.width * png.height * 97 / 100) << scenario << ": blank?";
        EXPECT_GT(test::count_near(png, light().text, 40), 500) << scenario << ": no text";
      }
      std::remove(out.c_str());
    }
  }
}

TEST(FigurePanelsCommand, APanelTheScenarioLacksIsExit2AndABadFolderExit1) {
  auto r = run_command(kWarplens + " render --model-only --scenario aligned --panel tile --out " +
                       temp_path("x.svg"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("its panels: warp, heatmap, numbers"), std::string::npos) << r.output;
  r = run_command(kWarplens +
                  " render --model-only --scenario aligned --panel numbers --out "
                  "/nonexistent-warplens-folder/x.svg");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("is not a folder"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace warplens::app
