// Course-note figures (issue 14, `warplens render --panel`), model only: each panel's primitive
// list from the lab's own data, the SVG parsed by libxml2 (one <text> element per text primitive
// holding its words, no glyph outlines, the conflict frames), the PDF opened by poppler's pdfinfo
// and read back by pdftotext (skipped without poppler-utils), the PNG's pixels at known places,
// and the verb's contract (exit codes, the panels a scenario has).
#include <gtest/gtest.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include <cstdio>
#include <fstream>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "bank_figure.h"
#include "figure_cairo.h"
#include "headless_gl_test.h"
#include "lab.h"
#include "panel_figure.h"
#include "scenarios.h"
#include "test_support.h"
#include "warp_figure.h"

namespace warplens::app {
namespace {

using test::kWarplens;

using test::run_command;
using test::temp_path;
using viz::FigureRole;

class FigureTest : public test::HeadlessGlTest {};

// The panel of a built-in scenario, from a model-only instance of its lab (as render makes it).
struct Panel {
  FigurePanelData data;
  viz::Figure figure;
};

Panel panel_of(const std::string& scenario, FigurePanel panel, const std::string& source = "",
               viz::ThemeName theme = viz::ThemeName::Light) {
  const Scenario& s = find_scenario(scenario);
  const auto lab = lab_info(s.lab).make(/*use_gpu=*/false);
  lab->apply(s, std::nullopt);
  lab->update();
  EXPECT_TRUE(lab->figures()->show_figure_panel(panel)) << scenario;
  lab->update();
  const auto data = lab->figures()->figure_panel(panel);
  if (!data) {
    ADD_FAILURE() << scenario << " has no " << to_string(panel) << " panel";
    return {};
  }
  const viz::Theme& t = viz::theme(theme);
  return {*data, panel_figure(*data, t, source)};
}

std::vector<std::string> strings(const std::vector<const viz::FigureText*>& texts) {
  std::vector<std::string> out;
  for (const auto* t : texts) out.push_back(t->text);
  return out;
}

bool has_text(const viz::Figure& f, FigureRole role, const std::string& part) {
  for (const auto* t : f.texts(role))
    if (t->text.find(part) != std::string::npos) return true;
  return false;
}

std::string test_name(std::string scenario) {
  for (char& ch : scenario) ch = ch == '-' ? '_' : ch;
  return scenario;
}

// --- the primitive lists ---------------------------------------------------------------------

struct BankCase {
  const char* scenario;
  int conflict_marks;      // framed bank columns
  int wavefronts;          // per request
  const char* count_mark;  // the conflicting bank's count, or null
};

void PrintTo(const BankCase& c, std::ostream* os) {
  *os << c.scenario;
}

class BankFigures : public FigureTest, public ::testing::WithParamInterface<BankCase> {};

TEST_P(BankFigures, HoldTheBankViewsLabelsAndMarks) {
  const BankCase c = GetParam();
  const Panel p = panel_of(c.scenario, FigurePanel::Banks, "host model \u2022 test");
  const viz::Figure& f = p.figure;
  ASSERT_GT(f.height, 200);
  EXPECT_EQ(f.texts(FigureRole::LaneNumber).size(), 32u);
  EXPECT_EQ(f.count(FigureRole::LaneBox), 32u);
  const auto banks = strings(f.texts(FigureRole::BankNumber));
  ASSERT_EQ(banks.size(), 32u);
  for (int b = 0; b < 32; ++b) EXPECT_EQ(banks[static_cast<std::size_t>(b)], std::to_string(b));
  EXPECT_EQ(f.count(FigureRole::ConflictMark), static_cast<std::size_t>(c.conflict_marks));
  EXPECT_EQ(f.texts(FigureRole::Wavefront).size(), 32u) << "one word per lane";
  EXPECT_TRUE(
      has_text(f, FigureRole::Total, "Wavefronts per request: " + std::to_string(c.wavefronts)));
  if (c.count_mark) {
    const auto counts = strings(f.texts(FigureRole::ConflictCount));
    ASSERT_EQ(counts.size(), 1u);
    EXPECT_EQ(counts[0], c.count_mark);
  } else {
    EXPECT_TRUE(f.texts(FigureRole::ConflictCount).empty());
  }
  EXPECT_EQ(f.texts(FigureRole::Source).size(), 1u);
}

INSTANTIATE_TEST_SUITE_P(Scenarios, BankFigures,
                         ::testing::Values(BankCase{"bank-stride-1", 0, 1, nullptr},
                                           BankCase{"bank-stride-32", 1, 32, "\u00d732"},
                                           BankCase{"tile-column-32x32", 1, 32, "\u00d732"},
                                           BankCase{"tile-column-32x33", 0, 1, nullptr}),
                         [](const auto& param_info) {
                           return test_name(param_info.param.scenario);
                         });

struct WarpCase {
  const char* scenario;
  int sectors;
  bool overfetch;
};

void PrintTo(const WarpCase& c, std::ostream* os) {
  *os << c.scenario;
}

class WarpFigures : public FigureTest, public ::testing::WithParamInterface<WarpCase> {};

TEST_P(WarpFigures, HoldTheWarpViewsLanesSectorsAndOverfetch) {
  const WarpCase c = GetParam();
  const Panel p = panel_of(c.scenario, FigurePanel::Warp);
  const viz::Figure& f = p.figure;
  EXPECT_EQ(f.texts(FigureRole::LaneNumber).size(), 32u);
  EXPECT_EQ(f.count(FigureRole::Connector), 32u);
  EXPECT_EQ(f.count(FigureRole::SectorMoved), static_cast<std::size_t>(c.sectors));
  EXPECT_EQ(f.count(FigureRole::Overfetch) > 0, c.overfetch);
  EXPECT_TRUE(has_text(f, FigureRole::Total, "Sectors per request: " + std::to_string(c.sectors)));
  EXPECT_FALSE(f.texts(FigureRole::ByteOffset).empty());
  EXPECT_TRUE(f.texts(FigureRole::Source).empty()) << "no source line without one";
}

INSTANTIATE_TEST_SUITE_P(
    Scenarios, WarpFigures,
    ::testing::Values(WarpCase{"aligned", 4, false}, WarpCase{"misaligned", 5, true},
                      WarpCase{"stride-32", 32, true}, WarpCase{"transpose-naive", 32, true}),
    [](const auto& param_info) { return test_name(param_info.param.scenario); });

TEST_F(FigureTest, LabsNameThePanelsTheyHave) {
  const auto panels = [](const char* name) {
    const Scenario& s = find_scenario(name);
    const auto lab = lab_info(s.lab).make(false);
    lab->apply(s, std::nullopt);
    return figure_panel_list(lab->figures()->figure_panels());
  };
  EXPECT_EQ(panels("aligned"), "warp, heatmap, numbers");
  EXPECT_EQ(panels("bank-stride-32"), "banks, numbers");
  EXPECT_EQ(panels("transpose"), "banks, warp, tile, numbers");
  EXPECT_EQ(panels("transpose-naive"), "warp, numbers") << "no tile in shared memory";
  EXPECT_EQ(panels("carveout-l1"), "plot, numbers");
}

// --- SVG ----------------------------------------------------------------------------------------

// A colour property of an SVG element: an attribute (cairo 1.17.6+) or a style entry (1.16).
std::optional<viz::Rgb> svg_color(xmlNode* node, const std::string& property) {
  std::string value;
  if (xmlChar* a = xmlGetProp(node, reinterpret_cast<const xmlChar*>(property.c_str()))) {
    value = reinterpret_cast<const char*>(a);
    xmlFree(a);
  } else if (xmlChar* s = xmlGetProp(node, reinterpret_cast<const xmlChar*>("style"))) {
    const std::string style = reinterpret_cast<const char*>(s);
    xmlFree(s);
    const std::size_t at = (";" + style).find(";" + property + ":");
    if (at == std::string::npos) return std::nullopt;
    value = style.substr(at + property.size() + 1);
  }
  float r = 0, g = 0, b = 0;
  if (std::sscanf(value.c_str(), "rgb(%f%%,%f%%,%f%%)", &r, &g, &b) != 3) return std::nullopt;
  return viz::Rgb{r / 100, g / 100, b / 100};
}

bool same(viz::Rgb a, viz::Rgb b) {
  return std::abs(a.r - b.r) < 0.003f && std::abs(a.g - b.g) < 0.003f &&
         std::abs(a.b - b.b) < 0.003f;
}

struct SvgCounts {
  std::vector<std::string> texts;  // the <text> elements' contents, in document order
  int text_fonts_ok = 0;           // <text>s naming a DejaVu family
  int glyph_uses = 0;              // <use>s outside <defs> (cairo's glyph outlines)
  int conflict_strokes = 0;
  std::string root;
};

std::string attribute(xmlNode* node, const char* name) {
  xmlChar* a = xmlGetProp(node, reinterpret_cast<const xmlChar*>(name));
  if (!a) return {};
  std::string value = reinterpret_cast<const char*>(a);
  xmlFree(a);
  return value;
}

void walk(xmlNode* node, viz::Rgb conflict, SvgCounts& counts) {
  for (xmlNode* n = node; n; n = n->next) {
    if (n->type != XML_ELEMENT_NODE) continue;
    const std::string name = reinterpret_cast<const char*>(n->name);
    if (name == "defs") continue;  // the patterns (and glyph outlines, were there any)
    if (name == "text") {
      xmlChar* content = xmlNodeGetContent(n);
      counts.texts.emplace_back(content ? reinterpret_cast<const char*>(content) : "");
      xmlFree(content);
      counts.text_fonts_ok += attribute(n, "font-family").rfind("DejaVu Sans", 0) == 0;
      continue;
    }
    if (name == "use") ++counts.glyph_uses;
    if (name == "path") {
      const auto stroke = svg_color(n, "stroke");
      if (stroke && same(*stroke, conflict)) ++counts.conflict_strokes;
    }
    walk(n->children, conflict, counts);
  }
}

SvgCounts parse_svg(const std::string& svg, viz::Rgb conflict) {
  SvgCounts counts;
  xmlDoc* doc = xmlReadMemory(svg.data(), static_cast<int>(svg.size()), "figure.svg", nullptr,
                              XML_PARSE_NONET);
  if (!doc) {
    ADD_FAILURE() << "the SVG does not parse";
    return counts;
  }
  xmlNode* root = xmlDocGetRootElement(doc);
  counts.root = reinterpret_cast<const char*>(root->name);
  walk(root->children, conflict, counts);
  xmlFreeDoc(doc);
  return counts;
}

bool holds(const std::vector<std::string>& texts, const std::string& part) {
  for (const auto& t : texts)
    if (t.find(part) != std::string::npos) return true;
  return false;
}

TEST_F(FigureTest, SvgHoldsOneTextElementPerTextAndTheConflictFrames) {
  const viz::Theme& theme = viz::theme(viz::ThemeName::Light);
  for (const char* scenario : {"bank-stride-1", "bank-stride-32", "tile-column-32x33"}) {
    SCOPED_TRACE(scenario);
    const Panel p = panel_of(scenario, FigurePanel::Banks, "host model \u2022 test");
    const std::string svg = viz::render_figure(p.figure, viz::FigureFormat::Svg, 160);
    const SvgCounts counts = parse_svg(svg, theme.conflict);
    EXPECT_EQ(counts.root, "svg");
    std::vector<std::string> texts;
    int strokes = 0;
    for (const auto& item : p.figure.items) {
      if (const auto* t = std::get_if<viz::FigureText>(&item); t && !t->text.empty())
        texts.push_back(t->text);
      if (const auto* r = std::get_if<viz::FigureRect>(&item))
        strokes += r->stroke_width > 0 && same(r->stroke, theme.conflict);
    }
    // Real text (figure_cairo.h): one <text> per text primitive, its words as content, in order.
    EXPECT_EQ(counts.texts, texts);
    EXPECT_EQ(counts.text_fonts_ok, static_cast<int>(texts.size()));
    EXPECT_EQ(counts.glyph_uses, 0) << "no glyph outlines";
    EXPECT_TRUE(holds(counts.texts, "Wavefronts per request"));
    EXPECT_TRUE(holds(counts.texts, "host model \u2022 test"));
    EXPECT_EQ(counts.conflict_strokes, strokes);
    // The legend's conflict swatch, plus one frame per conflicting bank.
    EXPECT_EQ(counts.conflict_strokes,
              1 + static_cast<int>(p.figure.count(FigureRole::ConflictMark)));
  }
}

TEST_F(FigureTest, SvgTextKeepsFontAnchorAndColour) {
  viz::Figure f;
  f.width = 100;
  f.height = 50;
  f.background = {1, 1, 1};
  f.add(viz::FigureText{10,
                        20,
                        "a < b & \"c\"",
                        FigureRole::Label,
                        viz::FigureFont::Bold,
                        12,
                        {1, 0, 0},
                        viz::FigureAnchor::Center});
  f.add(viz::FigureText{90,
                        40,
                        "0x80",
                        FigureRole::ByteOffset,
                        viz::FigureFont::Mono,
                        8,
                        {0, 0, 1},
                        viz::FigureAnchor::Right});
  const std::string svg = viz::render_figure(f, viz::FigureFormat::Svg, 100);
  xmlDoc* doc = xmlReadMemory(svg.data(), static_cast<int>(svg.size()), "t.svg", nullptr, 0);
  ASSERT_NE(doc, nullptr) << svg;
  std::vector<xmlNode*> texts;
  const auto find = [&](auto&& self, xmlNode* n) -> void {
    for (; n; n = n->next) {
      if (n->type == XML_ELEMENT_NODE &&
          std::string(reinterpret_cast<const char*>(n->name)) == "text")
        texts.push_back(n);
      self(self, n->children);
    }
  };
  find(find, xmlDocGetRootElement(doc));
  ASSERT_EQ(texts.size(), 2u) << svg;
  xmlChar* content = xmlNodeGetContent(texts[0]);
  EXPECT_STREQ(reinterpret_cast<const char*>(content), "a < b & \"c\"");
  xmlFree(content);
  EXPECT_EQ(attribute(texts[0], "font-weight"), "bold");
  EXPECT_EQ(attribute(texts[0], "text-anchor"), "middle");
  EXPECT_EQ(attribute(texts[0], "fill"), "rgb(100%,0%,0%)");
  EXPECT_EQ(attribute(texts[1], "font-family").rfind("DejaVu Sans Mono", 0), 0u);
  EXPECT_EQ(attribute(texts[1], "text-anchor"), "end");
  // 100 mm = 283.465 pt over 100 units: x 90 units, baseline 40 + 0.36 x 8 units.
  const double pt = 100 / 25.4 * 72 / 100;
  EXPECT_NEAR(std::stod(attribute(texts[1], "x")), 90 * pt, 0.01);
  EXPECT_NEAR(std::stod(attribute(texts[1], "y")), (40 + 0.36 * 8) * pt, 0.01);
  EXPECT_NEAR(std::stod(attribute(texts[1], "font-size")), 8 * pt, 0.01);
  xmlFreeDoc(doc);
}

TEST_F(FigureTest, SvgOfAWarpPanelParses) {
  for (const char* scenario : {"aligned", "misaligned", "stride-32"}) {
    const Panel p = panel_of(scenario, FigurePanel::Warp);
    const SvgCounts counts = parse_svg(viz::render_figure(p.figure, viz::FigureFormat::Svg, 160),
                                       viz::theme(viz::ThemeName::Light).conflict);
    EXPECT_EQ(counts.root, "svg") << scenario;
    EXPECT_GT(counts.texts.size(), 40u) << scenario;
    EXPECT_TRUE(holds(counts.texts, "Sectors per request")) << scenario;
  }
}

// --- PDF ----------------------------------------------------------------------------------------

bool have_poppler() {
  return run_command("pdftotext -v").exit_code == 0 && run_command("pdfinfo -v").exit_code == 0;
}

TEST_F(FigureTest, PdfOpensAndHoldsTheFiguresText) {
  if (!have_poppler()) GTEST_SKIP() << "poppler-utils (pdfinfo, pdftotext) is not installed";
  const Panel p = panel_of("bank-stride-32", FigurePanel::Banks,
                           "host model \u2022 2025-01-01 \u2022 scenario");
  const std::string path = temp_path("bank-stride-32.pdf");
  viz::write_figure(p.figure, viz::FigureFormat::Pdf, 120, path);
  const auto info = run_command("pdfinfo " + path);
  EXPECT_EQ(info.exit_code, 0) << info.output;
  const std::size_t pages = info.output.find("Pages:");
  ASSERT_NE(pages, std::string::npos) << info.output;
  EXPECT_EQ(info.output[info.output.find_first_not_of(' ', pages + 6)], '1') << info.output;
  // 120 mm wide: 340.157 pt.
  EXPECT_NE(info.output.find("340.157 x"), std::string::npos) << info.output;
  EXPECT_NE(info.output.find("WarpLens"), std::string::npos) << "creator: " << info.output;
  const auto text = run_command("pdftotext " + path + " -");
  EXPECT_EQ(text.exit_code, 0);
  for (const char* part : {"Wavefronts per request: 32", "bank conflict", "lane", "host model",
                           "2025-01-01", "\u00d732"})
    EXPECT_NE(text.output.find(part), std::string::npos) << part << " in:\n" << text.output;
  std::remove(path.c_str());
}

// --- PNG ----------------------------------------------------------------------------------------

TEST_F(FigureTest, PngHasTheConflictColourWhereBankZeroIs) {
  const viz::Theme& theme = viz::theme(viz::ThemeName::Light);
  const Panel p = panel_of("bank-stride-32", FigurePanel::Banks);
  const std::string path = temp_path("bank-stride-32.png");
  viz::write_figure(p.figure, viz::FigureFormat::Png, 160, path);
  const test::Png png = test::load_png(path);
  ASSERT_TRUE(png.rgba);
  const viz::FigurePage page = viz::figure_page(p.figure, 160);
  EXPECT_EQ(png.width, page.width_px);
  EXPECT_EQ(png.height, page.height_px);
  EXPECT_NEAR(png.width, 160 / 25.4 * viz::kFigurePngDpi, 1);
  const auto pixel = [&](float x, float y) {
    return png.at(static_cast<int>(x * page.px_per_unit), static_cast<int>(y * page.px_per_unit));
  };
  std::vector<viz::Rect> headers;
  for (const auto& item : p.figure.items)
    if (const auto* r = std::get_if<viz::FigureRect>(&item); r && r->role == FigureRole::BankHeader)
      headers.push_back(r->rect);
  ASSERT_EQ(headers.size(), 32u);
  // Bank 0's header (clear of its number) in the conflict colour, bank 1's plain.
  EXPECT_TRUE(test::near(pixel(headers[0].x0 + 2, headers[0].y0 + 2), theme.conflict));
  EXPECT_FALSE(test::near(pixel(headers[1].x0 + 2, headers[1].y0 + 2), theme.conflict));
  EXPECT_TRUE(test::near(pixel(1, 1), theme.background));
  EXPECT_TRUE(test::near(pixel(p.figure.width - 2, p.figure.height - 2), theme.background));
  std::remove(path.c_str());
}

// --- the verb -----------------------------------------------------------------------------------

TEST(FigureCommand, WritesEachFormatAndRefusesAPanelTheScenarioLacks) {
  const std::string svg = temp_path("fig.svg"), pdf = temp_path("fig.pdf"),
                    png = temp_path("fig.png");
  auto r = run_command(kWarplens +
                       " render --model-only --scenario bank-stride-32 --panel banks "
                       "--out " +
                       svg);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("host model"), std::string::npos) << r.output;
  std::ifstream in(svg);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(parse_svg(text, viz::theme(viz::ThemeName::Light).conflict).root, "svg");

  r = run_command(kWarplens +
                  " render --model-only --scenario transpose --panel warp "
                  "--format pdf --width-mm 120 --no-caption --out " +
                  pdf);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  if (have_poppler()) {
    const auto t = run_command("pdftotext " + pdf + " -");
    EXPECT_NE(t.output.find("Sectors per request"), std::string::npos) << t.output;
    EXPECT_EQ(t.output.find("scenario transpose"), std::string::npos) << "--no-caption";
  }

  r = run_command(kWarplens +
                  " render --model-only --scenario misaligned --panel warp --theme "
                  "dark --out " +
                  png);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const test::Png image = test::load_png(png);
  ASSERT_TRUE(image.rgba);
  EXPECT_TRUE(test::near(image.at(2, 2), viz::theme(viz::ThemeName::Dark).background));

  r = run_command(kWarplens + " render --model-only --scenario aligned --panel banks --out " + svg);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("its panels: warp, heatmap, numbers"), std::string::npos) << r.output;
  r = run_command(kWarplens + " render --model-only --scenario aligned --panel warp --out x.eps");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  for (const auto& f : {svg, pdf, png}) std::remove(f.c_str());
}

}  // namespace
}  // namespace warplens::app
