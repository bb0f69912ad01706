// CuTe layouts (model/cute_layout.h): the examples of CuTe's own documentation and unit tests
// with the offsets they state, swizzles against a bit-by-bit formula written here, and parse
// errors with their columns.
//
// Sources of the expected values (NVIDIA/cutlass, commit 7107b05535f8):
//   media/docs/cpp/cute/01_layout.md        "Using a Layout" (print1D, print2D), "Vector
//                                           Layouts", "Coordinate Mapping", "Index Mapping",
//                                           "Sublayouts", "Grouping and flattening"
//   test/unit/cute/core/compact_xmajor.cpp  CompactColMajor_Static / _Dynamic
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cute_layout.h"

namespace warplens::model {
namespace {

std::vector<std::int64_t> offsets(const std::string& text) {
  const CuteLayout l = parse_layout(text);
  std::vector<std::int64_t> out;
  for (std::int64_t i = 0; i < l.size(); ++i) out.push_back(l(i));
  return out;
}

using V = std::vector<std::int64_t>;

// --- CuTe's documentation: 01_layout.md --------------------------------------------------------

TEST(CuteLayout, Print1DOfTheDocsLayouts) {
  EXPECT_EQ(offsets("(_2,_4):(_1,_2)"), (V{0, 1, 2, 3, 4, 5, 6, 7}));       // s2xs4
  EXPECT_EQ(offsets("(_2,4):(_12,_1)"), (V{0, 12, 1, 13, 2, 14, 3, 15}));   // s2xd4_a
  EXPECT_EQ(offsets("(2,(2,2)):(_1,(2,4))"), (V{0, 1, 2, 3, 4, 5, 6, 7}));  // s2xh4_col
  EXPECT_EQ(offsets("(2,(2,2)):(4,(2,1))"), (V{0, 4, 2, 6, 1, 5, 3, 7}));   // s2xh4
}

TEST(CuteLayout, Print2DOfTheDocsLayouts) {
  // layout(m, n) is layout(m + 2 n) for the 2-row shapes: print2D(s2xh4) and print2D(s2xd4_a).
  const CuteLayout h = parse_layout("(2,(2,2)):(4,(2,1))");
  const CuteLayout a = parse_layout("(_2,4):(_12,_1)");
  const V h_rows[2] = {{0, 2, 1, 3}, {4, 6, 5, 7}};
  const V a_rows[2] = {{0, 1, 2, 3}, {12, 13, 14, 15}};
  for (int m = 0; m < 2; ++m) {
    for (int n = 0; n < 4; ++n) {
      EXPECT_EQ(h(m + 2 * n), h_rows[m][n]) << m << "," << n;
      EXPECT_EQ(a(m + 2 * n), a_rows[m][n]) << m << "," << n;
    }
  }
}

TEST(CuteLayout, VectorLayoutsOfTheDocs) {
  EXPECT_EQ(offsets("8:1"), (V{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(offsets("8:2"), (V{0, 2, 4, 6, 8, 10, 12, 14}));
  EXPECT_EQ(offsets("((4,2)):((2,1))"), (V{0, 2, 4, 6, 1, 3, 5, 7}));
  EXPECT_EQ(offsets("((4,2)):((1,4))"), (V{0, 1, 2, 3, 4, 5, 6, 7}));
  // "Matrix examples": ((2,2),2):((4,1),2), printed as a 4x2 matrix, is column by column
  // 0 4 1 5 | 2 6 3 7.
  EXPECT_EQ(offsets("((2,2),2):((4,1),2)"), (V{0, 4, 1, 5, 2, 6, 3, 7}));
}

TEST(CuteLayout, CoordinateAndIndexMappingOfShape3x2x3) {
  // "Coordinate Mapping": idx2crd(16, (3,(2,3))) = (1,(1,2)); "Index Mapping": crd2idx(16,
  // (3,(2,3)), (3,(12,1))) = 17, and the table's index i*3 + j*12 + k for (i,(j,k)).
  const CuteLayout l = parse_layout("(3,(2,3)):(3,(12,1))");
  EXPECT_EQ(l.coordinate(16).text(), "(1,(1,2))");
  EXPECT_EQ(l(16), 17);
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 3; ++i) {
        const int index = i + 3 * (j + 2 * k);  // colexicographic
        EXPECT_EQ(l.coordinate(index).text(), "(" + std::to_string(i) + ",(" + std::to_string(j) +
                                                  "," + std::to_string(k) + "))");
        EXPECT_EQ(l(index), i * 3 + j * 12 + k);
      }
}

TEST(CuteLayout, DefaultStridesPrintAsCuTePrintsThem) {
  // "Constructing a Layout": make_layout without a stride is LayoutLeft.
  EXPECT_EQ(parse_layout("_8").text(), "_8:_1");                        // s8
  EXPECT_EQ(parse_layout("8").text(), "8:_1");                          // d8
  EXPECT_EQ(parse_layout("(_2,_4)").text(), "(_2,_4):(_1,_2)");         // s2xs4
  EXPECT_EQ(parse_layout("(_2,4)").text(), "(_2,4):(_1,_2)");           // s2xd4
  EXPECT_EQ(parse_layout("(2,(2,2))").text(), "(2,(2,2)):(_1,(2,4))");  // s2xh4_col
  // "Grouping and flattening" and "Sublayouts".
  EXPECT_EQ(parse_layout("(_2,_3,_5,_7)").text(), "(_2,_3,_5,_7):(_1,_2,_6,_30)");
  EXPECT_EQ(parse_layout("((_2,_3),(_5,_7))").text(), "((_2,_3),(_5,_7)):((_1,_2),(_6,_30))");
  EXPECT_EQ(parse_layout("(_4,(_3,_6))").text(), "(_4,(_3,_6)):(_1,(_4,_12))");
}

TEST(CuteLayout, CompactColMajorAsCuTesUnitTests) {
  // compact_xmajor.cpp: a static 1 gets stride _0 and leaves the running product alone; a
  // dynamic 1 takes the running product.
  EXPECT_TRUE(parse_layout("(4,8,1,2)").stride.same_values(parse_layout("(1,4,32,32)").shape));
  EXPECT_EQ(parse_layout("(_4,_8,_1,_2)").stride.text(), "(_1,_4,_0,_32)");
  EXPECT_EQ(parse_layout("((4,8),1,2)").stride.text(), "((_1,4),32,32)");
  EXPECT_EQ(parse_layout("(_4,(_8,_1,(_2,_3)))").stride.text(), "(_1,(_4,_0,(_32,_64)))");
  EXPECT_EQ(parse_layout("_1").stride.text(), "_0");
  EXPECT_EQ(parse_layout("1").stride.text(), "_1");
}

TEST(CuteLayout, ReadsWhatCuTesPrintWritesAndCppSpelling) {
  const CuteLayout a = parse_layout("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)");
  const CuteLayout b = parse_layout("  Swizzle<3,4,3>{} o (8, 64) : (64, 1) ");
  EXPECT_EQ(a.text(), "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)");
  EXPECT_EQ(b.text(), "Sw<3,4,3> o _0 o (8,64):(64,1)");
  for (std::int64_t i = 0; i < a.size(); ++i) EXPECT_EQ(a(i), b(i)) << i;
  // Swizzle<B,M> is Swizzle<B,M,B> (the template's default), and "Sw o O o L" adds O first.
  EXPECT_EQ(parse_layout("Swizzle<2,1> o 64:1").swizzle->shift, 2);
  const CuteLayout o = parse_layout("Sw<0,0,0> o 5 o 4:3");
  EXPECT_EQ(o.text(), "Sw<0,0,0> o 5 o 4:3");
  EXPECT_EQ(o(2), 11);
}

TEST(CuteLayout, IndicesOutsideTheLayoutAreRefused) {
  const CuteLayout l = parse_layout("(8,4):(32,1)");
  EXPECT_THROW((void)l(32), LayoutError);
  EXPECT_THROW((void)l(-1), LayoutError);
  EXPECT_THROW((void)l.coordinate(32), LayoutError);
}

// --- swizzles against the bits ---------------------------------------------------------------

// Swizzle<B,M,S> bit by bit, as swizzle.hpp's picture draws it: for j < B, bit M + j (S > 0) or
// bit M + |S| + j (S < 0) is XORed with the bit |S| places above (S > 0) or below (S < 0) it.
std::int64_t swizzle_bits(std::int64_t x, int b, int m, int s) {
  std::int64_t out = x;
  for (int j = 0; j < b; ++j) {
    const int to = s > 0 ? m + j : m - s + j;
    const int from = s > 0 ? m + s + j : m + j;
    out ^= ((x >> from) & 1) << to;
  }
  return out;
}

TEST(CuteSwizzle, EqualsTheBitwiseFormula) {
  int checked = 0;
  for (int b = 0; b <= 3; ++b)
    for (int m = 0; m <= 4; ++m)
      for (int s = -6; s <= 6; ++s) {
        if (std::abs(s) < b) continue;
        const std::string sw = "Swizzle<" + std::to_string(b) + "," + std::to_string(m) + "," +
                               std::to_string(s) + ">";
        const CuteLayout l = parse_layout(sw + " o 8192:1");
        for (std::int64_t x = 0; x < 8192; x += 7) {
          ASSERT_EQ(l.swizzle->apply(x), swizzle_bits(x, b, m, s)) << sw << " at " << x;
          ASSERT_EQ(l(x), swizzle_bits(x, b, m, s)) << sw << " at " << x;
          ++checked;
        }
      }
  EXPECT_GT(checked, 100000);
}

TEST(CuteSwizzle, Sw343MovesRowBitsIntoTheColumn) {
  // Swizzle<3,4,3> o (8,64):(64,1): element (r, c) at r*64 + c; bits 7..9 (r >> 1 here) are
  // XORed into bits 4..6.
  const CuteLayout l = parse_layout("Swizzle<3,4,3> o (8,64):(64,1)");
  EXPECT_EQ(l.swizzle->yyy_mask(), 0x380);
  EXPECT_EQ(l.swizzle->zzz_mask(), 0x70);
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 64; ++c) EXPECT_EQ(l(r + 8 * c), r * 64 + (c ^ ((r >> 1) << 4)));
}

// --- errors ------------------------------------------------------------------------------------

struct BadLayout {
  const char* text;
  int column;
  const char* says;  // a piece of the message
};

class BadLayoutTest : public ::testing::TestWithParam<BadLayout> {};

TEST_P(BadLayoutTest, NamesTheColumn) {
  const BadLayout& bad = GetParam();
  try {
    (void)parse_layout(bad.text);
    FAIL() << bad.text << " parsed";
  } catch (const LayoutError& e) {
    EXPECT_EQ(e.column(), bad.column) << bad.text << ": " << e.what();
    EXPECT_NE(std::string(e.what()).find(bad.says), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("column " + std::to_string(bad.column)), std::string::npos)
        << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cute, BadLayoutTest,
    ::testing::Values(
        BadLayout{"(8,4:(32,1)", 1, "unbalanced tuple"},
        BadLayout{"(8,(4,2):(32,(1,2))", 1, "unbalanced tuple"},
        BadLayout{"(8,4):(32,(1,2)", 7, "unbalanced tuple"},
        BadLayout{"(8,4)):(32,1)", 6, "unbalanced tuple"},
        BadLayout{"(8,4):(32,1))", 13, "unbalanced tuple"},
        BadLayout{"(8,4):(32,1,2)", 7, "differ in rank"},
        BadLayout{"(8,4):32", 7, "differ in rank"}, BadLayout{"8:(1,2)", 3, "differ in rank"},
        BadLayout{"((8,4),2):(8,(1,2))", 12, "differ in rank"},
        BadLayout{"Swizzle<3,4,2> o (8,64):(64,1)", 13, "overlaps itself"},
        BadLayout{"Sw<2,0,-1> o 8:1", 8, "overlaps itself"},
        BadLayout{"Swizzle<-1,4,3> o 8:1", 9, "B must be >= 0"},
        BadLayout{"Swizzle<3,30,3> o 8:1", 9, "reaches bit"},
        BadLayout{"Swizzle<3,4,3> (8,64)", 16, "expected \"o\""},
        BadLayout{"(8,0):(1,8)", 4, "at least 1"}, BadLayout{"(8,4):(32,1) x", 14, "unexpected"},
        BadLayout{"()", 1, "empty tuple"}, BadLayout{"(8,,4)", 4, "expected an integer"},
        BadLayout{"(8,4):", 7, "stride is missing"},
        BadLayout{"(65536,65536)", 1, "more than 2^31 - 1 indices"},
        BadLayout{"(2,4):(2147483647,1)", 7, "reach past"},
        BadLayout{"99999999999", 1, "out of range"}));

TEST(CuteLayout, ALaneLayoutsErrorsSayLaneLayout) {
  try {
    (void)parse_layout("(4,8:(8,1)", "lane layout");
    FAIL();
  } catch (const LayoutError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("lane layout column 1: unbalanced tuple", 0), 0u)
        << e.what();
  }
}

}  // namespace
}  // namespace warplens::model
