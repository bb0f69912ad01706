// The own-kernel lab's tile as stored (KernelState::tile_row): drawn beside the banks on a
// projector at 2x, tinted by bank, so a column read of tile[32][32] shows as one tint; not drawn
// where the program leaves tile_row at 0 or shows no tile row. Headless GL (Mesa in CI), model
// only; read back by its pixels.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app_ui.h"
#include "array_panel.h"
#include "frontends.h"
#include "gl_program.h"
#include "headless_frames.h"
#include "headless_gl_test.h"
#include "pixel_count.h"
#include "png_writer.h"
#include "theme.h"

namespace warplens::app {
namespace {

class KernelTileView : public test::HeadlessGlTest {
 protected:
  // The presenter layout of `scenario` (with `settings`) at 1920x1080, scale 2, light theme.
  viz::Image render(const std::string& scenario, const std::vector<std::string>& settings = {}) {
    ViewOptions options;
    options.use_gpu = false;
    options.scale = 2;
    options.presenter = true;
    options.scenario = scenario;
    options.settings = settings;
    HeadlessScene scene(options);
    UiState ui = initial_ui(options, scene.labs, /*interactive=*/false);
    scene.wait_until_idle();
    viz::RenderTarget target;
    scene.draw_still(ui, target, 1920, 1080);
    left_out_ = ui.array_left_out;
    return viz::read_framebuffer(1920, 1080);
  }
  bool left_out_ = false;
};

TEST_F(KernelTileView, TheTileAsStoredStandsBesideTheBanksWhereTheProgramGivesItsRow) {
  const viz::Theme& light = viz::theme(viz::ThemeName::Light);
  // Bank 16's tint: column 16 of the tile; the bank grid itself has no tinted cells.
  const viz::Image tiled = render("kernel-transpose-tiled");
  EXPECT_FALSE(left_out_);
  EXPECT_GT(test::count_color(tiled, bank_tint(16, 32, light)), 200);
  EXPECT_GT(test::count_color(tiled, bank_tint(31, 32, light)), 200);
  // Without its row, the banks alone (as before tile_row existed).
  const viz::Image banks = render("kernel-transpose-tiled", {"tile_row=0"});
  EXPECT_EQ(test::count_color(banks, bank_tint(16, 32, light)), 0);
  // A row of in or out shows the warp view, not the tile.
  const viz::Image global = render("kernel-transpose-tiled", {"step=1"});
  EXPECT_EQ(test::count_color(global, bank_tint(16, 32, light)), 0);
}

}  // namespace
}  // namespace warplens::app
