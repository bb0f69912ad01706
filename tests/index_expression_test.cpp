// IndexExpression against C itself: every row of the table below is written once, as C++ source.
// The macro turns that source into the text IndexExpression parses and, at the same time, into a
// lambda the compiler evaluates with int variables named like the expression's, so the expected
// values come from the C++ compiler's integer rules (which match C's for these operators) and
// cannot drift from the text under test.
#include "index_expression.h"

#include "access_pattern.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace warplens::model {
namespace {

using CEvaluator = long long (*)(int lane, int tx, int ty, int bdx, int bdy, int warp);

struct Row {
  const char* text;
  CEvaluator c;
};

// The table deliberately leaves out parentheses that C does not need: that is what it tests.
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wparentheses"
#endif

// Each row's C++ twin takes every variable the grammar has, whether the row uses it or not.
#define ROW_PARAMETERS                                                         \
  [[maybe_unused]] int lane, [[maybe_unused]] int tx, [[maybe_unused]] int ty, \
      [[maybe_unused]] int bdx, [[maybe_unused]] int bdy, [[maybe_unused]] int warp
#define ROW(expr)                                                                   \
  Row {                                                                             \
    .text = #expr, .c = [](ROW_PARAMETERS) { return static_cast<long long>(expr); } \
  }

const std::vector<Row>& table() {
  static const std::vector<Row> rows = {
      // Variables and literals.
      ROW(lane),
      ROW(7),
      ROW(0x10 + lane),
      ROW(0xff & lane * 9),
      ROW(((lane))),
      ROW(tx + ty * bdx),
      ROW(warp * 32 + lane),
      ROW(bdx * bdy - 1 - tx),
      // * / % bind tighter than + -.
      ROW(1 + 2 * 3),
      ROW(lane * 4 + tx),
      ROW(lane + tx * ty),
      ROW((lane + tx) * ty),
      ROW(lane + 100 / 7 - 3 % 2),
      ROW(1 - 2 * -3),
      // Left associativity within one precedence level.
      ROW(10 - 4 - 3),
      ROW(lane - tx - ty),
      ROW(100 / 10 / 5),
      ROW(100 / 5 * 2),
      ROW(17 % 5 * 3),
      ROW(2 * 17 % 5),
      ROW(lane * 7 % 5 / 2),
      ROW(256 >> 2 >> 1),
      ROW(lane >> 1 << 1),
      // Unary minus and plus.
      ROW(-lane),
      ROW(+lane),
      ROW(-lane * 3),
      ROW(-(lane + tx)),
      ROW(lane - -tx),
      ROW(-lane * -tx),
      ROW(8 / -2 / 2),
      // / and % truncate toward zero with negative operands.
      ROW(-7 / 2),
      ROW(-7 % 2),
      ROW(7 / -2),
      ROW(7 % -2),
      ROW(-7 / -2),
      ROW(-7 % -2),
      ROW(-lane / 4),
      ROW(-lane % 5),
      ROW((lane - 40) / 8),
      ROW((lane - 40) % 8),
      ROW((tx - ty * 9) % (bdy + 2)),
      // Shifts: below + -, above &.
      ROW(1 << 4 + 1),
      ROW(1 << lane % 8),
      ROW(lane << 2 | 1),
      ROW(-lane >> 1),
      ROW(lane & 3 << 1),
      // & above ^ above |; ^ is XOR.
      ROW(lane ^ 5),
      ROW(2 ^ -1),
      ROW(lane & 7 + 1),
      ROW(lane ^ tx & 12),
      ROW(lane | tx ^ 3),
      ROW(lane | 1 ^ 3 & 6),
      ROW(5 & 3 ^ 6 | 8),
      ROW(lane ^ lane >> 1),
      ROW((lane ^ tx) * 2),
      // Mixed, as real tiles use them.
      ROW((tx * bdy + ty) * 33 % 1024),
      ROW((lane + 1) * (lane + 2) / 2 - tx % (ty + 1)),
      ROW(lane / (tx + 1) % 3),
      ROW((ty * bdx + tx) / 32 - warp),
  };
  return rows;
}

#undef ROW
#undef ROW_PARAMETERS

#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

struct Coordinates {
  int lane, tx, ty, bdx, bdy, warp;
};

// Thread coordinates a real block could produce (tx < bdx, ty < bdy, tid = ty*bdx + tx) plus
// one set at the edge of a warp; none makes a table row divide by zero or overflow.
const std::vector<Coordinates> kCoordinateSets = {
    {0, 0, 0, 32, 1, 0},   {1, 1, 0, 32, 1, 0},   {13, 13, 2, 16, 4, 1},
    {31, 31, 7, 32, 8, 7}, {17, 1, 10, 8, 16, 2}, {12, 44, 5, 64, 16, 11},
};

std::string describe(const Coordinates& c) {
  return "lane=" + std::to_string(c.lane) + " tx=" + std::to_string(c.tx) +
         " ty=" + std::to_string(c.ty) + " bdx=" + std::to_string(c.bdx) +
         " bdy=" + std::to_string(c.bdy) + " warp=" + std::to_string(c.warp);
}

ThreadCoordinates thread(const Coordinates& c) {
  return {.lane = c.lane, .tx = c.tx, .ty = c.ty, .bdx = c.bdx, .bdy = c.bdy, .warp = c.warp};
}

TEST(IndexExpressionTest, TableCoversEnoughExpressions) {
  EXPECT_GE(table().size(), 40u);
}

TEST(IndexExpressionTest, MatchesCForEveryRowAndCoordinateSet) {
  for (const Row& row : table()) {
    SCOPED_TRACE(row.text);
    IndexExpression expression(row.text);
    EXPECT_EQ(expression.text(), row.text);
    for (const Coordinates& c : kCoordinateSets) {
      SCOPED_TRACE(describe(c));
      const long long expected = row.c(c.lane, c.tx, c.ty, c.bdx, c.bdy, c.warp);
      EXPECT_EQ(expression.evaluate(thread(c)), expected);
    }
  }
}

TEST(IndexExpressionTest, SpotChecksOfTheCRules) {
  // A few rows restated as numbers, so a broken table macro cannot hide a broken parser.
  const auto value = [](const char* text) { return IndexExpression(text).evaluate({}); };
  EXPECT_EQ(value("-7 / 2"), -3);
  EXPECT_EQ(value("-7 % 2"), -1);
  EXPECT_EQ(value("7 % -2"), 1);
  EXPECT_EQ(value("10 - 4 - 3"), 3);
  EXPECT_EQ(value("100 / 10 / 5"), 2);
  EXPECT_EQ(value("1 << 4 + 1"), 32);
  EXPECT_EQ(value("3 ^ 5"), 6);
  EXPECT_EQ(value("5 & 3 ^ 6 | 8"), 15);
  EXPECT_EQ(value("-8 >> 1"), -4);
}

TEST(IndexExpressionTest, WhitespaceDoesNotMatter) {
  IndexExpression tight("tx+ty*bdx");
  IndexExpression loose("  tx  +\tty *  bdx ");
  const ThreadCoordinates t{.lane = 9, .tx = 9, .ty = 3, .bdx = 16, .bdy = 4, .warp = 1};
  EXPECT_EQ(tight.evaluate(t), 57);
  EXPECT_EQ(loose.evaluate(t), 57);
}

TEST(IndexExpressionTest, EvaluatesRepeatedlyAndAfterMove) {
  IndexExpression expression("lane * 33");
  for (int lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(expression.evaluate({.lane = lane}), lane * 33);
  }
  IndexExpression moved(std::move(expression));
  EXPECT_EQ(moved.text(), "lane * 33");
  EXPECT_EQ(moved.evaluate({.lane = 3}), 99);
  IndexExpression assigned("0");
  assigned = std::move(moved);
  EXPECT_EQ(assigned.evaluate({.lane = 4}), 132);
}

TEST(IndexExpressionTest, ReachesTheEdgesOfThe32BitRange) {
  EXPECT_EQ(IndexExpression("2147483647 + lane").evaluate({.lane = 0}), 2147483647);
  EXPECT_EQ(IndexExpression("-2147483647 - 1 + lane").evaluate({.lane = 0}), -2147483647LL - 1);
  EXPECT_EQ(IndexExpression("1 << lane").evaluate({.lane = 30}), 1 << 30);
}

// --- Errors ------------------------------------------------------------------------------------

void expect_parse_error(const std::string& text) {
  SCOPED_TRACE("\"" + text + "\"");
  try {
    IndexExpression expression(text);
    ADD_FAILURE() << "parsed without an error";
  } catch (const IndexExpressionError& e) {
    EXPECT_NE(std::string(e.what()), "");
  }
}

void expect_evaluation_error(const std::string& text, const ThreadCoordinates& thread,
                             const std::string& message_part) {
  SCOPED_TRACE("\"" + text + "\"");
  IndexExpression expression(text);  // well-formed: parsing must succeed
  try {
    const std::int64_t value = expression.evaluate(thread);
    ADD_FAILURE() << "evaluated to " << value << " without an error";
  } catch (const IndexExpressionError& e) {
    const std::string what = e.what();
    EXPECT_NE(what, "");
    EXPECT_NE(what.find(message_part), std::string::npos) << what;
  }
}

TEST(IndexExpressionErrorTest, RejectsEmptyText) {
  expect_parse_error("");
  expect_parse_error("   ");
  expect_parse_error("\t");
}

TEST(IndexExpressionErrorTest, RejectsMalformedText) {
  expect_parse_error("lane +");
  expect_parse_error("(lane");
  expect_parse_error("lane)");
  expect_parse_error("()");
  expect_parse_error("lane 2");
  expect_parse_error("* lane");
  expect_parse_error("lane < 1");
  expect_parse_error("lane && 1");
  expect_parse_error("~lane");
  // muParser's extensions are not part of the grammar.
  expect_parse_error("lane ? 1 : 2");
  expect_parse_error("1, 2");
  expect_parse_error("#101");
  expect_parse_error("\"a\"");
  expect_parse_error("lane$");
  expect_parse_error("lane;1");
  expect_parse_error(std::string("lane\0+1", 7));
  expect_parse_error("lane + \xc3\xa9");
  expect_parse_error("lane\x01");  // muParser read control characters as spaces
}

TEST(IndexExpressionErrorTest, NamesACharacterOutsideTheGrammar) {
  try {
    IndexExpression expression("lane ? 1 : 2");
    ADD_FAILURE() << "parsed without an error";
  } catch (const IndexExpressionError& e) {
    EXPECT_NE(std::string(e.what()).find("'?' at position 5 is not part of the grammar"),
              std::string::npos)
        << e.what();
  }
}

TEST(IndexExpressionErrorTest, RejectsUnknownNames) {
  expect_parse_error("foo");
  expect_parse_error("lane2");
  expect_parse_error("bz");  // no such name (bx, by are blockIdx; bdx, bdy the block dims)
  expect_parse_error("threadIdx");
  expect_parse_error("lane + tz");
  expect_parse_error("sin(lane)");
  expect_parse_error("_pi");
}

TEST(IndexExpressionErrorTest, ParseErrorNamesTheExpression) {
  try {
    IndexExpression expression("lane + foo");
    ADD_FAILURE() << "parsed without an error";
  } catch (const IndexExpressionError& e) {
    EXPECT_NE(std::string(e.what()).find("lane + foo"), std::string::npos) << e.what();
  }
}

TEST(IndexExpressionErrorTest, DivisionByZeroAtEvaluation) {
  expect_evaluation_error("lane / (tx - 3)", {.lane = 3, .tx = 3}, "division by zero");
  expect_evaluation_error("lane % (tx - 3)", {.lane = 3, .tx = 3}, "by zero");
  expect_evaluation_error("lane / 0", {.lane = 1}, "division by zero");
  expect_evaluation_error("1 / 0", {}, "division by zero");
  // The same expression is fine where the divisor is not zero.
  EXPECT_EQ(IndexExpression("lane / (tx - 3)").evaluate({.lane = 8, .tx = 5}), 4);
}

TEST(IndexExpressionErrorTest, ShiftCountOutOfRange) {
  expect_evaluation_error("lane << tx", {.lane = 1, .tx = 32}, "shift count");
  expect_evaluation_error("lane >> tx", {.lane = 1, .tx = 40}, "shift count");
  expect_evaluation_error("lane >> (5 - tx)", {.lane = 1, .tx = 6}, "shift count");
  expect_evaluation_error("lane << (5 - tx)", {.lane = 1, .tx = 6}, "shift count");
  // A constant count out of range is an error too, whether reported at parse or evaluation.
  for (const char* text : {"lane << 32", "lane >> 32", "lane << -1"}) {
    SCOPED_TRACE(text);
    EXPECT_THROW(
        {
          IndexExpression expression(text);
          static_cast<void>(expression.evaluate({.lane = 1}));
        },
        IndexExpressionError);
  }
}

TEST(IndexExpressionErrorTest, OverflowBeyond32Bits) {
  expect_evaluation_error("lane * 65536 * 65536", {.lane = 1}, "overflow");
  expect_evaluation_error("2147483647 + lane", {.lane = 1}, "overflow");
  expect_evaluation_error("-2147483647 - 1 - lane", {.lane = 1}, "overflow");
  expect_evaluation_error("1 << lane", {.lane = 31}, "overflow");
  expect_evaluation_error("lane << 30", {.lane = 2}, "overflow");
  expect_evaluation_error("-(-2147483647 - lane)", {.lane = 1}, "overflow");
  expect_evaluation_error("(-2147483647 - 1) / (1 - tx)", {.tx = 2}, "overflow");
  // Intermediate results count, not only the final one.
  expect_evaluation_error("lane * 65536 * 65536 / 65536", {.lane = 1}, "overflow");
  // A constant expression that overflows is an error too, wherever it is reported.
  EXPECT_THROW(
      {
        IndexExpression expression("65536 * 65536");
        static_cast<void>(expression.evaluate({}));
      },
      IndexExpressionError);
  EXPECT_THROW(IndexExpression("2147483648"), IndexExpressionError);
}

// --- Limits (index_expression.h) ---------------------------------------------------------------

// The error for text past a limit names the limit and quotes only the start of the text.
void expect_limit_error(const std::string& text, const std::string& message_part) {
  try {
    IndexExpression expression(text);
    ADD_FAILURE() << "parsed " << text.size() << " characters without an error";
  } catch (const IndexExpressionError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(message_part), std::string::npos) << what;
    EXPECT_LT(what.size(), kQuotedExpressionLength + 200) << what;
  }
}

