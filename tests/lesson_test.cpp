// Lessons read from text (lesson.h): the built-in lessons load, follow their decks and show
// scenarios that exist; a step's changes reach its lab's parameters; bad files are refused with
// their file:line:column.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "global_scenario.h"
#include "lesson.h"
#include "scenarios.h"

namespace warplens::app {
namespace {

std::string base_name(const std::string& step_name) {
  return step_name.substr(0, step_name.find('+'));
}

TEST(BuiltinLessons, OnePerSeedDeckEachEightToTwentyStepsOfScenariosThatExist) {
  const auto& lessons = builtin_lessons();
  ASSERT_EQ(lessons.size(), 5u);
  std::set<std::string> decks, names;
  for (const Lesson& lesson : lessons) {
    SCOPED_TRACE(lesson.name);
    EXPECT_TRUE(names.insert(lesson.name).second) << "two lessons are called " << lesson.name;
    ASSERT_GE(lesson.deck.size(), 4u);
    decks.insert(lesson.deck.substr(0, 4));  // "000:", "001:", ...
    EXPECT_FALSE(lesson.title.empty());
    EXPECT_FALSE(lesson.audience.empty());
    EXPECT_GE(lesson.steps.size(), 8u);
    EXPECT_LE(lesson.steps.size(), 20u);
    for (const LessonStep& step : lesson.steps) {
      SCOPED_TRACE(step.where);
      // Every step names a built-in scenario (unchanged: its catalog index; changed: its name
      // with "+stepK").
      const Scenario& builtin = find_scenario(base_name(step.scenario.name));
      if (step.builtin_index >= 0) {
        EXPECT_EQ(&builtin_scenarios()[static_cast<std::size_t>(step.builtin_index)], &builtin);
      } else {
        EXPECT_NE(step.scenario.name, builtin.name);
        EXPECT_EQ(step.scenario.lab, builtin.lab);
      }
      EXPECT_FALSE(step.note.empty()) << "every built-in step has a speaker note";
      EXPECT_EQ(step.slide.substr(0, 5), lesson.deck.substr(0, 4) + " ")
          << "a step's slide is of its lesson's deck";
    }
  }
  EXPECT_EQ(decks, (std::set<std::string>{"000:", "001:", "002:", "003:", "004:"}));
}

TEST(BuiltinLessons, FindByNameOrRefuseNamingThem) {
  EXPECT_EQ(find_lesson("cuda-optimization-part2").steps.size(),
            builtin_lessons().back().steps.size());
  try {
    (void)find_lesson("no-such-lesson");
    ADD_FAILURE() << "found a lesson that does not exist";
  } catch (const LessonError& e) {
    EXPECT_NE(std::string(e.what()).find("cs380-l14-memory"), std::string::npos) << e.what();
  }
}

constexpr const char* kHead = "title = \"T\"\naudience = \"A\"\n";

TEST(LessonText, AStepsChangesReachItsLabsParameters) {
  const Lesson lesson = parse_lesson(std::string(kHead) +
                                         "[[step]]\n"
                                         "scenario = \"stride-2\"\n"
                                         "title = \"Stride four\"\n"
                                         "caption = \"Lanes four words apart.\"\n"
                                         "step = 3\n"
                                         "predict = \"hidden\"\n"
                                         "question = \"How many?\"\n"
                                         "view = \"heatmap\"\n"
                                         "panels = [\"warp\", \"numbers\"]\n"
                                         "[step.copy]\n"
                                         "stride = 4\n"
                                         "model = \"fermi-cg\"\n"
                                         "[[step]]\n"
                                         "scenario = \"aligned\"\n",
                                     "dir/my.toml", "my");
  EXPECT_EQ(lesson.name, "my");
  ASSERT_EQ(lesson.steps.size(), 2u);
  const LessonStep& changed = lesson.steps[0];
  EXPECT_EQ(changed.scenario.name, "stride-2+step1");
  EXPECT_EQ(changed.builtin_index, -1);
  EXPECT_EQ(global_scenario(changed.scenario).copy.stride, 4);
  EXPECT_EQ(global_scenario(changed.scenario).model, model::HardwareModel::FermiL2Only);
  EXPECT_EQ(global_scenario(find_scenario("stride-2")).copy.stride, 2) << "the built-in is kept";
  EXPECT_EQ(changed.title, "Stride four");
  EXPECT_EQ(changed.scenario.title, "Stride four") << "the picker names the changed scenario";
  EXPECT_EQ(changed.scenario.summary, "Lanes four words apart.");
  EXPECT_TRUE(changed.scenario.look_for.empty()) << "the built-in's look_for is of stride 2";
  EXPECT_EQ(changed.view_step, 3);
  EXPECT_TRUE(changed.predict);
  EXPECT_EQ(changed.scenario.question, "How many?");
  EXPECT_EQ(changed.view, BottomView::Heatmap);
  EXPECT_EQ(changed.panels, (std::vector<FigurePanel>{FigurePanel::Warp, FigurePanel::Numbers}));
  EXPECT_EQ(changed.where, "dir/my.toml:3:1");
  const LessonStep& plain = lesson.steps[1];
  EXPECT_EQ(plain.scenario.name, "aligned");
  EXPECT_EQ(plain.title, find_scenario("aligned").title);
  EXPECT_GE(plain.builtin_index, 0);
  EXPECT_FALSE(plain.predict);
  EXPECT_FALSE(plain.view_step);
}

TEST(LessonText, APresetStepIsReadBesideTheLesson) {
  const auto dir = std::filesystem::temp_directory_path() / "warplens-lesson-test";
  std::filesystem::create_directories(dir);
  {
    std::ofstream preset(dir / "mine.toml");
    preset << "name = \"mine\"\ntitle = \"Mine\"\nsummary = \"s\"\n[copy]\nword_bytes = 4\n"
              "offset = 3\nstride = 1\n";
    std::ofstream lesson(dir / "lesson.toml");
    lesson << kHead << "[[step]]\npreset = \"mine.toml\"\n[[step]]\npreset = \"missing.toml\"\n";
  }
  try {
    (void)load_lesson_file((dir / "lesson.toml").string());
    ADD_FAILURE() << "a missing preset was not refused";
  } catch (const LessonError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind((dir / "lesson.toml").string() + ":6:10: step 2: ", 0), 0u) << what;
    EXPECT_NE(what.find("missing.toml: cannot open"), std::string::npos) << what;
  }
  {
    std::ofstream lesson(dir / "lesson.toml");
    lesson << kHead << "[[step]]\npreset = \"mine.toml\"\n";
  }
  const Lesson lesson = load_lesson_file((dir / "lesson.toml").string());
  EXPECT_EQ(lesson.name, "lesson");
  EXPECT_EQ(global_scenario(lesson.steps.at(0).scenario).copy.offset, 3);
  std::filesystem::remove_all(dir);
}

// Each bad lesson is refused with "my.toml:LINE:COLUMN: " and the problem.
void expect_refused(const std::string& text, const std::string& place,
                    const std::string& message_part) {
  SCOPED_TRACE(text);
  try {
    (void)parse_lesson(text, "my.toml", "my");
    ADD_FAILURE() << "parsed without an error";
  } catch (const LessonError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("my.toml:" + place + ": ", 0), 0u) << what;
    EXPECT_NE(what.find(message_part), std::string::npos) << what;
  }
}

