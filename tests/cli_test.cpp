// The command-line contract (design.md): analyze JSON, exit codes and messages for bad input,
// headless render to PNG on Mesa, and the GLFW window under Xvfb.
#include <gtest/gtest.h>
#include <unistd.h>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "test_support.h"

namespace warplens::test {
namespace {

nlohmann::json analyze(const std::string& args) {
  const auto r = run_command(kWarplens + " analyze --format json " + args);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  return nlohmann::json::parse(r.output);
}

TEST(AnalyzeCli, GlobalJsonHoldsTheContractFields) {
  const auto j = analyze("--space global --op load --word-bytes 4 --index 'lane + 1'");
  EXPECT_EQ(j["sectors_per_request"], 5);
  EXPECT_EQ(j["lines_per_request"], 2);
  EXPECT_EQ(j["requested_bytes"], 128);
  EXPECT_EQ(j["moved_bytes"], 160);
  EXPECT_DOUBLE_EQ(j["efficiency"].get<double>(), 0.8);
  ASSERT_EQ(j["lanes"].size(), 32u);
  EXPECT_EQ(j["lanes"][0]["index"], 1);
  EXPECT_EQ(j["lanes"][0]["address"], 4);
  EXPECT_EQ(j["lanes"][31]["address"], 128);
  EXPECT_EQ(j["lanes"][31]["sector"], 4);
  EXPECT_EQ(j["transactions_per_request"], 5);
  EXPECT_EQ(j["transaction_bytes"], 32);
}

TEST(AnalyzeCli, SharedJsonGivesWavefrontsAndBanks) {
  const auto j = analyze("--space shared --word-bytes 4 --index 'tx*33' --block 32x32");
  EXPECT_EQ(j["wavefronts_per_request"], 1);
  const auto conflict = analyze("--space shared --word-bytes 4 --index 'tx*32' --block 32x32");
  EXPECT_EQ(conflict["wavefronts_per_request"], 32);
  EXPECT_EQ(conflict["lanes"][5]["bank"], 0);
  const auto broadcast = analyze("--space shared --index 7");
  EXPECT_EQ(broadcast["wavefronts_per_request"], 1);
  EXPECT_EQ(broadcast["broadcast"], true);
  EXPECT_EQ(broadcast["requested_bytes"], 4);  // one word, counted once
}

TEST(AnalyzeCli, UsesBlockAndWarpForThreadCoordinates) {
  const auto j = analyze("--index 'ty*1000 + tx' --block 16x4 --warp 1");
  EXPECT_EQ(j["lanes"][0]["index"], 2000);  // tid 32 = (tx 0, ty 2)
  EXPECT_EQ(j["lanes"][17]["index"], 3001);
}

TEST(AnalyzeCli, ReadsBlockIndexAndGrid) {
  EXPECT_EQ(analyze("--index 'bx*bdx + lane + gdx*by'")["lanes"][3]["index"], 3);  // 0 / 1
  const auto j = analyze("--index '(by*gdx + bx)*bdx + lane' --grid 4x2 --block-index 3x1");
  EXPECT_EQ(j["lanes"][0]["index"], (1 * 4 + 3) * 32);
  EXPECT_EQ(j["grid"], "4x2");
  EXPECT_EQ(j["block_index"], "3x1");
}

TEST(AnalyzeCli, HistoricalModelsReportTransactions) {
  const auto fermi = analyze("--model fermi-ca --index 'lane + 1'");
  EXPECT_EQ(fermi["transactions_per_request"], 2);
  EXPECT_EQ(fermi["transaction_bytes"], 128);
  const auto g80 = analyze("--model g80 --index lane");
  EXPECT_EQ(g80["requests"], 2);
  EXPECT_EQ(g80["transactions_per_request"], 2);
  EXPECT_EQ(g80["transaction_bytes"], 64);
}

TEST(AnalyzeCli, TextFormatShowsTheSameNumbers) {
  const auto r = run_command(kWarplens + " analyze --index '2*lane'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("sectors per request 8"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("bytes used          50.0 %"), std::string::npos) << r.output;
}

struct BadInput {
  std::string args;
  std::string message;  // must appear in the one-line error
};

void PrintTo(const BadInput& b, std::ostream* os) {
  *os << b.args;
}

class BadInputTest : public ::testing::TestWithParam<BadInput> {};

TEST_P(BadInputTest, ExitsNonZeroWithAClearMessage) {
  const auto r = run_command(kWarplens + " " + GetParam().args);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(GetParam().message), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("Assertion"), std::string::npos) << r.output;
}

INSTANTIATE_TEST_SUITE_P(
    Cli, BadInputTest,
    ::testing::Values(
        BadInput{"analyze --index 'lane - 3'", "gives -3 for lane 0"},
        BadInput{"analyze --index 'lane +'", "cannot parse index expression"},
        BadInput{"analyze --index 'bz'", "cannot parse"},
        BadInput{"analyze --index bx --grid 2x1 --block-index 2x0", "is not in grid 2x1"},
        BadInput{"analyze --index bx --block-index -1x0", "block index must be XxY"},
        BadInput{"analyze --index lane --word-bytes 3", "word bytes must be 1, 2, 4, 8 or 16"},
        BadInput{"analyze --index lane --space local", "space must be global or shared"},
        BadInput{"analyze --index lane --block 32x0", "block must be XxY"},
        BadInput{"analyze --index lane --block 1788246478x32", "is not a CUDA block shape"},
        BadInput{"measure --lab banks --block 65536x65536", "at most 1024 threads"},
        BadInput{"analyze --index lane --warp 1", "warp 1 is not in block 32x1"},
        BadInput{"analyze --index lane --model volta", "model must be"},
        BadInput{"analyze --index 'lane / 0'", "division by zero"},
        BadInput{"render --out /tmp/x.png --scenario nope", "unknown scenario \"nope\""},
        BadInput{"render --out /tmp/x.png --size 0x100", "outside 1..8192"},
        BadInput{"render --out /tmp/x.png --size 9000x100", "outside 1..8192"},
        BadInput{"render --out /tmp/x.png --size big", "size must be WxH"},
        BadInput{"measure --word-bytes 3", "word bytes must be 1, 2, 4, 8 or 16"},
        BadInput{"measure --scenario nope", "unknown scenario \"nope\""},
        BadInput{"measure --pattern spiral", "pattern must be strided"},
        BadInput{"render --out /tmp/x.png --view pie", "view must be numbers"},
        BadInput{"measure --lab banks --pattern tile --pitch 8", "pitch"},
        BadInput{"measure --lab banks --stride -1", "stride"},
        BadInput{"measure --lab banks --block 32x32 --stride 300", "KiB of shared memory"},
        BadInput{"measure --lab transpose --tile 12", "tile"},
        BadInput{"measure --lab transpose --tile 32 --rows-per-block 5", "rows"},
        BadInput{"measure --lab transpose --n 1000", "multiple"},
        BadInput{"measure --lab matmul --block-size 7",
                 "block size must be 0 (naive), 8, 16 or 32"},
        BadInput{"measure --lab reduction --block-threads 100", "power of two"},
        BadInput{"measure --lab banks --pattern spiral", "pattern must be"},
        BadInput{"measure --lab flight --copy-bytes -1", "copy-bytes"},
        BadInput{"measure --lab shared", "lab"}, BadInput{"frobnicate", "frobnicate"}));

TEST(AnalyzeCli, SharedScenariosGiveTheWavefrontsTheirPresetsPromise) {
  // The same numbers the window's bank lab shows (shared_pattern_test checks the window's
  // host twin against these expressions).
  EXPECT_EQ(analyze("--space shared --index 'tx'")["wavefronts_per_request"], 1);
  EXPECT_EQ(analyze("--space shared --index '2*tx'")["wavefronts_per_request"], 2);
  EXPECT_EQ(analyze("--space shared --index '32*tx'")["wavefronts_per_request"], 32);
  EXPECT_EQ(analyze("--space shared --block 32x32 --index 'tx*32 + (ty ^ (tx % 32))'")
                ["wavefronts_per_request"],
            1);
  const auto wide = analyze("--space shared --word-bytes 16 --index 'tx'");
  EXPECT_EQ(wide["wavefronts_per_request"], 4);
}

TEST(VersionCli, PrintsTheVersionAndWhatCudaItFound) {
  const auto r = run_command(kWarplens + " --version");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("warplens 0."), std::string::npos) << r.output;
  // Built with CUDA: the runtime's version; without: says so. Either way a device line or why.
  EXPECT_TRUE(r.output.find("CUDA runtime ") != std::string::npos ||
              r.output.find("built without the CUDA toolkit") != std::string::npos)
      << r.output;
}

TEST(ListCli, PrintsTheCatalog) {
  const auto r = run_command(kWarplens + " list");
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_NE(r.output.find("aligned"), std::string::npos);
  EXPECT_NE(r.output.find("misaligned"), std::string::npos);
}

TEST(ListCli, NamesEverySharedLabScenario) {
  const auto r = run_command(kWarplens + " list");
  ASSERT_EQ(r.exit_code, 0);
  for (const char* name : {"bank-stride-1", "bank-stride-2", "bank-stride-32", "bank-broadcast",
                           "tile-column-32x32", "tile-column-32x33", "tile-swizzle", "bank-word-8",
                           "bank-word-16", "transpose", "matmul", "reduction-interleaved",
                           "reduction-sequential", "reduction-divergent", "transpose-naive"}) {
    EXPECT_NE(r.output.find(name), std::string::npos) << name;
  }
}

TEST(MeasureCli, SharedLabsWithoutAGpuExitWithCodeThree) {
  const auto probe = run_command(kWarplens + " measure --lab transpose --format json");
  if (probe.exit_code == 0) GTEST_SKIP() << "a CUDA device is present";
  EXPECT_EQ(probe.exit_code, 3) << probe.output;
  const auto scenario = run_command(kWarplens + " measure --scenario tile-column-32x33");
  EXPECT_EQ(scenario.exit_code, 3) << scenario.output;
}

TEST(MeasureCli, FlightCopyBytesIsAnOptionOfTheFlightLab) {
  // Parsed and handed to the lab: without a GPU the run stops at the device (3), not at the
  // option (2).
  const auto probe = run_command(kWarplens +
                                 " measure --lab flight --section littles-law --copy-bytes "
                                 "16777216 --format json");
  if (probe.exit_code == 0) GTEST_SKIP() << "a CUDA device is present";
  EXPECT_EQ(probe.exit_code, 3) << probe.output;
}

TEST(MeasureCli, SetIsReadThroughTheLabsTableBeforeAnyDeviceIsAskedFor) {
  // Refusals come before the device: exit 2 (bad input) with the reason, on any machine.
  const auto alone = run_command(kWarplens + " measure --set stride=3");
  EXPECT_EQ(alone.exit_code, 2) << alone.output;
  EXPECT_NE(alone.output.find("--scenario NAME or --preset FILE"), std::string::npos)
      << alone.output;
  const auto typo = run_command(kWarplens + " measure --scenario stride-2 --set strid=3");
  EXPECT_EQ(typo.exit_code, 2) << typo.output;
  EXPECT_NE(typo.output.find("reads no key \"strid\""), std::string::npos) << typo.output;
  const auto mistyped =
      run_command(kWarplens + " measure --scenario bank-stride-2 --set stride=two");
  EXPECT_EQ(mistyped.exit_code, 2) << mistyped.output;
  EXPECT_NE(mistyped.output.find("stride"), std::string::npos) << mistyped.output;
  const auto both = run_command(kWarplens + " measure --scenario stride-2 --preset x.toml");
  EXPECT_EQ(both.exit_code, 2) << both.output;
  const auto missing = run_command(kWarplens + " measure --preset " + temp_path("none.toml"));
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_NE(missing.output.find("none.toml"), std::string::npos) << missing.output;
}

TEST(MeasureCli, SetIsRefusedWhereMeasureSweepsASectionInstead) {
  // The cache and flight labs' measure runs a section's sweep: a knob of one point would be
  // silently ignored, so it is refused (2) before the device is asked for.
  for (const char* args : {"--scenario carveout-l1 --set carveout=25",
                           "--scenario flight-one-float --set loads_per_thread=2"}) {
    const auto r = run_command(kWarplens + " measure " + args);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.output;
    EXPECT_NE(r.output.find("--set: the"), std::string::npos) << args << ": " << r.output;
  }
}

TEST(MeasureCli, ALabsOwnPresetOptionTakesOnlyThatLabsPreset) {
  // --kernel FILE (the own-kernel lab's LabInfo::preset_option), for measure and render.
  const std::string banks = temp_path("own-option-banks.toml");
  std::ofstream(banks) << "name = \"b\"\nlab = \"banks\"\ntitle = \"B\"\nsummary = \"B.\"\n"
                          "[banks]\npattern = \"strided\"\nstride = 2\n";
  const std::string kernel = temp_path("own-option-kernel.toml");
  std::ofstream(kernel) << "name = \"k\"\nlab = \"kernel\"\ntitle = \"K\"\nsummary = \"K.\"\n"
                           "[kernel]\nblock = [256, 1]\n[[kernel.rows]]\nspace = \"in\"\n"
                           "op = \"load\"\nindex = \"tx\"\n";
  const auto measured = run_command(kWarplens + " measure --kernel " + banks);
  EXPECT_EQ(measured.exit_code, 2) << measured.output;
  EXPECT_NE(measured.output.find("--kernel takes a preset of the kernel lab"), std::string::npos)
      << measured.output;
  const auto drawn = run_command(kWarplens + " render --model-only --kernel " + banks + " --out " +
                                 temp_path("own-option-banks.png"));
  EXPECT_EQ(drawn.exit_code, 2) << drawn.output;
  EXPECT_NE(drawn.output.find("not \"kernel\""), std::string::npos) << drawn.output;
  const auto own = run_command(kWarplens + " render --model-only --kernel " + kernel + " --out " +
                               temp_path("own-option-kernel.png"));
  EXPECT_EQ(own.exit_code, 0) << own.output;
  EXPECT_NE(own.output.find("own-kernel lab"), std::string::npos) << own.output;
}

TEST(MeasureCli, WithoutAGpuExitsNonZeroWithAReason) {
  const auto probe = run_command(kWarplens + " measure --runs 10 --format json");
  if (probe.exit_code == 0) GTEST_SKIP() << "a CUDA device is present";
  EXPECT_EQ(probe.exit_code, 3) << probe.output;
  EXPECT_NE(probe.output.find("warplens measure:"), std::string::npos) << probe.output;
}

// --- headless render (Mesa EGL here, NVIDIA EGL on the GPU machine) ------------------------------

TEST(RenderCli, WritesAPngOfTheRequestedSizeWithTheModelBanner) {
  const std::string out = temp_path("render.png");
  const auto r = run_command(kWarplens + " render --model-only --out " + out + " --size 1280x800");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("host model"), std::string::npos) << r.output;
  const Png png = load_png(out);
  ASSERT_TRUE(png.rgba);
  EXPECT_EQ(png.width, 1280);
  EXPECT_EQ(png.height, 800);
  const auto& light = viz::theme(viz::ThemeName::Light);
  // The background is the theme's, and the aligned default has lane colours but no over-fetch.
  EXPECT_GT(count_near(png, light.background), png.width * png.height / 4);
  EXPECT_GT(count_near(png, light.lanes[0], 2), 100);
  EXPECT_GT(count_near(png, light.lanes[31], 2), 100);
  EXPECT_LT(count_near(png, light.overfetch, 2), 2000);  // only the banner and the legend swatch
  std::filesystem::remove(out);
}

