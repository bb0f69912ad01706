// The shared-memory bank view's shaders on a headless EGL context (Mesa here), checked pixel by
// pixel: lane colours per bank, conflicts, broadcasts, wide words and idle lanes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "bank_view_test_support.h"

namespace warplens::test {
namespace {

using viz::BankLayout;

// --- pixels (headless GL) ----------------------------------------------------------------------

bool same(const std::uint8_t* p, viz::Rgb c, int tolerance = 2) {
  const auto d = [](std::uint8_t v, float f) { return std::abs(int(v) - int(f * 255.0f + 0.5f)); };
  return d(p[0], c.r) <= tolerance && d(p[1], c.g) <= tolerance && d(p[2], c.b) <= tolerance;
}

int count_color(const viz::Image& image, viz::Rgb c) {
  int n = 0;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) n += same(image.pixel(x, y), c);
  return n;
}

/// The pixel in the middle of a cell (or header/count box) of bank `bank`.
const std::uint8_t* cell_pixel(const viz::Image& image, const BankLayout& layout, int bank,
                               float y) {
  return image.pixel(static_cast<int>(layout.bank_x(bank) + 0.5f * layout.cell_w),
                     static_cast<int>(y));
}

/// The same in the grid of phase `p` (which may sit in a column of its own).
const std::uint8_t* cell_pixel(const viz::Image& image, const BankLayout& layout,
                               const BankLayout::Phase& p, int bank, float y) {
  return image.pixel(static_cast<int>(layout.bank_x(p, bank) + 0.5f * layout.cell_w),
                     static_cast<int>(y));
}

float row_mid(const BankLayout& layout, const BankLayout::Phase& p, int slot) {
  return p.rows[static_cast<std::size_t>(slot)].y + 0.5f * layout.row_h;
}

/// Banks whose column shows a lane colour in some row of phase `p`.
int banks_touched(const viz::Image& image, const BankLayout& layout, const BankLayout::Phase& p,
                  const viz::Theme& theme) {
  int touched = 0;
  for (int bank = 0; bank < layout.bank_count; ++bank) {
    bool any = false;
    for (int slot = 0; slot < static_cast<int>(p.rows.size()); ++slot) {
      const std::uint8_t* px = cell_pixel(image, layout, bank, row_mid(layout, p, slot));
      for (const auto& lane : theme.lanes) any = any || same(px, lane);
    }
    touched += any;
  }
  return touched;
}

TEST_F(BankViewTest, StrideOneLightsEachBankInItsLanesColour) {
  for (auto name : {viz::ThemeName::Light, viz::ThemeName::Dark}) {
    const viz::Theme& theme = viz::theme(name);
    viz::BankView view;
    const Access a = shared_access("lane", 4);
    const viz::Image image = render(view, a, theme);
    const BankLayout& layout = view.layout();
    const auto& p = layout.phases.at(0);
    for (int bank = 0; bank < 32; ++bank) {
      EXPECT_TRUE(same(cell_pixel(image, layout, bank, row_mid(layout, p, 0)), theme.lanes[bank]))
          << "bank " << bank;
      const viz::Rect box = layout.lane_box(bank);
      EXPECT_TRUE(same(
          image.pixel(static_cast<int>(0.5f * (box.x0 + box.x1)), static_cast<int>(box.y0 + 3)),
          theme.lanes[bank]))
          << "lane box " << bank;
    }
    EXPECT_EQ(count_color(image, theme.conflict), 0);
    EXPECT_EQ(count_color(image, theme.broadcast), 0);
    EXPECT_EQ(banks_touched(image, layout, p, theme), 32);
  }
}

TEST_F(BankViewTest, StrideTwoMarksSixteenConflictBanks) {
  const viz::Theme& theme = viz::theme(viz::ThemeName::Light);
  viz::BankView view;
  const Access a = shared_access("2*lane", 4);
  const viz::Image image = render(view, a, theme);
  const BankLayout& layout = view.layout();
  const auto& p = layout.phases.at(0);
  EXPECT_GT(count_color(image, theme.conflict), 1000);
  EXPECT_EQ(banks_touched(image, layout, p, theme), 16);
  int conflict_headers = 0;
  for (int bank = 0; bank < 32; ++bank) {
    const bool conflict =
        same(cell_pixel(image, layout, bank, 0.5f * (p.header.y0 + p.header.y1)), theme.conflict);
    EXPECT_EQ(conflict, bank % 2 == 0) << "bank " << bank;
    conflict_headers += conflict;
    // The count box says the same.
    EXPECT_EQ(
        same(cell_pixel(image, layout, bank, 0.5f * (p.counts.y0 + p.counts.y1)), theme.conflict),
        bank % 2 == 0);
  }
  EXPECT_EQ(conflict_headers, 16);
  // Bank 2: lane 1 in row 0 (wavefront 1), lane 17 in row 1 (wavefront 2).
  EXPECT_TRUE(same(cell_pixel(image, layout, 2, row_mid(layout, p, 0)), theme.lanes[1]));
  EXPECT_TRUE(same(cell_pixel(image, layout, 2, row_mid(layout, p, 1)), theme.lanes[17]));
  EXPECT_EQ(count_color(image, theme.broadcast), 0);
}

TEST_F(BankViewTest, SameWordIsABroadcastNotAConflict) {
  for (auto name : {viz::ThemeName::Light, viz::ThemeName::Dark}) {
    const viz::Theme& theme = viz::theme(name);
    viz::BankView view;
    const Access a = shared_access("0", 4);
    const viz::Image image = render(view, a, theme);
    const BankLayout& layout = view.layout();
    const auto& p = layout.phases.at(0);
    EXPECT_EQ(count_color(image, theme.conflict), 0);
    // The ring: just inside the cell's edge.
    const viz::Rect cell = layout.cell_rect(p, 0, 0);
    EXPECT_TRUE(same(image.pixel(static_cast<int>(cell.x0 + 3),
                                 static_cast<int>(cell.y0 + 0.5f * (cell.y1 - cell.y0))),
                     theme.broadcast));
    EXPECT_GT(count_color(image, theme.broadcast), 100);
    // Inside the ring: stripes of several lane colours.
    int lanes_seen = 0;
    for (const auto& lane : theme.lanes) {
      bool seen = false;
      for (int y = static_cast<int>(cell.y0 + 7); y < static_cast<int>(cell.y1 - 7) && !seen; ++y)
        for (int x = static_cast<int>(cell.x0 + 7); x < static_cast<int>(cell.x1 - 7) && !seen; ++x)
          seen = same(image.pixel(x, y), lane);
      lanes_seen += seen;
    }
    EXPECT_GE(lanes_seen, 4);
    EXPECT_EQ(banks_touched(image, layout, p, theme), 1);
  }
}

TEST_F(BankViewTest, ColumnOfA32x32TileIsOneBank32RowsDeep) {
  const viz::Theme& theme = viz::theme(viz::ThemeName::Dark);
  viz::BankView view;
  const Access a = shared_access("tx*32", 4, "32x32");
  EXPECT_EQ(a.analysis.wavefronts, 32);
  const viz::Image image = render(view, a, theme, 1400, 1200);
  const BankLayout& layout = view.layout();
  const auto& p = layout.phases.at(0);
  ASSERT_EQ(p.rows.size(), 32u);
  EXPECT_TRUE(
      same(cell_pixel(image, layout, 0, 0.5f * (p.header.y0 + p.header.y1)), theme.conflict));
  for (int slot = 0; slot < 32; ++slot) {
    EXPECT_TRUE(same(cell_pixel(image, layout, 0, row_mid(layout, p, slot)), theme.lanes[slot]))
        << "row " << slot;
  }
  EXPECT_EQ(banks_touched(image, layout, p, theme), 1);
  // Padding the tile to 33 columns spreads the column over all 32 banks: no conflict.
  const Access padded = shared_access("tx*33", 4, "32x32");
  const viz::Image fixed = render(view, padded, theme, 1400, 1200);
  EXPECT_EQ(count_color(fixed, theme.conflict), 0);
  EXPECT_EQ(banks_touched(fixed, view.layout(), view.layout().phases.at(0), theme), 32);
}

TEST_F(BankViewTest, EightByteWordsDrawOneGridWithEachLaneAcrossTwoBanks) {
  const viz::Theme& theme = viz::theme(viz::ThemeName::Light);
  viz::BankView view;
  const Access a = shared_access("lane", 8);
  const viz::Image image = render(view, a, theme);
  const BankLayout& layout = view.layout();
  ASSERT_EQ(layout.phases.size(), 1u);
  const auto& p = layout.phases[0];
  // Row 0: lanes 0..15, row 1: lanes 16..31, two banks each.
  ASSERT_EQ(p.rows.size(), 2u);
  for (int slot = 0; slot < 2; ++slot) {
    for (int bank = 0; bank < 32; ++bank) {
      const int lane = 16 * slot + bank / 2;
      EXPECT_TRUE(
          same(cell_pixel(image, layout, bank, row_mid(layout, p, slot)), theme.lanes[lane]))
          << "row " << slot << " bank " << bank;
    }
  }
  EXPECT_EQ(banks_touched(image, layout, p, theme), 32);
  // Bank 0 serves word 0 (lane 0) in wavefront 1 and word 32 (lane 16) in wavefront 2.
  EXPECT_EQ(p.cell_of_word(0)->wavefront, 1);
  EXPECT_EQ(p.cell_of_word(32)->wavefront, 2);
}

TEST_F(BankViewTest, WideWordsDrawTheirPhaseGridsInTheAppsViewArea) {
  // Modern 16-byte words: two half-warp grids; G80 8-byte words: four quarter-warp grids, 2 x 2.
  struct Case {
    const char* name;
    Access access;
    std::size_t phases;
    int columns;
    std::size_t rows_per_phase;
  };
  const Case cases[] = {
      {"modern, 16-byte words", shared_access("lane", 16), 2, 1, 2},
      {"G80, 8-byte words", shared_access("lane", 8, "32x1", model::HardwareModel::G80), 4, 2, 1},
  };
  for (const Case& c : cases) {
    for (auto name : {viz::ThemeName::Light, viz::ThemeName::Dark}) {
      SCOPED_TRACE(c.name);
      const viz::Theme& theme = viz::theme(name);
      viz::BankView view;
      const viz::Image image = render(view, c.access, theme, 1400, 430);
      const BankLayout& layout = view.layout();
      ASSERT_EQ(layout.phases.size(), c.phases);
      EXPECT_EQ(layout.columns, c.columns);
      const int word_bytes = c.access.analysis.word_bytes;
      for (const auto& p : layout.phases) {
        ASSERT_EQ(p.rows.size(), c.rows_per_phase);
        for (int slot = 0; slot < static_cast<int>(p.rows.size()); ++slot) {
          for (int bank = 0; bank < layout.bank_count; ++bank) {
            // s[lane]: bank-width word (row x banks + bank) belongs to lane word x 4 / word bytes.
            const auto word = p.rows[static_cast<std::size_t>(slot)].row * layout.bank_count + bank;
            const int lane = static_cast<int>(word * 4 / word_bytes);
            EXPECT_GE(lane, p.first_lane);
            EXPECT_LT(lane, p.first_lane + p.lane_count);
            EXPECT_TRUE(same(cell_pixel(image, layout, p, bank, row_mid(layout, p, slot)),
                             theme.lanes[lane]))
                << "phase " << p.index << " row " << slot << " bank " << bank;
          }
        }
      }
      // Lane 31's colour is in the grid of the last phase (bottom right), and the lane row.
      const auto& last = layout.phases.back();
      int lane31 = 0;
      for (int y = static_cast<int>(last.grid.y0); y < static_cast<int>(last.grid.y1); ++y)
        for (int x = static_cast<int>(last.grid.x0); x < static_cast<int>(last.grid.x1); ++x)
          lane31 += same(image.pixel(x, y), theme.lanes[31]);
      EXPECT_GT(lane31, 500);
      const viz::Rect box = layout.lane_box(31);
      EXPECT_TRUE(same(
          image.pixel(static_cast<int>(0.5f * (box.x0 + box.x1)), static_cast<int>(box.y0 + 3)),
          theme.lanes[31]));
    }
  }
}

TEST_F(BankViewTest, WideWordsAtTheirMinimumWavefrontsAreOnePieceAndNoConflict) {
  // s[lane] with 8-byte words needs 2 wavefronts and with 16-byte words 2 per half-warp phase:
  // the minimum for 256 bytes of lane data per phase, not a bank conflict (the Programming
  // Guide's and the bank-word-8/16 scenarios' wording), so no bank is marked as one.
  const viz::Theme& theme = viz::theme(viz::ThemeName::Light);
  for (const int word_bytes : {8, 16}) {
    SCOPED_TRACE(std::to_string(word_bytes) + "-byte words");
    viz::BankView view;
    const Access a = shared_access("lane", word_bytes);
    const viz::Image image = render(view, a, theme, 1400, 430);
    const BankLayout& layout = view.layout();
    for (const auto& p : layout.phases) EXPECT_EQ(p.conflict_banks(), 0);
    EXPECT_EQ(count_color(image, theme.conflict), 0);
    // One lane's word is one piece: the gaps between its banks are bridged in its colour, the
    // gap to the next lane's word is not (first row of each phase).
    const int banks_per_lane = word_bytes / 4;
    for (const auto& p : layout.phases) {
      const int y = static_cast<int>(row_mid(layout, p, 0));
      for (int bank = 1; bank <= banks_per_lane; ++bank) {
        const bool inside = bank < banks_per_lane;
        EXPECT_TRUE(same(image.pixel(static_cast<int>(layout.bank_x(p, bank)), y),
                         inside ? theme.lanes[p.first_lane] : theme.background))
            << "phase " << p.index << ", gap before bank " << bank;
      }
    }
  }
}

TEST_F(BankViewTest, IdleLanesAreGreyAndNotInTheGrid) {
  const viz::Theme& theme = viz::theme(viz::ThemeName::Light);
  viz::BankView view;
  Access a = shared_access("lane", 4);
  for (int lane = 16; lane < 32; ++lane) a.trace[lane] = {};
  a.analysis = model::analyze_shared(accesses_from_trace(a.trace, 0), 4, model::Op::Load);
  const viz::Image image = render(view, a, theme);
  const BankLayout& layout = view.layout();
  const viz::Rect box = layout.lane_box(20);
  EXPECT_TRUE(
      same(image.pixel(static_cast<int>(0.5f * (box.x0 + box.x1)), static_cast<int>(box.y0 + 3)),
           theme.inactive));
  EXPECT_EQ(banks_touched(image, layout, layout.phases.at(0), theme), 16);
}

}  // namespace
}  // namespace warplens::test
