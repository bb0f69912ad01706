// The warp figure (cairo, app/widgets/warp_figure.h) and the window's warp view (GL,
// viz/warp_view.h) show the same layout: the GL view drawn at the figure's width and its view
// height, and the figure's PNG at one pixel per figure unit, have the same colour in every lane
// box (off its centre, where the figure writes the lane number that the window's ImGui labels
// draw over the GL texture), in every run of requested or untouched bytes of the strip and in
// every sector box of the sector row, within a tolerance for the two rasterizers. Over-fetched
// bytes are hatched on both sides, in stripes whose phase differs, and are left out.
#include <gtest/gtest.h>
#include <stb_image.h>

#include <cmath>
#include <memory>
#include <string>

#include "copy_pattern.h"
#include "figure_cairo.h"
#include "figure_parts.h"
#include "headless_gl_test.h"
#include "memory_model.h"
#include "png_writer.h"
#include "test_support.h"
#include "warp_figure.h"
#include "warp_view.h"

namespace warplens::test {
namespace {

struct WarpCase {
  const char* name;
  gpu::CopyParams params;
};

void PrintTo(const WarpCase& c, std::ostream* os) {
  *os << c.name;
}

class WarpFigureGlParity : public HeadlessGlTest, public ::testing::WithParamInterface<WarpCase> {};

TEST_P(WarpFigureGlParity, LanesBytesAndSectorsHaveTheSameColoursInTheSamePlaces) {
  const gpu::CopyParams& params = GetParam().params;
  const TraceRecords trace = model_trace(params, 0);
  const auto lanes = model::evaluate_lanes(copy_access_pattern(params, 0));
  const model::GlobalAnalysis analysis =
      model::analyze_global(lanes, params.word_bytes, model::Op::Load);
  const viz::Theme& theme = viz::theme(viz::ThemeName::Light);

  app::FigurePanelData data;
  data.panel = app::FigurePanel::Warp;
  data.trace = trace;
  data.global = analysis;
  data.access = GetParam().name;
  const viz::Figure figure = app::warp_figure(data, theme, "");
  const int width = static_cast<int>(app::figure_parts::kFigureWidth);
  const int height = app::kWarpFigureViewHeight;

  viz::WarpView view;
  view.publish(trace);
  const GLuint texture = view.render(trace, width, height, 1.0f, theme);
  ASSERT_NE(texture, 0u);
  const viz::Image gl = viz::read_texture(texture, width, height);
  const viz::StripLayout& layout = view.layout();

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
  ASSERT_GE(h, static_cast<int>(layout.strip.y1)) << "the figure holds the view's strip";
  const auto cairo_px = [&](int x, int y) {
    return pixels.get() + (static_cast<std::size_t>(y) * w + x) * 4;
  };

  int compared = 0, agreed = 0;
  std::string first_mismatch;
  const auto compare = [&](float fx, float fy, const std::string& what) {
    const int x = static_cast<int>(fx), y = static_cast<int>(fy);
    if (x < 0 || y < 0 || x >= w || y >= h || y >= gl.height) return;
    ++compared;
    if (rgb_close(gl.pixel(x, y), cairo_px(x, y), 16)) {
      ++agreed;
    } else if (first_mismatch.empty()) {
      const std::uint8_t *g = gl.pixel(x, y), *k = cairo_px(x, y);
      first_mismatch = what + " at " + std::to_string(x) + "," + std::to_string(y) + ": GL " +
                       std::to_string(g[0]) + "," + std::to_string(g[1]) + "," +
                       std::to_string(g[2]) + " cairo " + std::to_string(k[0]) + "," +
                       std::to_string(k[1]) + "," + std::to_string(k[2]);
    }
  };
  // Lane boxes: a quarter in from the left, a quarter down (clear of the centred number).
  for (int lane = 0; lane < 32; ++lane) {
    const viz::Rect b = layout.lane_box(lane);
    compare(b.x0 + 0.25f * (b.x1 - b.x0), b.y0 + 0.25f * (b.y1 - b.y0), "lane box");
  }
  // The strip: each byte's middle (away from sector and line rules), where no lane's word
  // is over-fetched; the sector row: each sector box's middle.
  const auto owner = [&](std::uint64_t address) {
    for (const auto& r : trace)
      if (r.active && r.word_bytes && address >= trace_address(r) &&
          address < trace_address(r) + r.word_bytes)
        return true;
    return false;
  };
  const auto moved = [&](std::uint64_t address) {
    for (const auto& r : trace) {
      if (!r.active || r.word_bytes == 0) continue;
      const std::uint64_t a = trace_address(r);
      if (address / 32 >= a / 32 && address / 32 <= (a + r.word_bytes - 1) / 32) return true;
    }
    return false;
  };
  const float bytes_y = 0.5f * (layout.strip.y0 + layout.sector_row_top);
  const float sectors_y = 0.5f * (layout.sector_row_top + layout.strip.y1);
  for (const auto& line : layout.lines) {
    for (std::uint64_t b = 0; b < 128; b += 4) {
      const std::uint64_t address = line.address + b + 2;
      const float in_sector = static_cast<float>((b + 2) % 32);
      if (std::min(in_sector, 32.0f - in_sector) * layout.px_per_byte < 4.0f) continue;
      if (!owner(address) && moved(address)) continue;  // hatched
      compare(line.x + (static_cast<float>(b) + 2.5f) * layout.px_per_byte, bytes_y,
              owner(address) ? "requested byte" : "untouched byte");
    }
    for (std::uint64_t sector = 0; sector < 4; ++sector)
      compare(line.x + (static_cast<float>(sector) + 0.5f) * 32 * layout.px_per_byte, sectors_y,
              moved(line.address + sector * 32) ? "moved sector" : "sector not moved");
  }
  ASSERT_GT(compared, 64);
  EXPECT_GE(agreed, compared - compared / 50)
      << agreed << " of " << compared << " agree; " << first_mismatch;
}

gpu::CopyParams copy(int offset, int stride, int word_bytes) {
  gpu::CopyParams p;
  p.offset = offset;
  p.stride = stride;
  p.word_bytes = word_bytes;
  return p;
}

// Every lane on word 0: its colours stacked in lane order (the shader's and the figure's).
gpu::CopyParams same_word() {
  gpu::CopyParams p = copy(0, 1, 4);
  p.kind = IndexKind::SameWord;
  return p;
}

INSTANTIATE_TEST_SUITE_P(Accesses, WarpFigureGlParity,
                         ::testing::Values(WarpCase{"aligned", copy(0, 1, 4)},
                                           WarpCase{"misaligned", copy(1, 1, 4)},
                                           WarpCase{"stride 2", copy(0, 2, 4)},
                                           WarpCase{"stride 32", copy(0, 32, 4)},
                                           WarpCase{"16-byte words", copy(0, 1, 16)},
                                           WarpCase{"8-byte words, offset 3", copy(3, 1, 8)},
                                           WarpCase{"all lanes on one word", same_word()}),
                         [](const ::testing::TestParamInfo<WarpCase>& param) {
                           std::string name = param.param.name;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

}  // namespace
}  // namespace warplens::test
