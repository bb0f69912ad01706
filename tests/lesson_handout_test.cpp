// Lessons through the binary: `list --lessons`; `render --lesson` as Markdown (every built-in
// lesson's speaker notes agree with the model's counts the handout prints), as a PDF (its page
// count, and pdftotext finds each step's title and question on its page: skipped without
// pdftotext), and as the steps' frames audited at projector sizes; bad lessons refused with their
// place, exit 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "lesson.h"
#include "test_support.h"

namespace warplens::app {
namespace {

using test::kWarplens;

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs of white space as one space: pdftotext breaks lines where the page wraps them.
std::string squeeze(const std::string& text) {
  return std::regex_replace(text, std::regex("\\s+"), " ");
}

// Each step's sections of a handout's Markdown ("## Step K:" and its answer, "### Step K:").
std::map<int, std::string> step_sections(const std::string& md) {
  std::map<int, std::string> sections;
  const std::regex heading("\n##+ Step (\\d+): ");
  std::vector<std::pair<int, std::size_t>> starts;
  for (auto it = std::sregex_iterator(md.begin(), md.end(), heading); it != std::sregex_iterator();
       ++it)
    starts.emplace_back(std::stoi((*it)[1]), static_cast<std::size_t>(it->position()));
  for (std::size_t i = 0; i < starts.size(); ++i) {
    const std::size_t end = i + 1 < starts.size() ? starts[i + 1].second : md.size();
    sections[starts[i].first] += md.substr(starts[i].second, end - starts[i].second);
  }
  return sections;
}

TEST(LessonCli, ListLessonsNamesEveryBuiltInLesson) {
  const auto r = test::run_command(kWarplens + " list --lessons");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const Lesson& lesson : builtin_lessons()) {
    EXPECT_NE(r.output.find(lesson.name + " "), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(std::to_string(lesson.steps.size()) + " steps  " + lesson.title),
              std::string::npos)
        << r.output;
  }
}

// A note that says "N sectors per request" or "N wavefronts per request" says what the model
// counts for the access the step shows: the handout's model line for that step.
TEST(LessonCli, SpeakerNotesAgreeWithTheModelsCounts) {
  const std::regex claim("(\\d+) (sector|wavefront)s? per request");
  const std::regex model("(?:model, per warp request[^:]*: |model: )(\\d+) (sector|wavefront)s?");
  const std::regex transactions(
      "\\b(one|two|three|four|five|six|seven|eight|\\d+) (\\d+)-byte transactions?");
  const std::regex model_transactions(
      "model, per warp request[^:]*: (\\d+) transactions? of (\\d+) B");
  const auto number = [](const std::string& word) {
    const std::vector<std::string> words = {"zero", "one", "two",   "three", "four",
                                            "five", "six", "seven", "eight"};
    const auto it = std::find(words.begin(), words.end(), word);
    return it == words.end() ? word : std::to_string(it - words.begin());
  };
  int checked = 0, checked_transactions = 0;
  for (const Lesson& lesson : builtin_lessons()) {
    const std::string out = test::temp_path("md-" + lesson.name);
    std::filesystem::remove_all(out);
    const auto r = test::run_command(kWarplens + " render --lesson " + lesson.name +
                                     " --format md --out " + out + " --model-only");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const std::string md = read_text(std::filesystem::path(out) / (lesson.name + ".md"));
    const auto sections = step_sections(md);
    ASSERT_EQ(sections.size(), lesson.steps.size()) << md;
    for (std::size_t k = 0; k < lesson.steps.size(); ++k) {
      const LessonStep& step = lesson.steps[k];
      const std::string& section = sections.at(static_cast<int>(k) + 1);
      SCOPED_TRACE(lesson.name + " step " + std::to_string(k + 1) + " (" + step.where + ")");
      // Every figure the step's section shows was written beside the page.
      const std::regex image("\\]\\(([^)]+\\.svg)\\)");
      int images = 0;
      for (auto it = std::sregex_iterator(section.begin(), section.end(), image);
           it != std::sregex_iterator(); ++it, ++images)
        EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(out) / (*it)[1].str()));
      EXPECT_GE(images, 1) << section;
      // "two 128-byte transactions": a historical model's count and size, as the model line says.
      std::smatch said;
      if (std::regex_search(step.note, said, transactions)) {
        std::smatch counted;
        ASSERT_TRUE(std::regex_search(section, counted, model_transactions)) << section;
        EXPECT_EQ(number(said[1].str()) + " of " + said[2].str(),
                  counted[1].str() + " of " + counted[2].str())
            << "the note: " << step.note;
        ++checked_transactions;
        continue;
      }
      if (!std::regex_search(step.note, said, claim)) continue;
      std::smatch counted;
      ASSERT_TRUE(std::regex_search(section, counted, model)) << section;
      EXPECT_EQ(said[1].str() + " " + said[2].str(), counted[1].str() + " " + counted[2].str())
          << "the note: " << step.note;
      ++checked;
    }
    std::filesystem::remove_all(out);
  }
  EXPECT_GE(checked, 20) << "the notes name a count per request in most steps of the two labs";
  EXPECT_GE(checked_transactions, 2) << "the historical models' notes name their transactions";
}

