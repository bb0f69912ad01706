// The bank figure (cairo, app/widgets/bank_figure.h) and the window's bank view (GL,
// viz/bank_view.h) show the same layout: the GL view drawn at the figure's width and its view
// height, and the figure's PNG at one pixel per figure unit, have the same colour in every cell
// of every phase grid and in every bank header (sampled off the cells' centres, where the figure
// writes the wavefront numbers that the window's ImGui labels draw over the GL texture), within
// a tolerance for the two rasterizers; also part-way through a stepped request (words not yet
// served drawn faint on both sides).
#include <gtest/gtest.h>
#include <stb_image.h>

#include <cmath>
#include <memory>
#include <string>

#include "bank_figure.h"
#include "bank_view_test_support.h"
#include "figure_cairo.h"
#include "figure_parts.h"
#include "test_support.h"

namespace warplens::test {
namespace {

struct Case {
  const char* index;
  int word_bytes;
  const char* block;
  int step = -1;  ///< stepping: the wavefronts served (both sides); -1 the whole access
};

class FigureGlParity : public BankViewTest, public ::testing::WithParamInterface<Case> {};

TEST_P(FigureGlParity, CellsAndHeadersHaveTheSameColoursInTheSamePlaces) {
  const Case& c = GetParam();
  const Access a = shared_access(c.index, c.word_bytes, c.block);
  const viz::Theme& theme = viz::theme(viz::ThemeName::Light);

  app::FigurePanelData data;
  data.panel = app::FigurePanel::Banks;
  data.trace = a.trace;
  data.shared = a.analysis;
  data.access = std::string("s[") + c.index + "]";
  data.step = c.step;
  const viz::Figure figure = app::bank_figure(data, theme, "");
  const int width = static_cast<int>(app::figure_parts::kFigureWidth);
  const int height = app::bank_figure_view_height(a.trace, a.analysis);

  viz::BankView view;
  const viz::Image gl = render(view, a, theme, width, height, c.step);
  const viz::BankLayout& layout = view.layout();

  // One PNG pixel per figure unit: kFigureWidth units drawn width_mm wide at kFigurePngDpi.
  const double width_mm = width * 25.4 / viz::kFigurePngDpi;
  const std::string png = viz::render_figure(figure, viz::FigureFormat::Png, width_mm);
  int w = 0, h = 0, channels = 0;
  std::unique_ptr<stbi_uc, void (*)(void*)> pixels(
      stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(png.data()),
                            static_cast<int>(png.size()), &w, &h, &channels, 4),
      stbi_image_free);
  ASSERT_TRUE(pixels);
  ASSERT_EQ(w, width);
  ASSERT_GE(h, static_cast<int>(layout.total_y)) << "the figure holds the view's grids";
  const auto cairo_px = [&](int x, int y) {
    return pixels.get() + (static_cast<std::size_t>(y) * w + x) * 4;
  };

  int compared = 0, agreed = 0;
  std::string first_mismatch;
  const auto compare = [&](float fx, float fy, const char* what) {
    const int x = static_cast<int>(fx), y = static_cast<int>(fy);
    if (x < 0 || y < 0 || x >= w || y >= h || y >= gl.height) return;
    ++compared;
    if (rgb_close(gl.pixel(x, y), cairo_px(x, y), 16)) {
      ++agreed;
    } else if (first_mismatch.empty()) {
      const std::uint8_t *g = gl.pixel(x, y), *k = cairo_px(x, y);
      first_mismatch = std::string(what) + " at " + std::to_string(x) + "," + std::to_string(y) +
                       ": GL " + std::to_string(g[0]) + "," + std::to_string(g[1]) + "," +
                       std::to_string(g[2]) + " cairo " + std::to_string(k[0]) + "," +
                       std::to_string(k[1]) + "," + std::to_string(k[2]);
    }
  };
  for (const auto& p : layout.phases) {
    for (int bank = 0; bank < layout.bank_count; ++bank) {
      const float x = layout.bank_x(p, bank) + 0.22f * layout.cell_w;
      compare(x, 0.5f * (p.header.y0 + p.header.y1), "bank header");
      for (std::size_t slot = 0; slot < p.rows.size(); ++slot) {
        const viz::BankLayout::Cell* cell =
            p.cell_of_word(p.rows[slot].row * layout.bank_count + bank);
        if (cell && (cell->broadcast() || layout.word_bytes < layout.bank_width))
          continue;  // stripes and byte bands: their phase differs between the rasterizers
        // A word waiting for its wavefront has no number: its middle, clear of its edge.
        const float cx = cell && !cell->served ? layout.bank_x(p, bank) + 0.5f * layout.cell_w : x;
        compare(cx, p.rows[slot].y + 0.5f * layout.row_h, "cell");
      }
    }
  }
  ASSERT_GT(compared, 64);
  EXPECT_GE(agreed, compared - compared / 50)
      << agreed << " of " << compared << " agree; " << first_mismatch;
}

INSTANTIATE_TEST_SUITE_P(Accesses, FigureGlParity,
                         ::testing::Values(Case{"2*tx", 4, "32x1"}, Case{"tx*32", 4, "32x32"},
                                           Case{"tx*33", 4, "32x32"}, Case{"tx", 8, "32x1"},
                                           Case{"tx", 16, "32x1"}, Case{"tx*2", 8, "32x1"},
                                           Case{"2*tx", 4, "32x1", 1}, Case{"tx*32", 4, "32x32", 5},
                                           Case{"tx", 16, "32x1", 1}));

}  // namespace
}  // namespace warplens::test
