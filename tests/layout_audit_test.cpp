// The layout audit (`warplens render --audit`, app/widgets/layout_audit.h): it finds what a
// projector would lose — a warp view squeezed until its strip runs off, a bank grid eliding a
// conflict's rows — and every built-in scenario reads whole in the sizes and scales a lecture
// hall uses (issue 13).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "test_support.h"

namespace warplens::test {
namespace {

struct Audit {
  int exit_code = -1;
  nlohmann::json report;
};

Audit audit(const std::string& args) {
  // stderr (the renderer's notes) apart from the JSON on stdout.
  const auto r =
      run_command("(" + kWarplens + " render --model-only --audit " + args + " 2>/dev/null)");
  Audit a;
  a.exit_code = r.exit_code;
  try {
    a.report = nlohmann::json::parse(r.output);
  } catch (const nlohmann::json::exception& e) {
    ADD_FAILURE() << "not JSON: " << e.what() << "\n" << r.output;
  }
  return a;
}

std::string failing_lines(const nlohmann::json& report, const char* except = nullptr) {
  std::string out;
  for (const auto& f : report["findings"]) {
    if (!f["fails"].get<bool>()) continue;
    if (except && f["text"].get<std::string>().rfind(except, 0) == 0) continue;
    out += f["scenario"].get<std::string>() + " [" + f["panel"].get<std::string>() + ", " +
           f["kind"].get<std::string>() + "] " + f["text"].get<std::string>() + "\n";
  }
  return out;
}

// The failing findings but the presenter column's legend below it: at 3x on the screens
// shorter than 1080 lines (1280x720, 1600x960) the column cannot hold its legend even at its
// least text size, and the audit says so (issue 32); a test of something else there checks
// that nothing else fails.
constexpr const char* kColumnLegendBelow = "presenter: the numbers' column runs";
std::string failing_but_the_column(const nlohmann::json& report) {
  return failing_lines(report, kColumnLegendBelow);
}

TEST(LayoutAudit, FindsAWarpViewTooShortForItsStripAndFails) {
  // The full layout forced at 3x in a small window: the view cannot hold lanes, strip and
  // labels, and the audit says so (exit 1) instead of drawing them over each other silently.
  const Audit a = audit("--scenario misaligned --size 900x560 --scale 3 --no-presenter");
  EXPECT_EQ(a.exit_code, 1);
  bool strip_hidden = false;
  for (const auto& f : a.report["findings"]) {
    if (f["panel"] == "view" && f["kind"] == "hidden" &&
        f["text"].get<std::string>().find("warp view") != std::string::npos)
      strip_hidden = f["fails"].get<bool>();
  }
  EXPECT_TRUE(strip_hidden) << a.report.dump(2);
  EXPECT_GT(a.report["failing"].get<int>(), 0);
}

TEST(LayoutAudit, FindsAPresenterLegendBelowItsColumnAndFails) {
  // Issue 32: at 3x the column beside the view ran its legend below the window (scrolled out of
  // a class's sight) on 41 of the scenarios at 1920x1080. 1280x720 at 3x is too short for the
  // latency ladder's even at the least text size: the audit says so, and fails.
  const Audit a = audit("--scenario flight-latency-ladder --size 1280x720 --scale 3");
  EXPECT_EQ(a.exit_code, 1);
  bool below = false;
  for (const auto& f : a.report["findings"])
    below = below ||
            (f["panel"] == "numbers" && f["kind"] == "hidden" && f["fails"] == true &&
             f["text"].get<std::string>().find("its legend out of sight") != std::string::npos);
  EXPECT_TRUE(below) << a.report.dump(2);
  // At 1920x1080 the column's text shrinks until the legend is in it.
  const Audit fits = audit("--scenario flight-latency-ladder --size 1920x1080 --scale 3");
  EXPECT_EQ(fits.exit_code, 0) << fits.report.dump(2);
}

TEST(LayoutAudit, KeepsTheLookForInThePresenterColumnOrSaysItIsOutOfSight) {
  // Issue 32: at 3x on 1920x1080 the look-for, the lesson in a sentence, ran below the column on
  // 23 scenarios (aos, matrix-columns, the flight screens): the column's text now shrinks for it
  // as for the legend. 1280x720 at 3x is too short for it even at the least text size: the
  // audit says so, and fails.
  const auto look_for_below = [](const nlohmann::json& report) {
    for (const auto& f : report["findings"])
      if (f["panel"] == "numbers" && f["kind"] == "hidden" && f["fails"] == true &&
          f["text"].get<std::string>().find("its look-for out of sight") != std::string::npos)
        return true;
    return false;
  };
  const Audit short_screen = audit("--scenario stride-2 --size 1280x720 --scale 3");
  EXPECT_EQ(short_screen.exit_code, 1);
  EXPECT_TRUE(look_for_below(short_screen.report)) << short_screen.report.dump(2);
  // An A/B scenario's column has its look-for too (it had none), measured the same way.
  const Audit compare = audit("--scenario kernel-soa --size 1280x720 --scale 3");
  EXPECT_TRUE(look_for_below(compare.report)) << compare.report.dump(2);
  for (const char* scenario : {"aos", "flight-one-float", "ab-aligned-vs-stride-2"}) {
    const Audit fits = audit(std::string("--scenario ") + scenario + " --size 1920x1080 --scale 3");
    EXPECT_EQ(fits.exit_code, 0) << scenario << "\n" << fits.report.dump(2);
    EXPECT_FALSE(look_for_below(fits.report)) << scenario;
  }
}

TEST(LayoutAudit, FindsTableHeadersEllipsizedInTheNumbers) {
  const Audit a = audit("--scenario bank-stride-32 --size 1280x720 --scale 2 --no-presenter");
  EXPECT_EQ(a.exit_code, 1);
  bool header_cut = false;
  for (const auto& f : a.report["findings"]) {
    header_cut = header_cut || (f["panel"] == "numbers" && f["kind"] == "ellipsized" &&
                                f["text"].get<std::string>().find("table header") == 0);
  }
  EXPECT_TRUE(header_cut) << a.report.dump(2);
}

TEST(LayoutAudit, AThirtyTwoWayConflictKeepsAllThirtyTwoRowsOnAProjector) {
  // Issue 13: at 2x on 1920x1080 the grid used to collapse to one row ("+31 more rows").
  for (const char* scale : {"2", "3"}) {
    SCOPED_TRACE(scale);
    const Audit a =
        audit(std::string("--scenario bank-stride-32 --size 1920x1080 --scale ") + scale);
    for (const auto& f : a.report["findings"]) {
      EXPECT_EQ(f["text"].get<std::string>().find("bank grid"), std::string::npos) << f.dump();
    }
    EXPECT_EQ(a.exit_code, 0) << failing_lines(a.report);
  }
}

// Lanes whose colour covers at least `least` pixels in the band of rows [y0, y1) of the left
// `x1` columns (light theme).
int lanes_drawn(const Png& png, int x1, int y0, int y1, int least) {
  int n = 0;
  for (const viz::Rgb& lane : viz::theme(viz::ThemeName::Light).lanes)
    n += count_near_in(png, lane, 0, y0, x1, y1) >= least;
  return n;
}

TEST(LayoutAudit, AConflictingBanksWordsStayInItsColumnOnAProjector) {
  // At 3x on 1920x1080 a bank's column is some 20 px wide: the conflict frame and the gaps
  // around the boxes must leave the stacked words their lane colours, not an empty orange frame
  // (and the audit fails where they do not).
  for (const char* scale : {"2", "3"}) {
    SCOPED_TRACE(scale);
    for (const char* scenario :
         {"bank-stride-2", "bank-stride-32", "tile-column-32x32", "reduction-interleaved"}) {
      SCOPED_TRACE(scenario);
      const Audit a =
          audit(std::string("--scenario ") + scenario + " --size 1920x1080 --scale " + scale);
      for (const auto& f : a.report["findings"])
        EXPECT_EQ(f["text"].get<std::string>().find("not drawn"), std::string::npos) << f.dump();
      EXPECT_EQ(a.exit_code, 0) << failing_lines(a.report);
    }
  }
  // stride 2: lane k's word is in bank 2k mod 32, row k / 16; all 32 lanes' colours show in the
  // grid under the lane row (which takes the top third of the view).
  const std::string png = temp_path("stride-2.png");
  ASSERT_EQ(run_command(kWarplens +
                        " render --model-only --scenario bank-stride-2 --size 1920x1080 "
                        "--scale 3 --theme light --out " +
                        png)
                .exit_code,
            0);
  const Png image = load_png(png);
  EXPECT_EQ(lanes_drawn(image, image.width * 55 / 100, image.height * 45 / 100,
                        image.height * 78 / 100, 100),
            32);
  std::remove(png.c_str());
}

const char* const kCompareScenarios[] = {"ab-aligned-vs-stride-2",       "ab-tile-32x32-vs-32x33",
                                         "ab-transpose-tiled-vs-padded", "kernel-transpose-padded",
                                         "kernel-reduction-sequential",  "kernel-soa"};

TEST(LayoutAudit, ACompareDrawsBothPanesOnA1920x1080Projector) {
  // 2x: two bank grids side by side, two warp views one over the other, the numbers beside;
  // 3x: the grids over the whole width with the numbers in a band under them, the warp views
  // stacked. Never one pane beside both sides' numbers.
  for (const char* scale : {"2", "3"}) {
    SCOPED_TRACE(scale);
    for (const char* scenario : kCompareScenarios) {
      SCOPED_TRACE(scenario);
      const Audit a =
          audit(std::string("--scenario ") + scenario + " --size 1920x1080 --scale " + scale);
      for (const auto& f : a.report["findings"])
        EXPECT_EQ(f["text"].get<std::string>().find("A/B compare"), std::string::npos) << f.dump();
      EXPECT_EQ(a.exit_code, 0) << failing_lines(a.report);
    }
  }
}

TEST(LayoutAudit, FindsACompareThatShowsOneSideAtATime) {
  // 1280x720 at 3x has room for one view only: the audit says which pane is missing, and fails.
  const Audit a = audit("--scenario ab-tile-32x32-vs-32x33 --size 1280x720 --scale 3");
  EXPECT_EQ(a.exit_code, 1);
  bool missing = false;
  for (const auto& f : a.report["findings"])
    missing =
        missing || (f["panel"] == "view" && f["kind"] == "hidden" && f["fails"] == true &&
                    f["text"].get<std::string>().rfind("A/B compare: pane A not drawn", 0) == 0);
  EXPECT_TRUE(missing) << a.report.dump(2);
}

TEST(LayoutAudit, ACompareShowingOneSideKeepsTheRatioAndBothSidesCountsOnScreen) {
  // 1280x720 and 1600x960 at 3x: one view at a time. The ratio heads the column (the scenario's
  // title pushed it below the column at 1280x720), then a row per side with its model's count
  // (the side shown highlighted, the strip's "side" flips it). The audit fails where the ratio
  // or the sides' rows are below the column; the pane left out stays its only finding (but the
  // column's legend below it, which these screens cannot hold: failing_but_the_column).
  for (const char* size : {"1280x720", "1600x960"}) {
    SCOPED_TRACE(size);
    for (const char* scenario : kCompareScenarios) {
      SCOPED_TRACE(scenario);
      const Audit a =
          audit(std::string("--scenario ") + scenario + " --size " + size + " --scale 3");
      int pane = 0;
      for (const auto& f : a.report["findings"]) {
        const std::string text = f["text"].get<std::string>();
        EXPECT_EQ(text.find("B / A ratio"), std::string::npos) << f.dump();
        EXPECT_EQ(text.find("sides' rows"), std::string::npos) << f.dump();
        if (f["fails"].get<bool>() && text.rfind(kColumnLegendBelow, 0) != 0) {
          EXPECT_EQ(text.rfind("A/B compare: pane A not drawn", 0), 0u) << f.dump();
          ++pane;
        }
      }
      EXPECT_EQ(pane, 1) << a.report.dump(2);
    }
  }
}

TEST(LayoutAudit, ThePresenterLayoutIsAutomaticOnAProjectorAndEitherWayOnRequest) {
  // 2x and 3x on a 1920x1080 projector, 1.5x on 1280x720: the presenter layout; 1x: the full
  // one; --presenter / --no-presenter override either way.
  const auto layout = [](const std::string& args) {
    return audit("--scenario misaligned " + args).report.value("layout", std::string("?"));
  };
  EXPECT_EQ(layout("--size 1920x1080 --scale 1"), "full");
  EXPECT_EQ(layout("--size 1920x1080 --scale 2"), "presenter");
  EXPECT_EQ(layout("--size 1920x1080 --scale 3"), "presenter");
  EXPECT_EQ(layout("--size 1280x720 --scale 1.5"), "presenter");
  EXPECT_EQ(layout("--size 1920x1080 --scale 1 --presenter"), "presenter");
  EXPECT_EQ(layout("--size 1920x1080 --scale 2 --no-presenter"), "full");
}

// The scenarios with a 2D tile beside their bank grid.
const char* const kTileScenarios[] = {"tile-column-32x32", "tile-column-32x33", "tile-swizzle",
                                      "transpose", "matmul"};

TEST(LayoutAudit, ATileViewStaysOnA1920x1080Projector) {
  // Issue 32: at 3x the tile used to give way to the bank grid, so 32x33 and the swizzle looked
  // like the conflicting tile. The audit fails on a tile view left out unasked.
  for (const char* scale : {"2", "3"}) {
    SCOPED_TRACE(scale);
    for (const char* scenario : kTileScenarios) {
      SCOPED_TRACE(scenario);
      const Audit a =
          audit(std::string("--scenario ") + scenario + " --size 1920x1080 --scale " + scale);
      for (const auto& f : a.report["findings"]) EXPECT_NE(f["kind"], "missing") << f.dump();
      EXPECT_EQ(a.exit_code, 0) << failing_lines(a.report);
    }
  }
}

TEST(LayoutAudit, FindsATitleCutInThePresenterStripAndFails) {
  // A lecture starts from the scenario's name: a title the strip shows only in part (with an
  // ellipsis) fails the audit, wherever else it is written. 960x540 at 3x leaves a title of
  // this length no room for two lines beside the device.
  const Audit a = audit("--scenario caching-load-misaligned --size 960x540 --scale 3");
  EXPECT_EQ(a.exit_code, 1);
  bool cut = false;
  for (const auto& f : a.report["findings"])
    cut = cut ||
          (f["panel"] == "title" && f["kind"] == "ellipsized" && f["fails"] == true &&
           f["text"].get<std::string>().find("the title cut in its picker") != std::string::npos);
  EXPECT_TRUE(cut) << a.report.dump(2);
}

TEST(LayoutAudit, AChartWithoutAGpuDrawsTheModel) {
  // Issue 32: without a GPU the L1 sweep, the latency ladder and the constant cache drew an empty
  // frame under a red paragraph; the model knows the L1 knees, the levels' sizes and the reads.
  for (const char* scenario : {"carveout-l1", "flight-latency-ladder", "constant-broadcast"}) {
    SCOPED_TRACE(scenario);
    const Audit a = audit(std::string("--scenario ") + scenario + " --size 1920x1080 --scale 2");
    for (const auto& f : a.report["findings"])
      EXPECT_EQ(f["text"].get<std::string>().find("chart is empty"), std::string::npos) << f.dump();
    EXPECT_EQ(a.exit_code, 0) << failing_lines(a.report);
  }
}

TEST(LayoutAudit, AWarpSplitIntoRequestsMarksEachRequest) {
  // Issue 32: word-8-kepler drew word-8's picture while its table said 2 requests. Each request
  // of a historical model's split is bracketed under its lanes, on a desk and on a projector.
  for (const char* args : {"--size 1920x1080 --scale 2", "--size 1920x1080 --scale 3",
                           "--size 1280x720 --scale 3", "--size 1600x960 --no-presenter"}) {
    SCOPED_TRACE(args);
    const Audit a = audit(std::string("--scenario word-8-kepler ") + args);
    for (const auto& f : a.report["findings"])
      EXPECT_EQ(f["text"].get<std::string>().find("requests; their lane"), std::string::npos)
          << f.dump();
    EXPECT_EQ(failing_but_the_column(a.report), "");
  }
}

TEST(LayoutAudit, AWarpViewsByteOffsetsStepEvenly) {
  // Issue 32: stride-32's 32 lines were labelled 0, 128, 384, 640... where labels were thinned.
  for (const char* args : {"--size 1920x1080 --scale 2", "--size 1920x1080 --scale 3",
                           "--size 1280x720 --scale 2", "--size 1280x720 --scale 3"}) {
    SCOPED_TRACE(args);
    const Audit a = audit(std::string("--scenario stride-32 ") + args);
    for (const auto& f : a.report["findings"])
      EXPECT_EQ(f["text"].get<std::string>().find("uneven steps"), std::string::npos) << f.dump();
    EXPECT_EQ(failing_but_the_column(a.report), "");
  }
}

TEST(LayoutAudit, EachWarpsSectorBandIsLabelled) {
  // Issue 32: warps-misaligned drew four bands of sectors, one per warp, none named.
  for (const char* args :
       {"--size 1920x1080 --scale 2", "--size 1920x1080 --scale 3", "--size 1280x720 --scale 2",
        "--size 1280x720 --scale 3", "--size 1600x960 --no-presenter"}) {
    SCOPED_TRACE(args);
    const Audit a = audit(std::string("--scenario warps-misaligned ") + args);
    for (const auto& f : a.report["findings"])
      EXPECT_EQ(f["text"].get<std::string>().find("bands (one per warp)"), std::string::npos)
          << f.dump();
    EXPECT_EQ(failing_but_the_column(a.report), "");
  }
}

TEST(LayoutAudit, ABrokenAxisIsExplainedAndItsTicksRead) {
  // Issue 32: the broken-axis strips left the break unexplained and ticked 8-digit byte counts.
  for (const char* scenario : {"scattered", "matrix-columns", "transpose-naive",
                               "kernel-transpose-naive", "kernel-matrix-columns"}) {
    for (const char* args : {"--size 1920x1080 --scale 2", "--size 1280x720 --scale 3"}) {
      SCOPED_TRACE(std::string(scenario) + " " + args);
      const Audit a = audit(std::string("--scenario ") + scenario + " " + args);
      for (const auto& f : a.report["findings"]) {
        EXPECT_EQ(f["text"].get<std::string>().find("axis break"), std::string::npos) << f.dump();
        EXPECT_EQ(f["text"].get<std::string>().find("digits"), std::string::npos) << f.dump();
      }
      EXPECT_EQ(failing_but_the_column(a.report), "");
    }
  }
}

// Pale pixels of several hues (the tile view's bank tints, light theme) left of the numbers.
int tinted_pixels(const Png& png) {
  int n = 0;
  for (int y = png.height / 8; y < png.height * 7 / 8; ++y)
    for (int x = 0; x < png.width / 2; ++x) {
      const unsigned char* p = png.at(x, y);
      const int hi = std::max({p[0], p[1], p[2]}), lo = std::min({p[0], p[1], p[2]});
      n += lo >= 150 && hi - lo >= 40;
    }
  return n;
}

TEST(LayoutAudit, ATileAsStoredTakesTheGridsPlaceOnAProjector) {
  // tile[32][33] at 3x on 1920x1080: no room for the tile beside the bank grid, so the tile
  // stands in the grid's place with the grid's count under it (the window's key T shows the
  // grid); --as-stored asks for the same. Both read whole.
  const std::string png = temp_path("grid.png"), stored = temp_path("stored.png");
  const std::string args = " --model-only --scenario tile-column-32x33 --size 1920x1080 --scale 3";
  ASSERT_EQ(run_command(kWarplens + " render" + args + " --out " + png).exit_code, 0);
  ASSERT_EQ(run_command(kWarplens + " render" + args + " --as-stored --out " + stored).exit_code,
            0);
  const int shown = tinted_pixels(load_png(png)), tile = tinted_pixels(load_png(stored));
  EXPECT_GT(shown, 50000);  // 32 x 33 tinted words (the grid alone: under 2000)
  EXPECT_GT(tile, 50000);
  const Audit a = audit("--scenario tile-column-32x33 --size 1920x1080 --scale 3 --as-stored");
  EXPECT_EQ(a.exit_code, 0) << failing_lines(a.report);
  // At 1x there is room for both: the tile stands beside the grid either way.
  ASSERT_EQ(run_command(kWarplens +
                        " render --model-only --scenario tile-column-32x33 --size "
                        "1920x1080 --out " +
                        png)
                .exit_code,
            0);
  EXPECT_GT(tinted_pixels(load_png(png)), 20000);
  std::remove(png.c_str());
  std::remove(stored.c_str());
}

// Every built-in scenario: nothing in a view or in the numbers is cut, elided or drawn over
// something else; the title is whole (in the presenter strip's picker, on two lines if need be,
// or at the head of the numbers) and the device badge stays (issue 32); the strip's knobs are
// never cut off its end. The parameter panel may scroll. The theme changes colours, not places:
// each configuration is drawn in one theme, the two alternating.
struct Configuration {
  const char* size;
  const char* scale;
  const char* theme;
};

class EveryScenario : public ::testing::TestWithParam<Configuration> {};

// A/B compare shows one side at a time only where not even two stacked views fit: at 3x on
// the projectors smaller than 1920x1080 (533x320 and 427x240 lines of room). The audit fails
// there too, on that finding, and on the presenter's column of numbers whose legend runs below
// it (its text shrinks only down to 2x's share of a 1080-line screen): those two alone.
bool one_side_at_a_time(const Configuration& c) {
  return std::string(c.scale) == "3" && std::string(c.size) != "1920x1080";
}

TEST_P(EveryScenario, ReadsWhole) {
  const Audit a = audit(std::string("--all --size ") + GetParam().size + " --scale " +
                        GetParam().scale + " --theme " + GetParam().theme);
  int flipped = 0;
  nlohmann::json others = a.report;
  others["findings"] = nlohmann::json::array();
  for (const auto& f : a.report["findings"]) {
    // The strip's knobs keep one line (their labels give way first): a clip there does not
    // fail the audit, which counts views and numbers, so it is checked here.
    EXPECT_EQ(f["text"].get<std::string>().find("presenter-strip"), std::string::npos) << f.dump();
    const std::string text = f["text"].get<std::string>();
    if (f["fails"].get<bool>() && one_side_at_a_time(GetParam()) &&
        (text.rfind("A/B compare: pane", 0) == 0 || text.rfind(kColumnLegendBelow, 0) == 0)) {
      ++flipped;
    } else {
      others["findings"].push_back(f);
    }
  }
  EXPECT_EQ(a.report["failing"].get<int>(), flipped) << failing_lines(others);
  EXPECT_EQ(a.exit_code, flipped > 0 ? 1 : 0);
}

// The sizes of lecture halls' projectors (and a common laptop) at every UI scale the status bar
// offers: 12 configurations, six in each theme.
INSTANTIATE_TEST_SUITE_P(
    Projectors, EveryScenario,
    ::testing::Values(
        Configuration{"1280x720", "1", "light"}, Configuration{"1280x720", "1.5", "dark"},
        Configuration{"1280x720", "2", "light"}, Configuration{"1280x720", "3", "dark"},
        Configuration{"1600x960", "1", "dark"}, Configuration{"1600x960", "1.5", "light"},
        Configuration{"1600x960", "2", "dark"}, Configuration{"1600x960", "3", "light"},
        Configuration{"1920x1080", "1", "light"}, Configuration{"1920x1080", "1.5", "dark"},
        Configuration{"1920x1080", "2", "dark"}, Configuration{"1920x1080", "3", "light"}),
    [](const ::testing::TestParamInfo<Configuration>& param) {
      std::string name =
          std::string(param.param.size) + "_scale" + param.param.scale + "_" + param.param.theme;
      for (char& c : name)
        if (c == '.') c = '_';
      return name;
    });

}  // namespace
}  // namespace warplens::test
