// The shared-memory bank view: its layout checked without GL, its shaders checked pixel by pixel
// on a headless EGL context (Mesa here), and the whole panel (ImGui labels, legend) drawn into
// PNGs for the course notes under the build's out/ folder.
#include <gtest/gtest.h>
#include <imgui.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <tuple>

#include "bank_panel.h"
#include "bank_view.h"
#include "copy_pattern.h"
#include "headless_context.h"
#include "headless_gl_test.h"
#include "memory_model.h"
#include "png_writer.h"

#ifndef WARPLENS_TEST_OUT_DIR
#define WARPLENS_TEST_OUT_DIR "out"
#endif

namespace warplens::test {
namespace {

using viz::BankLayout;

struct Access {
  TraceRecords trace{};
  model::SharedAnalysis analysis;
};

/// Warp 0 of a `block` block reading shared element `index` (an index expression) in words of
/// `word_bytes`, as a trace and the model's analysis of that trace.
Access shared_access(const std::string& index, int word_bytes, const char* block = "32x1",
                     model::HardwareModel hw = model::HardwareModel::Modern) {
  model::AccessPattern pattern;
  pattern.space = model::Space::Shared;
  pattern.word_bytes = word_bytes;
  pattern.block = model::parse_block(block);
  pattern.index = index;
  Access a;
  put_accesses(model::evaluate_lanes(pattern), word_bytes, 0, a.trace);
  a.analysis =
      model::analyze_shared(accesses_from_trace(a.trace, 0), word_bytes, model::Op::Load, hw);
  return a;
}

// --- layout (no GL) ----------------------------------------------------------------------------

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

TEST(BankLayout, RowsAreCappedToTheHeight) {
  const Access a = shared_access("tx*32", 4, "32x32");
  const BankLayout roomy = viz::layout_bank_view(a.trace, a.analysis, 1400, 1200, 1.0f);
  EXPECT_EQ(roomy.phases.at(0).rows.size(), 32u);
  EXPECT_EQ(roomy.phases.at(0).hidden_rows, 0);
  const BankLayout tight = viz::layout_bank_view(a.trace, a.analysis, 1400, 400, 1.0f);
  const auto& p = tight.phases.at(0);
  EXPECT_LT(p.rows.size(), 32u);
  EXPECT_EQ(static_cast<int>(p.rows.size()) + p.hidden_rows, 32);
  EXPECT_LE(p.counts.y1, 400.0f);
  // Hidden rows still count: bank 0 serves 32 words.
  EXPECT_EQ(p.words_per_bank[0], 32);
  EXPECT_EQ(p.cells.back().row_slot, -1);
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
    EXPECT_LE(p.counts.y1, height);
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

// --- pixels (headless GL) ----------------------------------------------------------------------

class BankViewTest : public test::HeadlessGlTest {
 protected:
  /// Renders `a` through the view's trace buffer and reads the texture back.
  viz::Image render(viz::BankView& view, const Access& a, const viz::Theme& theme, int width = 1400,
                    int height = 700) {
    view.publish(a.trace);
    const GLuint texture = view.render(view.contents(), a.analysis, width, height, 1.0f, theme);
    GLuint fbo = 0;
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture, 0);
    viz::Image image = viz::read_framebuffer(width, height);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo);
    return image;
  }
};

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

// --- figures (the panel with its labels, as the window shows it) -------------------------------

struct Figure {
  const char* file;
  const char* caption;
  Access access;
  viz::ThemeName theme;
  int width, height;
  float hover_x = -1, hover_y = -1;  ///< mouse position (a tooltip), if set
  float scale = 1.0f;                ///< UI scale (2 for a projector)
};

void draw_figure(viz::BankView& view, const Figure& f) {
  viz::ImGuiLayer layer(nullptr, f.scale, f.theme);
  const viz::Theme& theme = viz::theme(f.theme);
  view.publish(f.access.trace);
  viz::RenderTarget target;
  for (int frame = 0; frame < 3; ++frame) {  // ImGui settles window sizes over a few frames
    target.bind(f.width, f.height);
    glClearColor(theme.background.r, theme.background.g, theme.background.b, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    if (f.hover_x >= 0) ImGui::GetIO().MousePos = {f.hover_x, f.hover_y};
    layer.begin_frame(f.width, f.height, 1.0f / 60.0f);
    ImGui::SetNextWindowPos({0, 0});
    ImGui::SetNextWindowSize({static_cast<float>(f.width), static_cast<float>(f.height)});
    ImGui::Begin("Bank view \u2014 shared-memory addresses from the host model", nullptr,
                 ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                     ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoScrollbar);
    app::draw_bank_view(view, view.contents(), f.access.analysis, layer, theme, f.hover_x >= 0,
                        f.caption);
    ImGui::End();
    target.bind(f.width, f.height);
    layer.end_frame();
  }
  glFinish();
  std::filesystem::create_directories(WARPLENS_TEST_OUT_DIR);
  viz::write_png(viz::read_framebuffer(f.width, f.height),
                 std::string(WARPLENS_TEST_OUT_DIR) + "/" + f.file);
}

TEST_F(BankViewTest, FiguresForTheCourseNotes) {
  const std::vector<Figure> figures = {
      {"bank-stride1-light.png", "s[lane] \u2022 4-byte words", shared_access("lane", 4),
       viz::ThemeName::Light, 1400, 420},
      {"bank-stride2-light.png", "s[2*lane] \u2022 4-byte words", shared_access("2*lane", 4),
       viz::ThemeName::Light, 1400, 480},
      {"bank-broadcast-dark.png", "s[0] \u2022 every lane reads one word", shared_access("0", 4),
       viz::ThemeName::Dark, 1400, 420},
      {"bank-column32-light.png",
       "warp 0 of a 32\u00d732 block \u2022 tile[tx][ty], tile 32\u00d732",
       shared_access("tx*32", 4, "32x32"), viz::ThemeName::Light, 1400, 1100},
      {"bank-column33-dark.png", "warp 0 of a 32\u00d732 block \u2022 tile[tx][ty], padded to 33",
       shared_access("tx*33", 4, "32x32"), viz::ThemeName::Dark, 1400, 1100},
      {"bank-word8-light.png", "s[lane] \u2022 8-byte words (double)", shared_access("lane", 8),
       viz::ThemeName::Light, 1400, 560},
      {"bank-word16-stride2-dark.png", "s[2*lane] \u2022 16-byte words (float4)",
       shared_access("2*lane", 16), viz::ThemeName::Dark, 1400, 900},
      {"bank-bytes-light.png", "s[lane] \u2022 1-byte words (char)", shared_access("lane", 1),
       viz::ThemeName::Light, 1400, 420},
      {"bank-gap-dark.png", "s[lane + 256*(lane/16)] \u2022 two runs far apart",
       shared_access("lane + 256*(lane/16)", 4), viz::ThemeName::Dark, 1400, 460},
      {"bank-kepler-light.png", "s[lane] \u2022 4-byte words, Kepler's 8-byte bank mode",
       shared_access("lane", 4, "32x1", model::HardwareModel::Kepler), viz::ThemeName::Light, 1400,
       420},
      {"bank-g80-light.png", "s[2*lane] \u2022 4-byte words, G80: 16 banks, half-warps",
       shared_access("2*lane", 4, "32x1", model::HardwareModel::G80), viz::ThemeName::Light, 1400,
       620},
      {"bank-tooltip-light.png", "s[2*lane] \u2022 4-byte words (hovering bank 2, row 1)",
       shared_access("2*lane", 4), viz::ThemeName::Light, 1400, 480, 240, 240},
      {"bank-broadcast-light-2x.png", "s[lane/8] \u2022 groups of 8 lanes share a word",
       shared_access("lane/8", 4), viz::ThemeName::Light, 2000, 760, -1, -1, 2.0f},
      {"bank-column32-capped-dark.png",
       "warp 0 of a 32\u00d732 block \u2022 tile[tx][ty] (small window)",
       shared_access("tx*32", 4, "32x32"), viz::ThemeName::Dark, 900, 520},
      {"bank-word8-stride2-narrow-light.png", "s[2*lane] \u2022 8-byte words",
       shared_access("2*lane", 8), viz::ThemeName::Light, 760, 560},
      {"bank-word16-columns-light.png", "s[lane] \u2022 16-byte words (float4), two phases",
       shared_access("lane", 16), viz::ThemeName::Light, 1400, 330},
      {"bank-g80-word8-columns-light.png",
       "s[lane] \u2022 8-byte words, G80: four quarter-warp phases",
       shared_access("lane", 8, "32x1", model::HardwareModel::G80), viz::ThemeName::Light, 1400,
       500},
      {"bank-word16-columns-dark-2x.png", "s[2*lane] \u2022 16-byte words (float4)",
       shared_access("2*lane", 16), viz::ThemeName::Dark, 2000, 900, -1, -1, 2.0f},
  };
  viz::BankView view;
  for (const Figure& f : figures) {
    SCOPED_TRACE(f.file);
    draw_figure(view, f);
    EXPECT_TRUE(std::filesystem::exists(std::string(WARPLENS_TEST_OUT_DIR) + "/" + f.file));
  }
}

}  // namespace
}  // namespace warplens::test