TEST(RenderCli, MisalignedScenarioShowsOverFetchAndDarkThemeWorks) {
  const std::string aligned = temp_path("aligned.png"), misaligned = temp_path("misaligned.png");
  ASSERT_EQ(run_command(kWarplens + " render --model-only --theme dark --out " + aligned).exit_code,
            0);
  const auto r = run_command(
      kWarplens + " render --model-only --theme dark --scenario misaligned --out " + misaligned);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto& dark = viz::theme(viz::ThemeName::Dark);
  const Png a = load_png(aligned), m = load_png(misaligned);
  ASSERT_TRUE(a.rgba && m.rgba);
  EXPECT_GT(count_near(a, dark.background), a.width * a.height / 4);
  // The hatched over-fetch of the two partial sectors adds thousands of over-fetch pixels.
  EXPECT_GT(count_near(m, dark.overfetch, 2), count_near(a, dark.overfetch, 2) + 2000);
  std::filesystem::remove(aligned);
  std::filesystem::remove(misaligned);
}

TEST(RenderCli, HistoricalModelChangesWhatTheViewShadesAsMoved) {
  const std::string modern = temp_path("modern.png"), fermi = temp_path("fermi.png");
  ASSERT_EQ(run_command(kWarplens + " render --model-only --scenario misaligned --out " + modern)
                .exit_code,
            0);
  const auto r = run_command(
      kWarplens + " render --model-only --scenario misaligned --model fermi-ca --out " + fermi);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const Png m = load_png(modern), f = load_png(fermi);
  ASSERT_TRUE(m.rgba && f.rgba);
  const auto& light = viz::theme(viz::ThemeName::Light);
  // Fermi's caching loads move the whole second 128-byte line: three more hatched sectors.
  EXPECT_GT(count_near(f, light.overfetch, 2), count_near(m, light.overfetch, 2) + 3000);
  const auto bad = run_command(kWarplens + " render --model-only --model volta --out " + fermi);
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("model must be"), std::string::npos) << bad.output;
  std::filesystem::remove(modern);
  std::filesystem::remove(fermi);
}

