// The plot component: tick arithmetic, and a plot drawn headless (EGL) checked by its pixels.
#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <array>
#include <memory>
#include <string>
#include <vector>

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

namespace {

// Draws `spec` with one series and one reference line at 900 x 500 (scale 1), two frames (the
// first settles the fonts); `unplaced` gets the marks' labels that found no place.
Image draw_marked_plot(const PlotSpec& spec, const std::vector<PlotSeries>& series,
                       const std::vector<ReferenceLine>& references, float plot_h,
                       std::vector<std::string>* unplaced,
                       PlotLayout::Legend legend = PlotLayout::Legend::OneLine,
                       std::vector<std::string>* far = nullptr) {
  const Theme& theme = viz::theme(ThemeName::Light);
  ImGuiLayer layer(nullptr, 1.0f, ThemeName::Light);
  const int w = 900, h = 500;
  RenderTarget target;
  for (int frame = 0; frame < 2; ++frame) {
    if (unplaced) unplaced->clear();
    if (far) far->clear();
    target.bind(w, h);
    glClearColor(1, 1, 1, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    layer.begin_frame(w, h, 1.0f / 60);
    ImGui::SetNextWindowPos({0, 0});
    ImGui::SetNextWindowSize({static_cast<float>(w), static_cast<float>(h)});
    ImGui::Begin("plot", nullptr, ImGuiWindowFlags_NoDecoration);
    PlotLayout layout;
    layout.unplaced_marks = unplaced;
    layout.far_marks = far;
    layout.legend = legend;
    draw_plot("p", spec, series, references, 880, plot_h, theme, 1.0f, false, layout);
    ImGui::End();
    layer.end_frame();
  }
  return read_framebuffer(w, h);
}

bool near(const std::uint8_t* p, Rgb c) {
  return std::abs(p[0] - int(c.r * 255)) < 40 && std::abs(p[1] - int(c.g * 255)) < 40 &&
         std::abs(p[2] - int(c.b * 255)) < 40;
}

}  // namespace

TEST(PlotRendering, AMarksLabelKeepsOffTheReferenceLines) {
  // flight-one-float at 2x on 1920x1080: the knee's label sat on the cudaMemcpy line near the
  // frame's top. The label (in the mark's colour, away from its own dashed line) shares no pixel
  // row with the reference line, and the reference line runs unbroken beside it.
  std::unique_ptr<HeadlessContext> context;
  try {
    context = std::make_unique<HeadlessContext>();
  } catch (const std::exception& e) {
    GTEST_SKIP() << "no headless GL: " << e.what();
  }
  const Rgb mark_color{0.1f, 0.65f, 0.1f}, reference_color{0.1f, 0.2f, 0.9f};
  PlotSpec spec{"x", "GB/s", false, 0, 10, false, {}, "GB/s", {}};
  spec.x_marks.push_back({"knee 3.0", mark_color, 3, {}});
  const PlotSeries low{"low", {0.9f, 0.1f, 0.1f}, {0, 10}, {0, 100}, {}, {}, false, true, -1};
  const Image image =
      draw_marked_plot(spec, {low}, {{"reference", reference_color, 1000}}, 480, nullptr);
  // The reference line's rows: those with many of its pixels.
  int ref_top = image.height, ref_bottom = -1;
  for (int y = 0; y < image.height; ++y) {
    int n = 0;
    for (int x = 0; x < image.width; ++x) n += near(image.pixel(x, y), reference_color);
    if (n > 200) {
      ref_top = std::min(ref_top, y);
      ref_bottom = std::max(ref_bottom, y);
    }
  }
  ASSERT_GE(ref_bottom, 0) << "no reference line drawn";
  // The mark's vertical line: the column with most of its colour; the label: the rest.
  std::vector<int> column(static_cast<std::size_t>(image.width));
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x)
      column[static_cast<std::size_t>(x)] += near(image.pixel(x, y), mark_color);
  const int line_x =
      static_cast<int>(std::max_element(column.begin(), column.end()) - column.begin());
  int label_pixels = 0, label_top = image.height, label_bottom = -1;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x)
      if (std::abs(x - line_x) > 3 && near(image.pixel(x, y), mark_color)) {
        ++label_pixels;
        label_top = std::min(label_top, y);
        label_bottom = std::max(label_bottom, y);
      }
  EXPECT_GT(label_pixels, 20) << "the mark's label is not drawn";
  EXPECT_TRUE(label_bottom < ref_top - 1 || label_top > ref_bottom + 1)
      << "label rows " << label_top << "-" << label_bottom << " cross the reference line's rows "
      << ref_top << "-" << ref_bottom;
}

