// The tile lab's panels on headless EGL, without a GPU: each built-in scenario drawn as the
// window lays it out (parameters left, the view, the numbers under it) at 1920x1080, scales 2
// and 3, into PNGs under the build's out/ folder; the stored tile's bank tints on screen.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

#include "array_panel.h"
#include "bank_view.h"
#include "gl_program.h"
#include "headless_gl_test.h"
#include "imgui_layer.h"
#include "legend_slot.h"
#include "pixel_count.h"
#include "png_writer.h"
#include "scenarios.h"
#include "tile_scenario.h"
#include "tile_session.h"
#include "tile_ui.h"
#include "ui_state.h"

namespace warplens::test {
namespace {

class TileUiRender : public HeadlessGlTest {
 protected:
  // The window's parameters panel left (at most 22 % of the width, as a projector's presenter
  // layout leaves the view), the view, the numbers under it; `w` x `h` pixels.
  static viz::Image render(const app::Scenario& scenario, float scale, const std::string& file,
                           app::UiState& ui, int w = 1920, int h = 1080,
                           const app::TileState* refused = nullptr, bool legend_beside = false) {
    viz::ImGuiLayer layer(nullptr, scale, viz::ThemeName::Light);
    const viz::Theme& theme = viz::theme(viz::ThemeName::Light);
    viz::BankView banks;
    app::TileSession session(banks, false);
    session.set(app::tile_scenario(scenario));
    EXPECT_EQ(session.error(), "") << scenario.name;
    if (refused) session.set(*refused);
    viz::RenderTarget target;
    for (int frame = 0; frame < 3; ++frame) {
      target.bind(w, h);
      glClearColor(theme.background.r, theme.background.g, theme.background.b, 1);
      glClear(GL_COLOR_BUFFER_BIT);
      layer.begin_frame(w, h, 1.0f / 60.0f);
      const app::TileResults r = session.measured();
      const float left = std::min(330 * scale, 0.22f * static_cast<float>(w));
      const float view_h = static_cast<float>(h) * 0.8f;
      app::draw_tile_parameters(session, r, theme, {0, 0}, {left, static_cast<float>(h)}, false,
                                {});
      // The presenter layout's column: the view hands its legend to the slot, drawn beside it.
      const float column = legend_beside ? 0.3f * static_cast<float>(w) : 0.0f;
      app::LegendSlot legend;
      std::optional<app::LegendSlot::Scope> beside;
      if (legend_beside) beside.emplace(legend);
      app::draw_tile_view(ui, session, r, banks, layer, theme, {left, 0},
                          {static_cast<float>(w) - left - column, view_h}, false, nullptr);
      if (legend_beside) {
        ImGui::SetNextWindowPos({static_cast<float>(w) - column, 0});
        ImGui::SetNextWindowSize({column, view_h});
        ImGui::Begin("legend", nullptr, ImGuiWindowFlags_NoDecoration);
        legend.draw();
        ImGui::End();
      }
      app::draw_tile_numbers(session, r, layer, theme, {left, view_h},
                             {static_cast<float>(w) - left, static_cast<float>(h) - view_h});
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

TEST_F(TileUiRender, EachScenarioDrawsTheStoredTileTintedByBank) {
  const viz::Theme& theme = viz::theme(viz::ThemeName::Light);
  int seen = 0;
  for (const app::Scenario& s : app::builtin_scenarios()) {
    if (s.lab != app::Lab::Tile) continue;
    ++seen;
    for (const float scale : {2.0f, 3.0f}) {
      app::UiState ui;
      const viz::Image image = render(
          s, scale, "tile-" + s.name + "-x" + std::to_string(static_cast<int>(scale)) + ".png", ui);
      EXPECT_FALSE(ui.array_left_out) << s.name << " " << scale;
      // Chunk columns starting at banks 0 and 28 are on screen in every scenario's tile.
      EXPECT_GT(count_color(image, app::bank_tint(0, 32, theme)), 50) << s.name << " " << scale;
      EXPECT_GT(count_color(image, app::bank_tint(28, 32, theme)), 50) << s.name << " " << scale;
    }
  }
  EXPECT_EQ(seen, 5);
}

// A projector at 3x has no room for both pictures: the stored tile, this lab's lesson, stays with
// the wavefront count over it; key T (or the strip's "as stored") gives the bank grid instead.
TEST_F(TileUiRender, WithoutRoomForBothTheTileStaysUnlessAskedForTheBankGrid) {
  const viz::Theme& theme = viz::theme(viz::ThemeName::Light);
  const app::Scenario& s = app::find_scenario("tma-no-swizzle-column");
  const int w = 1280, h = 720;  // an older hall's projector
  app::UiState ui;
  const std::string size = std::to_string(w) + "x" + std::to_string(h);
  viz::Image image = render(s, 3.0f, "tile-small-tile-" + size + ".png", ui, w, h);
  EXPECT_TRUE(ui.array_left_out) << size;
  EXPECT_TRUE(ui.array_shown_alone) << size;
  EXPECT_GT(count_color(image, app::bank_tint(4, 32, theme)), 50) << size;
  EXPECT_EQ(count_color(image, theme.conflict), 0) << size;  // no bank grid
  app::UiState banks;
  banks.array_alone = false;  // key T
  image = render(s, 3.0f, "tile-small-banks-" + size + ".png", banks, w, h);
  EXPECT_FALSE(banks.array_shown_alone) << size;
  EXPECT_EQ(count_color(image, app::bank_tint(4, 32, theme)), 0) << size;  // no stored tile
  EXPECT_GT(count_color(image, theme.conflict), 50) << size;               // bank 0's 32 words
}

// Where the column headers give byte offsets, not banks (a padded tile), the legend keys the
// tints: "first bank" and a box per chunk start, 0 to 28, in its tint (bank 28's tint is in the
// legend column only then). A pitch of whole 128-byte lines, swizzled or not, heads its columns
// b0..b28 (a swizzle moves chunks within their line).
TEST_F(TileUiRender, TheLegendKeysTheBankTintsWhereTheHeadersGiveByteOffsets) {
  const viz::Theme& theme = viz::theme(viz::ThemeName::Light);
  const auto in_column = [](const viz::Image& image, viz::Rgb c) {
    return count_color(image, c, 3, image.width * 7 / 10 + 2);
  };
  for (const char* name : {"ldmatrix-padded", "ldmatrix-128b-swizzle", "ldmatrix-no-swizzle"}) {
    const bool keyed = std::string(name) == "ldmatrix-padded";
    for (const float scale : {2.0f, 3.0f}) {
      SCOPED_TRACE(std::string(name) + " at " + std::to_string(scale));
      app::UiState ui;
      const viz::Image image =
          render(app::find_scenario(name), scale, std::string("tile-key-") + name + ".png", ui,
                 1920, 1080, nullptr, true);
      EXPECT_GT(in_column(image, app::bank_tint(0, 32, theme)), 100);  // the chunk's swatch
      if (keyed)
        EXPECT_GT(in_column(image, app::bank_tint(28, 32, theme)), 100);
      else
        EXPECT_EQ(in_column(image, app::bank_tint(28, 32, theme)), 0);
    }
  }
}

TEST_F(TileUiRender, ARefusalIsSaidInTheWarningColourAndTheTileStays) {
  const viz::Theme& theme = viz::theme(viz::ThemeName::Light);
  const app::Scenario& s = app::find_scenario("tma-128b-swizzle");
  app::TileState bad = app::tile_scenario(s);
  bad.tile.cols = 64;  // 256-byte rows under the 128-byte swizzle
  app::UiState ui;
  const viz::Image plain = render(s, 2.0f, "tile-accepted.png", ui);
  const viz::Image refused = render(s, 2.0f, "tile-refused.png", ui, 1920, 1080, &bad);
  EXPECT_GT(count_color(refused, theme.warning, 40), count_color(plain, theme.warning, 40) + 100);
  // The accepted tile is still drawn.
  EXPECT_GT(count_color(refused, app::bank_tint(28, 32, theme)), 50);
}

}  // namespace
}  // namespace warplens::test

namespace warplens::test {
namespace {

// Who gives and who receives an ldmatrix's rows, as the PTX ISA's fragment layout says.
TEST(LdmatrixLanes, GiversByMatrixAndReceiversByFragment) {
  gpu::TileRead read;
  read.kind = gpu::TileReadKind::Ldmatrix;
  read.matrices = 4;
  EXPECT_EQ(app::ldmatrix_lanes_text(read),
            "Lanes 0-7 matrix 0's, 8-15 matrix 1's, 16-23 matrix 2's, 24-31 matrix 3's row "
            "addresses (Ln in the tile); lane t receives row t/4, elements 2(t%4) and +1 of each "
            "matrix, matrix m in its register m.");
  read.matrices = 1;
  read.trans = true;
  EXPECT_EQ(app::ldmatrix_lanes_text(read),
            "Lanes 0-7 matrix 0's row addresses (Ln in the tile); lane t receives column t/4, "
            "rows 2(t%4) and 2(t%4)+1.");
}

}  // namespace
}  // namespace warplens::test
