// A CuTe layout as one warp's access pattern: which thread takes which of the layout's
// coordinates, and the index expression (index_expression.h) that gives the same offsets.
//
// Threads index the layout with tx (threadIdx.x), as a CuTe kernel writes layout(threadIdx.x):
// thread tx takes the layout's tx-th coordinate (colexicographic, cute_layout.h), so in a block
// 32 threads wide (analyze's default 32x1) lane i takes the i-th coordinate. With a lane layout
// (analyze --lane-layout), thread tx takes coordinate lane_layout(tx) instead: the lane layout
// maps threads to the layout's 1-D coordinates, as CuTe's thread-value (TV) layouts map
// (thread, value) to a tile's; a TV layout ((T,...),(V,...)):(...) gives thread tx its value 0
// for tx < T, because index tx of it is the coordinate (tx, 0) (first mode fastest).
//
// Domain: every thread that uses the layout must fall inside it: tx < size(lane layout) and
// lane_layout(tx) in [0, size(layout)), or tx < size(layout) without one. Past that, CuTe's
// crd2idx would still give a number (the last mode takes the rest) but no coordinate of the
// layout; here it is refused (LayoutError, naming the thread).
//
// Offsets are element indices (words of the access's word size), the same unit as an index
// expression's value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "cute_layout.h"

namespace warplens::model {

/// A data layout and, optionally, the lane layout that picks each thread's coordinate.
struct LayoutAccess {
  CuteLayout layout;
  std::optional<CuteLayout> lanes;  ///< thread tx -> 1-D coordinate of `layout`

  /// Threads the access can serve: size(lanes) with a lane layout, else size(layout).
  [[nodiscard]] std::int64_t threads() const;
};

/// Parses the layout and the lane layout (empty: none). Throws LayoutError (named "layout" or
/// "lane layout", with the column).
LayoutAccess parse_layout_access(std::string_view layout, std::string_view lane_layout = {});

/// What thread tx gets from the access.
struct LayoutLane {
  std::int64_t thread = 0;  ///< tx
  std::int64_t index = 0;   ///< the layout's 1-D coordinate: tx, or lane_layout(tx)
  IntTuple coordinate;      ///< its natural coordinate in the layout's shape
  std::int64_t offset = 0;  ///< layout(index), elements
};

/// Thread `tx`'s coordinate and offset; LayoutError when tx is outside the domain (above).
LayoutLane evaluate_layout_lane(const LayoutAccess& access, std::int64_t tx);

/// Throws LayoutError unless threads 0 .. threads - 1 all fall inside the domain (a block
/// `threads` wide indexing the layout with tx).
void check_layout_threads(const LayoutAccess& access, std::int64_t threads);

/// The index expression that gives layout(v) for v in [0, size(layout)), over `variable` (an
/// identifier of the expression grammar, or any expression, which is parenthesised): the
/// natural coordinate of each mode with / and %, times its stride, summed, plus the offset, then
/// the swizzle with &, >> (or << for S < 0) and ^. E.g. (8,4):(32,1) over tx gives
/// "(tx % 8) * 32 + tx / 8". Modes of extent 1 and strides of 0 add nothing and are left out.
std::string layout_index_expression(const CuteLayout& layout, const std::string& variable = "tx");

/// The same for the access: the layout's expression over the lane layout's expression of tx,
/// or over tx. Throws LayoutError when the text is longer than kMaxIndexExpressionLength.
std::string layout_index_expression(const LayoutAccess& access);

}  // namespace warplens::model
