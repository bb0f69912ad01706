// Predict, then reveal (key Q): the state machine hidden -> guessed -> revealed, its refusals
// (nothing changes on a bad guess) and the lines the revealed panel shows.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "predict.h"

namespace warplens::app {
namespace {

Question wavefronts() {
  return {"How many wavefronts?", "wavefronts", true};
}

TEST(Prediction, StartsHiddenThenAGuessThenTheReveal) {
  Prediction p(wavefronts());
  EXPECT_EQ(p.stage(), PredictStage::Hidden);
  EXPECT_TRUE(p.hides_answer());
  p.guess(4, 2000.0);
  EXPECT_EQ(p.stage(), PredictStage::Guessed);
  EXPECT_TRUE(p.hides_answer());
  EXPECT_EQ(p.guessed_count(), 4.0);
  EXPECT_EQ(p.guessed_gbps(), 2000.0);
  p.guess(2);  // a second thought replaces the first
  EXPECT_EQ(p.guessed_count(), 2.0);
  EXPECT_FALSE(p.guessed_gbps());
  p.reveal();
  EXPECT_EQ(p.stage(), PredictStage::Revealed);
  EXPECT_FALSE(p.hides_answer());
  EXPECT_THROW(p.guess(3), std::logic_error);
  EXPECT_EQ(p.guessed_count(), 2.0) << "a refused guess changes nothing";
}

TEST(Prediction, BadGuessesAreRefusedAndNothingChanges) {
  Prediction p(wavefronts());
  EXPECT_THROW(p.guess(-1), std::invalid_argument);
  EXPECT_THROW(p.guess(std::numeric_limits<double>::quiet_NaN()), std::invalid_argument);
  EXPECT_THROW(p.guess(std::numeric_limits<double>::infinity()), std::invalid_argument);
  EXPECT_THROW(p.guess(2, 0.0), std::invalid_argument);
  EXPECT_THROW(p.guess(2, -5.0), std::invalid_argument);
  EXPECT_EQ(p.stage(), PredictStage::Hidden);
  EXPECT_FALSE(p.guessed_count());
}

TEST(Prediction, TheClassMayGiveUpAndAskAgainForgetsTheGuess) {
  Prediction p(wavefronts());
  p.reveal();
  EXPECT_EQ(p.stage(), PredictStage::Revealed);
  const PredictAnswer answer{wavefronts(), 2, 2.0, std::nullopt, ""};
  EXPECT_EQ(p.verdict_lines(answer).front(), "Model 2 wavefronts (no guess)");
  p.ask_again(Question{"How many sectors?", "sectors", false});
  EXPECT_EQ(p.stage(), PredictStage::Hidden);
  EXPECT_FALSE(p.guessed_count());
  EXPECT_EQ(p.question().unit, "sectors");
  p.guess(5);
  EXPECT_EQ(p.stage(), PredictStage::Guessed);
}

TEST(Prediction, TheRevealPutsTheGuessBesideTheModelTheGpuAndTheMeasurement) {
  Prediction p(wavefronts());
  p.guess(4, 2000);
  p.reveal();
  const PredictAnswer answer{wavefronts(), 32, 32.0, 1600.0, "bank probe"};
  const auto lines = p.verdict_lines(answer);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "Model 32 wavefronts: your guess 4 is off by 28");
  EXPECT_EQ(lines[1], "GPU trace 32 wavefronts");
  EXPECT_EQ(lines[2], "Measured 1600 GB/s (guess 2000, +25 %)");
  for (const std::string& line : lines)
    EXPECT_EQ(line.find("\u2713"), std::string::npos)
        << "no tick: in WarpLens a tick means the GPU confirmed a number";

  Prediction right(wavefronts());
  right.guess(32);
  right.reveal();
  EXPECT_EQ(right.verdict_lines(answer)[0], "Model 32 wavefronts: your guess is right");
}

TEST(Prediction, StagesHaveNames) {
  EXPECT_STREQ(to_string(PredictStage::Hidden), "hidden");
  EXPECT_STREQ(to_string(PredictStage::Guessed), "guessed");
  EXPECT_STREQ(to_string(PredictStage::Revealed), "revealed");
}

}  // namespace
}  // namespace warplens::app