TEST(LessonCli, TheHandoutPdfHasAPagePerStepWithItsTitleAndQuestion) {
  if (test::run_command("pdftotext -v").exit_code != 0 ||
      test::run_command("pdfinfo -v").exit_code != 0)
    GTEST_SKIP() << "pdftotext and pdfinfo (poppler-utils) are not installed";
  const Lesson& lesson = find_lesson("cuda-optimization-part2");
  const std::string pdf = test::temp_path("handout.pdf"), md = test::temp_path("handout-md");
  auto r = test::run_command("SOURCE_DATE_EPOCH=1767225600 " + kWarplens +
                             " render --lesson cuda-optimization-part2 --format pdf --out " + pdf +
                             " --model-only");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  r = test::run_command(kWarplens + " render --lesson cuda-optimization-part2 --format md --out " +
                        md + " --model-only");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto sections = step_sections(read_text(std::filesystem::path(md) / (lesson.name + ".md")));
  // Pages: the title, one per step, one per question asked in class (its answer), the answers.
  int asked = 0;
  for (const LessonStep& step : lesson.steps) asked += step.predict ? 1 : 0;
  const int steps = static_cast<int>(lesson.steps.size());
  r = test::run_command("pdfinfo " + pdf);
  EXPECT_NE(r.output.find("Pages:           " + std::to_string(1 + steps + asked + 1)),
            std::string::npos)
      << r.output;
  const auto page = [&](int p) {
    return squeeze(test::run_command("pdftotext -f " + std::to_string(p) + " -l " +
                                     std::to_string(p) + " " + pdf + " -")
                       .output);
  };
  const std::string title = page(1);
  EXPECT_NE(title.find(squeeze(lesson.title)), std::string::npos) << title;
  EXPECT_NE(title.find("model only: no GPU measured these numbers"), std::string::npos) << title;
  EXPECT_NE(title.find("Date: 2026-01-01"), std::string::npos) << title;
  int answer_page = 1 + steps;
  for (int k = 0; k < steps; ++k) {
    const LessonStep& step = lesson.steps[static_cast<std::size_t>(k)];
    SCOPED_TRACE("step " + std::to_string(k + 1));
    const std::string text = page(2 + k);
    EXPECT_NE(text.find("Step " + std::to_string(k + 1) + " of " + std::to_string(steps)),
              std::string::npos)
        << text;
    EXPECT_NE(text.find(squeeze(step.title)), std::string::npos) << text;
    std::smatch question;
    const std::string& section = sections.at(k + 1);
    if (std::regex_search(section, question, std::regex("\\*\\*Question:\\*\\* (.*) \\(answer"))) {
      EXPECT_NE(text.find(squeeze(question[1].str())), std::string::npos) << text;
    }
    if (!step.predict) continue;
    // Asked in class: the answer, with the figure, on its own page.
    ++answer_page;
    EXPECT_NE(text.find("(answer on page " + std::to_string(answer_page) + ")"), std::string::npos)
        << text;
    const std::string answer = page(answer_page);
    EXPECT_NE(answer.find("Answer to step " + std::to_string(k + 1)), std::string::npos) << answer;
    EXPECT_NE(answer.find("Answer: model: "), std::string::npos) << answer;
  }
  EXPECT_NE(page(answer_page + 1).find("Answers"), std::string::npos);
  std::filesystem::remove(pdf);
  std::filesystem::remove_all(md);
}

