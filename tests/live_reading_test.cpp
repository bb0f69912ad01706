// LabInstance::live_reading (lab.cpp), what the live path's checks read each frame: whether the
// headline and the counter line are current, and whether the counter line differs from the
// model (the GPU smoke run's live path fails on a ✗, not only on a late line).
#include <gtest/gtest.h>

#include <string>

#include "stand_in_lab.h"

namespace warplens::app {
namespace {

class ColumnLab final : public test::StandInLab {
 public:
  CompareColumn column;
  [[nodiscard]] CompareColumn compare_column() const override { return column; }
};

ColumnLab measured_with(const std::string& counters, bool stale = false) {
  ColumnLab lab;
  lab.column.headline.value = 2252.6;
  lab.column.headline.unit = "GB/s";
  lab.column.counters = counters;
  lab.column.counters_stale = stale;
  return lab;
}

TEST(LiveReading, ACounterLineThatAgreesIsReadAndDoesNotDiffer) {
  const LiveReading r = measured_with("4.00 sectors (model 4.00) \u2713").live_reading();
  EXPECT_TRUE(r.measured);
  EXPECT_TRUE(r.counters);
  EXPECT_FALSE(r.counters_differ);
}

TEST(LiveReading, ACounterLineMarkedDifferentIsReadAndDiffers) {
  const LiveReading r = measured_with("8.00 sectors (model 4.00) \u2717 differs").live_reading();
  EXPECT_TRUE(r.counters);
  EXPECT_TRUE(r.counters_differ);
  EXPECT_NE(r.text.find("8.00 sectors"), std::string::npos) << r.text;
}

TEST(LiveReading, AStaleOrMissingLineIsNotReadAndSoDiffersFromNothing) {
  const LiveReading stale =
      measured_with("8.00 sectors (model 4.00) \u2717 differs", true).live_reading();
  EXPECT_FALSE(stale.counters);
  EXPECT_FALSE(stale.counters_differ);
  const LiveReading off = measured_with("hardware counters unavailable: refused").live_reading();
  EXPECT_FALSE(off.counters);
  EXPECT_FALSE(off.counters_differ);
}

}  // namespace
}  // namespace warplens::app
