// The plot component: tick arithmetic, and a plot drawn headless (EGL) checked by its pixels.
#include <gtest/gtest.h>
#include <imgui.h>

#include "gl_program.h"
#include "headless_context.h"
#include "imgui_layer.h"
#include "plot.h"
#include "png_writer.h"

namespace warplens::viz {
namespace {

TEST(NiceTicks, UseSteps1_2_5AndCoverTheRange) {
  EXPECT_EQ(nice_ticks(0, 10, 5), (std::vector<double>{0, 2, 4, 6, 8, 10}));
  EXPECT_EQ(nice_ticks(0, 3000, 6), (std::vector<double>{0, 500, 1000, 1500, 2000, 2500, 3000}));
  EXPECT_EQ(nice_ticks(1, 64, 8), (std::vector<double>{10, 20, 30, 40, 50, 60}));
  EXPECT_EQ(nice_ticks(0, 32, 8), (std::vector<double>{0, 5, 10, 15, 20, 25, 30}));
  EXPECT_TRUE(nice_ticks(5, 5).empty());
}

TEST(LogTicks, DecadesAndSubdivisions) {
  EXPECT_EQ(log_ticks(100, 10000), (std::vector<double>{100, 200, 500, 1000, 2000, 5000, 10000}));
  EXPECT_EQ(log_ticks(1, 1e5), (std::vector<double>{1, 10, 100, 1000, 10000, 100000}));
  EXPECT_TRUE(log_ticks(0, 10).empty());
}

TEST(TickLabel, ShortAndExact) {
  EXPECT_EQ(tick_label(0), "0");
  EXPECT_EQ(tick_label(2.5), "2.5");
  EXPECT_EQ(tick_label(3000), "3000");
  EXPECT_EQ(tick_label(20000), "20k");
}

TEST(PlotRendering, DrawsSeriesReferencesAndAxesWhereTheDataSays) {
  std::unique_ptr<HeadlessContext> context;
  try {
    context = std::make_unique<HeadlessContext>();
  } catch (const std::exception& e) {
    GTEST_SKIP() << "no headless GL: " << e.what();
  }
  const Theme& theme = viz::theme(ThemeName::Light);
  ImGuiLayer layer(nullptr, 1.0f, ThemeName::Light);
  const int w = 900, h = 500;
  const Rgb series_color{0.9f, 0.1f, 0.1f}, reference_color{0.1f, 0.2f, 0.9f};
  PlotSpec spec{"stride (elements)", "GB/s", false, 0, 10, false, {}, "GB/s", {}};
  PlotSeries rising{"rising", series_color, {0, 5, 10}, {0, 500, 1000}, {}, {}, false, true, 1};
  RenderTarget target;
  for (int frame = 0; frame < 2; ++frame) {
    target.bind(w, h);
    glClearColor(1, 1, 1, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    layer.begin_frame(w, h, 1.0f / 60);
    ImGui::SetNextWindowPos({0, 0});
    ImGui::SetNextWindowSize({static_cast<float>(w), static_cast<float>(h)});
    ImGui::Begin("plot", nullptr, ImGuiWindowFlags_NoDecoration);
    draw_plot("p", spec, {rising}, {{"reference", reference_color, 800}}, 880, 480, theme, 1.0f,
              false);
    ImGui::End();
    layer.end_frame();
  }
  const Image image = read_framebuffer(w, h);
  const auto count = [&](Rgb c, int x0, int x1) {
    int n = 0;
    for (int y = 0; y < h; ++y)
      for (int x = x0; x < x1; ++x) {
        const auto* p = image.pixel(x, y);
        n += std::abs(p[0] - int(c.r * 255)) < 30 && std::abs(p[1] - int(c.g * 255)) < 30 &&
             std::abs(p[2] - int(c.b * 255)) < 30;
      }
    return n;
  };
  EXPECT_GT(count(series_color, 0, w), 300);     // the line and markers
  EXPECT_GT(count(reference_color, 0, w), 200);  // the dashed reference line
  // The series rises left to right: its lowest pixels are on the left, its highest on the right.
  int left_lowest = 0, right_highest = h;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const auto* p = image.pixel(x, y);
      if (!(p[0] > 200 && p[1] < 60 && p[2] < 60)) continue;
      if (x < w / 3) left_lowest = std::max(left_lowest, y);
      if (x > 2 * w / 3) right_highest = std::min(right_highest, y);
    }
  }
  EXPECT_GT(left_lowest, right_highest + 150);
}

}  // namespace
}  // namespace warplens::viz
