// Index expressions: C integer arithmetic over a thread's coordinates, giving an element index.
//
// Grammar (design.md, "analyze contract"): integer literals (decimal, or hexadecimal with C's
// `0x`; a leading zero, C's octal, is refused), the variables `lane` (0-31),
// `tx`, `ty` (thread index in the block, x fastest), `bdx`, `bdy` (block dims), `warp`
// (warp index in the block), `bx`, `by` (the block's index in the grid: blockIdx) and `gdx`,
// `gdy` (grid dims: gridDim; analyze's defaults are block 0 of a 1x1 grid), the caller's
// named constants (NamedConstant: "n = 8192"), parentheses, unary `-`/`+`, and the binary
// operators
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
#include <vector>

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
  /// `position`: the 0-based character of the text where the problem is, -1 when unknown.
  explicit IndexExpressionError(const std::string& what, int position = -1)
      : std::runtime_error(what), position_(position) {}
  [[nodiscard]] int position() const { return position_; }

 private:
  int position_;
};

/// The thread coordinates an index expression may read.
struct ThreadCoordinates {
  std::int64_t lane = 0;
  std::int64_t tx = 0;
  std::int64_t ty = 0;
  std::int64_t bdx = 1;
  std::int64_t bdy = 1;
  std::int64_t warp = 0;
  std::int64_t bx = 0;   ///< blockIdx.x
  std::int64_t by = 0;   ///< blockIdx.y
  std::int64_t gdx = 1;  ///< gridDim.x
  std::int64_t gdy = 1;  ///< gridDim.y
};

/// The names the grammar gives a thread's coordinates, in ThreadCoordinates' order; a named
/// constant may not take one of them.
inline constexpr const char* kCoordinateNames[] = {"lane", "tx", "ty", "bdx", "bdy",
                                                   "warp", "bx", "by", "gdx", "gdy"};

/// A named integer constant an expression may read (e.g. {"n", 8192}).
struct NamedConstant {
  std::string name;        ///< [a-z][a-z0-9_]*, at most kMaxConstantNameLength characters
  std::int64_t value = 0;  ///< within [-2^31, 2^31)
  friend bool operator==(const NamedConstant&, const NamedConstant&) = default;
};
inline constexpr std::size_t kMaxConstantNameLength = 16;

/// Throws IndexExpressionError unless `constant` has a valid name (lowercase letter first, then
/// lowercase letters, digits or '_'; not a coordinate's name, not a C++ keyword, not starting
/// with "wl_" or "__", which generated code keeps for itself) and a 32-bit value.
void check_constant(const NamedConstant& constant);

/// A parsed expression, ready to evaluate many times. Not thread-safe: one instance per thread.
class IndexExpression {
 public:
  /// Parses `text`; throws IndexExpressionError if it is empty or malformed, or if a constant
  /// is invalid (check_constant) or named twice.
  explicit IndexExpression(const std::string& text,
                           const std::vector<NamedConstant>& constants = {});
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
