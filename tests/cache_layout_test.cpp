// The cache lab reads whole wherever a lecture hall puts it: each of its scenarios, in the
// sizes and UI scales the layout audit covers (`warplens render --audit`, light theme), has no
// failing finding — nothing hidden in the view, nothing cut in the numbers.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "test_support.h"

namespace warplens::test {
namespace {

const std::string kWarplens = WARPLENS_BINARY;

const char* const kScenarios[] = {"carveout-occupancy", "carveout-l1", "constant-broadcast",
                                  "read-path", "texture-2d-tile"};

struct Configuration {
  const char* size;
  const char* scale;
};

class CacheLayout : public ::testing::TestWithParam<Configuration> {};

TEST_P(CacheLayout, EveryCacheScenarioHasNoFailingFinding) {
  const Configuration c = GetParam();
  for (const char* scenario : kScenarios) {
    SCOPED_TRACE(std::string(scenario) + " at " + c.size + ", scale " + c.scale);
    // stderr (the renderer's notes) apart from the JSON on stdout.
    const auto r = run_command("(" + kWarplens + " render --model-only --audit --theme light" +
                               " --scenario " + scenario + " --size " + c.size + " --scale " +
                               c.scale + " 2>/dev/null)");
    nlohmann::json report;
    try {
      report = nlohmann::json::parse(r.output);
    } catch (const nlohmann::json::exception& e) {
      ADD_FAILURE() << "not JSON: " << e.what() << "\n" << r.output;
      continue;
    }
    std::string failing;
    for (const auto& f : report["findings"]) {
      if (!f["fails"].get<bool>()) continue;
      failing += "[" + f["panel"].get<std::string>() + ", " + f["kind"].get<std::string>() + "] " +
                 f["text"].get<std::string>() + "\n";
    }
    EXPECT_EQ(report["failing"].get<int>(), 0) << failing;
    EXPECT_EQ(r.exit_code, 0) << failing;
  }
}

INSTANTIATE_TEST_SUITE_P(
    SizesAndScales, CacheLayout,
    ::testing::Values(Configuration{"1280x720", "1"}, Configuration{"1280x720", "1.5"},
                      Configuration{"1280x720", "2"}, Configuration{"1280x720", "3"},
                      Configuration{"1600x960", "1"}, Configuration{"1600x960", "1.5"},
                      Configuration{"1600x960", "2"}, Configuration{"1600x960", "3"},
                      Configuration{"1920x1080", "1"}, Configuration{"1920x1080", "1.5"},
                      Configuration{"1920x1080", "2"}, Configuration{"1920x1080", "3"}),
    [](const ::testing::TestParamInfo<Configuration>& p) {
      std::string name = std::string(p.param.size) + "_scale_" + p.param.scale;
      for (char& ch : name)
        if (ch == '.') ch = '_';
      return name;
    });

}  // namespace
}  // namespace warplens::test
