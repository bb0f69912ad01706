// Index expressions: C integer arithmetic over a thread's coordinates, giving an element index.
//
// Grammar (design.md, "analyze contract"): integer literals (decimal, or hexadecimal with C's
// `0x`; a leading zero, C's octal, is refused), the variables `lane` (0-31),
// `tx`, `ty` (thread index in the block, x fastest), `bdx`, `bdy` (block dims) and `warp`
// (warp index in the block), parentheses, unary `-`/`+`, and the binary operators
//   * / %   + -   << >>   &   ^   |        (C precedence, highest first; all left-associative)
// `/` and `%` truncate toward zero and `^` is XOR, exactly as in C. Every intermediate and the
// result must stay within [-2^31, 2^31); division by zero is an error. Any other character is
// refused, so muParser's own extensions (`?:`, `,`, `#` binary literals, strings) are not
// part of the grammar.
//
// Limits: at most kMaxIndexExpressionLength characters (bytes) and parentheses nested at most
// kMaxIndexExpressionDepth deep; longer or deeper text is refused with an IndexExpressionError
// that names the limit, before anything parses it. Error messages quote at most the first
// kQuotedExpressionLength characters of the text ("..." marks the cut).
//
// Parsing and evaluation use muParser's ParserInt with its operators replaced by C's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

namespace warplens::model {

/// The longest index expression accepted, in characters (bytes, whitespace included).
inline constexpr std::size_t kMaxIndexExpressionLength = 4096;
/// The deepest nesting of parentheses accepted: "((lane))" nests 2 deep.
inline constexpr int kMaxIndexExpressionDepth = 256;
/// How much of an expression an error message quotes.
inline constexpr std::size_t kQuotedExpressionLength = 80;

/// Thrown for an expression that does not parse or cannot be evaluated (division by zero,
/// overflow, unknown variable). what() names the problem and, where known, the position.
class IndexExpressionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The thread coordinates an index expression may read.
struct ThreadCoordinates {
  std::int64_t lane = 0;
  std::int64_t tx = 0;
  std::int64_t ty = 0;
  std::int64_t bdx = 1;
  std::int64_t bdy = 1;
  std::int64_t warp = 0;
};

/// A parsed expression, ready to evaluate many times. Not thread-safe: one instance per thread.
class IndexExpression {
 public:
  /// Parses `text`; throws IndexExpressionError if it is empty or malformed.
  explicit IndexExpression(const std::string& text);
  ~IndexExpression();
  IndexExpression(const IndexExpression&) = delete;
  IndexExpression& operator=(const IndexExpression&) = delete;
  IndexExpression(IndexExpression&&) noexcept;
  IndexExpression& operator=(IndexExpression&&) noexcept;

  /// Evaluates for one thread; throws IndexExpressionError on overflow or division by zero.
  [[nodiscard]] std::int64_t evaluate(const ThreadCoordinates& thread);

  [[nodiscard]] const std::string& text() const { return text_; }

 private:
  struct Impl;
  std::string text_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace warplens::model
