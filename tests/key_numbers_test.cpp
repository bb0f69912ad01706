// The key numbers a lab without its own list shows, from its A/B column (app/shell/presenter.h):
// where the GPU's counters agree, A/B's column folds them into the model's number. And the
// legend slot beside the view (legend_slot.h): A/B's two views hand in one legend with the
// entries of both.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "legend_slot.h"
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

TEST(LegendSlotUnion, TwoViewsOfOneKindKeyTheMarksOfBothAndNotesAloneAreNoLegend) {
  LegendSlot slot;
  unsigned drawn = 99;
  bool flowed = false;
  const auto draw = [&](unsigned bits, bool flow) {
    drawn = bits;
    flowed = flow;
  };
  slot.set_union("warp", 1u, draw);  // A over-fetches
  slot.set_union("warp", 0u, draw);  // B does not: the legend still keys A's hatch
  ASSERT_TRUE(slot.has_legend());
  slot.draw(true);
  EXPECT_EQ(drawn, 1u);
  EXPECT_TRUE(flowed);
  slot.set_union("banks", 4u, draw);  // another kind replaces it
  slot.draw();
  EXPECT_EQ(drawn, 4u);
  EXPECT_FALSE(flowed);
  // Notes without a legend: nothing to draw as a legend (not an empty function called).
  bool noted = false;
  slot.set({}, [&] { noted = true; });
  EXPECT_FALSE(slot.has_legend());
  EXPECT_FALSE(slot.empty());
  slot.draw();
  slot.draw_notes();
  EXPECT_TRUE(noted);
}

// A/B compare with both panes on screen: the pane the knobs edit says so in its title; the other
// and a single view do not, and the scope ends with the frame's panes.
TEST(PaneTitle, ThePaneTheKnobsEditSaysSo) {
  EXPECT_EQ(pane_title_prefix(nullptr), "");
  EXPECT_EQ(pane_title_prefix("B"), "B \u2022 ");
  {
    KnobsEditSide edited{"B"};
    const KnobsEditSide::Scope knobs(edited);
    EXPECT_EQ(pane_title_prefix("A"), "A \u2022 ");
    EXPECT_EQ(pane_title_prefix("B"), "B (knobs) \u2022 ");
    EXPECT_EQ(pane_title_prefix(nullptr), "");
  }
  EXPECT_EQ(pane_title_prefix("B"), "B \u2022 ");
}

}  // namespace
}  // namespace warplens::app
