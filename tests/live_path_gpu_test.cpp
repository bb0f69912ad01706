// The window's live path on the GPU (label gpu; skipped without a device): `warplens-bench live`
// draws the headless scene with counters on (as the window runs: WARPLENS_NO_COUNTERS unset),
// changes one parameter in each lab as its panel would, and requires the new measured point and
// its counter line on screen within 1 s, the line agreeing with the model, with no lab error.
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <string>

#include "test_support.h"

namespace warplens {
namespace {

TEST(LivePathGpu, EachLabsChangeBringsItsPointAndAnAgreeingCounterLineWithinASecond) {
  unsetenv("WARPLENS_NO_COUNTERS");
  const auto r = test::run_command(test::tool_path("WARPLENS_BENCH_BIN", WARPLENS_BENCH) + " live");
  std::cout << r.output;
  if (r.exit_code == 3) GTEST_SKIP() << r.output;
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("counters on"), std::string::npos);
  for (const char* lab :
       {"global", "banks", "transpose", "matmul", "reduction", "cache", "flight", "kernel"}) {
    EXPECT_NE(r.output.find(std::string("\n") + lab), std::string::npos) << lab;
  }
  EXPECT_NE(r.output.find("live path: pass"), std::string::npos);
}

}  // namespace
}  // namespace warplens
