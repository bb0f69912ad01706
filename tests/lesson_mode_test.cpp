// Lesson mode headless (lesson_mode.h): a built-in lesson's steps applied in the model-only
// window state, the clicker's keys (Page Down / Page Up, arrows, Home / End) pressed through
// ImGui in drawn frames, the status bar's line and the speaker view's content for a step.
#include <gtest/gtest.h>
#include <imgui.h>

#include <memory>
#include <string>

#include "app_ui.h"
#include "headless_frames.h"
#include "headless_gl_test.h"
#include "lesson.h"
#include "lesson_mode.h"
#include "scenarios.h"
#include "shared_scenario.h"

namespace warplens::app {
namespace {

class LessonMode : public test::HeadlessGlTest {
 protected:
  void SetUp() override {
    test::HeadlessGlTest::SetUp();
    if (IsSkipped()) return;
    ViewOptions options;
    options.use_gpu = false;
    options.scale = 2;
    options.lesson = "cuda-optimization-part2";
    scene_ = std::make_unique<HeadlessScene>(options);
    ui_ = initial_ui(options, scene_->labs, /*interactive=*/true);
    scene_->wait_until_idle();
    frames(2);
  }

  void frames(int n) { scene_->draw_frames(ui_, target_, 1920, 1080, n); }

  // One frame with ImGui's `key` held down (pressed in that frame), then one with it up.
  void press(ImGuiKey key) {
    ImGuiIO& io = ImGui::GetIO();
    constexpr int kSlot = 300;  // a key index of our own for the key (the headless layer has none)
    io.KeyMap[key] = kSlot;
    io.KeysDown[kSlot] = true;
    frames(1);
    io.KeysDown[kSlot] = false;
    frames(1);
    io.KeyMap[key] = -1;
  }

  [[nodiscard]] int step() const { return ui_.lesson->step; }
  [[nodiscard]] const Lesson& lesson() const { return ui_.lesson->lesson; }

