#include "tile_knobs.h"

#include <cstdint>

namespace warplens::app {

std::string tile_fill_name(gpu::TileFill fill) {
  return fill == gpu::TileFill::Tma ? "tma" : "threads";
}

namespace {

bool threads_fill(const TileState& s) {
  return s.tile.fill == gpu::TileFill::Threads;
}
bool ldmatrix(const TileState& s) {
  return s.read.kind == gpu::TileReadKind::Ldmatrix;
}

std::vector<Knob<TileState>> make_knobs() {
  using S = TileState;
  std::vector<Knob<S>> k;
  auto fill =
      named<S>({.key = "fill",
                .label = "Fill (who puts the tile in shared memory)",
                .style = KnobStyle::Radio,
                .picks = {knob_value(gpu::TileFill::Tma), knob_value(gpu::TileFill::Threads)},
                .get = [](const S& s) { return knob_value(s.tile.fill); },
                .set = [](S& s, std::int64_t v) { s.tile.fill = static_cast<gpu::TileFill>(v); }},
               {gpu::TileFill::Tma, gpu::TileFill::Threads}, tile_fill_name);
  fill.labels = {"TMA", "threads"};
  // The TMA writes dense rows: back to them when the fill goes to the TMA.
  fill.then = [](S& s) {
    if (s.tile.fill == gpu::TileFill::Tma) s.tile.pitch_bytes = 0;
  };
  k.push_back(std::move(fill));
  k.push_back(named<S>(
      {.key = "swizzle",
       .label = "Swizzle mode",
       .style = KnobStyle::Radio,
       .picks = knob_values(
           std::initializer_list<gpu::TmaSwizzle>{gpu::TmaSwizzle::None, gpu::TmaSwizzle::B32,
                                                  gpu::TmaSwizzle::B64, gpu::TmaSwizzle::B128}),
       .get = [](const S& s) { return knob_value(s.tile.swizzle); },
       .set = [](S& s, std::int64_t v) { s.tile.swizzle = static_cast<gpu::TmaSwizzle>(v); }},
      gpu::kTmaSwizzles, [](gpu::TmaSwizzle w) { return std::string(gpu::to_string(w)); }));
  k.push_back({.key = "element_bytes",
               .label = "Element size (bytes)",
               .style = KnobStyle::Radio,
               .values = {1, 2, 4},
               .picks = {1, 2, 4},
               .get = [](const S& s) { return std::int64_t{s.tile.element_bytes}; },
               .set = [](S& s, std::int64_t v) { s.tile.element_bytes = static_cast<int>(v); }});
  k.push_back({.key = "rows",
               .label = "Rows",
               .style = KnobStyle::Input,
               .low = 1,
               .high = 256,
               .picks = {8, 16, 32, 64},
               .get = [](const S& s) { return std::int64_t{s.tile.rows}; },
               .set = [](S& s, std::int64_t v) { s.tile.rows = static_cast<int>(v); }});
  k.push_back({.key = "cols",
               .label = "Columns (elements per row)",
               .style = KnobStyle::Input,
               .low = 1,
               .high = 256,
               .picks = {16, 32, 64},
               .get = [](const S& s) { return std::int64_t{s.tile.cols}; },
               .set = [](S& s, std::int64_t v) { s.tile.cols = static_cast<int>(v); }});
  k.push_back({.key = "pitch_bytes",
               .label = "Row pitch (bytes; 0: dense rows)",
               .style = KnobStyle::Input,
               .low = 0,
               .high = 4096,
               .picks = {0, 144, 272},
               .get = [](const S& s) { return std::int64_t{s.tile.pitch_bytes}; },
               .set = [](S& s, std::int64_t v) { s.tile.pitch_bytes = static_cast<int>(v); },
               .applies = threads_fill,
               .shown = threads_fill,
               .written = [](const S& s) { return threads_fill(s) || s.tile.pitch_bytes != 0; }});
  k.push_back(named<S>(
      {.key = "read",
       .label = "The warp's read",
       .style = KnobStyle::Radio,
       .picks = knob_values(std::initializer_list<gpu::TileReadKind>{
           gpu::TileReadKind::Row, gpu::TileReadKind::Column, gpu::TileReadKind::Ldmatrix}),
       .get = [](const S& s) { return knob_value(s.read.kind); },
       .set = [](S& s, std::int64_t v) { s.read.kind = static_cast<gpu::TileReadKind>(v); }},
      {gpu::TileReadKind::Row, gpu::TileReadKind::Column, gpu::TileReadKind::Ldmatrix},
      [](gpu::TileReadKind r) { return std::string(gpu::to_string(r)); }));
  k.push_back({.key = "index",
               .label = "Index (first row; column of a column read)",
               .style = KnobStyle::Input,
               .low = 0,
               .high = 255,
               .picks = {0, 1, 8},
               .get = [](const S& s) { return std::int64_t{s.read.index}; },
               .set = [](S& s, std::int64_t v) { s.read.index = static_cast<int>(v); }});
  k.push_back({.key = "matrices",
               .label = "Matrices (ldmatrix .x1 / .x2 / .x4)",
               .style = KnobStyle::Radio,
               .values = {1, 2, 4},
               .picks = {1, 2, 4},
               .get = [](const S& s) { return std::int64_t{s.read.matrices}; },
               .set = [](S& s, std::int64_t v) { s.read.matrices = static_cast<int>(v); },
               .applies = ldmatrix,
               .shown = ldmatrix});
  k.push_back({.key = "trans",
               .label = ".trans",
               .style = KnobStyle::Check,
               .picks = {0, 1},
               .get = [](const S& s) { return std::int64_t{s.read.trans}; },
               .set = [](S& s, std::int64_t v) { s.read.trans = v != 0; },
               .applies = ldmatrix,
               .shown = ldmatrix});
  return k;
}

}  // namespace

const std::vector<Knob<TileState>>& tile_knobs() {
  static const std::vector<Knob<TileState>> knobs = make_knobs();
  return knobs;
}

}  // namespace warplens::app
