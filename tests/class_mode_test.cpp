// Stepping and predict-then-reveal through `warplens render` (issue 14), model only, headless:
// --step K draws the request K wavefronts in; --animate writes every step (a GIF read back here
// with giflib, or numbered PNGs); --predict draws each stage of the class mode; bad combinations
// are refused with exit code 2 and a message.
#include <gif_lib.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "test_support.h"
#include "theme.h"

namespace warplens::test {
namespace {

const std::string kRender = std::string(WARPLENS_BINARY) + " render --model-only --size 1280x720 ";

int conflict_pixels(const std::string& png_path) {
  const Png png = load_png(png_path);
  EXPECT_GT(png.width, 0) << png_path;
  return count_near(png, viz::theme(viz::ThemeName::Light).conflict, 8);
}

// Pixels of frame `i` of a decoded GIF near `c` (frames carry their own palettes).
int gif_pixels_near(const GifFileType* gif, int i, viz::Rgb c, int tolerance) {
  const SavedImage& image = gif->SavedImages[i];
  const ColorMapObject* map = image.ImageDesc.ColorMap ? image.ImageDesc.ColorMap : gif->SColorMap;
  const int n = image.ImageDesc.Width * image.ImageDesc.Height;
  int count = 0;
  for (int p = 0; p < n; ++p) {
    const GifColorType& rgb = map->Colors[image.RasterBits[p]];
    const unsigned char px[3] = {rgb.Red, rgb.Green, rgb.Blue};
    count += near(px, c, tolerance);
  }
  return count;
}

TEST(Stepping, StepTwoOfBankStrideTwoShowsTheConflictStepOneDoesNot) {
  const std::string one = temp_path("step-1.png"), two = temp_path("step-2.png");
  auto r = run_command(kRender + "--scenario bank-stride-2 --step 1 --out " + one);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  r = run_command(kRender + "--scenario bank-stride-2 --step 2 --out " + two);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // The 16 conflicting banks' frames, headers and counts arrive with wavefront 2.
  EXPECT_GT(conflict_pixels(two), conflict_pixels(one) + 2000);
}

TEST(Stepping, TheGifOfBankStrideTwoAnimatesBothWavefronts) {
  const std::string out = temp_path("bank-stride-2.gif");
  std::filesystem::remove(out);
  const auto r =
      run_command(kRender + "--scenario bank-stride-2 --animate --format gif --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("3 frames: wavefronts 0..2"), std::string::npos) << r.output;
  int error = 0;
  GifFileType* gif = DGifOpenFileName(out.c_str(), &error);
  ASSERT_NE(gif, nullptr) << GifErrorString(error);
  ASSERT_EQ(DGifSlurp(gif), GIF_OK) << GifErrorString(gif->Error);
  ASSERT_EQ(gif->ImageCount, 3);  // nothing served, wavefront 1, wavefront 2
  EXPECT_EQ(gif->SWidth, 1280);
  EXPECT_EQ(gif->SHeight, 720);
  const viz::Theme& theme = viz::theme(viz::ThemeName::Light);
  // Lane 0's colour (its word, served by wavefront 1) is pale at step 0 and full from step 1.
  // Within 16: each frame's median cut lands a dark colour up to 14 off, as the rest of the
  // frame (the header's lab buttons) moves its boxes.
  const int lane0[3] = {gif_pixels_near(gif, 0, theme.lanes[0], 16),
                        gif_pixels_near(gif, 1, theme.lanes[0], 16),
                        gif_pixels_near(gif, 2, theme.lanes[0], 16)};
  EXPECT_GT(lane0[1], lane0[0] + 500);
  // Lane 16's word waits for wavefront 2.
  const int lane16[3] = {gif_pixels_near(gif, 0, theme.lanes[16], 10),
                         gif_pixels_near(gif, 1, theme.lanes[16], 10),
                         gif_pixels_near(gif, 2, theme.lanes[16], 10)};
  EXPECT_GT(lane16[2], lane16[1] + 500);
  // The conflict marks come with wavefront 2.
  EXPECT_GT(gif_pixels_near(gif, 2, theme.conflict, 12),
            gif_pixels_near(gif, 1, theme.conflict, 12) + 2000);
  DGifCloseFile(gif, &error);
}

TEST(Stepping, APngSequenceOfAMisalignedRequestHasOneFramePerSector) {
  const std::string dir = temp_path("misaligned-frames");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto r =
      run_command(kRender + "--scenario misaligned --animate --format png-sequence --out " + dir +
                  "/misaligned.png");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (int i = 0; i <= 5; ++i) {  // five sectors: steps 0..5
    const std::string frame = dir + "/misaligned-0" + std::to_string(i) + ".png";
    EXPECT_TRUE(std::filesystem::exists(frame)) << frame;
  }
  EXPECT_FALSE(std::filesystem::exists(dir + "/misaligned-06.png"));
  // The sector row fills one sector per step.
  const viz::Rgb sector = viz::theme(viz::ThemeName::Light).sector;
  const int at1 = count_near(load_png(dir + "/misaligned-01.png"), sector, 6);
  const int at5 = count_near(load_png(dir + "/misaligned-05.png"), sector, 6);
  EXPECT_GT(at5, at1 * 3);
}

TEST(PredictThenReveal, TheHiddenStageHidesTheConflictTheRevealShowsIt) {
  const std::string hidden = temp_path("predict-hidden.png"),
                    guessed = temp_path("predict-guessed.png"),
                    revealed = temp_path("predict-revealed.png");
  auto r = run_command(kRender + "--scenario bank-stride-32 --predict hidden --out " + hidden);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  r = run_command(kRender + "--scenario bank-stride-32 --predict guessed --guess 4 --out " +
                  guessed);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  r = run_command(kRender + "--scenario bank-stride-32 --predict revealed --guess 4 --out " +
                  revealed);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_LT(conflict_pixels(hidden), 200);
  EXPECT_LT(conflict_pixels(guessed), 200);
  EXPECT_GT(conflict_pixels(revealed), 800);  // bank 0: header, frame, count
}

TEST(PredictThenReveal, BadCombinationsAreRefusedWithAMessage) {
  const std::string out = temp_path("refused.png");
  auto r = run_command(kRender + "--scenario bank-stride-2 --predict guessed --out " + out);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--guess"), std::string::npos) << r.output;
  r = run_command(kRender + "--scenario carveout-l1 --predict hidden --out " + out);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("no count to guess"), std::string::npos) << r.output;
  r = run_command(kRender + "--scenario bank-stride-2 --format gif --out " + out);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--animate"), std::string::npos) << r.output;
  r = run_command(kRender + "--scenario carveout-l1 --animate --format gif --out " + out);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("no view that steps"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace warplens::test
