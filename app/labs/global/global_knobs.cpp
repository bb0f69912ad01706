#include "global_knobs.h"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace warplens::app {

namespace {

using gpu::LoadPath;
using gpu::PatternSide;
using gpu::StructLayout;

bool has_matrix(const CopyState& s) {
  return s.params.matrix_width != 0;
}
// The [copy.matrix] table is written when any of its fields differs from a 1D copy's.
bool matrix_written(const CopyState& s) {
  const gpu::CopyParams none;
  const gpu::CopyParams& p = s.params;
  return p.matrix_width != 0 || p.matrix_pitched != none.matrix_pitched ||
         p.matrix_by_column != none.matrix_by_column || p.block_y != none.block_y;
}
std::vector<Knob<CopyState>> make_knobs() {
  using K = Knob<CopyState>;
  using S = CopyState;
  const auto one_d = [](const S& s) { return one_dimensional(s); };
  // The presenter strip: a matrix's padding and order; a struct's field shown; else the word
  // size where the scenario is about it (not 4 bytes), else the offset, then the stride of
  // strided indices or the seed of a permutation or a scatter.
  const auto flat = [](const S& s) {
    return s.params.matrix_width == 0 && s.params.layout == StructLayout::None;
  };
  const auto strided = [flat](const S& s) {
    return flat(s) && s.params.kind == IndexKind::Strided;
  };
  std::vector<K> k;
  // The 1D copy: out[i] = in[index(i)] (or the store side).
  const auto copy_name = [](auto e) { return gpu::to_string(e); };
  k.push_back(
      named<S>({.key = "pattern",
                .label = "Index pattern",
                .style = KnobStyle::Combo,
                .labels = {"strided (offset + stride \u00d7 i)", "permuted within each 32 elements",
                           "all lanes on one word", "scattered (seeded hash)"},
                .picks = {knob_value(IndexKind::Strided), knob_value(IndexKind::Permuted),
                          knob_value(IndexKind::SameWord), knob_value(IndexKind::Scattered)},
                .get = [](const S& s) { return knob_value(s.params.kind); },
                .set = [](S& s, std::int64_t v) { s.params.kind = static_cast<IndexKind>(v); },
                .applies = one_d},
               {IndexKind::Strided, IndexKind::Permuted, IndexKind::SameWord, IndexKind::Scattered},
               copy_name));
  k.push_back({.key = "word_bytes",
               .label = "Word size (bytes per lane)",
               .style = KnobStyle::Radio,
               .values = {1, 2, 4, 8, 16},
               .picks = {1, 2, 4, 8, 16},
               .required = true,
               .get = [](const S& s) { return std::int64_t{s.params.word_bytes}; },
               .set = [](S& s, std::int64_t v) { s.params.word_bytes = static_cast<int>(v); },
               .applies = one_d,
               .strip = "word",
               .strip_when =
                   [flat, strided](const S& s) {
                     return flat(s) && (s.params.word_bytes != 4 || !strided(s));
                   },
               .strip_words = {"1 B", "2 B", "4 B", "8 B", "16 B"}});
  k.push_back(
      {.key = "offset",
       .label = "Offset (elements)",
       .low = 0,
       .high = 64,
       .picks = {0, 1, 2, 5, 31},
       .wide = true,
       .required = true,
       .get = [](const S& s) { return s.params.offset; },
       .set = [](S& s, std::int64_t v) { s.params.offset = v; },
       .applies = one_d,
       .strip = "offset",
       .strip_when = [strided](const S& s) { return strided(s) && s.params.word_bytes == 4; },
       .strip_chars = 4});
  k.push_back({.key = "stride",
               .label = "Stride (elements)",
               .low = 1,
               .high = 64,
               .picks = {1, 2, 3, 4, 8, 16, 32, 64},
               .wide = true,
               .required = true,
               .get = [](const S& s) { return s.params.stride; },
               .set = [](S& s, std::int64_t v) { s.params.stride = v; },
               .applies = one_d,
               .shown = [](const S& s) { return s.params.kind == IndexKind::Strided; },
               .strip = "stride",
               .strip_when = flat,
               .strip_chars = 4});
  // The preset keeps the seed's 32 bits as a signed integer: every seed reads back the same.
  k.push_back(
      {.key = "seed",
       .label = "Seed",
       .style = KnobStyle::Input,
       .low = 0,
       .get = [](const S& s) { return std::int64_t{static_cast<std::int32_t>(s.params.seed)}; },
       .set = [](S& s, std::int64_t v) { s.params.seed = static_cast<std::uint32_t>(v); },
       .applies = one_d,
       .shown =
           [](const S& s) {
             return s.params.kind == IndexKind::Permuted || s.params.kind == IndexKind::Scattered;
           },
       .strip = "seed",
       .strip_when = flat,
       .strip_range =
           [](const S&) {
             return std::pair<std::int64_t, std::int64_t>{0, 9999};
           },
       .strip_chars = 5});
  k.push_back(
      named<S>({.key = "side",
                .label = "Which side follows the pattern",
                .style = KnobStyle::Radio,
                .labels = {"loads", "stores"},
                .picks = {knob_value(PatternSide::Read), knob_value(PatternSide::Write)},
                .get = [](const S& s) { return knob_value(s.params.side); },
                .set = [](S& s, std::int64_t v) { s.params.side = static_cast<PatternSide>(v); },
                .applies = one_d},
               {PatternSide::Read, PatternSide::Write}, copy_name));
  k.push_back({.key = "path",
               .label = "Load path",
               .style = KnobStyle::Radio,
               .values = {knob_value(LoadPath::Default), knob_value(LoadPath::L2Only),
                          knob_value(LoadPath::ReadOnly)},
               .names = {"default", "ldcg", "ldg"},
               .labels = {"default", "__ldcg", "__ldg"},
               .picks = {knob_value(LoadPath::Default), knob_value(LoadPath::L2Only),
                         knob_value(LoadPath::ReadOnly)},
               .get = [](const S& s) { return knob_value(s.params.path); },
               .set = [](S& s, std::int64_t v) { s.params.path = static_cast<LoadPath>(v); },
               .applies = one_d});
  // A struct {x, y, z} of floats, read field by field: its fields are 4-byte floats.
  k.push_back(named<S>(
      {.key = "layout",
       .label = "Struct {x, y, z} of floats, read field by field",
       .style = KnobStyle::Radio,
       .labels = {"off##layout", "AoS", "SoA"},
       .get = [](const S& s) { return knob_value(s.params.layout); },
       .set = [](S& s, std::int64_t v) { s.params.layout = static_cast<StructLayout>(v); },
       .then =
           [](S& s) {
             if (s.params.layout != StructLayout::None) s.params.word_bytes = 4;
           }},
      {StructLayout::None, StructLayout::ArrayOfStructs, StructLayout::StructOfArrays}, copy_name));
  // The parser refuses a field other than x without a struct layout (where it shows nothing).
  k.push_back(
      {.key = "field",
       .label = "Load shown: field",
       .style = KnobStyle::Radio,
       .values = {0, 1, 2},
       .names = {"x", "y", "z"},
       .picks = {0, 1, 2},
       .get = [](const S& s) { return std::int64_t{s.field}; },
       .set = [](S& s, std::int64_t v) { s.field = static_cast<int>(v); },
       .applies = [](const S& s) { return s.params.layout != StructLayout::None; },
       .written = [](const S& s) { return s.params.layout != StructLayout::None || s.field == 0; },
       // The buttons are narrow enough for the strip at 3x. (AoS and SoA are neighbouring
       // scenarios: the strip's arrows.)
       .strip = "field",
       .strip_when =
           [](const S& s) {
             return s.params.matrix_width == 0 && s.params.layout != StructLayout::None;
           },
       .strip_words = {"x", "y", "z"},
       .strip_style = K::StripStyle::Buttons,
       .strip_tip =
           [](std::int64_t v) { return std::string("show the load of field ") + "xyz"[v % 3]; }});
  k.push_back(
      model_knob<S>([](const S& s) { return knob_value(s.model); },
                    [](S& s, std::int64_t v) { s.model = static_cast<model::HardwareModel>(v); }));
  k.back().applies = one_d;
  k.push_back({.key = "warp",
               .label = "First warp shown",
               .get = [](const S& s) { return std::int64_t{s.warp}; },
               .set = [](S& s, std::int64_t v) { s.warp = static_cast<int>(v); }});
  k.push_back({.key = "warps",
               .label = "Warps shown",
               .style = KnobStyle::Radio,
               .values = {1, 2, 4, 8},
               .picks = {1, 2, 4, 8},
               .get = [](const S& s) { return std::int64_t{s.warps}; },
               .set = [](S& s, std::int64_t v) { s.warps = static_cast<int>(v); },
               .then = [](S& s) { s.warp = 0; },
               .applies = one_d});
  // A matrix of floats read by a 2D block ([copy.matrix]).
  k.push_back({.key = "matrix.width",
               .label = "width %d floats",
               .low = 32,
               .high = 256,
               .get = [](const S& s) { return std::int64_t{s.params.matrix_width}; },
               .set = [](S& s, std::int64_t v) { s.params.matrix_width = static_cast<int>(v); },
               .applies = has_matrix,
               .written = matrix_written});
  // The strip's order: the read order, then the padding.
  k.push_back({.key = "matrix.by",
               .label = "order",
               .style = KnobStyle::Radio,
               .values = {0, 1},
               .names = {"row", "column"},
               .labels = {"by row", "by column"},
               .picks = {0, 1},
               .get = [](const S& s) { return std::int64_t{s.params.matrix_by_column}; },
               .set = [](S& s, std::int64_t v) { s.params.matrix_by_column = v != 0; },
               .applies = has_matrix,
               .written = matrix_written,
               .strip = "by column",
               .strip_when = has_matrix,
               .strip_style = K::StripStyle::Check});
  k.push_back({.key = "matrix.pitched",
               .label = "rows padded by cudaMallocPitch",
               .style = KnobStyle::Check,
               .picks = {0, 1},
               .get = [](const S& s) { return std::int64_t{s.params.matrix_pitched}; },
               .set = [](S& s, std::int64_t v) { s.params.matrix_pitched = v != 0; },
               .applies = has_matrix,
               .written = matrix_written,
               .strip = "padded rows",
               .strip_when = has_matrix});
  k.push_back({.key = "matrix.block_y",
               .label = "block",
               .style = KnobStyle::Radio,
               .values = {8, 16, 32},
               .picks = {8, 16, 32},
               .get = [](const S& s) { return std::int64_t{s.params.block_y}; },
               .set = [](S& s, std::int64_t v) { s.params.block_y = static_cast<int>(v); },
               .applies = has_matrix,
               .written = matrix_written});
  return k;
}

}  // namespace

bool one_dimensional(const CopyState& state) {
  return state.params.layout == StructLayout::None && state.params.matrix_width == 0;
}

const std::vector<Knob<CopyState>>& global_knobs() {
  static const std::vector<Knob<CopyState>> knobs = make_knobs();
  return knobs;
}

const Knob<CopyState>& global_knob(const std::string& key) {
  if (const auto* k = find_knob(global_knobs(), key)) return *k;
  throw std::logic_error("the global lab has no knob \"" + key + "\"");
}

}  // namespace warplens::app