TEST(LessonText, BadFilesAreRefusedWithTheirPlace) {
  const std::string head = kHead;
  expect_refused("title = \"T\"\naudience = \n", "2:12", "");  // TOML syntax
  expect_refused("audience = \"A\"\n[[step]]\nscenario = \"aligned\"\n", "1:1", "missing title");
  expect_refused(head, "1:1", "[[step]]");
  expect_refused(head + "titel = \"x\"\n", "3:9", "unknown key \"titel\"");
  expect_refused(head + "step = 3\n", "3:8", "[[step]] tables");
  expect_refused(head + "[[step]]\ntitle = \"x\"\n", "3:1", "needs scenario");
  expect_refused(head + "[[step]]\nscenario = \"aligned\"\npreset = \"p.toml\"\n", "3:1",
                 "one of them");
  expect_refused(head + "[[step]]\nscenario = \"alined\"\n", "4:12",
                 "no built-in scenario is called \"alined\"");
  expect_refused(head + "[[step]]\nscenario = \"aligned\"\nstep = -1\n", "5:8", "0..4096");
  expect_refused(head + "[[step]]\nscenario = \"aligned\"\npredict = \"later\"\n", "5:11",
                 "predict must be \"hidden\"");
  expect_refused(head + "[[step]]\nscenario = \"aligned\"\nview = \"sideways\"\n", "5:8",
                 "view must be");
  expect_refused(head + "[[step]]\nscenario = \"bank-stride-2\"\nview = \"heatmap\"\n", "5:8",
                 "global lab's");
  expect_refused(head + "[[step]]\nscenario = \"aligned\"\npanels = [\"warp\", \"wrap\"]\n", "5:19",
                 "wrap");
  expect_refused(head + "[[step]]\nscenario = \"aligned\"\nnotes = \"x\"\n", "5:9",
                 "step 1: unknown key \"notes\"");
  expect_refused(head + "[[step]]\nscenario = \"aligned\"\nnote = \"\"\n", "5:8",
                 "note must be a non-empty string");
  // Changes: a table the scenario lacks, a key no scenario's table has, a value its lab refuses.
  const std::string named = "title = \"t\"\ncaption = \"c\"\n";
  expect_refused(
      head + "[[step]]\nscenario = \"aligned\"\ncaption = \"c\"\n[step.copy]\nstride = 2\n", "3:1",
      "step 1 changes scenario aligned: give it title");
  expect_refused(
      head + "[[step]]\nscenario = \"aligned\"\ntitle = \"t\"\n[step.copy]\nstride = 2\n", "3:1",
      "step 1 changes scenario aligned: give it caption");
  expect_refused(head + "[[step]]\nscenario = \"aligned\"\n[step.banks]\nstride = 2\n", "5:1",
                 "no [banks] table to change (it has [copy])");
  expect_refused(head + "[[step]]\nscenario = \"aligned\"\n[step.copy]\nstrde = 2\n", "6:9",
                 "[copy] has no key \"strde\"");
  expect_refused(
      head + "[[step]]\nscenario = \"aligned\"\n" + named + "[step.copy]\nword_bytes = 3\n", "7:1",
      "step 1: ");
}

}  // namespace
}  // namespace warplens::app
