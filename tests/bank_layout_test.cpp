// The shared-memory bank view's layout, checked without GL: rows, cells and wavefronts per phase,
// phase grids stacked or side by side inside the view area, and hit testing.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "bank_total.h"
#include "bank_view_test_support.h"

namespace warplens::test {
namespace {

using viz::BankLayout;

// --- layout (no GL) ----------------------------------------------------------------------------

// The total line keeps its verdict where the room allows one: the verdict shortens first, then
// the total ("Wavefronts: 8  •  minimum 1" where "Wavefronts per request: 8" left no room; a
// projector at 3x, issue 32). Widths here: 10 px per byte of text, bold or not.
TEST(BankTotal, TheVerdictStaysAsTheTotalShortens) {
  const Access a = shared_access("8*tx", 4);
  const BankLayout layout = viz::layout_bank_view(a.trace, a.analysis, 1400, 600, 1.0f);
  const app::BankTotal t = app::bank_total(layout);
  ASSERT_EQ(t.text, "Wavefronts per request: 8");
  ASSERT_EQ(t.short_text, "Wavefronts: 8");
  const auto width = [](const std::string& x) { return 10.0f * static_cast<float>(x.size()); };
  const auto fit = [&](float room) { return app::fit_total(t, room, width, width); };
  const float total = width(t.text), short_total = width(t.short_text);
  EXPECT_EQ(fit(1000), std::make_pair(t.text, t.verdict));
  EXPECT_EQ(fit(total + width(t.short_verdict)), std::make_pair(t.text, t.short_verdict));
  EXPECT_EQ(fit(short_total + width(t.short_verdict)),
            std::make_pair(t.short_text, t.short_verdict));
  EXPECT_EQ(fit(total), std::make_pair(t.text, std::string()));
  EXPECT_EQ(fit(short_total), std::make_pair(t.short_text, std::string()));
  EXPECT_NE(t.short_verdict.find("minimum 1"), std::string::npos) << t.short_verdict;
}

// A row's "word N" label counts words of the access's size: with 8- or 16-byte words row 1
// (byte 128) starts word 16 or 8, not the 4-byte bank word 32 (issue 32).
TEST(BankLayout, RowLabelsCountWordsOfTheAccesssSize) {
  for (const int bytes : {4, 8, 16}) {
    const Access a = shared_access("tx", bytes);
    const BankLayout layout = viz::layout_bank_view(a.trace, a.analysis, 1400, 600, 1.0f);
    ASSERT_EQ(layout.word_bytes, bytes);
    EXPECT_EQ(layout.row_byte(1), 128);
    EXPECT_EQ(layout.row_word(1), 128 / bytes);
    EXPECT_EQ(layout.row_word(3), 3 * 128 / bytes);
  }
}

TEST(BankLayout, StrideOneIsOneRowOfThirtyTwoBanks) {
  const Access a = shared_access("lane", 4);
  const BankLayout layout = viz::layout_bank_view(a.trace, a.analysis, 1400, 600, 1.0f);
  EXPECT_EQ(layout.bank_count, 32);
  ASSERT_EQ(layout.phases.size(), 1u);
  const auto& p = layout.phases[0];
  ASSERT_EQ(p.rows.size(), 1u);
  EXPECT_EQ(p.rows[0].row, 0);
  EXPECT_EQ(p.wavefronts, 1);
  EXPECT_EQ(p.conflict_banks(), 0);
  ASSERT_EQ(p.cells.size(), 32u);
  for (int bank = 0; bank < 32; ++bank) {
    EXPECT_EQ(p.cells[bank].bank, bank);
    EXPECT_EQ(p.cells[bank].lanes, std::vector<int>{bank});
    EXPECT_EQ(p.cells[bank].wavefront, 1);
  }
  // Lane boxes sit over the bank columns, inside the view.
  EXPECT_NEAR(layout.lane_box(5).x0, layout.bank_x(5), layout.cell_w);
  EXPECT_LE(layout.total_y, 600.0f);
}

TEST(BankLayout, StrideTwoServesTwoWordsPerEvenBankInTwoWavefronts) {
  const Access a = shared_access("2*lane", 4);
  const BankLayout layout = viz::layout_bank_view(a.trace, a.analysis, 1400, 600, 1.0f);
  const auto& p = layout.phases.at(0);
  EXPECT_EQ(p.wavefronts, 2);
  EXPECT_EQ(p.wavefronts, a.analysis.phases[0].wavefronts);
  EXPECT_EQ(p.words_per_bank, a.analysis.phases[0].distinct_words_per_bank);
  EXPECT_EQ(p.conflict_banks(), 16);
  ASSERT_EQ(p.rows.size(), 2u);
  EXPECT_FALSE(p.rows[1].gap_before);
  // Word 2 (lane 1) is bank 2's first word, word 34 (lane 17) its second.
  ASSERT_NE(p.cell_of_word(2), nullptr);
  EXPECT_EQ(p.cell_of_word(2)->wavefront, 1);
  ASSERT_NE(p.cell_of_word(34), nullptr);
  EXPECT_EQ(p.cell_of_word(34)->wavefront, 2);
  EXPECT_EQ(p.cell_of_word(34)->lanes, std::vector<int>{17});
  EXPECT_EQ(p.cell_of_word(34)->row_slot, 1);
  EXPECT_EQ(p.cell_of_word(3), nullptr);
}

TEST(BankLayout, SameWordIsOneBroadcastCell) {
  const Access a = shared_access("0", 4);
  const BankLayout layout = viz::layout_bank_view(a.trace, a.analysis, 1400, 600, 1.0f);
  const auto& p = layout.phases.at(0);
  ASSERT_EQ(p.cells.size(), 1u);
  EXPECT_TRUE(p.cells[0].broadcast());
  EXPECT_EQ(p.cells[0].lanes.size(), 32u);
  EXPECT_EQ(p.wavefronts, 1);
  EXPECT_EQ(p.conflict_banks(), 0);
}

TEST(BankLayout, SparseRowsAreMarkedAsGaps) {
  const Access a = shared_access("lane*64", 4);  // every lane two rows below the previous
  const BankLayout layout = viz::layout_bank_view(a.trace, a.analysis, 1400, 1400, 1.0f);
  const auto& p = layout.phases.at(0);
  ASSERT_EQ(p.rows.size(), 32u);
  EXPECT_EQ(p.rows[1].row, 2);
  EXPECT_TRUE(p.rows[1].gap_before);
  EXPECT_GT(p.rows[1].y, p.rows[0].y + layout.row_h);
  EXPECT_EQ(p.wavefronts, 32);
}

TEST(BankLayout, EveryTouchedRowShrinksIntoTheHeightBeforeAnyIsElided) {
  // A column of a 32x32 tile: 32 rows, one word each, all in bank 0 (issue 13: a 400 px view
  // used to show 14 of them).
  const Access a = shared_access("tx*32", 4, "32x32");
  for (const int height : {1200, 400}) {
    SCOPED_TRACE(height);
    const BankLayout layout = viz::layout_bank_view(a.trace, a.analysis, 1400, height, 1.0f);
    const auto& p = layout.phases.at(0);
    EXPECT_EQ(p.rows.size(), 32u);
    EXPECT_EQ(p.hidden_rows, 0);
    EXPECT_GE(layout.row_h, 4.0f);
    EXPECT_LE(p.counts.y1, static_cast<float>(height));
    EXPECT_EQ(p.cells.back().row_slot, 31);
  }
}

TEST(BankLayout, AProjectorAtThreeTimesKeepsEveryRowOfThePaddedTileLegible) {
  // tile[32][33] read by column: a diagonal over all 32 rows and banks. The view areas the
  // presenter layout gives it at 3x (1920x1080 and 1280x720): every row shown, at 3x the
  // regular sizes would leave 4-pixel rows, so the tight tier takes over (smaller labels; the
  // caption and total stand beside the view) and the rows keep a legible height where they can.
  const Access a = shared_access("tx*33", 4, "32x32");
  struct Room {
    int w, h;
    float least_row;
  };
  for (const Room room : {Room{1056, 669, 9.0f}, Room{672, 309, 4.5f}}) {
    SCOPED_TRACE(room.h);
    const BankLayout layout =
        viz::layout_bank_view(a.trace, a.analysis, room.w, room.h, 3.0f, /*text_beside=*/true);
    const auto& p = layout.phases.at(0);
    EXPECT_EQ(p.rows.size(), 32u);
    EXPECT_EQ(p.hidden_rows, 0);
    EXPECT_GE(layout.row_h, room.least_row);
    EXPECT_LT(layout.text_scale, 1.0f);
    EXPECT_FALSE(layout.caption_shown);
    EXPECT_FALSE(layout.total_shown);
    EXPECT_LE(p.counts.y1, static_cast<float>(room.h));
    EXPECT_EQ(p.cells.back().bank, 31);  // the diagonal reaches the last bank
    EXPECT_EQ(p.cells.back().row_slot, 31);
  }
  // Without the numbers beside it, the same tall room keeps its caption and total lines.
  const BankLayout alone = viz::layout_bank_view(a.trace, a.analysis, 1056, 669, 3.0f);
  EXPECT_EQ(alone.phases.at(0).rows.size(), 32u);
  EXPECT_TRUE(alone.caption_shown);
  EXPECT_TRUE(alone.total_shown);
}

TEST(BankLayout, ACrampedGridTakesTheWidthItsMarginsLeft) {
  // bank-stride-32 at 3x on 1280x720 (the presenter's view, about 700 x 290 px): the cramped
  // tier, whose 32 rows are a few pixels each. Its margins were the regular 14 px x scale each
  // side, the room of ten of its 13 px bank columns; now 4 px x scale, the columns wider.
  const Access a = shared_access("32 * lane", 4);
  const float s = 3.0f, w = 700, h = 290;
  const BankLayout layout = viz::layout_bank_view(a.trace, a.analysis, static_cast<int>(w),
                                                  static_cast<int>(h), s, /*text_beside=*/true);
  ASSERT_EQ(layout.phases.size(), 1u);
  const auto& p = layout.phases[0];
  ASSERT_LT(layout.text_scale, 0.7f) << "not the cramped tier";
  EXPECT_EQ(p.rows.size(), 32u);
  EXPECT_EQ(p.hidden_rows, 0);
  EXPECT_LE(layout.label_x, 4 * s + 0.5f);
  EXPECT_GE(layout.bank_x(p, layout.bank_count), w - 4 * s - 1.0f);
  EXPECT_GE(layout.cell_w, 15.0f);
  EXPECT_TRUE(p.conflict(0));
}

TEST(BankLayout, ElisionTakesTheMiddleAndKeepsEveryConflictingBanksRow) {
  // Lanes 0-15: rows 0-15, all bank 0 (a 16-way conflict); lanes 16-31: rows 16-31 on the
  // diagonal (banks 16-31, no conflict). Too short for 32 rows: the conflict rows all stay,
  // the ends stay, the middle of the conflict-free run goes, and the gap says how many. (200
  // pixels: too short even for the tight tier's 4-pixel rows.)
  const Access a = shared_access("tx*32 + (tx/16)*tx", 4, "32x32");
  const BankLayout layout = viz::layout_bank_view(a.trace, a.analysis, 1400, 200, 1.0f);
  const auto& p = layout.phases.at(0);
  ASSERT_GT(p.hidden_rows, 0);
  ASSERT_LT(p.rows.size(), 32u);
  EXPECT_EQ(static_cast<int>(p.rows.size()) + p.hidden_rows, 32);
  EXPECT_EQ(p.words_per_bank[0], 16);  // elided rows still count
  std::vector<std::int64_t> shown;
  int elided_in_gaps = 0;
  for (const auto& row : p.rows) {
    shown.push_back(row.row);
    elided_in_gaps += row.elided_before + row.elided_after;
    if (row.elided_before) {
      EXPECT_TRUE(row.gap_before);
    }
  }
  EXPECT_EQ(elided_in_gaps, p.hidden_rows);
  for (std::int64_t r = 0; r < 16; ++r)
    EXPECT_NE(std::find(shown.begin(), shown.end(), r), shown.end()) << "conflict row " << r;
  EXPECT_EQ(shown.back(), 31);                               // an end stays
  EXPECT_EQ(std::count(shown.begin(), shown.end(), 20), 0);  // the middle goes
  EXPECT_LE(p.counts.y1, 200.0f);
}

TEST(BankLayout, EightByteWordsAreOnePhaseOfTheWholeWarp) {
  const Access a = shared_access("lane", 8);
  const BankLayout layout = viz::layout_bank_view(a.trace, a.analysis, 1400, 700, 1.0f);
  ASSERT_EQ(layout.phases.size(), 1u);
  const auto& p = layout.phases[0];
  EXPECT_EQ(p.first_lane, 0);
  EXPECT_EQ(p.lane_count, 32);
  EXPECT_EQ(p.active_lanes, 32);
  EXPECT_EQ(p.wavefronts, 2);
  EXPECT_EQ(layout.wavefronts, 2);
  EXPECT_EQ(p.words_per_bank, a.analysis.phases[0].distinct_words_per_bank);
  // 256 bytes: rows 0 and 1, every bank serving one word of each.
  ASSERT_EQ(p.rows.size(), 2u);
  EXPECT_EQ(p.rows[1].row, 1);
  EXPECT_FALSE(p.rows[1].gap_before);
  ASSERT_EQ(p.cells.size(), 64u);
  // Lane 16 reads bytes 128..135: words 32 and 33, banks 0 and 1 of row 1, in the same phase as
  // lane 0's words 0 and 1; each bank serves its row-1 word in wavefront 2.
  ASSERT_NE(p.cell_of_word(33), nullptr);
  EXPECT_EQ(p.cell_of_word(33)->lanes, std::vector<int>{16});
  EXPECT_EQ(p.cell_of_word(33)->bank, 1);
  EXPECT_EQ(p.cell_of_word(33)->row_slot, 1);
  EXPECT_EQ(p.cell_of_word(33)->wavefront, 2);
  ASSERT_NE(p.cell_of_word(1), nullptr);
  EXPECT_EQ(p.cell_of_word(1)->lanes, std::vector<int>{0});
  EXPECT_EQ(p.cell_of_word(1)->wavefront, 1);
}

TEST(BankLayout, SixteenByteWordsSplitIntoHalfWarpPhases) {
  const Access a = shared_access("lane", 16);
  const BankLayout layout = viz::layout_bank_view(a.trace, a.analysis, 1400, 700, 1.0f);
  ASSERT_EQ(layout.phases.size(), 2u);
  EXPECT_EQ(layout.columns, 1);
  EXPECT_EQ(layout.phases[1].first_lane, 16);
  EXPECT_EQ(layout.phases[1].lane_count, 16);
  EXPECT_EQ(layout.wavefronts, 4);
  for (const auto& p : layout.phases) {
    SCOPED_TRACE("phase " + std::to_string(p.index));
    EXPECT_EQ(p.wavefronts, 2);
    EXPECT_EQ(p.active_lanes, 16);
    ASSERT_EQ(p.rows.size(), 2u);
    EXPECT_EQ(p.rows[0].row, 2 * p.index);
  }
  // Lane 16 reads bytes 256..271: words 64..67, banks 0..3 of row 2, the first row of phase 2.
  const auto& p = layout.phases[1];
  ASSERT_NE(p.cell_of_word(67), nullptr);
  EXPECT_EQ(p.cell_of_word(67)->lanes, std::vector<int>{16});
  EXPECT_EQ(p.cell_of_word(67)->bank, 3);
  EXPECT_EQ(p.cell_of_word(67)->row_slot, 0);
  EXPECT_EQ(p.cell_of_word(67)->wavefront, 1);
  EXPECT_EQ(layout.phases[0].cell_of_word(67), nullptr);
  // The grids are stacked: phase 2 under phase 1.
  EXPECT_GT(p.header.y0, layout.phases[0].counts.y1);
  EXPECT_FLOAT_EQ(p.grid_x0, layout.phases[0].grid_x0);
}

/// Every phase grid, caption and the total line lie inside `width` x `height`, and no two phase
/// grids (caption to counts, labels included) overlap.
void expect_inside_and_apart(const BankLayout& layout, float width, float height) {
  const float line = 22.0f * layout.scale;  // a caption's or the total's text line
  for (const auto& p : layout.phases) {
    SCOPED_TRACE("phase " + std::to_string(p.index));
    EXPECT_GE(p.caption_y, layout.lanes.y1);
    EXPECT_GE(p.label_x, 0.0f);
    EXPECT_LE(p.counts.x1, width);
    EXPECT_LE(p.counts.y1, static_cast<float>(height));
    EXPECT_LE(p.caption_y + line, p.header.y0 + 0.5f);
    EXPECT_EQ(p.hidden_rows, 0);
    for (const auto& row : p.rows) EXPECT_LE(row.y + layout.row_h, p.grid.y1 + 0.5f);
    EXPECT_LT(p.counts.y1, layout.total_y);
    for (const auto& q : layout.phases) {
      if (q.index <= p.index) continue;
      const bool apart = q.label_x >= p.counts.x1 || p.label_x >= q.counts.x1 ||
                         q.caption_y >= p.counts.y1 || p.caption_y >= q.counts.y1;
      EXPECT_TRUE(apart) << "phases " << p.index << " and " << q.index << " overlap";
    }
  }
  EXPECT_LE(layout.total_y + line, height);
}

TEST(BankLayout, FourPhasesFitTheAppsViewAreaInTwoColumns) {
  // G80 with 8-byte words: 16 banks, quarter-warp phases of 8 lanes x 2 banks, one row each.
  const Access a = shared_access("lane", 8, "32x1", model::HardwareModel::G80);
  const BankLayout layout = viz::layout_bank_view(a.trace, a.analysis, 1400, 430, 1.0f);
  EXPECT_EQ(layout.bank_count, 16);
  ASSERT_EQ(layout.phases.size(), 4u);
  EXPECT_EQ(layout.columns, 2);
  expect_inside_and_apart(layout, 1400, 430);
  EXPECT_GE(layout.row_h, 24.0f);
  // 2 x 2, in reading order: phases 1 and 2 side by side, 3 and 4 under them.
  const auto& ps = layout.phases;
  EXPECT_FLOAT_EQ(ps[0].header.y0, ps[1].header.y0);
  EXPECT_FLOAT_EQ(ps[2].header.y0, ps[3].header.y0);
  EXPECT_GT(ps[2].caption_y, ps[0].counts.y1);
  EXPECT_FLOAT_EQ(ps[0].grid_x0, ps[2].grid_x0);
  EXPECT_GT(ps[1].label_x, ps[0].counts.x1);
  // Lane 31 reads bytes 248..255: words 62 and 63, banks 14 and 15 of row 3, in phase 4.
  ASSERT_NE(ps[3].cell_of_word(63), nullptr);
  EXPECT_EQ(ps[3].cell_of_word(63)->lanes, std::vector<int>{31});
  EXPECT_EQ(ps[3].cell_of_word(63)->row_slot, 0);
  EXPECT_EQ(ps[3].first_lane, 24);
  EXPECT_EQ(ps[3].lane_count, 8);
  // Hit testing finds the cell in the right-hand column.
  const viz::Rect cell = layout.cell_rect(ps[3], 0, 15);
  EXPECT_GT(cell.x0, ps[2].counts.x1);
  const auto h = layout.hit(0.5f * (cell.x0 + cell.x1), 0.5f * (cell.y0 + cell.y1));
  EXPECT_EQ(h.phase, 3);
  EXPECT_EQ(h.slot, 0);
  EXPECT_EQ(h.bank, 15);
  const auto header = layout.hit(layout.bank_x(ps[1], 5) + 2, ps[1].header.y0 + 2);
  EXPECT_TRUE(header.header);
  EXPECT_EQ(header.phase, 1);
  EXPECT_EQ(header.bank, 5);
}

TEST(BankLayout, PhasesStayStackedWhenTheyFitAndGoSideBySideWhenShort) {
  // 16-byte words: two half-warp phases of two rows each.
  const Access word16 = shared_access("lane", 16);
  const BankLayout tall = viz::layout_bank_view(word16.trace, word16.analysis, 1400, 430, 1.0f);
  ASSERT_EQ(tall.phases.size(), 2u);
  EXPECT_EQ(tall.columns, 1);
  expect_inside_and_apart(tall, 1400, 430);
  const BankLayout shortish = viz::layout_bank_view(word16.trace, word16.analysis, 1100, 330, 1.0f);
  EXPECT_EQ(shortish.columns, 2);
  expect_inside_and_apart(shortish, 1100, 330);
  // One phase (8-byte words) has nothing to set side by side.
  const Access word8 = shared_access("lane", 8);
  const BankLayout one = viz::layout_bank_view(word8.trace, word8.analysis, 1100, 330, 1.0f);
  ASSERT_EQ(one.phases.size(), 1u);
  EXPECT_EQ(one.columns, 1);
  expect_inside_and_apart(one, 1100, 330);
  // Four phases (G80, 8-byte words): a roomy area keeps the stack, a small or 2x one still fits
  // everything.
  const Access g80 = shared_access("lane", 8, "32x1", model::HardwareModel::G80);
  const BankLayout roomy = viz::layout_bank_view(g80.trace, g80.analysis, 1400, 800, 1.0f);
  ASSERT_EQ(roomy.phases.size(), 4u);
  EXPECT_EQ(roomy.columns, 1);
  expect_inside_and_apart(roomy, 1400, 800);
  for (const auto& [w, h, scale] : {std::tuple{1080, 330, 1.0f}, std::tuple{2000, 620, 2.0f}}) {
    SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h));
    const BankLayout layout = viz::layout_bank_view(g80.trace, g80.analysis, w, h, scale);
    EXPECT_GT(layout.columns, 1);
    expect_inside_and_apart(layout, static_cast<float>(w), static_cast<float>(h));
  }
  // Eight phases (G80, 16-byte words: 4 lanes x 4 banks each) fit the app's view area too.
  const Access g80_16 = shared_access("lane", 16, "32x1", model::HardwareModel::G80);
  const BankLayout eight = viz::layout_bank_view(g80_16.trace, g80_16.analysis, 1400, 430, 1.0f);
  ASSERT_EQ(eight.phases.size(), 8u);
  EXPECT_GT(eight.columns, 1);
  expect_inside_and_apart(eight, 1400, 430);
}