  std::unique_ptr<HeadlessScene> scene_;
  UiState ui_;
  viz::RenderTarget target_;
};

TEST_F(LessonMode, StartsAtTheFirstStepInThePresenterLayout) {
  ASSERT_TRUE(ui_.lesson);
  EXPECT_EQ(lesson().name, "cuda-optimization-part2");
  EXPECT_EQ(step(), 0);
  EXPECT_EQ(scenario_at(ui_, ui_.scenario).name, lesson().steps[0].scenario.name);
  EXPECT_TRUE(ui_.presenter_shown);
  EXPECT_EQ(lesson_status(ui_).rfind("step 1 of 17: " + lesson().steps[0].title + " \u2022 ", 0),
            0u)
      << lesson_status(ui_);
}

TEST_F(LessonMode, ClickerKeysMoveBetweenStepsAndStopAtTheEnds) {
  press(ImGuiKey_PageDown);
  EXPECT_EQ(step(), 1);
  EXPECT_EQ(scenario_at(ui_, ui_.scenario).name, lesson().steps[1].scenario.name);
  press(ImGuiKey_RightArrow);
  EXPECT_EQ(step(), 2);
  press(ImGuiKey_PageUp);
  EXPECT_EQ(step(), 1);
  press(ImGuiKey_LeftArrow);
  EXPECT_EQ(step(), 0);
  press(ImGuiKey_LeftArrow);  // no wrap at the first step
  EXPECT_EQ(step(), 0);
  press(ImGuiKey_End);
  EXPECT_EQ(step(), 16);
  EXPECT_EQ(scenario_at(ui_, ui_.scenario).name, "ab-tile-32x32-vs-32x33");
  EXPECT_TRUE(ui_.compare) << "an A/B step opens as A/B";
  press(ImGuiKey_PageDown);  // no wrap at the last
  EXPECT_EQ(step(), 16);
  press(ImGuiKey_Home);
  EXPECT_EQ(step(), 0);
}

TEST_F(LessonMode, AStepAppliesItsChangesAndAsksItsQuestion) {
  // Step 14 changes bank-stride-8's stride to 16.
  ASSERT_TRUE(move_lesson(ui_, scene_->labs, LessonMove::Last));
  go_to_lesson_step(ui_, scene_->labs, 13);
  frames(2);
  const Scenario& shown = scenario_at(ui_, ui_.scenario);
  EXPECT_EQ(shown.name, "bank-stride-8+step14");
  EXPECT_EQ(shared_scenario(shown).probe.index.stride, 16);
  EXPECT_EQ(lesson_status(ui_).rfind("step 14 of 17: Shared memory: stride of 16 words", 0), 0u)
      << lesson_status(ui_);
  EXPECT_FALSE(ui_.predict);
  // Step 13 asks (predict = "hidden"): the class mode with the answer hidden.
  press(ImGuiKey_PageUp);
  ASSERT_EQ(step(), 12);
  ASSERT_TRUE(ui_.predict);
  EXPECT_TRUE(ui_.predict->hides_answer());
  EXPECT_EQ(ui_.predict->question().unit, "wavefronts");
}

TEST_F(LessonMode, TheSpeakerViewSaysTheNoteTheNextStepTheQuestionAndItsAnswer) {
  go_to_lesson_step(ui_, scene_->labs, 12);  // bank-stride-2, asked
  frames(2);
  ui_.lesson->started = 100;
  const SpeakerNotes n = speaker_notes(ui_, scene_->labs.lab(ui_.lab), 100 + 754);
  const LessonStep& step = lesson().steps[12];
  EXPECT_EQ(n.lesson, lesson().title);
  EXPECT_EQ(n.position, "step 13 of 17");
  EXPECT_EQ(n.title, step.title);
  EXPECT_EQ(n.slide, step.slide);
  EXPECT_EQ(n.note, step.note);
  EXPECT_EQ(n.next, "next: " + lesson().steps[13].title);
  EXPECT_EQ(n.question, find_scenario("bank-stride-2").question);
  ASSERT_GE(n.answer.size(), 2u);
  EXPECT_EQ(n.answer[0], "model: 2 wavefronts per request");
  EXPECT_EQ(n.answer[1], "model only: no GPU measured this step");
  EXPECT_EQ(n.clock, "12:34 since the lesson started");
  go_to_lesson_step(ui_, scene_->labs, 16);
  EXPECT_EQ(speaker_notes(ui_, scene_->labs.lab(ui_.lab), 0).next, "last step");
}

TEST_F(LessonMode, AHistoricalModelsStepAsksAboutTheTransactionsItsViewDraws) {
  // Step 3: the Fermi caching load, misaligned: the view draws two 128-byte lines, so the
  // question counts those, not the 32-byte sectors (five) the GPU would move.
  go_to_lesson_step(ui_, scene_->labs, 2);
  frames(2);
  ASSERT_EQ(scenario_at(ui_, ui_.scenario).name, "caching-load-misaligned");
  const SpeakerNotes n = speaker_notes(ui_, scene_->labs.lab(ui_.lab), 0);
  EXPECT_EQ(n.question,
            "Under the fermi-ca model, how many 128-byte transactions does warp 0's load move?");
  ASSERT_GE(n.answer.size(), 1u);
  EXPECT_EQ(n.answer[0], "model: 2 transactions per request");
}

TEST_F(LessonMode, ThePickerLeavesTheLessonAndTheClickerComesBack) {
  apply_scenario(ui_, scene_->labs, static_cast<int>(builtin_scenarios().size()) - 1);
  frames(1);
  EXPECT_EQ(lesson_status(ui_).rfind("off the lesson at step 1 of 17", 0), 0u)
      << lesson_status(ui_);
  press(ImGuiKey_PageDown);
  EXPECT_EQ(step(), 1);
  EXPECT_EQ(scenario_at(ui_, ui_.scenario).name, lesson().steps[1].scenario.name);
  EXPECT_EQ(lesson_status(ui_).rfind("step 2 of 17: ", 0), 0u) << lesson_status(ui_);
}

// Starting makes only the labs it needs: each instance has its session and worker, and on a GPU
// each measures as soon as it is made (the live path's changes took 1-7 s while all nine did).
class Startup : public test::HeadlessGlTest {};

TEST_F(Startup, MakesOnlyTheShownLabAndTheOneWhoseBottomViewsOpen) {
  ViewOptions options;
  options.use_gpu = false;
  options.scenario = "bank-stride-2";
  HeadlessScene scene(options);
  (void)initial_ui(options, scene.labs, /*interactive=*/true);
  for (const LabInfo& info : lab_registry()) {
    const bool wanted = info.id == Lab::Banks || info.bottom_views;
    EXPECT_EQ(scene.labs.made(info.id) != nullptr, wanted) << to_string(info.id);
  }
}

TEST(LessonClock, MinutesThenHours) {
  EXPECT_EQ(clock_text(0), "0:00");
  EXPECT_EQ(clock_text(59.6), "1:00");
  EXPECT_EQ(clock_text(3599), "59:59");
  EXPECT_EQ(clock_text(3600 + 62), "1:01:02");
  EXPECT_EQ(clock_text(-5), "0:00");
}

}  // namespace
}  // namespace warplens::app