TEST(RenderCli, BankScenariosDrawConflictsAndTheirFix) {
  const std::string conflict = temp_path("conflict.png"), padded = temp_path("padded.png");
  auto r = run_command(kWarplens + " render --model-only --scenario tile-column-32x32 --out " +
                       conflict);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  r = run_command(kWarplens + " render --model-only --scenario tile-column-32x33 --out " + padded);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const Png c = load_png(conflict), p = load_png(padded);
  ASSERT_TRUE(c.rgba && p.rgba);
  const auto& light = viz::theme(viz::ThemeName::Light);
  // Column read of tile[32][32]: every lane in bank 0, marked as a conflict; the padded tile
  // spreads the lanes over all 32 banks and has no conflict mark (the legend swatch aside).
  EXPECT_GT(count_near(c, light.conflict, 2), count_near(p, light.conflict, 2) + 500);
  EXPECT_GT(count_near(p, light.lanes[31], 2), 100);
  EXPECT_GT(count_near(c, light.lanes[31], 2), 100);
  std::filesystem::remove(conflict);
  std::filesystem::remove(padded);
}

TEST(RenderCli, EveryLabScenarioRendersWithoutAGpu) {
  for (const char* name : {"bank-word-16", "transpose", "transpose-naive", "matmul",
                           "reduction-interleaved", "reduction-divergent"}) {
    const std::string out = temp_path(std::string(name) + ".png");
    const auto r =
        run_command(kWarplens + " render --model-only --scenario " + name + " --out " + out);
    ASSERT_EQ(r.exit_code, 0) << name << ": " << r.output;
    const Png png = load_png(out);
    ASSERT_TRUE(png.rgba) << name;
    EXPECT_GT(count_near(png, viz::theme(viz::ThemeName::Light).lanes[0], 2), 50) << name;
    std::filesystem::remove(out);
  }
}

