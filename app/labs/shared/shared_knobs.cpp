#include "shared_knobs.h"

#include <algorithm>
#include <cstdint>

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
       .set = [](S& s, std::int64_t v) { s.transpose_view = static_cast<TransposeView>(v); }});
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
  k.push_back({.key = "k",
               .picks = up_to(32),
               .get = [](const S& s) { return std::int64_t{s.matmul_k}; },
               .set = [](S& s, std::int64_t v) { s.matmul_k = static_cast<int>(v); },
               .then =
                   [](S& s) {
                     s.matmul_k = s.matmul.block_size > 0 ? s.matmul_k % s.matmul.block_size : 0;
                   }});
  k.push_back(choice("operand", "a", "b", &S::matmul_b));
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
       .then = [](S& s) { s.reduction_step %= std::max(1, gpu::reduction_steps(s.reduction)); }});
  k.push_back(choice("operand", "first", "second", &S::reduction_second));
  return k;
}

}  // namespace

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
