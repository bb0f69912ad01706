// The warp view's shaders, checked pixel by pixel on a headless EGL context (Mesa here): every
// byte the model says a lane requested is drawn in that lane's colour, every other byte of a
// touched sector in the over-fetch colour, everything else untouched.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include "copy_pattern.h"
#include "headless_context.h"
#include "headless_gl_test.h"
#include "memory_model.h"
#include "png_writer.h"
#include "strip_scale.h"
#include "warp_view.h"

namespace warplens::test {
namespace {

class WarpViewTest : public test::HeadlessGlTest {
 protected:
};

bool same(const std::uint8_t* p, viz::Rgb c) {
  const auto d = [](std::uint8_t v, float f) { return std::abs(int(v) - int(f * 255.0f + 0.5f)); };
  return d(p[0], c.r) <= 2 && d(p[1], c.g) <= 2 && d(p[2], c.b) <= 2;
}

struct Case {
  const char* name;
  gpu::CopyParams params;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.name;
}

class WarpViewPixels : public WarpViewTest, public ::testing::WithParamInterface<Case> {};

TEST_P(WarpViewPixels, EveryByteColumnMatchesTheModel) {
  const gpu::CopyParams params = GetParam().params;
  const auto pattern = copy_access_pattern(params, 0);
  const auto lanes = model::evaluate_lanes(pattern);
  const auto analysis = model::analyze_global(lanes, params.word_bytes, model::Op::Load);

  viz::WarpView view;
  const TraceRecords trace = model_trace(params, 0);
  view.publish(trace);
  ASSERT_EQ(view.contents()[5].address_lo, trace[5].address_lo);
  const viz::Theme& theme = viz::theme(viz::ThemeName::Light);
  const int width = 1800, height = 500;
  const GLuint texture = view.render(trace, width, height, 1.0f, theme);
  ASSERT_NE(texture, 0u);

  const viz::Image image = viz::read_texture(texture, width, height);

  const viz::StripLayout& layout = view.layout();
  const int y = static_cast<int>(0.5f * (layout.strip.y0 + layout.strip.y1));
  const std::set<std::int64_t> sectors(analysis.sectors.begin(), analysis.sectors.end());
  int checked = 0;
  for (const auto& line : layout.lines) {
    const int x_begin = static_cast<int>(line.x),
              x_end = static_cast<int>(line.x + 128 * layout.px_per_byte);
    for (int x = x_begin; x < x_end; ++x) {
      // The byte this pixel column samples, as the fragment shader computes it.
      const float local = (static_cast<float>(x) + 0.5f - line.x) / layout.px_per_byte;
      if (local < 0 || local >= 128) continue;
      // Skip the rules: sector and line rules, and byte rules where bytes are wide.
      const float in_sector = std::fmod(local, 32.0f);
      if (std::min(in_sector, 32.0f - in_sector) * layout.px_per_byte < 2.5f) continue;
      const float in_byte = local - std::floor(local);
      if (layout.px_per_byte >= 6.0f &&
          std::min(in_byte, 1.0f - in_byte) * layout.px_per_byte < 1.5f)
        continue;
      const std::int64_t address =
          static_cast<std::int64_t>(line.address) + static_cast<std::int64_t>(local);
      int owner = -1;
      for (const auto& l : lanes) {
        if (l.active && address >= l.address && address < l.address + params.word_bytes)
          owner = l.lane;
      }
      const std::uint8_t* p = image.pixel(x, y);
      if (owner >= 0) {
        EXPECT_TRUE(same(p, theme.lanes[owner])) << "byte " << address << " lane " << owner;
      } else if (sectors.count(address / 32)) {
        // Hatched: the over-fetch colour or its lighter mix, never untouched or a lane colour.
        EXPECT_FALSE(same(p, theme.untouched)) << "over-fetched byte " << address;
      } else {
        EXPECT_TRUE(same(p, theme.untouched)) << "untouched byte " << address;
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 100);
  // The sector row: each 32-byte sector the model says the request moves is filled.
  const int sector_y = static_cast<int>(0.5f * (layout.sector_row_top + layout.strip.y1));
  int sectors_seen = 0;
  for (const auto& line : layout.lines) {
    for (int sector = 0; sector < 4; ++sector) {
      const std::uint64_t address = line.address + 32u * static_cast<unsigned>(sector);
      const int x = static_cast<int>(layout.x_of(address + 16));
      const bool moved = sectors.count(static_cast<std::int64_t>(address / 32)) != 0;
      EXPECT_TRUE(same(image.pixel(x, sector_y), moved ? theme.sector : theme.untouched))
          << "sector at byte " << address << (moved ? " should be filled" : " should be empty");
      sectors_seen += moved;
    }
  }
  EXPECT_EQ(sectors_seen, static_cast<int>(analysis.sectors.size()));
  // Lane boxes are in lane colours.
  for (int lane : {0, 13, 31}) {
    const viz::Rect box = layout.lane_box(lane);
    EXPECT_TRUE(
        same(image.pixel(static_cast<int>(0.5f * (box.x0 + box.x1)), static_cast<int>(box.y0 + 2)),
             theme.lanes[lane]))
        << "lane box " << lane;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Patterns, WarpViewPixels,
    ::testing::Values(Case{"aligned", {4, 0, 1, 256}}, Case{"misaligned", {4, 1, 1, 256}},
                      Case{"stride2", {4, 0, 2, 256}}, Case{"word16", {16, 0, 1, 256}},
                      Case{"word1", {1, 3, 1, 256}}, Case{"stride9_word8", {8, 0, 9, 256}}),
    [](const ::testing::TestParamInfo<Case>& param_info) {
      return std::string(param_info.param.name);
    });

// Issue 32: stride-32 on a projector gives each 128-byte line a few pixels, so a lane's 4 bytes
// were narrower than the line rule over them and vanished. Every requested word stays visible
// in its lane's colour, at least a few pixels wide, at scales 1 to 3; and where its sector is
// some 9 px wide, the widened word leaves the sector's other bytes hatched as moved unasked
// (at 3x it had filled the sector, as if the lane used all 32 bytes).
TEST_F(WarpViewTest, ANarrowRequestedWordStaysVisibleInItsLanesColour) {
  const viz::Theme& theme = viz::theme(viz::ThemeName::Light);
  for (const float scale : {1.0f, 2.0f, 3.0f}) {
    SCOPED_TRACE(scale);
    viz::WarpView view;
    const TraceRecords trace = model_trace({4, 0, 32, 256}, 0);
    view.publish(trace);
    const int width = 1200, height = 500;
    const GLuint texture = view.render(trace, width, height, scale, theme);
    const viz::Image image = viz::read_texture(texture, width, height);
    const viz::StripLayout& layout = view.layout();
    ASSERT_EQ(layout.lines.size(), 32u);
    ASSERT_LT(4 * layout.px_per_byte, 2 * scale) << "the case needs words narrower than a rule";
    const int y = static_cast<int>(0.5f * (layout.strip.y0 + layout.sector_row_top));
    for (int lane = 0; lane < 32; ++lane) {
      int columns = 0;
      for (int x = 0; x < width; ++x) columns += same(image.pixel(x, y), theme.lanes[lane]);
      EXPECT_GE(columns, std::min(3, static_cast<int>(2 * scale))) << "lane " << lane;
    }
    int overfetch = 0;
    for (int x = 0; x < width; ++x) overfetch += same(image.pixel(x, y), theme.overfetch);
    EXPECT_GE(overfetch, 32) << "the hatch of the bytes moved unasked, in each line";
  }
}

// Issue 32: all lanes on one word (a broadcast) painted the word in lane 31's colour alone, as if
// one lane had asked for it. The word stacks every asking lane's colour, in lane order, down its
// height: each of the 32 colours is in the word's column, lane 0's at its top, lane 31's at its
// bottom.
TEST_F(WarpViewTest, AWordEveryLaneAsksForStacksTheirColours) {
  const viz::Theme& theme = viz::theme(viz::ThemeName::Light);
  for (const float scale : {1.0f, 2.0f}) {
    SCOPED_TRACE(scale);
    viz::WarpView view;
    gpu::CopyParams params;
    params.kind = IndexKind::SameWord;
    const TraceRecords trace = model_trace(params, 0);
    view.publish(trace);
    const int width = 1200, height = 700;
    const GLuint texture = view.render(trace, width, height, scale, theme);
    const viz::Image image = viz::read_texture(texture, width, height);
    const viz::StripLayout& layout = view.layout();
    ASSERT_FALSE(layout.lines.empty());
    const int x = static_cast<int>(layout.x_of(layout.lines[0].address + 2));
    const int top = static_cast<int>(layout.strip.y0) + 3,
              bottom = static_cast<int>(layout.sector_row_top) - 2;
    int first_lane = -1, last_lane = -1;
    std::vector<bool> seen(32);
    for (int y = top; y < bottom; ++y)
      for (int lane = 0; lane < 32; ++lane)
        if (same(image.pixel(x, y), theme.lanes[lane])) {
          seen[static_cast<std::size_t>(lane)] = true;
          if (first_lane < 0) first_lane = lane;
          last_lane = lane;
        }
    EXPECT_EQ(std::count(seen.begin(), seen.end(), true), 32) << "lane colours in the word";
    EXPECT_EQ(first_lane, 0);
    EXPECT_EQ(last_lane, 31);
  }
}

// Issue 32: a broken axis (every lane in its own line, 1 KiB apart) left each line a few pixels
// per sector, and the rules between sector boxes ate the sector row: no sector bar at all.
TEST_F(WarpViewTest, ABrokenAxisKeepsEachMovedSectorFilled) {
  const viz::Theme& theme = viz::theme(viz::ThemeName::Light);
  for (const float scale : {2.0f, 3.0f}) {
    SCOPED_TRACE(scale);
    viz::WarpView view;
    const TraceRecords trace = host_twin_trace({4, 0, 256, 256}, 0);  // 1 KiB apart
    view.publish(trace);
    const int width = 1200, height = 500;
    const GLuint texture = view.render(trace, width, height, scale, theme);
    const viz::Image image = viz::read_texture(texture, width, height);
    const viz::StripLayout& layout = view.layout();
    ASSERT_EQ(layout.lines.size(), 32u);
    const int y = static_cast<int>(0.5f * (layout.sector_row_top + layout.strip.y1));
    for (const auto& line : layout.lines) {
      const int x = static_cast<int>(layout.x_of(line.address + 16));
      EXPECT_TRUE(same(image.pixel(x, y), theme.sector)) << "sector at byte " << line.address;
    }
  }
}

// Issue 32: Fermi's caching loads move whole 128-byte lines, yet the sector row drew each as
// four 32-byte boxes. Where every transaction is one aligned 128-byte block, a line the model
// moves is one box: no gap at its 32-, 64- and 96-byte boundaries. The modern model's sectors
// keep theirs (the same check fails there, so it sees the gaps it looks for).
TEST_F(WarpViewTest, AFermiCachingTransactionIsOneBoxNotFourSectors) {
  const viz::Theme& theme = viz::theme(viz::ThemeName::Light);
  const gpu::CopyParams params{4, 1, 1, 256};  // misaligned by one word: two 128-byte lines
  const auto lanes = model::evaluate_lanes(copy_access_pattern(params, 0));
  const auto fermi =
      model::analyze_global(lanes, 4, model::Op::Load, model::HardwareModel::FermiCaching);
  ASSERT_EQ(fermi.transaction_ranges.size(), 2u);
  std::vector<TransactionRange> transactions;
  for (const auto& r : fermi.transaction_ranges)
    transactions.push_back(
        {static_cast<std::uint64_t>(r.begin), static_cast<std::uint64_t>(r.end), 0});
  EXPECT_EQ(transaction_box_bytes(transactions), 128);
  for (const float scale : {1.0f, 2.0f, 3.0f}) {
    SCOPED_TRACE(scale);
    for (const bool historical : {true, false}) {
      SCOPED_TRACE(historical ? "fermi-ca" : "modern");
      viz::WarpView view;
      const TraceRecords trace = model_trace(params, 0);
      view.publish(trace);
      view.publish_transactions(historical ? transactions : std::vector<TransactionRange>{});
      const int width = 1200, height = 500;
      const GLuint texture = view.render(trace, width, height, scale, theme);
      const viz::Image image = viz::read_texture(texture, width, height);
      const viz::StripLayout& layout = view.layout();
      ASSERT_EQ(layout.lines.size(), 2u);
      const int y = static_cast<int>(0.5f * (layout.sector_row_top + layout.strip.y1));
      int gaps = 0;
      // Both lines are moved whole under Fermi; the modern model moves all of the first line
      // (and one sector of the second).
      for (std::size_t i = 0; i < (historical ? 2u : 1u); ++i)
        for (const std::uint64_t at : {32u, 64u, 96u}) {
          const auto& line = layout.lines[i];
          const int x = static_cast<int>(layout.x_of(line.address + at));
          for (int dx = -2; dx <= 2; ++dx) gaps += !same(image.pixel(x + dx, y), theme.sector);
          EXPECT_TRUE(same(image.pixel(x + static_cast<int>(8 * scale), y), theme.sector));
        }
      if (historical) {
        EXPECT_EQ(gaps, 0) << "a 128-byte transaction drawn in pieces";
      } else {
        EXPECT_GT(gaps, 0) << "the modern model's sectors lost their boxes";
      }
    }
  }
}

// Issue 32: matrix-columns at 3x on 1280x720 gives 32 lines some 18 px each, a sector 4 px:
// the thin sector rules (0.6 px x scale) then covered most pixel columns and darkened every
// requested word in stripes. Over sectors that narrow there are no thin rules, and a word stays
// in its lane's colour. It is widened to be seen, but never past its own sector, and where the
// sector has 4 px it leaves the sector's unrequested bytes beside it hatched: scattered at 3x
// had drawn each 4-byte word 12 px wide in lines of 23 px, beside "12.5 % of the bytes moved
// used".
TEST_F(WarpViewTest, NarrowSectorsKeepTheirWordsInTheLanesColourAndWithinTheirSector) {
  const viz::Theme& theme = viz::theme(viz::ThemeName::Light);
  for (const int width : {700, 560}) {
    for (const float scale : {2.0f, 3.0f}) {
      SCOPED_TRACE(testing::Message() << width << " px at " << scale << "x");
      viz::WarpView view;
      const TraceRecords trace = host_twin_trace({4, 0, 256, 256}, 0);  // 1 KiB apart
      view.publish(trace);
      const int height = 300;
      const GLuint texture = view.render(trace, width, height, scale, theme);
      const viz::Image image = viz::read_texture(texture, width, height);
      const viz::StripLayout& layout = view.layout();
      ASSERT_EQ(layout.lines.size(), 32u);
      const float sector_px = 32 * layout.px_per_byte;
      ASSERT_LT(sector_px, 8 * scale) << "the case needs sectors a few px wide";
      const int y = static_cast<int>(0.5f * (layout.strip.y0 + layout.sector_row_top));
      int lanes_seen = 0, past_sector = 0, hatch_seen = 0;
      for (int lane = 0; lane < 32; ++lane) {
        const viz::StripLayout::Line& line = layout.lines[static_cast<std::size_t>(lane)];
        const auto& colour = theme.lanes[static_cast<std::size_t>(lane)];
        int in_colour = 0, after_word = 0;
        for (int x = static_cast<int>(line.x) + 1;
             x < static_cast<int>(line.x + 128 * layout.px_per_byte) - 1; ++x) {
          const bool lane_colour = same(image.pixel(x, y), colour);
          const bool in_sector = static_cast<float>(x) + 1 < line.x + sector_px;
          if (lane_colour && in_sector) ++in_colour;
          if (lane_colour && static_cast<float>(x) > line.x + sector_px + 1) ++past_sector;
          if (!lane_colour && in_colour > 0 && in_sector) ++after_word;
        }
        lanes_seen += in_colour > 0;
        hatch_seen += after_word > 0;
      }
      EXPECT_EQ(lanes_seen, 32) << "a requested word vanished (" << sector_px << " px sectors)";
      EXPECT_EQ(past_sector, 0) << "a word drawn wider than its sector";
      if (sector_px >= 4) {
        EXPECT_EQ(hatch_seen, 32) << "no over-fetch beside the word";
      }
    }
  }
}

TEST_F(WarpViewTest, AFramebufferOfOneColourIsRefusedAsNothingDrawn) {
  // On the GPU machines a render after another process's GPU fault wrote a blank PNG and exit 0;
  // render now says GL drew nothing instead (a view always draws text).
  viz::RenderTarget target;
  target.bind(64, 32);
  glClearColor(1, 1, 1, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  EXPECT_THROW((void)viz::read_drawn_framebuffer(64, 32), std::runtime_error);
  glEnable(GL_SCISSOR_TEST);
  glScissor(3, 3, 5, 5);
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
  EXPECT_NO_THROW((void)viz::read_drawn_framebuffer(64, 32));
}

TEST_F(WarpViewTest, LayoutShowsTouchedLinesWithGapsBetweenRuns) {
  const auto trace = host_twin_trace({16, 0, 64, 256}, 0);  // every lane 1 KiB apart
  const auto layout = viz::layout_warp_view(trace, 1600, 400, 1.0f);
  ASSERT_EQ(layout.lines.size(), 32u);
  EXPECT_FALSE(layout.lines[0].gap_before);
  EXPECT_TRUE(layout.lines[1].gap_before);
  EXPECT_EQ(layout.lines[1].address, 1024u);
  const auto aligned = viz::layout_warp_view(host_twin_trace({4, 0, 1, 256}, 0), 1600, 400, 1.0f);
  ASSERT_EQ(aligned.lines.size(), 2u);  // the touched line plus one of context
  EXPECT_FLOAT_EQ(aligned.x_of(128), aligned.lines[1].x);
}

TEST_F(WarpViewTest, TwoViewsShareOneByteScaleWhenAskedForTheirLeastLines) {
  // A/B compare (kernel-soa): A's lanes read every third float (three 128-byte lines), B's
  // consecutive floats (one line, shown with one of context). Asked for A's count, B's strip
  // shows three lines from its own, each as wide as A's, and still says it needs two.
  const auto a = viz::layout_warp_view(host_twin_trace({4, 0, 3, 256}, 0), 1600, 400, 1.0f);
  const auto alone = viz::layout_warp_view(host_twin_trace({4, 0, 1, 256}, 0), 1600, 400, 1.0f);
  ASSERT_EQ(a.lines.size(), 3u);
  ASSERT_EQ(alone.lines.size(), 2u);
  EXPECT_GT(alone.px_per_byte, 1.4f * a.px_per_byte);  // the defect: 128 B half again as wide
  const auto b =
      viz::layout_warp_view(host_twin_trace({4, 0, 1, 256}, 0), 1600, 400, 1.0f, 2, a.own_lines);
  ASSERT_EQ(b.lines.size(), 3u);
  EXPECT_EQ(b.own_lines, 2);
  EXPECT_EQ(b.lines[2].address, 256u);
  EXPECT_FALSE(b.lines[2].gap_before);
  EXPECT_FLOAT_EQ(b.px_per_byte, a.px_per_byte);
}

TEST(StripScale, TheViewsOfAFrameSetTheNextFramesLeastLines) {
  app::StripScale scale;
  {
    app::StripScale::Scope frame(scale);
    EXPECT_EQ(app::open_strip_scale(), &scale);
    EXPECT_EQ(scale.least_lines(), 0);  // the first frame: each view its own
    scale.report(3);
    scale.report(2);
  }
  EXPECT_EQ(app::open_strip_scale(), nullptr);
  {
    app::StripScale::Scope frame(scale);
    EXPECT_EQ(scale.least_lines(), 3);
    scale.report(2);  // A's pattern changed: one line now
  }
  app::StripScale::Scope frame(scale);
  EXPECT_EQ(scale.least_lines(), 2);
}

}  // namespace
}  // namespace warplens::test