std::string nested(int depth, const std::string& inner) {
  return std::string(static_cast<std::size_t>(depth), '(') + inner +
         std::string(static_cast<std::size_t>(depth), ')');
}

TEST(IndexExpressionLimitTest, HundredThousandTokensAreRefusedByLength) {
  std::string text = "lane";
  for (int i = 1; i < 50000; ++i) text += "+1";  // 100 001 tokens
  expect_limit_error(text, "longer than 4096 characters");
}

TEST(IndexExpressionLimitTest, TenThousandNestedParenthesesAreRefused) {
  expect_limit_error(nested(10000, "lane"), "longer than 4096 characters");
  // Within the length limit, the depth limit speaks.
  expect_limit_error(nested(kMaxIndexExpressionDepth + 1, "lane"),
                     "nests parentheses more than 256 deep (at position 256)");
  expect_limit_error("lane + " + nested(1000, "1"), "nests parentheses more than 256 deep");
}

TEST(IndexExpressionLimitTest, OneMegabyteIsRefused) {
  expect_limit_error(std::string(1 << 20, '1'), "longer than 4096 characters");
  expect_limit_error("lane" + std::string(1 << 20, ' '), "(1048580 characters)");
  expect_limit_error(std::string(1 << 20, '('), "longer than 4096 characters");
  // analyze's path: the pattern refuses it with the same one-line message.
  AccessPattern pattern;
  pattern.index = std::string(1 << 20, '(');
  EXPECT_THROW(pattern.validate(), PatternError);
}

