#include "cute_layout.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <limits>

namespace warplens::model {

namespace {

constexpr std::int64_t kIntMin = std::numeric_limits<std::int32_t>::min();
constexpr std::int64_t kIntMax = std::numeric_limits<std::int32_t>::max();

std::string with_column(const std::string& problem, int column, std::string_view name) {
  return std::string(name) +
         (column > 0 ? " column " + std::to_string(column) + ": " + problem : ": " + problem);
}

// --- the parser --------------------------------------------------------------------------------

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  CuteLayout layout() {
    CuteLayout l;
    skip_space();
    if (starts_word("Swizzle") || starts_word("Sw")) {
      l.swizzle = swizzle();
      expect_compose();
      // "Sw o O o L": an integer followed by "o" is the offset; otherwise it starts the shape.
      const std::size_t mark = pos_;
      if (at_int_start()) {
        const IntTuple o = integer();
        skip_space();
        if (peek() == 'o') {
          ++pos_;
          l.offset = o.value;
          l.offset_static = o.is_static;
        } else {
          pos_ = mark;
        }
      }
    }
    skip_space();
    if (at_end()) fail("a shape is missing", column());
    l.shape = int_tuple(0);
    skip_space();
    if (peek() == ':') {
      ++pos_;
      skip_space();
      if (at_end()) fail("a stride is missing after \":\"", column());
      l.stride = int_tuple(0);
    } else {
      l.stride = default_stride(l.shape);
    }
    skip_space();
    if (!at_end()) {
      if (peek() == ')') fail("unbalanced tuple: this \")\" closes no \"(\"", column());
      fail(std::string("unexpected \"") + peek() + "\" after the layout", column());
    }
    return l;
  }