TEST(ReferenceLabel, NamesTheLineItsValueAndTheUnit) {
  EXPECT_EQ(reference_label({"cudaMemcpy", {}, 2890.4}, "GB/s"), "cudaMemcpy 2890 GB/s");
  EXPECT_EQ(reference_label({"all hits", {}, 100.0}, "%"), "all hits 100 %");
  EXPECT_EQ(reference_label({"100 % occupancy", {}, 8.0}, "blocks/SM"),
            "100 % occupancy 8 blocks/SM");
  EXPECT_EQ(reference_label({"model", {}, 2.5}, ""), "model 2.5");
  // Whole from 10 up, as the key numbers beside the chart write it (the ladder's L1 plateau).
  EXPECT_EQ(reference_label({"L1 (256 KiB)", {}, 19.7}, "ns"), "L1 (256 KiB) 20 ns");
}

TEST(PlotRendering, AReferenceLineIsLabelledInsideTheFrame) {
  // Issue 32: a dashed line named only in a legend (often beside the view, or not on screen at
  // 3x) leaves the class guessing. Its name and value stand next to it, in its colour, inside the
  // frame: pixels of its colour in the rows just above or below its own rows, and nothing is
  // reported as unplaced.
  std::unique_ptr<HeadlessContext> context;
  try {
    context = std::make_unique<HeadlessContext>();
  } catch (const std::exception& e) {
    GTEST_SKIP() << "no headless GL: " << e.what();
  }
  const Rgb reference_color{0.1f, 0.2f, 0.9f};
  PlotSpec spec{"x", "GB/s", false, 0, 10, false, {}, "GB/s", {}};
  const PlotSeries low{"low", {0.9f, 0.1f, 0.1f}, {0, 10}, {0, 100}, {}, {}, false, true, -1};
  std::vector<std::string> unplaced;
  const Image image =
      draw_marked_plot(spec, {low}, {{"cudaMemcpy", reference_color, 1000}}, 480, &unplaced);
  int ref_top = image.height, ref_bottom = -1;
  for (int y = 0; y < image.height; ++y) {
    int n = 0;
    for (int x = 0; x < image.width; ++x) n += near(image.pixel(x, y), reference_color);
    if (n > 200) {
      ref_top = std::min(ref_top, y);
      ref_bottom = std::max(ref_bottom, y);
    }
  }
  ASSERT_GE(ref_bottom, 0) << "no reference line drawn";
  int label_pixels = 0;
  for (int y = std::max(ref_top - 24, 0); y < std::min(ref_bottom + 24, image.height); ++y)
    for (int x = 0; x < image.width && (y < ref_top - 1 || y > ref_bottom + 1); ++x)
      label_pixels += near(image.pixel(x, y), reference_color);
  EXPECT_GT(label_pixels, 40) << "the reference line's label is not drawn beside it";
  EXPECT_TRUE(unplaced.empty()) << unplaced.front();
}

TEST(PlotRendering, AMarksLabelStaysByItsOwnLineOverTheSeriesRatherThanByAFarRing) {
  // flight-volkov at 2x: the knee's line had a curve on both sides of it, and its label went
  // to the current point's ring, three lines away, where it read as that line's. Beside its own
  // line, over the curve (at a smaller size first), is the place; away from it only where
  // nothing nearer fits.
  std::unique_ptr<HeadlessContext> context;
  try {
    context = std::make_unique<HeadlessContext>();
  } catch (const std::exception& e) {
    GTEST_SKIP() << "no headless GL: " << e.what();
  }
  PlotSpec spec{"x", "y", false, 0, 100, false, {}, "", {{"knee 5.8 KiB", {0, 0, 0}, 20, {}}}};
  // A zigzag across every row just left and right of the line at x = 20, and a point ringed
  // far from it with room all around.
  PlotSeries zigzag{"curve", {0.9f, 0.4f, 0.1f}, {}, {}, {}, {}, false, false, -1};
  for (int i = 0; i <= 40; ++i) {
    zigzag.x.push_back(i % 2 ? 5 : 35);
    zigzag.y.push_back(2.5 * i);
  }
  const PlotSeries ring{"current", {0.1f, 0.1f, 0.1f}, {90}, {50}, {}, {}, false, true, 0};
  std::vector<std::string> unplaced, far;
  draw_marked_plot(spec, {zigzag, ring}, {}, 300, &unplaced, PlotLayout::Legend::OneLine, &far);
  EXPECT_TRUE(unplaced.empty()) << unplaced.front();
  EXPECT_TRUE(far.empty()) << far.front() << " stands by the ring, away from its line";
}

