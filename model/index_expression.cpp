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
                                     describe_character(text[i]) + " at position " +
                                     std::to_string(i) + " is not part of the grammar",
                                 static_cast<int>(i));
    }
    if (text[i] == ')') --depth;
    if (text[i] != '(' || ++depth <= kMaxIndexExpressionDepth) continue;
    throw IndexExpressionError(
        "index expression " + quoted(text) + " nests parentheses more than " +
        std::to_string(kMaxIndexExpressionDepth) + " deep (at position " + std::to_string(i) + ")");
  }
}

// C++'s keywords (and CUDA's spellings a constant could clash with in generated source).
constexpr std::string_view kKeywords[] = {
    "alignas",  "alignof",  "and",       "and_eq",    "asm",       "auto",      "bitand",
    "bitor",    "bool",     "break",     "case",      "catch",     "char",      "class",
    "compl",    "concept",  "const",     "consteval", "constexpr", "constinit", "continue",
    "decltype", "default",  "delete",    "do",        "double",    "else",      "enum",
    "explicit", "export",   "extern",    "false",     "float",     "for",       "friend",
    "goto",     "if",       "inline",    "int",       "long",      "mutable",   "namespace",
    "new",      "noexcept", "not",       "not_eq",    "nullptr",   "operator",  "or",
    "or_eq",    "private",  "protected", "public",    "register",  "requires",  "return",
    "short",    "signed",   "sizeof",    "static",    "struct",    "switch",    "template",
    "this",     "throw",    "true",      "try",       "typedef",   "typeid",    "typename",
    "union",    "unsigned", "using",     "virtual",   "void",      "volatile",  "while",
    "xor",      "xor_eq",   "in",        "out",       "tile",      "dim3",      "uint4"};

}  // namespace

void check_constant(const NamedConstant& c) {
  const std::string& n = c.name;
  const auto refuse = [&](const std::string& why) {
    throw IndexExpressionError("constant \"" + n.substr(0, kMaxConstantNameLength + 8) + "\" " +
                               why);
  };
  if (n.empty()) throw IndexExpressionError("a constant needs a name");
  if (n.size() > kMaxConstantNameLength)
    refuse("is longer than " + std::to_string(kMaxConstantNameLength) + " characters");
  if (!(n[0] >= 'a' && n[0] <= 'z')) refuse("must start with a lowercase letter");
  for (char ch : n)
    if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_'))
      refuse("may hold only lowercase letters, digits and '_'");
  for (const char* v : kCoordinateNames)
    if (n == v) refuse("takes the name of a thread coordinate");
  for (std::string_view k : kKeywords)
    if (n == k) refuse("is a C++ keyword or a name the generated kernel uses");
  if (n.starts_with("wl_")) refuse("may not start with \"wl_\" (kept for generated code)");
  if (c.value < static_cast<std::int64_t>(kMin) || c.value > static_cast<std::int64_t>(kMax))
    refuse("= " + std::to_string(c.value) + " is outside the 32-bit range");
}

namespace {
constexpr std::size_t kCoordinates = std::size(kCoordinateNames);
}  // namespace

struct IndexExpression::Impl {
  CIntegerParser parser;
  // lane, tx, ty, bdx, bdy, warp, bx, by, gdx, gdy (kCoordinateNames' order)
  double values[kCoordinates] = {0, 0, 0, 1, 1, 0, 0, 0, 1, 1};
};

IndexExpression::IndexExpression(const std::string& text,
                                 const std::vector<NamedConstant>& constants)
    : text_(text), impl_(new Impl) {
  for (std::size_t i = 0; i < constants.size(); ++i) {
    check_constant(constants[i]);
    for (std::size_t j = 0; j < i; ++j)
      if (constants[j].name == constants[i].name)
        throw IndexExpressionError("constant \"" + constants[i].name + "\" is named twice");
  }
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
    for (std::size_t i = 0; i < kCoordinates; ++i)
      p.DefineVar(kCoordinateNames[i], &impl_->values[i]);
    for (const auto& c : constants) p.DefineConst(c.name, static_cast<double>(c.value));
    p.SetExpr(text);
    p.Eval();  // muParser parses lazily: force it so syntax errors surface here
  } catch (const mu::ParserError& e) {
    // A division by zero at the default coordinates is not a syntax error; only report
    // problems muParser found while reading the text.
    if (e.GetCode() != mu::ecGENERIC) {
      throw IndexExpressionError(
          "cannot parse index expression " + quoted(text) + ": " + e.GetMsg(),
          e.GetPos() >= 0 && static_cast<std::size_t>(e.GetPos()) <= text.size()
              ? static_cast<int>(e.GetPos())
              : -1);
    }
  }
}

IndexExpression::~IndexExpression() = default;
IndexExpression::IndexExpression(IndexExpression&&) noexcept = default;
IndexExpression& IndexExpression::operator=(IndexExpression&&) noexcept = default;

std::int64_t IndexExpression::evaluate(const ThreadCoordinates& t) {
  const std::int64_t v[kCoordinates] = {t.lane, t.tx, t.ty, t.bdx, t.bdy,
                                        t.warp, t.bx, t.by, t.gdx, t.gdy};
  for (std::size_t i = 0; i < kCoordinates; ++i) impl_->values[i] = static_cast<double>(v[i]);
  try {
    return as_int(impl_->parser.Eval());
  } catch (const mu::ParserError& e) {
    throw IndexExpressionError("cannot evaluate " + quoted(text_) + " for lane " +
                               std::to_string(t.lane) + ": " + e.GetMsg());
  }
}

}  // namespace warplens::model
