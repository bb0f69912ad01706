// CuTe layouts as text: a parser and an evaluator that follow CuTe's own definitions, so a layout
// pasted from CUTLASS code or from CuTe's print() gives here the offsets it gives there.
//
// Sources (NVIDIA/cutlass, commit 7107b05535f8, read for this file):
//   include/cute/stride.hpp      crd2idx(coord, shape, stride): an integer coordinate into a tuple
//                                mode is split by divmod with the product of each mode's shape,
//                                the last mode taking what is left (detail::crd2idx_itt); a
//                                natural coordinate's inner product with the strides is the index.
//                                compact_major<LayoutLeft> / compact_col_major: the default
//                                strides, an exclusive prefix product of the shape from the left
//                                ignoring the hierarchy; a static 1 (`_1`) gets stride `_0`.
//   include/cute/layout.hpp      Layout::operator()(coord) = crd2idx(coord, shape, stride);
//                                make_layout(shape): strides compact_major<LayoutLeft>.
//   include/cute/swizzle.hpp     Swizzle<BBits, MBase, SShift = BBits>: bit_msk = 2^B - 1,
//                                yyy_msk = bit_msk << (M + max(0, S)), apply(offset) =
//                                offset ^ shiftr(offset & yyy_msk, S) (shiftr by a negative S
//                                shifts left); static_asserts M >= 0, B >= 0, abs(S) >= B.
//                                print(): "Sw<B,M,S>".
//   include/cute/layout_composed.hpp  ComposedLayout<A, O, B>(c) = A(O + B(c)); print():
//                                "A o O o B".
//   media/docs/cpp/cute/01_layout.md  the Shape:Stride notation, `_N` for a static N, the
//                                colexicographical coordinate order, the worked examples the
//                                tests check (tests/cute_layout_test.cpp).
//
// Grammar (whitespace allowed between tokens; columns are 1-based character positions):
//   layout   := [ swizzle "o" [ offset "o" ] ] plain
//   swizzle  := ("Swizzle" | "Sw") "<" B "," M [ "," S ] ">" [ "{" "}" ]   integers; S = B
//                                                                        when left out
//   offset   := int                        added before the swizzle (CuTe's print writes "_0")
//   plain    := shape [ ":" stride ]       stride left out: CuTe's compact column-major strides
//   shape, stride := int | "(" tuple { "," tuple } ")"   nested up to kMaxLayoutDepth deep
//   int      := [ "_" ] [ "-" ] digits     "_8" is CuTe's static 8: the same value, printed with
//                                          the underscore (and it sets a size-1 mode's default
//                                          stride to _0, as compact_col_major does)
//
// Semantics: index i in [0, size) -> the natural coordinate, colexicographically (first mode
// fastest) -> offset = inner product with the strides + O -> the swizzle, if any. Offsets are in
// elements (whatever the word size), not bytes.
//
// Limits: integers within [-2^31, 2^31); shape extents >= 1; size <= 2^31 - 1; every offset the
// layout can give within [-2^31, 2^31) (checked from the shape and strides); swizzle bits below
// bit 31 (CuTe's masks are int). Text at most kMaxLayoutLength characters.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "access_pattern.h"  // PatternError

namespace warplens::model {

inline constexpr std::size_t kMaxLayoutLength = 1024;
inline constexpr int kMaxLayoutDepth = 16;

/// A layout that does not parse or breaks one of CuTe's rules. A PatternError, so the verbs exit
/// 2 on it. what() is one line: "layout column C: problem" (column() > 0) or "layout: problem".
class LayoutError : public PatternError {
 public:
  /// `column`: 1-based character position of the problem in the text, 0 for the whole text;
  /// `name`: what the text is called in what() ("layout", "lane layout").
  LayoutError(const std::string& problem, int column, std::string_view name = "layout");
  [[nodiscard]] int column() const { return column_; }
  /// The problem alone, without the name and column.
  [[nodiscard]] const std::string& problem() const { return problem_; }