TEST(BankLayout, IdleLanesAreLeftOut) {
  Access a = shared_access("lane", 4);
  for (int lane = 8; lane < 32; ++lane) a.trace[lane] = {};
  a.analysis = model::analyze_shared(accesses_from_trace(a.trace, 0), 4, model::Op::Load);
  const BankLayout layout = viz::layout_bank_view(a.trace, a.analysis, 1400, 600, 1.0f);
  EXPECT_EQ(layout.phases.at(0).active_lanes, 8);
  EXPECT_EQ(layout.phases.at(0).cells.size(), 8u);
}

TEST(BankLayout, HitTestingFindsLanesAndCells) {
  const Access a = shared_access("2*lane", 4);
  const BankLayout layout = viz::layout_bank_view(a.trace, a.analysis, 1400, 600, 1.0f);
  const viz::Rect box = layout.lane_box(7);
  EXPECT_EQ(layout.hit(box.x0 + 1, box.y0 + 1).lane, 7);
  const auto& p = layout.phases[0];
  const viz::Rect cell = layout.cell_rect(p, 1, 4);
  const auto h = layout.hit(0.5f * (cell.x0 + cell.x1), 0.5f * (cell.y0 + cell.y1));
  EXPECT_EQ(h.phase, 0);
  EXPECT_EQ(h.slot, 1);
  EXPECT_EQ(h.bank, 4);
  EXPECT_TRUE(layout.hit(layout.bank_x(3) + 2, p.header.y0 + 2).header);
}

}  // namespace
}  // namespace warplens::test
