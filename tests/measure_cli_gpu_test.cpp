// `warplens measure` with --scenario, --preset and --set on a real GPU (ctest label "gpu"): what
// the JSON says it timed is what the knobs asked for, and its "preset" is the lab's table of it,
// written by the lab's knob table. Skipped where measure finds no CUDA device (exit 3).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "test_support.h"

namespace warplens::test {
namespace {

// The warplens binary: the build's, or WARPLENS_BIN_PATH's where the GPU smoke run sets it.
const std::string kMeasureBinary = tool_path("WARPLENS_BIN_PATH", WARPLENS_BINARY);

// `warplens measure ARGS --format json`'s document (its stdout alone: stderr may hold notes).
nlohmann::json measure_json(const std::string& args) {
  const std::string out = temp_path("measure.json");
  const auto r = run_command(kMeasureBinary + " measure --format json " + args + " > " + out);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  std::ifstream in(out);
  return r.exit_code == 0 ? nlohmann::json::parse(in) : nlohmann::json{};
}

class MeasureCliGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto probe = run_command(kMeasureBinary + " measure --runs 10 --format json 2>&1");
    if (probe.exit_code == 3) GTEST_SKIP() << "no CUDA device: " << probe.output;
  }
};

TEST_F(MeasureCliGpu, ASetKnobIsWhatTheGlobalCopyTimesAndItsPresetSays) {
  const auto doc = measure_json("--scenario stride-2 --set stride=3 --runs 10");
  ASSERT_EQ(doc["measurements"].size(), 1u) << doc.dump();  // the scenario's one point
  const auto& row = doc["measurements"][0];
  EXPECT_EQ(row["stride"], 3);
  EXPECT_EQ(row["offset"], 0);
  EXPECT_EQ(row["word_bytes"], 4);
  EXPECT_GT(row["gbps"].get<double>(), 1.0);
  EXPECT_EQ(doc["preset"]["copy"]["stride"], 3);
  EXPECT_EQ(doc["preset"]["copy"]["word_bytes"], 4);
}

TEST_F(MeasureCliGpu, APresetFileOfASharedLabIsTimedWithItsKnobs) {
  const std::string path = temp_path("measure-banks.toml");
  std::ofstream(path) << "name = \"mine\"\nlab = \"banks\"\ntitle = \"Mine\"\nsummary = \"Mine.\"\n"
                         "[banks]\npattern = \"strided\"\nword_bytes = 4\nstride = 2\n";
  const auto doc = measure_json("--preset " + path + " --set stride=4");
  EXPECT_EQ(doc["lab"], "banks");
  EXPECT_EQ(doc["preset"]["banks"]["stride"], 4);
  EXPECT_EQ(doc["preset"]["banks"]["pattern"], "strided");
  // Stride 4 words: lanes k and k + 8 share a bank, a 4-way conflict.
  EXPECT_EQ(doc["model"]["wavefronts_per_request"], 4) << doc["model"].dump();
  EXPECT_FALSE(doc["measurements"].empty());
}

TEST_F(MeasureCliGpu, ATileScenarioSaysWhichTileItTimed) {
  const auto doc = measure_json("--scenario tma-no-swizzle-column --set read=row");
  EXPECT_EQ(doc["preset"]["tile"]["read"], "row");
  EXPECT_EQ(doc["preset"]["tile"]["swizzle"], "none");
  ASSERT_EQ(doc["measurements"].size(), 1u);
}

}  // namespace
}  // namespace warplens::test