 private:
  std::string problem_;
  int column_;
};

/// CuTe's IntTuple: an integer (a leaf) or a tuple of IntTuples.
struct IntTuple {
  bool is_tuple = false;
  std::int64_t value = 0;       ///< a leaf's integer
  bool is_static = false;       ///< a leaf written "_N" (CuTe's static integer)
  std::vector<IntTuple> modes;  ///< a tuple's elements (>= 1)
  int column = 0;               ///< where it starts in the text (1-based), 0 when generated

  [[nodiscard]] static IntTuple leaf(std::int64_t v, bool is_static = false);
  [[nodiscard]] static IntTuple tuple(std::vector<IntTuple> modes);
  /// Rank: a tuple's number of modes, 1 for a leaf.
  [[nodiscard]] int rank() const { return is_tuple ? static_cast<int>(modes.size()) : 1; }
  /// Product of every leaf.
  [[nodiscard]] std::int64_t product() const;
  /// CuTe's print form: "(_8,(2,4))" (no spaces).
  [[nodiscard]] std::string text() const;
  /// Same structure and values (columns and static marks do not count).
  [[nodiscard]] bool same_values(const IntTuple& other) const;
};

/// Swizzle<B, M, S> (swizzle.hpp): XORs bits [M + max(0,S), +B) of an offset into
/// [M - min(0,S), +B). B, M >= 0 and |S| >= B (CuTe's static_asserts).
struct Swizzle {
  int bits = 0;   ///< B
  int base = 0;   ///< M
  int shift = 0;  ///< S
  /// yyy_msk: the bits read (2^B - 1) << (M + max(0, S)).
  [[nodiscard]] std::int64_t yyy_mask() const;
  /// zzz_msk: the bits written (2^B - 1) << (M - min(0, S)).
  [[nodiscard]] std::int64_t zzz_mask() const;
  /// offset ^ shiftr(offset & yyy_mask, S).
  [[nodiscard]] std::int64_t apply(std::int64_t offset) const;
  /// "Sw<B,M,S>".
  [[nodiscard]] std::string text() const;
  friend bool operator==(const Swizzle&, const Swizzle&) = default;
};

/// A CuTe layout, plain (shape:stride) or composed with a swizzle (Sw o O o shape:stride).
struct CuteLayout {
  IntTuple shape;   ///< extents, congruent with stride
  IntTuple stride;  ///< elements per step of each mode
  std::optional<Swizzle> swizzle;
  std::int64_t offset = 0;    ///< O of "Sw o O o L" (elements)
  bool offset_static = true;  ///< O written "_N" or left out (printed "_0", as CuTe does)

  /// size(layout): the product of the shape, the number of indices it maps.
  [[nodiscard]] std::int64_t size() const { return shape.product(); }
  /// layout(index) for index in [0, size()): crd2idx, + offset, then the swizzle. Throws
  /// LayoutError (column 0) for an index outside [0, size()).
  [[nodiscard]] std::int64_t operator()(std::int64_t index) const;
  /// The natural coordinate of `index` (idx2crd(index, shape)): congruent with the shape, e.g.
  /// 16 in (3,(2,3)) -> (1,(1,2)). Same domain and error as operator().
  [[nodiscard]] IntTuple coordinate(std::int64_t index) const;
  /// CuTe's print form: "(8,4):(32,1)", "Sw<3,4,3> o _0 o (8,64):(64,1)".
  [[nodiscard]] std::string text() const;
};

/// Parses `text` (the grammar above). Throws LayoutError with the column of: an unbalanced
/// tuple (the unclosed "(" or the stray ")"), a shape and a stride of different ranks or
/// nesting (the stride's mode that differs), a swizzle that overlaps itself, |S| < B (its S),
/// a number out of range, a shape extent < 1, or anything else that does not belong.
/// `name` is what errors call the text ("layout"; "lane layout" for --lane-layout).
CuteLayout parse_layout(std::string_view text, std::string_view name = "layout");

}  // namespace warplens::model