TEST(RenderCli, NaiveTransposeWriteIsScatteredOverSectors) {
  // The naive transpose's store: 32 lanes in 32 lines, each sector mostly over-fetch.
  const std::string out = temp_path("naive-write.png");
  const auto r =
      run_command(kWarplens + " render --model-only --scenario transpose-naive --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const Png png = load_png(out);
  ASSERT_TRUE(png.rgba);
  // 32 separate lines, each with 28 bytes of hatched over-fetch (more than the legend swatch).
  EXPECT_GT(count_near(png, viz::theme(viz::ThemeName::Light).overfetch, 2), 1500);
  std::filesystem::remove(out);
}

TEST(RenderCli, APresetFileRendersAndABadOneNamesItsLine) {
  const std::string good = temp_path("good.toml"), bad = temp_path("bad.toml");
  const std::string out = temp_path("preset.png");
  {
    std::ofstream f(good);
    f << "name = \"mine\"\nlab = \"banks\"\ntitle = \"My stride of 4\"\n"
         "summary = \"Four-way conflict.\"\n[banks]\npattern = \"strided\"\nstride = 4\n";
    std::ofstream g(bad);
    g << "name = \"mine\"\ntitle = \"t\"\nsummary = \"s\"\n[banks\nstride = 4\n";
  }
  auto r = run_command(kWarplens + " render --model-only --preset " + good + " --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const Png png = load_png(out);
  ASSERT_TRUE(png.rgba);
  // Stride 4: eight banks used, each with four words: conflict marks drawn.
  EXPECT_GT(count_near(png, viz::theme(viz::ThemeName::Light).conflict, 2), 500);
  r = run_command(kWarplens + " render --model-only --preset " + bad + " --out " + out);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(bad + ":4:"), std::string::npos) << r.output;  // file:line:column
  std::filesystem::remove(good);
  std::filesystem::remove(bad);
  std::filesystem::remove(out);
}

TEST(RenderCli, SetChangesAKnobOfTheScenarioAndABadOneIsRefused) {
  // bank-stride-32 with stride 1: no conflict left to mark (the legend keeps its swatch); a key no
  // knob reads is refused before anything is drawn (exit 2, naming it).
  const std::string out = temp_path("set.png");
  const std::string base =
      kWarplens + " render --model-only --scenario bank-stride-32 --out " + out;
  auto r = run_command(base);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const viz::Rgb conflict = viz::theme(viz::ThemeName::Light).conflict;
  const int marked = count_near(load_png(out), conflict, 2);
  EXPECT_GT(marked, 500);
  r = run_command(base + " --set stride=1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_LT(count_near(load_png(out), conflict, 2), marked / 5);  // the legend's swatch alone
  std::filesystem::remove(out);
  r = run_command(base + " --set strid=1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("reads no key \"strid\""), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(RenderCli, AllWritesOnePngPerScenarioAndNoTemporaries) {
  const std::string dir = temp_path("figures");
  std::filesystem::remove_all(dir);
  const auto r =
      run_command(kWarplens + " render --model-only --all --size 960x600 --out-dir " + dir);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto list = run_command(kWarplens + " list");
  int scenarios = 0, pngs = 0, others = 0;
  for (char c : list.output) scenarios += c == '\n';
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() == ".png") {
      ++pngs;
      const Png png = load_png(e.path().string());
      EXPECT_TRUE(png.rgba) << e.path();
      EXPECT_EQ(png.width, 960);
    } else {
      ++others;  // no GPU here: no JSON/CSV, and never a temporary file left behind
    }
  }
  EXPECT_EQ(pngs, scenarios);
  EXPECT_EQ(others, 0);
  std::filesystem::remove_all(dir);
}

TEST(RenderCli, NoEglDisplayIsAClearError) {
  const auto r = run_command("__EGL_VENDOR_LIBRARY_FILENAMES=/nonexistent.json " + kWarplens +
                             " render --model-only --out " + temp_path("none.png"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("no EGL display"), std::string::npos) << r.output;
}

TEST(WindowCli, NoDisplayIsAClearError) {
  const auto r = run_command("env -u DISPLAY -u WAYLAND_DISPLAY " + kWarplens + " --model-only");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("cannot open a window"), std::string::npos) << r.output;
}

TEST(RenderCli, ABCompareDrawsEachSideWithItsOwnPattern) {
  const std::string out = temp_path("ab-tile.png");
  const auto r = run_command(kWarplens +
                             " render --model-only --scenario ab-tile-32x32-vs-32x33 --size "
                             "1920x1080 --out " +
                             out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const Png png = load_png(out);
  ASSERT_TRUE(png.rgba);
  const auto& light = viz::theme(viz::ThemeName::Light);
  // The panel takes the left 380 px; A's bank view the next half, B's the rest. Above the
  // legends (y < 560): A's column of tile[32][32] is one framed conflict column, B's padded
  // tile has none, and both draw all 32 lane colours.
  const int mid = 380 + (1920 - 380) / 2;
  EXPECT_GT(count_near_in(png, light.conflict, 380, 0, mid, 560, 2), 300);
  EXPECT_LT(count_near_in(png, light.conflict, mid, 0, 1920, 560, 2), 20);
  EXPECT_GT(count_near_in(png, light.lanes[31], 380, 0, mid, 560, 2), 100);
  EXPECT_GT(count_near_in(png, light.lanes[31], mid, 0, 1920, 560, 2), 100);
  std::filesystem::remove(out);
}

TEST(RenderCli, RenderingTwiceGivesTheSameFigure) {
  // Without a GPU nothing is measured, so two renders of one scenario must match byte for byte.
  const std::string a = temp_path("same-a.png"), b = temp_path("same-b.png");
  for (const std::string& out : {a, b}) {
    const auto r = run_command(
        kWarplens + " render --model-only --scenario ab-tile-32x32-vs-32x33 --out " + out);
    ASSERT_EQ(r.exit_code, 0) << r.output;
  }
  std::ifstream fa(a, std::ios::binary), fb(b, std::ios::binary);
  const std::string da((std::istreambuf_iterator<char>(fa)), std::istreambuf_iterator<char>());
  const std::string db((std::istreambuf_iterator<char>(fb)), std::istreambuf_iterator<char>());
  EXPECT_GT(da.size(), 10000u);
  EXPECT_TRUE(da == db) << "two renders of one scenario differ";
  std::filesystem::remove(a);
  std::filesystem::remove(b);
}

TEST(RenderCli, APresetComparingWithAnUnknownScenarioIsRefused) {
  const std::string bad = temp_path("bad-compare.toml"), out = temp_path("bad-compare.png");
  {
    std::ofstream f(bad);
    f << "name = \"mine\"\nlab = \"banks\"\ntitle = \"t\"\nsummary = \"s\"\n"
         "compare_with = \"no-such-scenario\"\n[banks]\npattern = \"strided\"\nstride = 4\n";
  }
  auto r = run_command(kWarplens + " render --model-only --preset " + bad + " --out " + out);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("compare_with = \"no-such-scenario\" names no built-in scenario"),
            std::string::npos)
      << r.output;
  {
    std::ofstream f(bad);
    f << "name = \"mine\"\nlab = \"banks\"\ntitle = \"t\"\nsummary = \"s\"\n"
         "compare_with = \"aligned\"\n[banks]\npattern = \"strided\"\nstride = 4\n";
  }
  r = run_command(kWarplens + " render --model-only --preset " + bad + " --out " + out);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("is in the global lab, this scenario in the banks lab"),
            std::string::npos)
      << r.output;
  EXPECT_FALSE(std::filesystem::exists(out));
  std::filesystem::remove(bad);
}

