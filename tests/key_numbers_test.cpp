// The key numbers a lab without its own list shows, from its A/B column (app/shell/presenter.h):
// where the GPU's counters agree, A/B's column folds them into the model's number.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "presenter.h"

namespace warplens::app {
namespace {

CompareColumn measured_column(const std::string& counters, bool stale) {
  CompareColumn c;
  c.model = "4 sectors, 100.0 % of the bytes moved used";
  c.counters = counters;
  c.counters_stale = stale;
  c.headline.what = "copy kernel, bytes read + written";
  c.headline.unit = "GB/s";
  c.headline.value = 2561.0;
  return c;
}

TEST(KeyNumbers, AgreeingCountersFoldIntoTheModelsNumberWithItsTick) {
  const CompareColumn c = measured_column("4.00 sectors (model 4.00) \u2713", false);
  const std::vector<KeyNumber> folded = key_numbers_from(c, false, true, true);
  ASSERT_EQ(folded.size(), 2u);
  EXPECT_EQ(folded[0].value, c.model + " \u2713");
  EXPECT_NE(folded[0].label.find("the GPU's counters agree"), std::string::npos);
  EXPECT_EQ(folded[1].value, "2561 GB/s");
  // Without the fold (the numbers' column, the band): the counters keep their own number.
  const std::vector<KeyNumber> all = key_numbers_from(c, false, true);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].value, c.model);
  EXPECT_EQ(all[1].value, c.counters);
}

TEST(KeyNumbers, CountersThatDifferOrAreStaleKeepTheirOwnNumber) {
  for (const auto& [counters, stale] :
       {std::pair{std::string("5.00 sectors (model 4.00) \u2717 differs"), false},
        std::pair{std::string("4.00 sectors (model 4.00) \u2713"), true},
        std::pair{std::string("reading\u2026"), false}}) {
    const CompareColumn c = measured_column(counters, stale);
    const std::vector<KeyNumber> numbers = key_numbers_from(c, false, true, true);
    ASSERT_EQ(numbers.size(), 3u) << counters;
    EXPECT_EQ(numbers[0].value, c.model) << counters;
    EXPECT_EQ(numbers[1].value, counters);
    EXPECT_EQ(numbers[1].note, stale ? "from the previous parameters" : "");
  }
}

}  // namespace
}  // namespace warplens::app
