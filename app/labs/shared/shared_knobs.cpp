#include "shared_knobs.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>

namespace warplens::app {

namespace {

using S = SharedState;
using K = Knob<S>;

std::vector<std::int64_t> up_to(int n) {
  std::vector<std::int64_t> v;
  for (int i = 0; i < n; ++i) v.push_back(i);
  return v;
}

// A two-way choice written as one of two names (`show = "read"`): value 1 is `yes`.
K choice(const char* key, const char* no, const char* yes, bool S::*member) {
  return {.key = key,
          .style = KnobStyle::Radio,
          .values = {0, 1},
          .names = {no, yes},
          .picks = {0, 1},
          .get = [member](const S& s) { return std::int64_t{s.*member}; },
          .set = [member](S& s, std::int64_t v) { s.*member = v != 0; }};
}

std::vector<K> make_transpose() {
  std::vector<K> k;
  const auto variants = knob_values(gpu::kTransposeVariants);
  K variant{
      .key = "variant",
      .style = KnobStyle::Combo,
      .picks = variants,
      .get = [](const S& s) { return knob_value(s.transpose.variant); },
      .set = [](S& s,
                std::int64_t v) { s.transpose.variant = static_cast<gpu::TransposeVariant>(v); }};
  variant.strip = "kernel";
  k.push_back(named(std::move(variant), gpu::kTransposeVariants,
                    [](gpu::TransposeVariant v) { return gpu::to_string(v); }));
  // The block's rows divide the tile: the monkey keeps them within it.
  const auto rows_within_tile = [](S& s) {
    s.transpose.rows_per_block = std::min(s.transpose.tile, s.transpose.rows_per_block);
  };
  k.push_back({.key = "tile",
               .values = {8, 16, 32},
               .picks = {8, 16, 32},
               .get = [](const S& s) { return std::int64_t{s.transpose.tile}; },
               .set = [](S& s, std::int64_t v) { s.transpose.tile = static_cast<int>(v); },
               .then = rows_within_tile});
  k.push_back(
      {.key = "rows_per_block",
       .picks = {1, 2, 4, 8},
       .get = [](const S& s) { return std::int64_t{s.transpose.rows_per_block}; },
       .set = [](S& s, std::int64_t v) { s.transpose.rows_per_block = static_cast<int>(v); },
       .then = rows_within_tile});
  k.push_back({.key = "n",
               .get = [](const S& s) { return std::int64_t{s.transpose.n}; },
               .set = [](S& s, std::int64_t v) { s.transpose.n = static_cast<int>(v); }});
  k.push_back(choice("show", "write", "read", &S::transpose_read));
  k.push_back(
      {.key = "view",
       .style = KnobStyle::Radio,
       .values = {0, 1, 2},
       .names = {"tile", "global-read", "global-write"},
       .picks = {0, 1, 2},
       .get = [](const S& s) { return knob_value(s.transpose_view); },
       .set = [](S& s, std::int64_t v) { s.transpose_view = static_cast<TransposeView>(v); },
       .strip = "view",
       .strip_words = {"shared tile", "global read", "global write"}});
  return k;
}

std::vector<K> make_matmul() {
  std::vector<K> k;
  k.push_back({.key = "block_size",
               .picks = {0, 8, 16, 32},
               .get = [](const S& s) { return std::int64_t{s.matmul.block_size}; },
               .set = [](S& s, std::int64_t v) { s.matmul.block_size = static_cast<int>(v); },
               .then = [](S& s) { s.matmul_k = 0; }});
  k.push_back({.key = "n",
               .get = [](const S& s) { return std::int64_t{s.matmul.n}; },
               .set = [](S& s, std::int64_t v) { s.matmul.n = static_cast<int>(v); }});
  // Step k of the inner loop: within the tile (none for the naive kernel).
  k.push_back(
      {.key = "k",
       .picks = up_to(32),
       .get = [](const S& s) { return std::int64_t{s.matmul_k}; },
       .set = [](S& s, std::int64_t v) { s.matmul_k = static_cast<int>(v); },
       .then =
           [](S& s) {
             s.matmul_k = s.matmul.block_size > 0 ? s.matmul_k % s.matmul.block_size : 0;
           },
       .strip = "k",
       .strip_range =
           [](const S& s) {
             return std::pair<std::int64_t, std::int64_t>{0, std::max(1, s.matmul.block_size) - 1};
           },
       .strip_chars = 3});
  k.push_back(choice("operand", "a", "b", &S::matmul_b));
  k.back().strip = "blockB[k][tx]";
  k.back().strip_style = K::StripStyle::Check;
  return k;
}

std::vector<K> make_reduction() {
  std::vector<K> k;
  K variant{
      .key = "variant",
      .style = KnobStyle::Combo,
      .picks = knob_values(gpu::kReductionVariants),
      .get = [](const S& s) { return knob_value(s.reduction.variant); },
      .set = [](S& s,
                std::int64_t v) { s.reduction.variant = static_cast<gpu::ReductionVariant>(v); }};
  variant.strip = "kernel";
  k.push_back(named(std::move(variant), gpu::kReductionVariants,
                    [](gpu::ReductionVariant v) { return gpu::to_string(v); }));
  k.push_back({.key = "block_threads",
               .picks = {64, 128, 256, 512, 1024},
               .get = [](const S& s) { return std::int64_t{s.reduction.block_threads}; },
               .set = [](S& s, std::int64_t v) { s.reduction.block_threads = static_cast<int>(v); },
               .then = [](S& s) { s.reduction_step = 0; }});
  k.push_back({.key = "elements",
               .get = [](const S& s) { return s.reduction.elements; },
               .set = [](S& s, std::int64_t v) { s.reduction.elements = v; }});
  // The tree's step shown: within log2(block_threads) steps.
  k.push_back(
      {.key = "step",
       .picks = up_to(10),
       .get = [](const S& s) { return std::int64_t{s.reduction_step}; },
       .set = [](S& s, std::int64_t v) { s.reduction_step = static_cast<int>(v); },
       .then = [](S& s) { s.reduction_step %= std::max(1, gpu::reduction_steps(s.reduction)); },
       .strip = "step",
       .strip_range =
           [](const S& s) {
             return std::pair<std::int64_t, std::int64_t>{
                 0, std::max(0, gpu::reduction_steps(s.reduction) - 1)};
           },
       .strip_chars = 3});
  k.push_back(choice("operand", "first", "second", &S::reduction_second));
  return k;
}

// An integer field of the bank lab's index parameters.
K index_int(const char* key, int SharedIndexParams::*member, std::vector<std::int64_t> picks = {},
            std::function<bool(const S&)> applies = {}) {
  return {.key = key,
          .picks = std::move(picks),
          .get = [member](const S& s) { return std::int64_t{s.probe.index.*member}; },
          .set = [member](S& s, std::int64_t v) { s.probe.index.*member = static_cast<int>(v); },
          .applies = std::move(applies)};
}

// `knob` on the presenter strip as `name` while `when` holds: an integer one a slider over
// `range` for the state, `chars` digits wide.
K on_strip(K knob, const char* name, std::function<bool(const S&)> when,
           std::function<std::pair<std::int64_t, std::int64_t>(const S&)> range = {},
           float chars = 6) {
  knob.strip = name;
  knob.strip_when = std::move(when);
  knob.strip_range = std::move(range);
  knob.strip_chars = chars;
  return knob;
}

// A block shape as one value: x in the high 32 bits, y in the low.
std::int64_t block_value(int x, int y) {
  return (std::int64_t{x} << 32) | static_cast<std::uint32_t>(y);
}

std::vector<K> make_banks() {
  const auto is = [](SharedPatternKind kind) {
    return [kind](const S& s) { return s.probe.index.kind == kind; };
  };
  const auto tile = is(SharedPatternKind::Tile);
  const auto range = [](int low, int high) {
    return [low, high](const S&) { return std::pair<std::int64_t, std::int64_t>{low, high}; };
  };
  // The presenter strip: a tile's pitch and order, a struct's size, which of a thread's two
  // accesses is shown, a stride's word size and stride.
  std::vector<K> k;
  K pattern{.key = "pattern",
            .style = KnobStyle::Combo,
            .get = [](const S& s) { return knob_value(s.probe.index.kind); },
            .set =
                [](S& s, std::int64_t v) {
                  const auto kind = static_cast<SharedPatternKind>(v);
                  // A layout pattern takes its fields from the layout text (the last one written).
                  if (kind == SharedPatternKind::Layout && s.probe.index.kind != kind) {
                    set_bank_layout(s, s.probe_layout);
                  }
                  s.probe.index.kind = kind;
                }};
  k.push_back(named(std::move(pattern), gpu::kSharedPatternKinds,
                    [](SharedPatternKind v) { return gpu::to_string(v); }));
  K word = index_int("word_bytes", &SharedIndexParams::word_bytes, {1, 2, 4, 8, 16});
  word.style = KnobStyle::Radio;
  word.values = {1, 2, 4, 8, 16};
  word.strip_words = {"1 B", "2 B", "4 B", "8 B", "16 B"};
  k.push_back(on_strip(std::move(word), "word", is(SharedPatternKind::Strided)));
  k.push_back(index_int("offset", &SharedIndexParams::offset, {0, 1, 4, 9}, [](const S& s) {
    return s.probe.index.kind != SharedPatternKind::Layout;  // a layout carries its own
  }));
  // After the offset: a layout carries its own (CuTe's O), which the preset's layout sets.
  k.push_back(
      {.key = "layout",
       .label = "CuTe layout (Enter applies)",
       .applies = [](const S& s) { return s.probe.index.kind == SharedPatternKind::Layout; },
       .written = [](const S& s) { return s.probe.index.kind == SharedPatternKind::Layout; },
       .get_string = [](const S& s) { return s.probe_layout; },
       .set_string = [](S& s, const std::string& text) { set_bank_layout(s, text); }});
  k.push_back(on_strip(index_int("stride", &SharedIndexParams::stride, {0, 1, 2, 3, 8, 32}),
                       "stride", is(SharedPatternKind::Strided), range(0, 64), 4));
  k.push_back(index_int("tile_width", &SharedIndexParams::tile_width));
  // The padded tile of the slides: one element past the tile's width (the reader's default is
  // the width itself, shared_scenario.cpp).
  k.push_back(on_strip(
      index_int("pitch", &SharedIndexParams::pitch_elements, {32, 33}, tile), "row pitch", tile,
      [](const S& s) {
        return std::pair<std::int64_t, std::int64_t>{s.probe.index.tile_width,
                                                     s.probe.index.tile_width + 8};
      },
      4));
  k.push_back({.key = "by",
               .style = KnobStyle::Radio,
               .values = {0, 1},
               .names = {"row", "column"},
               .picks = {0, 1},
               .get = [](const S& s) { return std::int64_t{s.probe.index.by_column}; },
               .set = [](S& s, std::int64_t v) { s.probe.index.by_column = v != 0; },
               .applies = tile,
               .strip = "by column",
               .strip_when = tile,
               .strip_style = K::StripStyle::Check});
  // The swizzle permutes an unpadded tile's columns: swizzled, the rows are the tile's width
  // apart again.
  k.push_back({.key = "swizzle",
               .style = KnobStyle::Check,
               .picks = {0, 1},
               .get = [](const S& s) { return std::int64_t{s.probe.index.swizzle}; },
               .set = [](S& s, std::int64_t v) { s.probe.index.swizzle = v != 0; },
               .then =
                   [](S& s) {
                     if (s.probe.index.swizzle)
                       s.probe.index.pitch_elements = s.probe.index.tile_width;
                   },
               .applies = tile});
  k.push_back(on_strip(index_int("struct_words", &SharedIndexParams::struct_words),
                       "words per struct", is(SharedPatternKind::Struct), range(1, 8), 3));
  k.push_back(index_int("field", &SharedIndexParams::field));
  // Each thread's two accesses (shared[2*tid + part], shared[tid + part*threads]): which one the
  // view shows, as the scenarios' "look for" asks.
  K part = on_strip(index_int("part", &SharedIndexParams::part), "access", [](const S& s) {
    return s.probe.index.kind == SharedPatternKind::Interleaved ||
           s.probe.index.kind == SharedPatternKind::Blocked;
  });
  part.values = {0, 1};
  part.strip_words = {"first", "second"};
  k.push_back(std::move(part));
  k.push_back(
      {.key = "op",
       .style = KnobStyle::Radio,
       .values = {0, 1},
       .names = {"load", "store"},
       .picks = {0, 1},
       .get = [](const S& s) { return std::int64_t{s.probe.op == gpu::SharedOp::Store}; },
       .set = [](S& s,
                 std::int64_t v) { s.probe.op = v ? gpu::SharedOp::Store : gpu::SharedOp::Load; }});
  k.push_back({.key = "block",
               .style = KnobStyle::Combo,
               .values = {block_value(32, 1), block_value(64, 1), block_value(32, 8),
                          block_value(16, 16), block_value(8, 32)},
               .get = [](const S& s) { return block_value(s.probe.block_x, s.probe.block_y); },
               .set =
                   [](S& s, std::int64_t v) {
                     s.probe.block_x = static_cast<int>(v >> 32);
                     s.probe.block_y = static_cast<int>(v & 0xffffffff);
                   },
               .text =
                   [](std::int64_t v) {
                     return model::to_string(model::BlockShape{static_cast<int>(v >> 32),
                                                               static_cast<int>(v & 0xffffffff)});
                   },
               .parse_text =
                   [](const std::string& t) {
                     const model::BlockShape b = model::parse_block(t);
                     return block_value(b.x, b.y);
                   }});
  // Warps past the block's are refused by the lab's check (random_session_change).
  k.push_back({.key = "warp",
               .picks = {0, 1, 2, 3, 7, 31},
               .get = [](const S& s) { return std::int64_t{s.warp}; },
               .set = [](S& s, std::int64_t v) { s.warp = static_cast<int>(v); }});
  return k;
}

}  // namespace

const std::vector<Knob<SharedState>>& banks_knobs() {
  static const std::vector<K> knobs = make_banks();
  return knobs;
}

const std::vector<Knob<SharedState>>& transpose_knobs() {
  static const std::vector<K> knobs = make_transpose();
  return knobs;
}

const std::vector<Knob<SharedState>>& matmul_knobs() {
  static const std::vector<K> knobs = make_matmul();
  return knobs;
}

const std::vector<Knob<SharedState>>& reduction_knobs() {
  static const std::vector<K> knobs = make_reduction();
  return knobs;
}

}  // namespace warplens::app
