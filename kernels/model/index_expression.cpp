#include "index_expression.h"

#include <muParserInt.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string_view>

namespace warplens::model {
namespace {

constexpr double kMin = -2147483648.0;  // -2^31
constexpr double kMax = 2147483647.0;   //  2^31 - 1

// Evaluation errors carry muParser's ecGENERIC code (the const char* constructor), which the
// constructor's trial evaluation uses to tell them from syntax errors.
[[noreturn]] void fail(const std::string& message) {
  throw mu::ParserError(message.c_str());
}

// muParser hands every operand over as a double; our values are exact integers well inside
// double's 53-bit mantissa, so converting back is lossless.
std::int64_t as_int(double v) {
  if (!(v >= kMin && v <= kMax)) {
    fail("value " + std::to_string(v) + " is outside the 32-bit range");
  }
  return static_cast<std::int64_t>(v);
}

double checked(std::int64_t v) {
  if (v < static_cast<std::int64_t>(kMin) || v > static_cast<std::int64_t>(kMax)) {
    fail("intermediate result " + std::to_string(v) + " overflows the 32-bit range");
  }
  return static_cast<double>(v);
}

double add(double a, double b) {
  return checked(as_int(a) + as_int(b));
}
double sub(double a, double b) {
  return checked(as_int(a) - as_int(b));
}
double mul(double a, double b) {
  return checked(as_int(a) * as_int(b));
}
double div_trunc(double a, double b) {
  if (as_int(b) == 0) fail("division by zero");
  return checked(as_int(a) / as_int(b));  // C++ (like C) truncates toward zero
}
double mod_trunc(double a, double b) {
  if (as_int(b) == 0) fail("remainder by zero");
  return checked(as_int(a) % as_int(b));  // sign follows the dividend, as in C
}
double shift_left(double a, double b) {
  const auto s = as_int(b);
  if (s < 0 || s > 31) fail("shift count " + std::to_string(s) + " not in 0..31");
  return checked(as_int(a) * (std::int64_t{1} << s));
}
double shift_right(double a, double b) {
  const auto s = as_int(b);
  if (s < 0 || s > 31) fail("shift count " + std::to_string(s) + " not in 0..31");
  return checked(as_int(a) >> s);  // arithmetic shift, as gcc/clang/nvcc do for signed int
}
double bit_and(double a, double b) {
  return checked(as_int(a) & as_int(b));
}
double bit_xor(double a, double b) {
  return checked(as_int(a) ^ as_int(b));
}
double bit_or(double a, double b) {
  return checked(as_int(a) | as_int(b));
}
double negate(double a) {
  return checked(-as_int(a));
}
double identity(double a) {
  return checked(as_int(a));
}

// C precedence, larger binds tighter.
enum Precedence : unsigned { kOr = 1, kXor, kAnd, kShift, kAddSub, kMulDiv, kUnary };

/// ParserInt with C's integer operators instead of its defaults (where `^` is a power).
class CIntegerParser : public mu::ParserInt {
 public:
  CIntegerParser() {
    ClearOprt();
    ClearInfixOprt();
    ClearPostfixOprt();
    ClearFun();
    ClearConst();
    DefineOprt("+", add, kAddSub);
    DefineOprt("-", sub, kAddSub);
    DefineOprt("*", mul, kMulDiv);
    DefineOprt("/", div_trunc, kMulDiv);
    DefineOprt("%", mod_trunc, kMulDiv);
    DefineOprt("<<", shift_left, kShift);
    DefineOprt(">>", shift_right, kShift);
    DefineOprt("&", bit_and, kAnd);
    DefineOprt("^", bit_xor, kXor);
    DefineOprt("|", bit_or, kOr);
    DefineInfixOprt("-", negate, kUnary);
    DefineInfixOprt("+", identity, kUnary);
  }
};

// The text as error messages quote it: at most kQuotedExpressionLength characters.
std::string quoted(const std::string& text) {
  if (text.size() <= kQuotedExpressionLength) return "\"" + text + "\"";
  return "\"" + text.substr(0, kQuotedExpressionLength) + "...\" (" + std::to_string(text.size()) +
         " characters)";
}

// The characters of the grammar: names, numbers, whitespace, C's operators and parentheses.
bool in_grammar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
         std::string_view(" \t\n\r\v\f+-*/%<>&^|()").find(c) != std::string_view::npos;
}

std::string describe_character(char c) {
  if (std::isprint(static_cast<unsigned char>(c))) return std::string("'") + c + "'";
  char hex[8];
  std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned>(static_cast<unsigned char>(c)));
  return std::string("byte ") + hex;
}