 private:
  [[noreturn]] static void fail(const std::string& problem, int column) {
    throw LayoutError(problem, column);
  }
  [[nodiscard]] bool at_end() const { return pos_ >= text_.size(); }
  [[nodiscard]] char peek() const { return at_end() ? '\0' : text_[pos_]; }
  [[nodiscard]] int column() const { return static_cast<int>(pos_) + 1; }
  void skip_space() {
    while (!at_end() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  // `word` at pos_, not followed by another letter ("Sw" is not the start of "Swizzle").
  [[nodiscard]] bool starts_word(std::string_view word) const {
    if (text_.substr(pos_, word.size()) != word) return false;
    const std::size_t after = pos_ + word.size();
    return after >= text_.size() || !std::isalpha(static_cast<unsigned char>(text_[after]));
  }
  [[nodiscard]] bool at_int_start() const {
    const char c = peek();
    return c == '_' || c == '-' || std::isdigit(static_cast<unsigned char>(c));
  }
  void expect(char c, const std::string& what) {
    skip_space();
    if (peek() != c) {
      fail("expected \"" + std::string(1, c) + "\" " + what +
               (at_end() ? std::string(", found the end")
                         : ", found \"" + std::string(1, peek()) + "\""),
           column());
    }
    ++pos_;
  }
  void expect_compose() {
    skip_space();
    if (peek() != 'o')
      fail("expected \"o\" (composition) after the swizzle, e.g. Swizzle<3,4,3> o (8,64):(64,1)",
           column());
    ++pos_;
    skip_space();
  }

  IntTuple integer() {
    skip_space();
    const int start = column();
    IntTuple t;
    t.column = start;
    if (peek() == '_') {
      t.is_static = true;
      ++pos_;
    }
    bool negative = false;
    if (peek() == '-') {
      negative = true;
      ++pos_;
    }
    if (!std::isdigit(static_cast<unsigned char>(peek()))) {
      if (at_end()) fail("expected an integer, found the end", column());
      fail(std::string("expected an integer, found \"") + peek() + "\"", column());
    }
    std::int64_t v = 0;
    while (std::isdigit(static_cast<unsigned char>(peek()))) {
      v = v * 10 + (text_[pos_] - '0');
      ++pos_;
      if (v > kIntMax + 1) fail("integer out of range (limit: within -2^31 .. 2^31 - 1)", start);
    }
    if (negative) v = -v;
    if (v < kIntMin || v > kIntMax)
      fail("integer out of range (limit: within -2^31 .. 2^31 - 1)", start);
    t.value = v;
    return t;
  }

  IntTuple int_tuple(int depth) {
    skip_space();
    if (peek() != '(') {
      if (peek() == ')') fail("unbalanced tuple: this \")\" closes no \"(\"", column());
      return integer();
    }
    const int open = column();
    if (depth >= kMaxLayoutDepth)
      fail("tuples nested deeper than " + std::to_string(kMaxLayoutDepth), open);
    ++pos_;
    IntTuple t;
    t.is_tuple = true;
    t.column = open;
    skip_space();
    if (peek() == ')') fail("empty tuple: a tuple needs at least one mode", open);
    for (;;) {
      skip_space();
      if (at_end() || peek() == ':') fail("unbalanced tuple: the \"(\" here is never closed", open);
      t.modes.push_back(int_tuple(depth + 1));
      skip_space();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == ')') {
        ++pos_;
        return t;
      }
      if (at_end() || peek() == ':') fail("unbalanced tuple: the \"(\" here is never closed", open);
      fail(std::string("expected \",\" or \")\" in the tuple, found \"") + peek() + "\"", column());
    }
  }

  Swizzle swizzle() {
    pos_ += starts_word("Swizzle") ? 7 : 2;
    expect('<', "after Swizzle");
    const IntTuple b = integer();
    expect(',', "between Swizzle's B and M");
    const IntTuple m = integer();
    IntTuple s = b;  // CuTe's default: SShift = BBits
    skip_space();
    if (peek() == ',') {
      ++pos_;
      s = integer();
    }
    expect('>', "to close Swizzle<B,M,S>");
    skip_space();
    if (peek() == '{') {  // C++'s Swizzle<3,4,3>{}
      ++pos_;
      expect('}', "after \"{\"");
    }
    Swizzle sw{static_cast<int>(b.value), static_cast<int>(m.value), static_cast<int>(s.value)};
    if (b.value < 0) fail("Swizzle's B must be >= 0 (CuTe: \"BBits must be positive.\")", b.column);
    if (m.value < 0) fail("Swizzle's M must be >= 0 (CuTe: \"MBase must be positive.\")", m.column);
    if (std::abs(s.value) < b.value)
      fail("Swizzle<" + std::to_string(b.value) + "," + std::to_string(m.value) + "," +
               std::to_string(s.value) +
               "> overlaps itself: the bits it reads and the bits it writes share a bit; CuTe "
               "requires abs(S) >= B (\"abs(SShift) must be more than BBits.\")",
           s.column);
    const std::int64_t top = m.value + std::abs(s.value) + b.value;
    if (top > 31)
      fail("Swizzle reaches bit " + std::to_string(top - 1) +
               "; offsets are 32-bit ints, so M + |S| + B must be at most 31",
           b.column);
    return sw;
  }

  // compact_major<LayoutLeft>: exclusive prefix product from the left, ignoring the hierarchy; a
  // static 1 gets a static 0 and leaves the running product alone (stride.hpp, detail::compact).
  static IntTuple default_stride(const IntTuple& shape) {
    std::int64_t current = 1;
    bool current_static = true;
    return compact(shape, current, current_static);
  }
  static IntTuple compact(const IntTuple& s, std::int64_t& current, bool& current_static) {
    if (s.is_tuple) {
      IntTuple t;
      t.is_tuple = true;
      for (const auto& m : s.modes) t.modes.push_back(compact(m, current, current_static));
      return t;
    }
    if (s.is_static && s.value == 1) return IntTuple::leaf(0, true);
    IntTuple d = IntTuple::leaf(current, current_static);
    current = std::min(current * s.value, kIntMax + 1);  // past the size limit: refused later
    current_static = current_static && s.is_static;
    return d;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

// --- checks after parsing ----------------------------------------------------------------------

void check_congruent(const IntTuple& shape, const IntTuple& stride) {
  const int at = stride.column > 0 ? stride.column : 0;
  if (shape.is_tuple != stride.is_tuple || shape.rank() != stride.rank()) {
    const auto describe = [](const IntTuple& t) {
      return t.is_tuple ? t.text() + ", a tuple of " + std::to_string(t.rank()) + " mode" +
                              (t.rank() == 1 ? "" : "s")
                        : t.text() + ", an integer";
    };
    throw LayoutError("shape and stride differ in rank: stride " + describe(stride) +
                          ", where the shape has " + describe(shape) +
                          " (CuTe: \"Mismatched Ranks\"; they must be congruent)",
                      at);
  }
  for (std::size_t i = 0; i < shape.modes.size(); ++i)
    check_congruent(shape.modes[i], stride.modes[i]);
}

void check_shape(const IntTuple& shape) {
  if (shape.is_tuple) {
    for (const auto& m : shape.modes) check_shape(m);
  } else if (shape.value < 1) {
    throw LayoutError(
        "a shape's extent must be at least 1 (got " + std::to_string(shape.value) + ")",
        shape.column);
  }
}

// Largest |inner product| over the shape: sum of (extent - 1) * |stride| over the leaves.
std::int64_t reach(const IntTuple& shape, const IntTuple& stride) {
  if (!shape.is_tuple) return (shape.value - 1) * std::abs(stride.value);
  std::int64_t r = 0;
  for (std::size_t i = 0; i < shape.modes.size(); ++i) {
    r += reach(shape.modes[i], stride.modes[i]);
    if (r > kIntMax) return r;
  }
  return r;
}

// crd2idx(c, shape, stride) for an integer c (stride.hpp, detail::crd2idx_itt).
std::int64_t crd2idx(std::int64_t c, const IntTuple& shape, const IntTuple& stride) {
  if (!shape.is_tuple) return c * stride.value;
  std::int64_t index = 0;
  const std::size_t last = shape.modes.size() - 1;
  for (std::size_t i = 0; i < last; ++i) {
    const std::int64_t p = shape.modes[i].product();
    index += crd2idx(c % p, shape.modes[i], stride.modes[i]);
    c /= p;
  }
  return index + crd2idx(c, shape.modes[last], stride.modes[last]);
}

// idx2crd(c, shape): the same split, keeping the coordinate.
IntTuple idx2crd(std::int64_t c, const IntTuple& shape) {
  if (!shape.is_tuple) return IntTuple::leaf(c);
  IntTuple t;
  t.is_tuple = true;
  const std::size_t last = shape.modes.size() - 1;
  for (std::size_t i = 0; i < last; ++i) {
    const std::int64_t p = shape.modes[i].product();
    t.modes.push_back(idx2crd(c % p, shape.modes[i]));
    c /= p;
  }
  t.modes.push_back(idx2crd(c, shape.modes[last]));
  return t;
}

std::string int_text(std::int64_t v, bool is_static) {
  return (is_static ? "_" : "") + std::to_string(v);
}

// The rules parse_layout enforces once the text has parsed (cute_layout.h, "Limits").
CuteLayout checked(CuteLayout l) {
  check_shape(l.shape);
  check_congruent(l.shape, l.stride);
  // The size, mode by mode, so that no product overflows.
  std::int64_t size = 1;
  const auto grow = [&](const auto& self, const IntTuple& s) -> void {
    if (s.is_tuple) {
      for (const auto& m : s.modes) self(self, m);
      return;
    }
    size *= s.value;
    if (size > kIntMax)
      throw LayoutError("the layout maps more than 2^31 - 1 indices (its shape's product)",
                        l.shape.column);
  };
  grow(grow, l.shape);
  if (std::abs(l.offset) + reach(l.shape, l.stride) > kIntMax)
    throw LayoutError("its offsets can reach past 2^31 - 1 (the largest element offset here)",
                      l.stride.column > 0 ? l.stride.column : l.shape.column);
  return l;
}

}  // namespace

LayoutError::LayoutError(const std::string& problem, int column, std::string_view name)
    : PatternError(with_column(problem, column, name)), problem_(problem), column_(column) {}

// --- IntTuple ----------------------------------------------------------------------------------

IntTuple IntTuple::leaf(std::int64_t v, bool is_static) {
  IntTuple t;
  t.value = v;
  t.is_static = is_static;
  return t;
}

IntTuple IntTuple::tuple(std::vector<IntTuple> modes) {
  IntTuple t;
  t.is_tuple = true;
  t.modes = std::move(modes);
  return t;
}

std::int64_t IntTuple::product() const {
  if (!is_tuple) return value;
  std::int64_t p = 1;
  for (const auto& m : modes) p *= m.product();
  return p;
}

std::string IntTuple::text() const {
  if (!is_tuple) return int_text(value, is_static);
  std::string s = "(";
  for (std::size_t i = 0; i < modes.size(); ++i) s += (i ? "," : "") + modes[i].text();
  return s + ")";
}

bool IntTuple::same_values(const IntTuple& other) const {
  if (is_tuple != other.is_tuple) return false;
  if (!is_tuple) return value == other.value;
  if (modes.size() != other.modes.size()) return false;
  for (std::size_t i = 0; i < modes.size(); ++i)
    if (!modes[i].same_values(other.modes[i])) return false;
  return true;
}

// --- Swizzle -----------------------------------------------------------------------------------

std::int64_t Swizzle::yyy_mask() const {
  return ((std::int64_t{1} << bits) - 1) << (base + std::max(0, shift));
}

std::int64_t Swizzle::zzz_mask() const {
  return ((std::int64_t{1} << bits) - 1) << (base - std::min(0, shift));
}

std::int64_t Swizzle::apply(std::int64_t offset) const {
  const std::int64_t y = offset & yyy_mask();
  return offset ^ (shift >= 0 ? y >> shift : y << -shift);  // shiftr (math.hpp)
}

std::string Swizzle::text() const {
  return "Sw<" + std::to_string(bits) + "," + std::to_string(base) + "," + std::to_string(shift) +
         ">";
}

// --- CuteLayout --------------------------------------------------------------------------------

std::int64_t CuteLayout::operator()(std::int64_t index) const {
  if (index < 0 || index >= size())
    throw LayoutError("index " + std::to_string(index) + " is outside " + text() +
                          ", which maps 0.." + std::to_string(size() - 1),
                      0);
  const std::int64_t o = offset + crd2idx(index, shape, stride);
  return swizzle ? swizzle->apply(o) : o;
}

IntTuple CuteLayout::coordinate(std::int64_t index) const {
  if (index < 0 || index >= size())
    throw LayoutError("index " + std::to_string(index) + " is outside " + text() +
                          ", which maps 0.." + std::to_string(size() - 1),
                      0);
  return idx2crd(index, shape);
}

std::string CuteLayout::text() const {
  std::string plain = shape.text() + ":" + stride.text();
  if (!swizzle) return plain;
  return swizzle->text() + " o " + int_text(offset, offset_static) + " o " + plain;
}

CuteLayout parse_layout(std::string_view text, std::string_view name) {
  if (text.size() > kMaxLayoutLength)
    throw LayoutError("longer than " + std::to_string(kMaxLayoutLength) + " characters", 0, name);
  try {
    return checked(Parser(text).layout());
  } catch (const LayoutError& e) {
    if (name == "layout") throw;
    throw LayoutError(e.problem(), e.column(), name);  // the caller's name for the text
  }
}

}  // namespace warplens::model
