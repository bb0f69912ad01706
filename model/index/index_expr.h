// An index function as a value (after CuTe's layouts): a small expression over the global thread
// index g and the pattern's parameters, written once, that
//   - evaluates on the device and on the host (`evaluate`, __host__ __device__; the kernel and
//     the host model run the very same arithmetic),
//   - prints itself in the analyze grammar (`to_expression_text(..., ExpressionStyle::Analyze)`:
//     the model's muParser expression, g spelled "(32*warp + lane)"),
//   - prints itself for people (`ExpressionStyle::Display`: "1 + 2×i" under the warp view).
// So the kernel, the model and the text on screen cannot drift apart. C++17 (nvcc).
//
// Units: every value is an *element* index (words of the copy's word size), 64-bit signed.
// Operators are C's, with C's precedence when printed; `/` and `%` are only used on
// non-negative values, where C and the analyze grammar agree.
#pragma once

#include <cstdint>
#include <type_traits>

#if !defined(__CUDA_ARCH__)
#include <string>
#endif

#if defined(__CUDACC__)
#define WARPLENS_HOST_DEVICE __host__ __device__
#else
#define WARPLENS_HOST_DEVICE
#endif

namespace warplens::index_expr {

/// The values an index function reads: the global thread index and the pattern's parameters,
/// in the integer type the arithmetic runs in (`Int`: 64-bit everywhere but the copy kernel's
/// 32-bit strided fast launch, whose plan is checked to fit).
template <typename Int>
struct BasicEnv {
  Int g = 0;               ///< global thread index (blockIdx.x * blockDim.x + threadIdx.x)
  Int offset = 0;          ///< elements
  Int stride = 1;          ///< elements
  std::uint32_t seed = 1;  ///< of the permuted and scattered patterns
};
using Env = BasicEnv<std::int64_t>;

// --- leaves ------------------------------------------------------------------------------------
struct ThreadIndex {};  ///< g
struct Offset {};
struct Stride {};
struct Seed {};
struct Literal {
  std::int64_t value;
};

// --- operators ---------------------------------------------------------------------------------
enum class Op { Add, Sub, Mul, Div, Mod, And, Xor, ShiftRight };

template <typename L, Op kOp, typename R>
struct Binary {
  L left;
  R right;
};

/// A subexpression with a name: evaluated and printed for the model in full, shown to people as
/// "name(i)" (a hash that would fill a line, say).
template <typename X>
struct Named {
  const char* name;
  X body;
};
template <typename X>
WARPLENS_HOST_DEVICE constexpr Named<X> named(const char* name, X body) {
  return Named<X>{name, body};
}

template <typename T>
struct is_expr : std::false_type {};
template <>
struct is_expr<ThreadIndex> : std::true_type {};
template <>
struct is_expr<Offset> : std::true_type {};
template <>
struct is_expr<Stride> : std::true_type {};
template <>
struct is_expr<Seed> : std::true_type {};
template <>
struct is_expr<Literal> : std::true_type {};
template <typename L, Op kOp, typename R>
struct is_expr<Binary<L, kOp, R>> : std::true_type {};
template <typename X>
struct is_expr<Named<X>> : std::true_type {};

/// Integers in an expression become Literals.
template <typename T>
WARPLENS_HOST_DEVICE constexpr auto as_expr(T x) {
  if constexpr (is_expr<T>::value) {
    return x;
  } else {
    static_assert(std::is_integral_v<T>, "index expressions hold integers");
    return Literal{static_cast<std::int64_t>(x)};
  }
}

template <typename A, typename B>
constexpr bool either_expr = is_expr<A>::value || is_expr<B>::value;

#define WARPLENS_INDEX_OPERATOR(symbol, op)                                                \
  template <typename A, typename B, std::enable_if_t<either_expr<A, B>, int> = 0>          \
  WARPLENS_HOST_DEVICE constexpr auto operator symbol(A a, B b) {                          \
    return Binary<decltype(as_expr(a)), op, decltype(as_expr(b))>{as_expr(a), as_expr(b)}; \
  }
WARPLENS_INDEX_OPERATOR(+, Op::Add)
WARPLENS_INDEX_OPERATOR(-, Op::Sub)
WARPLENS_INDEX_OPERATOR(*, Op::Mul)
WARPLENS_INDEX_OPERATOR(/, Op::Div)
WARPLENS_INDEX_OPERATOR(%, Op::Mod)
WARPLENS_INDEX_OPERATOR(&, Op::And)
WARPLENS_INDEX_OPERATOR(^, Op::Xor)
WARPLENS_INDEX_OPERATOR(>>, Op::ShiftRight)
#undef WARPLENS_INDEX_OPERATOR

// --- evaluation (host and device) ----------------------------------------------------------------
template <typename Int>
WARPLENS_HOST_DEVICE constexpr Int evaluate(ThreadIndex, const BasicEnv<Int>& e) {
  return e.g;
}
template <typename Int>
WARPLENS_HOST_DEVICE constexpr Int evaluate(Offset, const BasicEnv<Int>& e) {
  return e.offset;
}
template <typename Int>
WARPLENS_HOST_DEVICE constexpr Int evaluate(Stride, const BasicEnv<Int>& e) {
  return e.stride;
}
template <typename Int>
WARPLENS_HOST_DEVICE constexpr Int evaluate(Seed, const BasicEnv<Int>& e) {
  return static_cast<Int>(e.seed);
}
template <typename Int>
WARPLENS_HOST_DEVICE constexpr Int evaluate(Literal x, const BasicEnv<Int>&) {
  return static_cast<Int>(x.value);
}

template <typename X, typename Int>
WARPLENS_HOST_DEVICE constexpr Int evaluate(const Named<X>& n, const BasicEnv<Int>& e) {
  return evaluate(n.body, e);
}

template <typename L, Op kOp, typename R, typename Int>
WARPLENS_HOST_DEVICE constexpr Int evaluate(const Binary<L, kOp, R>& b, const BasicEnv<Int>& e) {
  const Int l = evaluate(b.left, e), r = evaluate(b.right, e);
  if constexpr (kOp == Op::Add) return l + r;
  if constexpr (kOp == Op::Sub) return l - r;
  if constexpr (kOp == Op::Mul) return l * r;
  if constexpr (kOp == Op::Div) return l / r;
  if constexpr (kOp == Op::Mod) return l % r;
  if constexpr (kOp == Op::And) return l & r;
  if constexpr (kOp == Op::Xor) return l ^ r;
  if constexpr (kOp == Op::ShiftRight) return l >> r;
}

// --- printing (host) -----------------------------------------------------------------------------
#if !defined(__CUDA_ARCH__)

enum class ExpressionStyle {
  Analyze,  ///< the analyze grammar: g as "(32*warp + lane)", '*' for products
  Display,  ///< for the window: g as "i", '×' for products
};

/// Whether `X` reads the thread index (a subexpression of parameters alone prints as its value).
template <typename X>
constexpr bool reads_thread = std::is_same_v<X, ThreadIndex>;
template <typename L, Op kOp, typename R>
constexpr bool reads_thread<Binary<L, kOp, R>> = reads_thread<L> || reads_thread<R>;
template <typename X>
constexpr bool reads_thread<Named<X>> = reads_thread<X>;

namespace detail {
/// C's precedence (higher binds tighter); leaves bind tightest.
constexpr int precedence(Op op) {
  switch (op) {
    case Op::Mul:
    case Op::Div:
    case Op::Mod: return 5;
    case Op::Add:
    case Op::Sub: return 4;
    case Op::ShiftRight: return 3;
    case Op::And: return 2;
    case Op::Xor: return 1;
  }
  return 0;
}
template <typename X>
struct binary_op {
  static constexpr bool is_binary = false;
  static constexpr Op op = Op::Add;
};
template <typename L, Op kOp, typename R>
struct binary_op<Binary<L, kOp, R>> {
  static constexpr bool is_binary = true;
  static constexpr Op op = kOp;
};
template <typename X>
struct is_named : std::false_type {};
template <typename X>
struct is_named<Named<X>> : std::true_type {};
inline const char* symbol(Op op, ExpressionStyle style) {
  switch (op) {
    case Op::Add: return " + ";
    case Op::Sub: return " - ";
    case Op::Mul: return style == ExpressionStyle::Display ? "\u00d7" : "*";
    case Op::Div: return "/";
    case Op::Mod: return " % ";
    case Op::And: return " & ";
    case Op::Xor: return " ^ ";
    case Op::ShiftRight: return " >> ";
  }
  return "?";
}
}  // namespace detail

template <typename X>
void print(std::string& out, const X& x, const Env& e, ExpressionStyle style) {
  if constexpr (std::is_same_v<X, ThreadIndex>) {
    out += style == ExpressionStyle::Display ? "i" : "(32*warp + lane)";
  } else if constexpr (detail::is_named<X>::value) {
    if (style == ExpressionStyle::Display) {
      out += x.name;
      out += "(i)";
    } else {
      out += "(";
      print(out, x.body, e, style);
      out += ")";
    }
  } else if constexpr (!reads_thread<X>) {
    out += std::to_string(evaluate(x, e));  // parameters and literals: their value
  } else {
    constexpr Op op = detail::binary_op<X>::op;
    constexpr int mine = detail::precedence(op);
    const auto side = [&](const auto& child, bool right) {
      using C = std::decay_t<decltype(child)>;
      int theirs = 9;  // leaves and values bind tightest
      bool same_associative_op = false;
      if constexpr (detail::binary_op<C>::is_binary && reads_thread<C>) {
        theirs = detail::precedence(detail::binary_op<C>::op);
        same_associative_op = detail::binary_op<C>::op == op &&
                              (op == Op::Add || op == Op::Mul || op == Op::And || op == Op::Xor);
      }
      // Parenthesise looser children, and equally tight ones on the right unless the operator
      // is associative and the same (a - (b - c), a*(b/c); but a + b + c).
      const bool parens = theirs < mine || (right && theirs == mine && !same_associative_op);
      if (parens) out += "(";
      print(out, child, e, style);
      if (parens) out += ")";
    };
    side(x.left, false);
    out += detail::symbol(op, style);
    side(x.right, true);
  }
}

/// The expression as text in `style`, the parameters of `e` filled in (e.g. "1 + 2*(32*warp +
/// lane)" or "1 + 2×i").
template <typename X>
std::string to_expression_text(const X& x, const Env& e, ExpressionStyle style) {
  std::string out;
  print(out, x, e, style);
  return out;
}

#endif  // !__CUDA_ARCH__

}  // namespace warplens::index_expr
