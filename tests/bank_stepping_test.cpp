// Stepping through a shared-memory request (issue 14): the layout serves the request's
// wavefronts in order (phase after phase; within a phase the k-th distinct word of each bank in
// wavefront k), the conflict marks and counts follow the words served so far, and the shader
// draws a word not yet served pale, then in its lane's colour once its wavefront has come.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>

#include "bank_view_test_support.h"

namespace warplens::test {
namespace {

using viz::BankLayout;

int served_cells(const BankLayout::Phase& p) {
  return static_cast<int>(
      std::count_if(p.cells.begin(), p.cells.end(), [](const auto& c) { return c.served; }));
}

int sum(const std::vector<int>& v) {
  return std::accumulate(v.begin(), v.end(), 0);
}

TEST(BankStepping, StrideTwoServesItsTwoWavefrontsInTurnAndTheConflictAppearsWithTheSecond) {
  const Access a = shared_access("2*tx", 4);
  // The whole access: 2 wavefronts, 16 conflicting banks.
  const BankLayout whole = viz::layout_bank_view(a.trace, a.analysis, 1400, 700, 1.0f);
  ASSERT_EQ(whole.wavefronts, 2);
  EXPECT_FALSE(whole.stepping());
  EXPECT_EQ(whole.phases[0].conflict_banks(), 16);

  const BankLayout none = viz::layout_bank_view(a.trace, a.analysis, 1400, 700, 1.0f, false, 0);
  EXPECT_TRUE(none.stepping());
  EXPECT_EQ(served_cells(none.phases[0]), 0);
  EXPECT_EQ(sum(none.phases[0].served_per_bank), 0);
  EXPECT_EQ(none.phases[0].conflict_banks(), 0);

  const BankLayout first = viz::layout_bank_view(a.trace, a.analysis, 1400, 700, 1.0f, false, 1);
  const auto& p = first.phases[0];
  EXPECT_EQ(p.served_wavefronts, 1);
  EXPECT_EQ(served_cells(p), 16);  // bytes 0..127: even banks of row 0
  for (const auto& c : p.cells) EXPECT_EQ(c.served, c.row == 0) << "word " << c.word;
  EXPECT_EQ(p.conflict_banks(), 0) << "one word per bank so far";
  // The same rows at every step: stepping never moves the grid.
  ASSERT_EQ(first.phases[0].rows.size(), whole.phases[0].rows.size());
  for (std::size_t r = 0; r < whole.phases[0].rows.size(); ++r)
    EXPECT_FLOAT_EQ(first.phases[0].rows[r].y, whole.phases[0].rows[r].y);

  // Step 2 is the whole request again.
  const BankLayout last = viz::layout_bank_view(a.trace, a.analysis, 1400, 700, 1.0f, false, 2);
  EXPECT_FALSE(last.stepping());
  EXPECT_EQ(last.phases[0].conflict_banks(), 16);
}

TEST(BankStepping, SixteenByteWordsServeThePhasesOneAfterAnother) {
  const Access a = shared_access("tx", 16);  // several phases, the warp split by the word size
  const BankLayout whole = viz::layout_bank_view(a.trace, a.analysis, 1400, 700, 1.0f);
  ASSERT_GE(whole.phases.size(), 2u);
  int before = 0;
  for (const auto& p : whole.phases) {
    EXPECT_EQ(p.first_wavefront, before);
    before += p.wavefronts;
  }
  ASSERT_EQ(before, whole.wavefronts);
  for (int step = 0; step < whole.wavefronts; ++step) {
    const BankLayout l = viz::layout_bank_view(a.trace, a.analysis, 1400, 700, 1.0f, false, step);
    int served = 0;
    for (const auto& p : l.phases) {
      // A phase starts only once every phase before it is done.
      const int expected = std::clamp(step - p.first_wavefront, 0, p.wavefronts);
      EXPECT_EQ(p.served_wavefronts, expected) << "step " << step << " phase " << p.index;
      for (const auto& c : p.cells) EXPECT_EQ(c.served, c.wavefront <= expected);
      served += p.served_wavefronts;
    }
    EXPECT_EQ(served, step);
  }
}

class BankSteppingPixels : public BankViewTest {};

TEST_F(BankSteppingPixels, AWordNotYetServedIsPaleAndTakesItsLaneColourWhenServed) {
  const Access a = shared_access("2*tx", 4);
  const viz::Theme& theme = viz::theme(viz::ThemeName::Light);
  viz::BankView view;
  // Lane 16 reads word 32: bank 0 of row 1, served by wavefront 2.
  const viz::Image step1 = render(view, a, theme, 1400, 700, 1);
  const BankLayout layout = view.layout();
  const auto& p = layout.phases[0];
  ASSERT_EQ(p.rows.size(), 2u);
  const auto mid = [&](int slot) {
    return p.rows[static_cast<std::size_t>(slot)].y + 0.5f * layout.row_h;
  };
  const auto at = [&](const viz::Image& image, int bank, int slot) {
    return image.pixel(static_cast<int>(layout.bank_x(p, bank) + 0.5f * layout.cell_w),
                       static_cast<int>(mid(slot)));
  };
  const auto close = [](const std::uint8_t* px, viz::Rgb c) {
    const auto d = [](std::uint8_t v, float f) {
      return std::abs(int(v) - int(f * 255.0f + 0.5f));
    };
    return d(px[0], c.r) <= 3 && d(px[1], c.g) <= 3 && d(px[2], c.b) <= 3;
  };
  EXPECT_TRUE(close(at(step1, 0, 0), theme.lanes[0])) << "lane 0's word came in wavefront 1";
  EXPECT_FALSE(close(at(step1, 0, 1), theme.lanes[16])) << "lane 16's word waits for wavefront 2";
  EXPECT_FALSE(close(at(step1, 0, 1), theme.untouched)) << "a waiting word is not an untouched one";
  const viz::Image step2 = render(view, a, theme, 1400, 700, 2);
  EXPECT_TRUE(close(at(step2, 0, 1), theme.lanes[16])) << "served at step 2";
  // The conflict frame on bank 0 appears at step 2 only: the header's top edge.
  const auto header = [&](const viz::Image& image) {
    return image.pixel(static_cast<int>(layout.bank_x(p, 0) + 0.5f * layout.cell_w),
                       static_cast<int>(p.header.y0 + 1));
  };
  EXPECT_FALSE(close(header(step1), theme.conflict));
  EXPECT_TRUE(close(header(step2), theme.conflict));
}

}  // namespace
}  // namespace warplens::test
