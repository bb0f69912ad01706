// Stepping's keys (class_mode.h) over a lab whose lesson is a sequence of accesses: `.` walks
// every step of a stage, then the next stage from step 0; `,` walks back into the previous stage,
// landing on its last step once its views have reported them; past the very end the whole access
// is shown again; space plays one step per kStepPace and stops at the end.
#include <gtest/gtest.h>

#include "class_mode.h"
#include "stand_in_lab.h"

namespace warplens::app {
namespace {

// A lab of `stages` stages and nothing else (the views' steps are reported by the test).
class SequenceLab final : public test::StandInLab, public LabStages {
 public:
  [[nodiscard]] LabOffers offers() override { return {.stages = this}; }
  explicit SequenceLab(int stages) : stages_(stages) {}
  [[nodiscard]] int step_stages() const override { return stages_; }
  [[nodiscard]] int step_stage() const override { return stage_; }
  void go_to_step_stage(UiState& ui, int stage) override {
    (void)ui;
    if (stage >= 0 && stage < stages_) stage_ = stage;
  }
  [[nodiscard]] std::string step_stage_name() const override {
    return stages_ > 1 ? "stage " + std::to_string(stage_) : std::string();
  }

 private:
  int stages_ = 1, stage_ = 0;
};

// One frame: the views of the stage shown report `steps` sectors.
void frame(UiState& ui, int steps) {
  steps_drawn(ui, steps, "sector");
}

TEST(StepSequence, DotWalksEveryStepThenTheNextStageAndPastTheEndShowsTheWholeAccess) {
  UiState ui;
  SequenceLab lab(3);
  frame(ui, 2);
  EXPECT_EQ(ui.view_step, -1);
  std::vector<std::pair<int, int>> seen;  // (stage, step)
  for (int i = 0; i < 9; ++i) {
    ASSERT_TRUE(handle_step_key(ui, lab, '.'));
    seen.emplace_back(lab.step_stage(), ui.view_step);
    frame(ui, 2);
  }
  const std::vector<std::pair<int, int>> expected = {{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1},
                                                     {1, 2}, {2, 0}, {2, 1}, {2, 2}};
  EXPECT_EQ(seen, expected);
  EXPECT_EQ(step_status(ui, lab).rfind("stage 2 \u2022 sector 2 of 2", 0), 0u)
      << step_status(ui, lab);
  ASSERT_TRUE(handle_step_key(ui, lab, '.'));
  EXPECT_EQ(ui.view_step, -1) << "past the last step: the whole access";
  EXPECT_TRUE(step_status(ui, lab).empty());
}

TEST(StepSequence, CommaWalksBackIntoThePreviousStageAtItsLastStep) {
  UiState ui;
  SequenceLab lab(2);
  lab.go_to_step_stage(ui, 1);
  ui.view_step = 0;
  frame(ui, 3);
  ASSERT_TRUE(handle_step_key(ui, lab, ','));
  EXPECT_EQ(lab.step_stage(), 0);
  EXPECT_TRUE(ui.step_to_last);
  advance_steps(ui, lab, 0.0);  // the next frame: nothing moves before the views report
  frame(ui, 5);                 // stage 0's views: 5 steps
  EXPECT_EQ(ui.view_step, 5);
  EXPECT_FALSE(ui.step_to_last);
  ASSERT_TRUE(handle_step_key(ui, lab, ','));
  EXPECT_EQ(ui.view_step, 4);
}

TEST(StepSequence, SpacePlaysWhileSteppingAndStopsAtTheEnd) {
  UiState ui;
  SequenceLab lab(1);
  frame(ui, 2);
  EXPECT_FALSE(handle_step_key(ui, lab, ' ')) << "not stepping: space measures again";
  ASSERT_TRUE(handle_step_key(ui, lab, '.'));
  ASSERT_TRUE(handle_step_key(ui, lab, ' '));
  EXPECT_TRUE(ui.step_playing);
  double now = 10.0;
  advance_steps(ui, lab, now);  // schedules the first step
  EXPECT_EQ(ui.view_step, 0);
  for (int i = 0; i < 4; ++i) {
    now += kStepPace;
    advance_steps(ui, lab, now);
    frame(ui, 2);
  }
  EXPECT_EQ(ui.view_step, 2);
  EXPECT_FALSE(ui.step_playing) << "stops at the last step";
  ASSERT_TRUE(handle_step_key(ui, lab, ' '));  // play again: from the start
  EXPECT_EQ(ui.view_step, 0);
}

TEST(StepSequence, ALabChangeEndsStepping) {
  UiState ui;
  SequenceLab lab(1);
  ASSERT_TRUE(handle_step_key(ui, lab, '.'));
  ui.lab = Lab::Banks;
  advance_steps(ui, lab, 1.0);
  EXPECT_EQ(ui.view_step, -1);
}

}  // namespace
}  // namespace warplens::app