// Refuses text past the documented limits, or with a character outside the grammar, before
// muParser sees it.
void check_text(const std::string& text) {
  if (text.size() > kMaxIndexExpressionLength) {
    throw IndexExpressionError("index expression " + quoted(text) + " is longer than " +
                               std::to_string(kMaxIndexExpressionLength) + " characters");
  }
  int depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (!in_grammar(text[i])) {
      throw IndexExpressionError("cannot parse index expression " + quoted(text) + ": " +
                                 describe_character(text[i]) + " at position " + std::to_string(i) +
                                 " is not part of the grammar");
    }
    if (text[i] == ')') --depth;
    if (text[i] != '(' || ++depth <= kMaxIndexExpressionDepth) continue;
    throw IndexExpressionError(
        "index expression " + quoted(text) + " nests parentheses more than " +
        std::to_string(kMaxIndexExpressionDepth) + " deep (at position " + std::to_string(i) + ")");
  }
}

}  // namespace

struct IndexExpression::Impl {
  CIntegerParser parser;
  double lane = 0, tx = 0, ty = 0, bdx = 1, bdy = 1, warp = 0;
};

IndexExpression::IndexExpression(const std::string& text) : text_(text), impl_(new Impl) {
  if (text.find_first_not_of(" \t") == std::string::npos) {
    throw IndexExpressionError("index expression is empty");
  }
  check_text(text);
  // C reads 010 as octal 8; rather than silently giving 10, refuse leading zeros.
  for (std::size_t i = 0; i + 1 < text.size(); ++i) {
    const bool starts_number =
        i == 0 || !(std::isalnum(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '_');
    if (starts_number && text[i] == '0' && std::isdigit(static_cast<unsigned char>(text[i + 1]))) {
      throw IndexExpressionError("cannot parse index expression " + quoted(text) +
                                 ": numbers with a leading zero (C octal) are not supported");
    }
  }
  auto& p = impl_->parser;
  try {
    p.DefineVar("lane", &impl_->lane);
    p.DefineVar("tx", &impl_->tx);
    p.DefineVar("ty", &impl_->ty);
    p.DefineVar("bdx", &impl_->bdx);
    p.DefineVar("bdy", &impl_->bdy);
    p.DefineVar("warp", &impl_->warp);
    p.SetExpr(text);
    p.Eval();  // muParser parses lazily: force it so syntax errors surface here
  } catch (const mu::ParserError& e) {
    // A division by zero at the default coordinates is not a syntax error; only report
    // problems muParser found while reading the text.
    if (e.GetCode() != mu::ecGENERIC) {
      throw IndexExpressionError("cannot parse index expression " + quoted(text) + ": " +
                                 e.GetMsg());
    }
  }
}

IndexExpression::~IndexExpression() = default;
IndexExpression::IndexExpression(IndexExpression&&) noexcept = default;
IndexExpression& IndexExpression::operator=(IndexExpression&&) noexcept = default;

std::int64_t IndexExpression::evaluate(const ThreadCoordinates& t) {
  impl_->lane = static_cast<double>(t.lane);
  impl_->tx = static_cast<double>(t.tx);
  impl_->ty = static_cast<double>(t.ty);
  impl_->bdx = static_cast<double>(t.bdx);
  impl_->bdy = static_cast<double>(t.bdy);
  impl_->warp = static_cast<double>(t.warp);
  try {
    return as_int(impl_->parser.Eval());
  } catch (const mu::ParserError& e) {
    throw IndexExpressionError("cannot evaluate " + quoted(text_) + " for lane " +
                               std::to_string(t.lane) + ": " + e.GetMsg());
  }
}

}  // namespace warplens::model