TEST(IndexExpressionLimitTest, TextAtTheLimitsParses) {
  IndexExpression deep(nested(kMaxIndexExpressionDepth, "lane"));
  EXPECT_EQ(deep.evaluate({.lane = 7}), 7);
  // Parentheses side by side do not add up: only nesting counts.
  std::string siblings = "(lane)";
  for (int i = 0; i < 300; ++i) siblings += "+(0)";
  EXPECT_EQ(IndexExpression(siblings).evaluate({.lane = 3}), 3);
  std::string longest = "lane";
  longest.resize(kMaxIndexExpressionLength, ' ');
  EXPECT_EQ(IndexExpression(longest).evaluate({.lane = 5}), 5);
  expect_limit_error(longest + " ", "longer than 4096 characters");
}

TEST(IndexExpressionLimitTest, EvaluationErrorsQuoteOnlyTheStart) {
  std::string text = "lane / (tx - 3)";
  text.resize(kMaxIndexExpressionLength, ' ');
  IndexExpression expression(text);
  try {
    static_cast<void>(expression.evaluate({.lane = 3, .tx = 3}));
    ADD_FAILURE() << "evaluated without an error";
  } catch (const IndexExpressionError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("division by zero"), std::string::npos) << what;
    EXPECT_NE(what.find("(4096 characters)"), std::string::npos) << what;
    EXPECT_LT(what.size(), kQuotedExpressionLength + 200) << what;
  }
}

// Model bug (reported, not fixed here): the constructor evaluates once at the default coordinates
// (bdx = bdy = 1, the rest 0) and reports overflow or shift-count errors found there as parse
// errors, although the text is well formed and fine for the coordinates it will be used with
// (here a 32x1 block). A division by zero at the default coordinates is correctly let through.
// Enable once IndexExpression only reports what muParser found while reading the text.
TEST(IndexExpressionErrorTest, OverflowAtDefaultCoordinatesIsNotAParseError) {
  IndexExpression shifted("1 << (32 - bdx)");
  EXPECT_EQ(shifted.evaluate({.lane = 0, .bdx = 32}), 1);
  IndexExpression negative_count("lane >> (bdx - 32)");
  EXPECT_EQ(negative_count.evaluate({.lane = 5, .bdx = 32}), 5);
}

}  // namespace
}  // namespace warplens::model
