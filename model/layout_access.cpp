#include "layout_access.h"

#include <cctype>
#include <cstdio>
#include <utility>
#include <vector>

#include "index_expression.h"

namespace warplens::model {

namespace {

// The leaves of a congruent shape and stride, first mode first (the colexicographic order).
void flatten(const IntTuple& shape, const IntTuple& stride,
             std::vector<std::pair<std::int64_t, std::int64_t>>& leaves) {
  if (!shape.is_tuple) {
    leaves.emplace_back(shape.value, stride.value);
    return;
  }
  for (std::size_t i = 0; i < shape.modes.size(); ++i)
    flatten(shape.modes[i], stride.modes[i], leaves);
}

bool is_identifier(const std::string& s) {
  if (s.empty() || !std::isalpha(static_cast<unsigned char>(s[0]))) return false;
  for (const char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

// `e` as an operand of a binary operator: parenthesised unless it is a name or a number.
std::string operand(const std::string& e) {
  return e.find(' ') == std::string::npos ? e : "(" + e + ")";
}

std::string hex(std::int64_t v) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(v));
  return buffer;
}

}  // namespace

std::int64_t LayoutAccess::threads() const {
  return lanes ? lanes->size() : layout.size();
}

LayoutAccess parse_layout_access(std::string_view layout, std::string_view lane_layout) {
  LayoutAccess access;
  access.layout = parse_layout(layout, "layout");
  if (!lane_layout.empty()) access.lanes = parse_layout(lane_layout, "lane layout");
  return access;
}

LayoutLane evaluate_layout_lane(const LayoutAccess& access, std::int64_t tx) {
  LayoutLane lane;
  lane.thread = tx;
  if (tx < 0 || tx >= access.threads()) {
    throw LayoutError("thread tx = " + std::to_string(tx) + " is past the " +
                          (access.lanes ? "lane layout " + access.lanes->text()
                                        : "layout " + access.layout.text()) +
                          ", which has " + std::to_string(access.threads()) +
                          " coordinates: use a block at most that wide, or a bigger layout",
                      0);
  }
  lane.index = access.lanes ? (*access.lanes)(tx) : tx;
  if (lane.index < 0 || lane.index >= access.layout.size()) {
    throw LayoutError(
        "the lane layout " + access.lanes->text() + " gives thread tx = " + std::to_string(tx) +
            " the index " + std::to_string(lane.index) + ", outside the layout " +
            access.layout.text() + " (0.." + std::to_string(access.layout.size() - 1) + ")",
        0);
  }
  lane.coordinate = access.layout.coordinate(lane.index);
  lane.offset = access.layout(lane.index);
  return lane;
}

void check_layout_threads(const LayoutAccess& access, std::int64_t threads) {
  for (std::int64_t tx = 0; tx < threads; ++tx) (void)evaluate_layout_lane(access, tx);
}

std::string layout_index_expression(const CuteLayout& layout, const std::string& variable) {
  const std::string v = is_identifier(variable) ? variable : operand(variable);
  std::vector<std::pair<std::int64_t, std::int64_t>> leaves;
  flatten(layout.shape, layout.stride, leaves);
  // The last mode of extent > 1 takes the quotient whole, as crd2idx's last mode does.
  std::size_t last = leaves.size();
  for (std::size_t k = 0; k < leaves.size(); ++k)
    if (leaves[k].first > 1) last = k;
  std::string sum;
  std::int64_t below = 1;  // product of the extents before leaf k
  for (std::size_t k = 0; k < leaves.size(); ++k) {
    const auto [extent, stride] = leaves[k];
    if (extent == 1) continue;
    std::string coordinate;
    if (below == 1) {
      coordinate = k == last ? v : v + " % " + std::to_string(extent);
    } else {
      const std::string quotient = v + " / " + std::to_string(below);
      coordinate = k == last ? quotient : "(" + quotient + ") % " + std::to_string(extent);
    }
    below *= extent;
    if (stride == 0) continue;
    const std::int64_t magnitude = stride < 0 ? -stride : stride;
    const std::string term =
        magnitude == 1 ? coordinate : operand(coordinate) + " * " + std::to_string(magnitude);
    if (sum.empty()) {
      sum = stride < 0 ? "-" + operand(term) : term;
    } else {
      sum += (stride < 0 ? " - " : " + ") + term;
    }
  }
  if (layout.offset != 0 || sum.empty()) {
    const std::int64_t o = layout.offset;
    if (sum.empty()) {
      sum = std::to_string(o);
    } else if (o != 0) {
      sum += (o < 0 ? " - " : " + ") + std::to_string(o < 0 ? -o : o);
    }
  }
  if (!layout.swizzle || layout.swizzle->bits == 0) return sum;
  const Swizzle& sw = *layout.swizzle;
  const std::string x = operand(sum);
  const std::string picked = "(" + x + " & " + hex(sw.yyy_mask()) + ")";
  const std::string moved = sw.shift >= 0 ? picked + " >> " + std::to_string(sw.shift)
                                          : picked + " << " + std::to_string(-sw.shift);
  return x + " ^ (" + moved + ")";
}

std::string layout_index_expression(const LayoutAccess& access) {
  const std::string thread =
      access.lanes ? layout_index_expression(*access.lanes, "tx") : std::string("tx");
  std::string e = layout_index_expression(access.layout, thread);
  if (e.size() > kMaxIndexExpressionLength) {
    throw LayoutError("its index expression would be " + std::to_string(e.size()) +
                          " characters, more than the " +
                          std::to_string(kMaxIndexExpressionLength) + " an expression may have",
                      0);
  }
  return e;
}

}  // namespace warplens::model