TEST(PlotRendering, AMarksLabelWithNoRoomIsReportedNotDrawnAcrossAnotherMark) {
  // Three marks closer than their labels are wide: the middle one's label would cross a
  // neighbour's line on either side even at 0.6 of the font and on two lines (it would read as
  // that line's), so
  // it is handed back to the caller (who puts it beside the chart) and not drawn; the outer two
  // keep theirs, smaller.
  std::unique_ptr<HeadlessContext> context;
  try {
    context = std::make_unique<HeadlessContext>();
  } catch (const std::exception& e) {
    GTEST_SKIP() << "no headless GL: " << e.what();
  }
  const Rgb middle_color{0.1f, 0.65f, 0.1f};
  PlotSpec spec{"x", "GB/s", false, 0, 10, false, {}, "GB/s", {}};
  // (no space: two lines would not make it narrower)
  const std::string wide = "too-wide-for-the-gap-between-them";
  spec.x_marks.push_back({"first: " + wide, {0.5f, 0.5f, 0.5f}, 3, {}});
  spec.x_marks.push_back({"middle: " + wide, middle_color, 5, {}});
  spec.x_marks.push_back({"last: " + wide, {0.5f, 0.5f, 0.5f}, 7, {}});
  const PlotSeries low{"low", {0.9f, 0.1f, 0.1f}, {0, 10}, {0, 100}, {}, {}, false, true, -1};
  std::vector<std::string> unplaced;
  const Image image = draw_marked_plot(spec, {low}, {}, 480, &unplaced);
  EXPECT_EQ(unplaced, std::vector<std::string>{"middle: " + wide});
  // The middle mark's colour is its dashed line's alone: no label pixels beside it.
  std::vector<int> column(static_cast<std::size_t>(image.width));
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x)
      column[static_cast<std::size_t>(x)] += near(image.pixel(x, y), middle_color);
  const auto line_x = std::max_element(column.begin(), column.end()) - column.begin();
  int beside = 0;
  for (std::size_t x = 0; x < column.size(); ++x)
    if (std::abs(static_cast<long>(x) - static_cast<long>(line_x)) > 3) beside += column[x];
  EXPECT_LT(beside, 5);
}

}  // namespace
}  // namespace warplens::viz

namespace warplens::viz {
namespace {

// The box (x0, y0, x1, y1) of `color`'s pixels off the rows its own dashed line fills (more than
// 200 of them): where its label is drawn; x1 < x0 where there is none.
std::array<int, 4> label_box(const Image& image, Rgb color) {
  std::vector<bool> line_row(static_cast<std::size_t>(image.height));
  for (int y = 0; y < image.height; ++y) {
    int n = 0;
    for (int x = 0; x < image.width; ++x) n += near(image.pixel(x, y), color);
    line_row[static_cast<std::size_t>(y)] = n > 200;
  }
  std::array<int, 4> box = {image.width, image.height, -1, -1};
  for (int y = 1; y + 1 < image.height; ++y) {
    if (line_row[static_cast<std::size_t>(y - 1)] || line_row[static_cast<std::size_t>(y)] ||
        line_row[static_cast<std::size_t>(y + 1)])
      continue;
    for (int x = 0; x < image.width; ++x)
      if (near(image.pixel(x, y), color)) {
        box = {std::min(box[0], x), std::min(box[1], y), std::max(box[2], x), std::max(box[3], y)};
      }
  }
  return box;
}

TEST(PlotRendering, TwoReferenceLinesCloserThanALabelBothKeepTheirLabels) {
  // flight-one-float at 3x on 1920x1080: cudaMemcpy (2950 GB/s) a few pixels under the
  // theoretical peak (3352 GB/s) in a short frame, the current point's ring under cudaMemcpy;
  // both labels went beside the chart. Now the range leaves room over the upper line for its
  // label and the lower one's hangs under its line: both drawn in the frame, apart.
  std::unique_ptr<HeadlessContext> context;
  try {
    context = std::make_unique<HeadlessContext>();
  } catch (const std::exception& e) {
    GTEST_SKIP() << "no headless GL: " << e.what();
  }
  const Rgb upper_color{0.85f, 0.1f, 0.1f}, lower_color{0.1f, 0.2f, 0.9f};
  PlotSpec spec{"x", "GB/s", false, 0, 10, false, {}, "GB/s", {}};
  const PlotSeries rising{
      "model", {0.1f, 0.65f, 0.1f}, {0, 5, 10}, {100, 2200, 2950}, {}, {}, false, false, 1};
  std::vector<std::string> unplaced;
  const Image image = draw_marked_plot(
      spec, {rising},
      {{"cudaMemcpy (assumed)", lower_color, 2950}, {"theoretical peak", upper_color, 3352}}, 150,
      &unplaced, PlotLayout::Legend::None);  // no legend: its swatches take the lines' colours
  EXPECT_TRUE(unplaced.empty()) << unplaced.size() << " unplaced, the first " << unplaced.front();
  const auto upper = label_box(image, upper_color), lower = label_box(image, lower_color);
  ASSERT_GT(upper[2] - upper[0], 40) << "the theoretical peak's label is not drawn";
  ASSERT_GT(lower[2] - lower[0], 40) << "cudaMemcpy's label is not drawn";
  const bool apart =
      upper[2] < lower[0] || lower[2] < upper[0] || upper[3] < lower[1] || lower[3] < upper[1];
  EXPECT_TRUE(apart) << "the labels overlap: " << upper[0] << "," << upper[1] << "-" << upper[2]
                     << "," << upper[3] << " and " << lower[0] << "," << lower[1] << "-" << lower[2]
                     << "," << lower[3];
  EXPECT_LT(upper[3], lower[1]) << "the upper line's label is not over the lower one's";
}

}  // namespace
}  // namespace warplens::viz