// --- the GLFW window under Xvfb ----------------------------------------------------------------

TEST(WindowUnderXvfb, OpensDrawsFramesAndSavesAScreenshot) {
  if (run_command("command -v xvfb-run").exit_code != 0) GTEST_SKIP() << "xvfb-run not installed";
  const std::string out = temp_path("window.png");
  const auto r = run_command("xvfb-run -a -s '-screen 0 1600x1000x24' " + kWarplens +
                             " --model-only --scenario stride-2 --frames 5 --screenshot " + out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const Png png = load_png(out);
  ASSERT_TRUE(png.rgba);
  EXPECT_GE(png.width, 640);
  const auto& light = viz::theme(viz::ThemeName::Light);
  EXPECT_GT(count_near(png, light.background), png.width * png.height / 4);
  EXPECT_GT(count_near(png, light.lanes[0], 2), 50);
  EXPECT_GT(count_near(png, light.overfetch, 2), 2000);  // stride 2: half of every sector
  std::filesystem::remove(out);
}

TEST(WindowUnderXvfb, ABCompareShowsBothWarpsSideBySide) {
  if (run_command("command -v xvfb-run").exit_code != 0) GTEST_SKIP() << "xvfb-run not installed";
  const std::string out = temp_path("window-ab.png");
  const auto r = run_command("xvfb-run -a -s '-screen 0 1600x1000x24' " + kWarplens +
                             " --model-only --scenario ab-aligned-vs-stride-2 --frames 5 "
                             "--screenshot " +
                             out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const Png png = load_png(out);
  ASSERT_TRUE(png.rgba);
  const auto& light = viz::theme(viz::ThemeName::Light);
  // Side A (left half of the views) reads coalesced words: no over-fetch; side B (right half)
  // strides by two: half of every sector hatched.
  const int panel = std::clamp(png.width * 24 / 100, 260, 380);
  const int mid = panel + (png.width - panel) / 2;
  const int legend_y = png.height / 2;  // the views' legends (with a hatched swatch) sit lower
  EXPECT_LT(count_near_in(png, light.overfetch, panel, 0, mid, legend_y, 2), 50);
  EXPECT_GT(count_near_in(png, light.overfetch, mid, 0, png.width, legend_y, 2), 1000);
  EXPECT_GT(count_near_in(png, light.lanes[0], panel, 0, mid, legend_y, 2), 50);
  EXPECT_GT(count_near_in(png, light.lanes[0], mid, 0, png.width, legend_y, 2), 50);
  std::filesystem::remove(out);
}

}  // namespace
}  // namespace warplens::test
