// The tile lab's host side (tma_lab.h, tma_model.h), no GPU: each swizzle mode's CuTe layout
// gives the placement the TMA's byte rule gives (cute/arch/copy_sm90_desc.hpp: Swizzle<B,4,3> on
// byte offsets), the warp's addresses, the bank model's wavefronts for the lecture's cases, and
// the refusals.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "tma_lab.h"
#include "tma_model.h"

namespace warplens::test {
namespace {

using gpu::TileFill;
using gpu::TileParams;
using gpu::TileRead;
using gpu::TileReadKind;
using gpu::TmaSwizzle;

TileParams tile(TmaSwizzle s, int element, int rows, int cols, int pitch = 0,
                TileFill fill = TileFill::Tma) {
  TileParams t;
  t.fill = fill;
  t.swizzle = s;
  t.element_bytes = element;
  t.rows = rows;
  t.cols = cols;
  t.pitch_bytes = pitch;
  return t;
}

TEST(TilePlan, EachModesLayoutIsCutesSwizzleInElements) {
  EXPECT_EQ(gpu::tile_layout_text(tile(TmaSwizzle::B128, 4, 32, 32)), "Sw<3,2,3> o (32,32):(32,1)");
  EXPECT_EQ(gpu::tile_layout_text(tile(TmaSwizzle::B128, 2, 32, 64)), "Sw<3,3,3> o (32,64):(64,1)");
  EXPECT_EQ(gpu::tile_layout_text(tile(TmaSwizzle::B64, 1, 8, 64)), "Sw<2,4,3> o (8,64):(64,1)");
  EXPECT_EQ(gpu::tile_layout_text(tile(TmaSwizzle::B32, 4, 16, 8)), "Sw<1,2,3> o (16,8):(8,1)");
  EXPECT_EQ(gpu::tile_layout_text(tile(TmaSwizzle::None, 4, 32, 32)), "(32,32):(32,1)");
  EXPECT_EQ(gpu::tile_layout_text(tile(TmaSwizzle::None, 2, 32, 64, 144, TileFill::Threads)),
            "(32,64):(72,1)");
}

// The byte rule written out: bits [4, 4 + B) of the dense byte offset XOR bits [7, 7 + B).
TEST(TilePlan, PlacementEqualsTheTmaByteRuleForEveryModeAndElementSize) {
  for (TmaSwizzle s : gpu::kTmaSwizzles) {
    for (int e : {1, 2, 4}) {
      const int span = s == TmaSwizzle::None ? 128 : gpu::swizzle_span_bytes(s);
      const TileParams t = tile(s, e, 24, span / e);
      const auto at = gpu::tile_placement_model(t);
      const int mask = (1 << gpu::swizzle_bits(s)) - 1;
      for (int r = 0; r < t.rows; ++r) {
        for (int c = 0; c < t.cols; ++c) {
          const int dense = (r * t.cols + c) * e;
          const int want = dense ^ (((dense >> 7) & mask) << 4);
          ASSERT_EQ(at[static_cast<std::size_t>(r * t.cols + c)], want)
              << to_string(s) << " " << e << " B, element (" << r << ", " << c << ")";
        }
      }
    }
  }
}

TEST(TilePlan, ColumnReadConflictsUnswizzledAndLessUnder128B) {
  const TileRead column{TileReadKind::Column, 0};
  // 4-byte elements, 128-byte rows: every row's element 0 in bank 0.
  EXPECT_EQ(gpu::tile_read_analysis(tile(TmaSwizzle::None, 4, 32, 32), column).wavefronts, 32);
  // 128 B: the eight rows of a 1024-byte repeat put it in eight 16-byte chunks, 4 rows each.
  EXPECT_EQ(gpu::tile_read_analysis(tile(TmaSwizzle::B128, 4, 32, 32), column).wavefronts, 4);
  EXPECT_EQ(gpu::tile_read_analysis(tile(TmaSwizzle::B128, 2, 32, 64), column).wavefronts, 4);
  // 64 B with 64-byte rows: two rows share a 128-byte row (banks 0 and 16), and the chunk moves
  // every second row: 8 banks, 4 rows each.
  EXPECT_EQ(gpu::tile_read_analysis(tile(TmaSwizzle::B64, 4, 32, 16), column).wavefronts, 4);
  // A row read is conflict-free under every mode.
  for (TmaSwizzle s : gpu::kTmaSwizzles) {
    const TileParams t = tile(s, 4, 32, s == TmaSwizzle::B32 ? 8 : s == TmaSwizzle::B64 ? 16 : 32);
    EXPECT_EQ(gpu::tile_read_analysis(t, TileRead{TileReadKind::Row, 0}).wavefronts, 1)
        << to_string(s);
  }
}

TEST(TilePlan, LdmatrixRowsConflictUnlessSwizzledOrPadded) {
  const TileRead x4{TileReadKind::Ldmatrix, 0, 4, false};
  const auto plain = gpu::tile_read_analysis(tile(TmaSwizzle::None, 2, 32, 64), x4);
  EXPECT_EQ(plain.min_wavefronts, 4);
  EXPECT_EQ(plain.wavefronts, 32);  // 16 rows 128 bytes apart: one 16-byte chunk's 4 banks
  EXPECT_EQ(gpu::tile_read_analysis(tile(TmaSwizzle::B128, 2, 32, 64), x4).wavefronts, 4);
  EXPECT_EQ(gpu::tile_read_analysis(tile(TmaSwizzle::None, 2, 32, 64, 144, TileFill::Threads), x4)
                .wavefronts,
            4);
  const auto x1 = gpu::tile_read_lanes(tile(TmaSwizzle::None, 2, 32, 64),
                                       TileRead{TileReadKind::Ldmatrix, 0, 1, false});
  EXPECT_EQ(x1.active, 8);
  EXPECT_EQ(x1.access_bytes, 16);
  EXPECT_EQ(x1.byte_offset[7], 7 * 128);
  EXPECT_EQ(x1.byte_offset[8], -1);
  const auto x4l = gpu::tile_read_lanes(tile(TmaSwizzle::B128, 2, 32, 64), x4);
  EXPECT_EQ(x4l.byte_offset[17], 1 * 128 + (1 ^ 1) * 16);  // row 1, columns 8..15: chunk 1 ^ 1
  EXPECT_EQ(x4l.byte_offset[3], 3 * 128 + 3 * 16);         // row 3, chunk 0 ^ 3
}

TEST(TilePlan, RefusesWhatTheTmaOrTheReadCannotDo) {
  const auto refuses = [](const TileParams& t, const std::string& part) {
    try {
      gpu::check_tile(t);
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
      return;
    }
    ADD_FAILURE() << "accepted; expected: " << part;
  };
  refuses(tile(TmaSwizzle::B64, 4, 32, 32), "wider than the 64B swizzle's span");
  refuses(tile(TmaSwizzle::B128, 4, 64, 16), "the lab's TMA rows are 128 bytes");
  EXPECT_NO_THROW(gpu::check_tile(tile(TmaSwizzle::B128, 4, 64, 16, 0, TileFill::Threads)));
  refuses(tile(TmaSwizzle::None, 4, 32, 3), "multiples of 16 bytes");
  refuses(tile(TmaSwizzle::None, 4, 32, 32, 144), "needs the threads' fill");
  refuses(tile(TmaSwizzle::None, 4, 32, 32, 136, TileFill::Threads), "a multiple of 16");
  refuses(tile(TmaSwizzle::None, 3, 32, 32), "1, 2 or 4");
  refuses(tile(TmaSwizzle::None, 4, 300, 32), "1..256");
  refuses(tile(TmaSwizzle::None, 4, 256, 64), "48 KiB");
  EXPECT_THROW(gpu::check_tile_read(tile(TmaSwizzle::None, 4, 32, 32),
                                    TileRead{TileReadKind::Ldmatrix, 0, 4, false}),
               std::invalid_argument);
  EXPECT_THROW(gpu::check_tile_read(tile(TmaSwizzle::None, 2, 8, 64),
                                    TileRead{TileReadKind::Ldmatrix, 0, 2, false}),
               std::invalid_argument);
  EXPECT_THROW(
      gpu::check_tile_read(tile(TmaSwizzle::None, 4, 32, 32), TileRead{TileReadKind::Column, 32}),
      std::invalid_argument);
  EXPECT_THROW(gpu::parse_tma_swizzle("96B"), std::invalid_argument);
  EXPECT_EQ(gpu::parse_tma_swizzle("128"), TmaSwizzle::B128);
  const TileRead ld{TileReadKind::Ldmatrix, 0, 4, false};
  EXPECT_EQ(gpu::tile_unsupported(tile(TmaSwizzle::B128, 2, 32, 64), &ld, 8, 6).value(),
            "the TMA (cp.async.bulk.tensor) needs compute capability 9.0; this GPU is 8.6");
  EXPECT_EQ(
      gpu::tile_unsupported(tile(TmaSwizzle::None, 2, 32, 64, 0, TileFill::Threads), &ld, 7, 0)
          .value(),
      "ldmatrix needs compute capability 7.5; this GPU is 7.0");
  EXPECT_FALSE(gpu::tile_unsupported(tile(TmaSwizzle::B128, 2, 32, 64), &ld, 9, 0));
}

}  // namespace
}  // namespace warplens::test