TEST(LessonCli, BadLessonsAreRefusedWithTheirPlace) {
  const std::string bad = test::temp_path("bad-lesson.toml");
  {
    std::ofstream out(bad);
    out << "title = \"T\"\naudience = \"A\"\n[[step]]\nscenario = \"alined\"\n";
  }
  for (const std::string& command :
       {kWarplens + " render --lesson " + bad + " --format pdf --out " + bad + ".pdf",
        kWarplens + " --lesson " + bad}) {
    const auto r = test::run_command(command);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find(bad + ":4:12: step 1: no built-in scenario is called \"alined\""),
              std::string::npos)
        << r.output;
  }
  EXPECT_FALSE(std::filesystem::exists(bad + ".pdf"));
  auto r = test::run_command(kWarplens + " render --lesson no-such-lesson --audit");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("built-in: cs380-l14-memory"), std::string::npos) << r.output;
  r = test::run_command(kWarplens + " render --lesson cs380-l14-memory --format png --out x");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  std::filesystem::remove(bad);
}

// Every step of every built-in lesson, drawn as the window draws it, loses nothing in the view
// or the numbers at projector sizes (render --audit exits 1 when it does).
TEST(LessonCli, EveryLessonStepAuditsCleanAtProjectorSizes) {
  const char* configs[][2] = {{"1920x1080", "2"}, {"1920x1080", "3"}, {"1280x720", "1.5"}};
  for (const Lesson& lesson : builtin_lessons()) {
    for (const auto& [size, scale] : configs) {
      const auto r = test::run_command(kWarplens + " render --lesson " + lesson.name +
                                       " --audit --model-only --size " + size + " --scale " +
                                       scale + " 2>/dev/null");
      EXPECT_EQ(r.exit_code, 0) << lesson.name << " at " << size << " " << scale << "x:\n"
                                << r.output;
      EXPECT_NE(r.output.find("\"failing\": 0"), std::string::npos) << r.output;
    }
  }
}

// One monitor (Xvfb's): --speaker-view draws the speaker view over the lesson window's right
// part; without it that part shows the step's view and numbers.
TEST(LessonCli, TheSpeakerViewOpensOverTheLessonWindowOnOneMonitor) {
  if (test::run_command("command -v xvfb-run").exit_code != 0) GTEST_SKIP() << "no xvfb-run";
  const std::string plain = test::temp_path("lesson.png"), speaker = test::temp_path("speaker.png");
  for (const auto& [flag, out] : {std::pair{"", plain}, std::pair{" --speaker-view", speaker}}) {
    const auto r = test::run_command("xvfb-run -a -s '-screen 0 1600x1000x24' " + kWarplens +
                                     " --model-only --lesson cuda-optimization-part2" + flag +
                                     " --screenshot " + out + " --frames 5");
    ASSERT_EQ(r.exit_code, 0) << r.output;
  }
  const test::Png a = test::load_png(plain), b = test::load_png(speaker);
  ASSERT_TRUE(a.rgba && b.rgba);
  ASSERT_EQ(a.width, b.width);
  // The speaker view's rectangle: 55-98 % of the width, 8-70 % of the height.
  int differ = 0, total = 0;
  for (int y = a.height * 10 / 100; y < a.height * 68 / 100; ++y) {
    for (int x = a.width * 57 / 100; x < a.width * 96 / 100; ++x, ++total) {
      const unsigned char *p = a.at(x, y), *q = b.at(x, y);
      differ += std::abs(p[0] - q[0]) + std::abs(p[1] - q[1]) + std::abs(p[2] - q[2]) > 24;
    }
  }
  EXPECT_GT(differ, total / 10) << differ << " of " << total << " pixels differ";
  // Outside it, the lesson window is the same.
  int outside = 0;
  for (int y = a.height * 20 / 100; y < a.height * 60 / 100; ++y)
    for (int x = 0; x < a.width * 40 / 100; ++x)
      outside += std::abs(a.at(x, y)[1] - b.at(x, y)[1]) > 24;
  EXPECT_EQ(outside, 0);
  std::filesystem::remove(plain);
  std::filesystem::remove(speaker);
}

}  // namespace
}  // namespace warplens::app
