// `warplens-bench soak --model-only --report-memory` for 6 s (docs/hardening.md):
// the headless monkey drives the window's code on Mesa's EGL without a GPU, exits 0 (no crash, no
// lab error left), and its CSV holds one row per second with the documented columns. Memory growth
// and frame time are reported, not judged: no memory or timing verdict in CI (a 6-second run
// cannot tell a leak from the allocator's warm-up; the 10-minute soak on the GPU machine judges).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.h"

namespace warplens::test {
namespace {

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream in(line);
  std::string cell;
  while (std::getline(in, cell, ',')) cells.push_back(cell);
  if (!line.empty() && line.back() == ',') cells.emplace_back();
  return cells;
}

TEST(Soak, ModelOnlySixSecondsPassAndWriteOneRowPerSecond) {
  const std::string csv = std::string(WARPLENS_TEST_OUT_DIR) + "/soak-model-only.csv";
  std::filesystem::create_directories(WARPLENS_TEST_OUT_DIR);
  std::filesystem::remove(csv);
  const auto r = run_command(std::string(WARPLENS_BENCH) +
                             " soak 0.1 --model-only --report-memory --seed 7 --out " + csv +
                             " --size 960x540");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("frame time p99"), std::string::npos) << r.output;
  // The memory line is reported, not judged: "(--report-memory)", or "(ASan build)" there.
  const auto memory = r.output.find("host RSS growth, anon");
  ASSERT_NE(memory, std::string::npos) << r.output;
  const std::string memory_line = r.output.substr(memory, r.output.find('\n', memory) - memory);
  EXPECT_NE(memory_line.find("reported ("), std::string::npos) << memory_line;
  EXPECT_NE(r.output.find("soak: passed"), std::string::npos) << r.output;

  std::ifstream in(csv);
  ASSERT_TRUE(in) << csv;
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  const std::vector<std::string> columns = {
      "second",       "rss_mib", "rss_anon_mib", "gpu_used_mib", "frames",  "frame_ms_p50",
      "frame_ms_max", "actions", "lab",          "scenario",     "compare", "lab_errors"};
  EXPECT_EQ(split(line), columns);
  int rows = 0;
  while (std::getline(in, line)) {
    ++rows;
    const auto cells = split(line);
    ASSERT_EQ(cells.size(), columns.size()) << line;
    EXPECT_EQ(std::stoi(cells[0]), rows) << line;         // one row per second, in order
    EXPECT_GT(std::stod(cells[1]), 0.0) << line;          // RSS
    EXPECT_GT(std::stod(cells[2]), 0.0) << line;          // its anonymous part
    EXPECT_LE(std::stod(cells[2]), std::stod(cells[1]));  // ... is a part
    EXPECT_TRUE(cells[3].empty()) << line;                // no GPU memory in model-only runs
    EXPECT_GT(std::stoi(cells[4]), 0) << line;            // frames drawn in that second
  }
  EXPECT_EQ(rows, 6);
}

TEST(Soak, WithoutADeviceTheGpuSoakSaysSoAndTheModelOnlyOneIsOffered) {
  const auto r = run_command(std::string(WARPLENS_BENCH) + " soak 0.02");
  if (r.exit_code != 3) GTEST_SKIP() << "a CUDA device is present";
  EXPECT_NE(r.output.find("--model-only"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace warplens::test
