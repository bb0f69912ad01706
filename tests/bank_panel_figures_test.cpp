// The whole bank panel (ImGui labels, legend, a tooltip) drawn on headless EGL into PNGs for the
// course notes under the build's out/ folder.
#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "bank_panel.h"
#include "bank_view_test_support.h"
#include "test_support.h"

#ifndef WARPLENS_TEST_OUT_DIR
#define WARPLENS_TEST_OUT_DIR "out"
#endif

namespace warplens::test {
namespace {

// --- figures (the panel with its labels, as the window shows it) -------------------------------

struct Figure {
  const char* file;
  const char* caption;
  Access access;
  viz::ThemeName theme;
  int width, height;
  float hover_x = -1, hover_y = -1;  ///< mouse position (a tooltip), if set
  float scale = 1.0f;                ///< UI scale (2 for a projector)
};

void draw_figure(viz::BankView& view, const Figure& f) {
  viz::ImGuiLayer layer(nullptr, f.scale, f.theme);
  const viz::Theme& theme = viz::theme(f.theme);
  view.publish(f.access.trace);
  viz::RenderTarget target;
  for (int frame = 0; frame < 3; ++frame) {  // ImGui settles window sizes over a few frames
    target.bind(f.width, f.height);
    glClearColor(theme.background.r, theme.background.g, theme.background.b, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    if (f.hover_x >= 0) ImGui::GetIO().MousePos = {f.hover_x, f.hover_y};
    layer.begin_frame(f.width, f.height, 1.0f / 60.0f);
    ImGui::SetNextWindowPos({0, 0});
    ImGui::SetNextWindowSize({static_cast<float>(f.width), static_cast<float>(f.height)});
    ImGui::Begin("Bank view \u2014 shared-memory addresses from the host model", nullptr,
                 ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                     ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoScrollbar);
    app::draw_bank_view(view, view.contents(), f.access.analysis, layer, theme, f.hover_x >= 0,
                        f.caption);
    ImGui::End();
    target.bind(f.width, f.height);
    layer.end_frame();
  }
  glFinish();
  std::filesystem::create_directories(WARPLENS_TEST_OUT_DIR);
  viz::write_png(viz::read_framebuffer(f.width, f.height),
                 std::string(WARPLENS_TEST_OUT_DIR) + "/" + f.file);
}

TEST_F(BankViewTest, FiguresForTheCourseNotes) {
  const std::vector<Figure> figures = {
      {"bank-stride1-light.png", "s[lane] \u2022 4-byte words", shared_access("lane", 4),
       viz::ThemeName::Light, 1400, 420},
      {"bank-stride2-light.png", "s[2*lane] \u2022 4-byte words", shared_access("2*lane", 4),
       viz::ThemeName::Light, 1400, 480},
      {"bank-broadcast-dark.png", "s[0] \u2022 every lane reads one word", shared_access("0", 4),
       viz::ThemeName::Dark, 1400, 420},
      {"bank-column32-light.png",
       "warp 0 of a 32\u00d732 block \u2022 tile[tx][ty], tile 32\u00d732",
       shared_access("tx*32", 4, "32x32"), viz::ThemeName::Light, 1400, 1100},
      {"bank-column33-dark.png", "warp 0 of a 32\u00d732 block \u2022 tile[tx][ty], padded to 33",
       shared_access("tx*33", 4, "32x32"), viz::ThemeName::Dark, 1400, 1100},
      {"bank-word8-light.png", "s[lane] \u2022 8-byte words (double)", shared_access("lane", 8),
       viz::ThemeName::Light, 1400, 560},
      {"bank-word16-stride2-dark.png", "s[2*lane] \u2022 16-byte words (float4)",
       shared_access("2*lane", 16), viz::ThemeName::Dark, 1400, 900},
      {"bank-bytes-light.png", "s[lane] \u2022 1-byte words (char)", shared_access("lane", 1),
       viz::ThemeName::Light, 1400, 420},
      {"bank-gap-dark.png", "s[lane + 256*(lane/16)] \u2022 two runs far apart",
       shared_access("lane + 256*(lane/16)", 4), viz::ThemeName::Dark, 1400, 460},
      {"bank-kepler-light.png", "s[lane] \u2022 4-byte words, Kepler's 8-byte bank mode",
       shared_access("lane", 4, "32x1", model::HardwareModel::Kepler), viz::ThemeName::Light, 1400,
       420},
      {"bank-g80-light.png", "s[2*lane] \u2022 4-byte words, G80: 16 banks, half-warps",
       shared_access("2*lane", 4, "32x1", model::HardwareModel::G80), viz::ThemeName::Light, 1400,
       620},
      {"bank-tooltip-light.png", "s[2*lane] \u2022 4-byte words (hovering bank 2, row 1)",
       shared_access("2*lane", 4), viz::ThemeName::Light, 1400, 480, 240, 240},
      {"bank-broadcast-light-2x.png", "s[lane/8] \u2022 groups of 8 lanes share a word",
       shared_access("lane/8", 4), viz::ThemeName::Light, 2000, 760, -1, -1, 2.0f},
      {"bank-column32-capped-dark.png",
       "warp 0 of a 32\u00d732 block \u2022 tile[tx][ty] (small window)",
       shared_access("tx*32", 4, "32x32"), viz::ThemeName::Dark, 900, 520},
      {"bank-word8-stride2-narrow-light.png", "s[2*lane] \u2022 8-byte words",
       shared_access("2*lane", 8), viz::ThemeName::Light, 760, 560},
      {"bank-word16-columns-light.png", "s[lane] \u2022 16-byte words (float4), two phases",
       shared_access("lane", 16), viz::ThemeName::Light, 1400, 330},
      {"bank-g80-word8-columns-light.png",
       "s[lane] \u2022 8-byte words, G80: four quarter-warp phases",
       shared_access("lane", 8, "32x1", model::HardwareModel::G80), viz::ThemeName::Light, 1400,
       500},
      {"bank-word16-columns-dark-2x.png", "s[2*lane] \u2022 16-byte words (float4)",
       shared_access("2*lane", 16), viz::ThemeName::Dark, 2000, 900, -1, -1, 2.0f},
  };
  viz::BankView view;
  for (const Figure& f : figures) {
    SCOPED_TRACE(f.file);
    draw_figure(view, f);
    EXPECT_TRUE(std::filesystem::exists(std::string(WARPLENS_TEST_OUT_DIR) + "/" + f.file));
  }
}

// At 2x a two-digit bank number is wider than its column: a conflicting bank's number keeps the
// conflict fill under it, so banks 10-30 of s[2*lane] read as conflicting as banks 0-8 do
// (before, a background-coloured halo took the fill away from every two-digit bank).
TEST_F(BankViewTest, AConflictingBanksTwoDigitNumberKeepsItsConflictFill) {
  const Figure f{"bank-stride2-light-2x.png",
                 "s[2*lane] \u2022 4-byte words",
                 shared_access("2*lane", 4),
                 viz::ThemeName::Light,
                 1300,
                 620,
                 -1,
                 -1,
                 2.0f};
  viz::BankView view;
  draw_figure(view, f);
  const Png png = load_png(std::string(WARPLENS_TEST_OUT_DIR) + "/" + f.file);
  ASSERT_TRUE(png.rgba);
  const viz::Rgb conflict = viz::theme(viz::ThemeName::Light).conflict;
  const float cell_w = view.layout().cell_w;
  ASSERT_GT(cell_w, 8.0f);
  ASSERT_FALSE(view.layout().phases.empty());
  const viz::Rect header = view.layout().phases[0].header;
  // Rows where the 16 conflicting banks' headers show at least 40 % of their columns in the fill
  // (the digits take the rest, and the frames): the first run of such rows from the top is the
  // header's, and spans its boxes' height. A halo of another colour under "10" to "30" cuts it
  // at the digits (2026-11-29: 179 such pixels on those rows, against at least 248 with the fill).
  int run = 0, first_run = 0;
  for (int y = 0; y < png.height && first_run == 0; ++y) {
    int n = 0;
    for (int x = 0; x < png.width; ++x) n += near(png.at(x, y), conflict, 3);
    if (n >= static_cast<int>(16 * 0.4f * cell_w)) {
      ++run;
    } else if (run > 0) {
      first_run = run;
    }
  }
  EXPECT_GE(first_run, static_cast<int>(0.8f * (header.y1 - header.y0)))
      << "header " << header.y1 - header.y0 << " px tall, column " << cell_w << " px";
}

// Where the columns are too narrow for every count (3x), a run of banks with the same count says
// it once, across the run under a rule ("1 each" for s[lane]), not on every fourth bank (which
// read "1 1 1 1 1 1 1 1": eight counts for 32 words).
TEST_F(BankViewTest, NarrowColumnsSayARunsCountOnceAcrossTheRun) {
  const Figure f{"bank-stride1-light-3x.png",
                 "s[lane] \u2022 4-byte words",
                 shared_access("lane", 4),
                 viz::ThemeName::Light,
                 760,
                 620,
                 -1,
                 -1,
                 3.0f};
  viz::BankView view;
  draw_figure(view, f);
  const Png png = load_png(std::string(WARPLENS_TEST_OUT_DIR) + "/" + f.file);
  ASSERT_TRUE(png.rgba);
  ASSERT_FALSE(view.layout().phases.empty());
  const float grid_w = view.layout().cell_w * 32;
  // The longest horizontal run of the muted text colour on any row: the rule either side of
  // "1 each" spans most of half the grid; digits and labels give runs of a few pixels.
  const viz::Rgb muted = viz::theme(viz::ThemeName::Light).muted_text;
  int longest = 0;
  for (int y = 0; y < png.height; ++y)
    for (int x = 0, run = 0; x < png.width; ++x) {
      run = near(png.at(x, y), muted, 8) ? run + 1 : 0;
      longest = std::max(longest, run);
    }
  EXPECT_GE(longest, static_cast<int>(0.3f * grid_w)) << "grid " << grid_w << " px wide";
}

// Four conflicting banks side by side, 8 words each, too narrow for their counts apart at 3x
// (kernel-layout-paste: the words row read "8 8" over two of the four): the run says its count
// once, between end ticks in the text's colour (a rule too where the run is wide enough), as the
// banks without a conflict say "0 each". In the counts row each end of the run has a tick: a
// vertical run of the text's colour at least 6 px (at scale 1) tall, which no digit there has.
TEST_F(BankViewTest, NarrowConflictingBanksWithOneCountSayItOnceAcrossTheRun) {
  const float scale = 3.0f;
  const Figure f{"bank-conflict-run-light-3x.png",
                 "s[(lane % 8) * 32 + lane / 8] \u2022 4-byte words",
                 shared_access("(lane % 8) * 32 + lane / 8", 4),
                 viz::ThemeName::Light,
                 640,
                 1000,
                 -1,
                 -1,
                 scale};
  viz::BankView view;
  draw_figure(view, f);
  const Png png = load_png(std::string(WARPLENS_TEST_OUT_DIR) + "/" + f.file);
  ASSERT_TRUE(png.rgba);
  ASSERT_FALSE(view.layout().phases.empty());
  const viz::Theme& theme = viz::theme(viz::ThemeName::Light);
  // The counts row: where the "0 each" rule of the banks without a conflict runs (the longest
  // horizontal run of the muted colour); the conflicting banks lie left of that rule.
  int rule_y = -1, rule_x0 = 0, longest = 0;
  for (int y = 0; y < png.height; ++y)
    for (int x = 0, run = 0; x < png.width; ++x) {
      run = near(png.at(x, y), theme.muted_text, 8) ? run + 1 : 0;
      if (run > longest) longest = run, rule_y = y, rule_x0 = x - run + 1;
    }
  ASSERT_GT(longest, 100) << "no \"0 each\" rule";
  // Columns left of it with a vertical run of the text's colour 6 px (at scale 1) tall around
  // the rule's row: the ticks, grouped where adjacent.
  int ticks = 0;
  bool in_tick = false;
  for (int x = 0; x < rule_x0 - 2; ++x) {
    int best = 0;
    for (int y = rule_y - static_cast<int>(6 * scale), run = 0;
         y <= rule_y + static_cast<int>(6 * scale); ++y) {
      run = near(png.at(x, y), theme.text, 8) ? run + 1 : 0;
      best = std::max(best, run);
    }
    const bool tick = best >= static_cast<int>(6 * scale);
    ticks += tick && !in_tick ? 1 : 0;
    in_tick = tick;
  }
  EXPECT_EQ(ticks, 2) << "the run's two end ticks";
}

}  // namespace
}  // namespace warplens::test
