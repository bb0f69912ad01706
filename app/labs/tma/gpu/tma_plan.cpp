// The tile lab's host side (tma_lab.h): checks, the tile's CuTe layout, the model's placement
// and the warp's read addresses. Built in every build, the model-only one included.
#include <stdexcept>
#include <string>

#include "cute_layout.h"
#include "tma_lab.h"
#include "tma_model.h"

namespace warplens::gpu {

namespace {

[[noreturn]] void refuse(const std::string& what) {
  throw std::invalid_argument(what);
}

int log2_of(int power_of_two) {
  int n = 0;
  while ((1 << n) < power_of_two) ++n;
  return n;
}

/// The largest tile: 48 KiB (what a block may use without opting in), so that every element
/// index fits the 16 bits its value carries (1-byte elements: in two fills, low byte then high
/// byte) and stays below 0xEEEE, the read-back's padding.
constexpr int kMaxTileBytes = 48 * 1024;

}  // namespace

std::string_view to_string(TmaSwizzle swizzle) {
  switch (swizzle) {
    case TmaSwizzle::None: return "none";
    case TmaSwizzle::B32: return "32B";
    case TmaSwizzle::B64: return "64B";
    case TmaSwizzle::B128: return "128B";
  }
  return "none";
}

TmaSwizzle parse_tma_swizzle(std::string_view text) {
  for (TmaSwizzle s : kTmaSwizzles) {
    if (text == to_string(s)) return s;
  }
  if (text == "0") return TmaSwizzle::None;
  if (text == "32") return TmaSwizzle::B32;
  if (text == "64") return TmaSwizzle::B64;
  if (text == "128") return TmaSwizzle::B128;
  refuse("unknown swizzle mode '" + std::string(text) + "' (none, 32B, 64B or 128B)");
}

int swizzle_bits(TmaSwizzle swizzle) {
  switch (swizzle) {
    case TmaSwizzle::None: return 0;
    case TmaSwizzle::B32: return 1;
    case TmaSwizzle::B64: return 2;
    case TmaSwizzle::B128: return 3;
  }
  return 0;
}

int swizzle_span_bytes(TmaSwizzle swizzle) {
  const int b = swizzle_bits(swizzle);
  return b == 0 ? 0 : 16 << b;
}

int tile_pitch_bytes(const TileParams& tile) {
  return tile.pitch_bytes > 0 ? tile.pitch_bytes : tile.cols * tile.element_bytes;
}

int tile_shared_bytes(const TileParams& tile) {
  return tile.rows * tile_pitch_bytes(tile);
}

void check_tile(const TileParams& t) {
  if (t.element_bytes != 1 && t.element_bytes != 2 && t.element_bytes != 4) {
    refuse("element size " + std::to_string(t.element_bytes) + " bytes: the tile takes 1, 2 or 4");
  }
  if (t.rows < 1 || t.rows > 256) {
    refuse("rows " + std::to_string(t.rows) + ": a TMA box dimension is 1..256");
  }
  if (t.cols < 1 || t.cols > 256) {
    refuse("cols " + std::to_string(t.cols) + ": a TMA box dimension is 1..256");
  }
  const int row = t.cols * t.element_bytes;
  if (row % 16 != 0) {
    refuse("a row of " + std::to_string(t.cols) + " x " + std::to_string(t.element_bytes) +
           " bytes is " + std::to_string(row) +
           " bytes; the TMA moves rows in multiples of 16 bytes");
  }
  const int span = swizzle_span_bytes(t.swizzle);
  if (t.fill == TileFill::Tma && span > 0 && row > span) {
    refuse("a row of " + std::to_string(row) + " bytes is wider than the " +
           std::string(to_string(t.swizzle)) + " swizzle's span of " + std::to_string(span) +
           " bytes (cuTensorMapEncodeTiled refuses it)");
  }
  if (t.fill == TileFill::Tma && span > 0 && row < span) {
    // Measured only with rows of the span (H100); narrower boxes are where CUTLASS's swizzle
    // atoms never go, and the lab does not guess what the TMA writes there.
    refuse("under the " + std::string(to_string(t.swizzle)) + " swizzle the lab's TMA rows are " +
           std::to_string(span) + " bytes (" + std::to_string(span / t.element_bytes) + " x " +
           std::to_string(t.element_bytes) + "-byte elements), the swizzle's span; this row is " +
           std::to_string(row));
  }
  if (t.pitch_bytes != 0) {
    if (t.fill == TileFill::Tma && t.pitch_bytes != row) {
      refuse("the TMA writes dense rows: a pitch of " + std::to_string(t.pitch_bytes) +
             " bytes needs the threads' fill");
    }
    if (t.pitch_bytes < row || t.pitch_bytes % 16 != 0) {
      refuse("pitch " + std::to_string(t.pitch_bytes) + " bytes: at least the row's " +
             std::to_string(row) + " and a multiple of 16");
    }
  }
  if (tile_shared_bytes(t) > kMaxTileBytes || t.rows * row > kMaxTileBytes) {
    refuse("the tile takes " + std::to_string(tile_shared_bytes(t)) +
           " bytes of shared memory; the lab's limit is 48 KiB");
  }
}

std::string tile_layout_text(const TileParams& tile) {
  check_tile(tile);
  const std::string plain = "(" + std::to_string(tile.rows) + "," + std::to_string(tile.cols) +
                            "):(" + std::to_string(tile_pitch_bytes(tile) / tile.element_bytes) +
                            ",1)";
  const int b = swizzle_bits(tile.swizzle);
  if (b == 0) return plain;
  // Swizzle<B, 4, 3> on bytes is Swizzle<B, 4 - log2 E, 3> on elements of E bytes.
  return "Sw<" + std::to_string(b) + "," + std::to_string(4 - log2_of(tile.element_bytes)) +
         ",3> o " + plain;
}

std::vector<std::int32_t> tile_placement_model(const TileParams& tile) {
  const model::CuteLayout layout = model::parse_layout(tile_layout_text(tile));
  std::vector<std::int32_t> offsets(static_cast<std::size_t>(tile.rows) * tile.cols);
  for (int r = 0; r < tile.rows; ++r) {
    for (int c = 0; c < tile.cols; ++c) {
      // CuTe's index of coordinate (r, c) in shape (rows, cols) is r + c x rows
      // (colexicographic); the layout gives the element offset.
      const std::int64_t element = layout(r + static_cast<std::int64_t>(c) * tile.rows);
      offsets[static_cast<std::size_t>(r) * tile.cols + c] =
          static_cast<std::int32_t>(element * tile.element_bytes);
    }
  }
  return offsets;
}

std::string_view to_string(TileReadKind kind) {
  switch (kind) {
    case TileReadKind::Row: return "row";
    case TileReadKind::Column: return "column";
    case TileReadKind::Ldmatrix: return "ldmatrix";
  }
  return "row";
}

TileReadKind parse_tile_read(std::string_view text) {
  for (TileReadKind k : {TileReadKind::Row, TileReadKind::Column, TileReadKind::Ldmatrix}) {
    if (text == to_string(k)) return k;
  }
  refuse("unknown read '" + std::string(text) + "' (row, column or ldmatrix)");
}

std::string tile_read_text(const TileRead& read) {
  if (read.kind == TileReadKind::Ldmatrix) {
    return "ldmatrix.x" + std::to_string(read.matrices) + (read.trans ? ".trans" : "") +
           (read.index ? " from row " + std::to_string(read.index) : "");
  }
  return std::string(to_string(read.kind)) + " " + std::to_string(read.index);
}

void check_tile_read(const TileParams& tile, const TileRead& read) {
  check_tile(tile);
  switch (read.kind) {
    case TileReadKind::Row:
      if (read.index < 0 || (read.index * tile.cols + 32 > tile.rows * tile.cols)) {
        refuse("a row read from row " + std::to_string(read.index) +
               " needs 32 elements; the tile has " + std::to_string(tile.rows * tile.cols) +
               " (rows x cols)");
      }
      break;
    case TileReadKind::Column:
      if (read.index < 0 || read.index >= tile.cols) {
        refuse("column " + std::to_string(read.index) + " is outside the tile's " +
               std::to_string(tile.cols) + " columns");
      }
      break;
    case TileReadKind::Ldmatrix: {
      if (tile.element_bytes != 2) {
        refuse("ldmatrix reads 16-bit elements; this tile's are " +
               std::to_string(tile.element_bytes) + " bytes");
      }
      if (read.matrices != 1 && read.matrices != 2 && read.matrices != 4) {
        refuse("ldmatrix loads 1, 2 or 4 matrices (.x1, .x2, .x4), not " +
               std::to_string(read.matrices));
      }
      const int rows = read.matrices == 1 ? 8 : 16;
      const int cols = read.matrices == 4 ? 16 : 8;
      if (read.index < 0 || read.index + rows > tile.rows || cols > tile.cols) {
        refuse("ldmatrix.x" + std::to_string(read.matrices) + " reads " + std::to_string(rows) +
               " rows x " + std::to_string(cols) + " columns from row " +
               std::to_string(read.index) + "; the tile is " + std::to_string(tile.rows) + " x " +
               std::to_string(tile.cols));
      }
      break;
    }
  }
}

TileLanes tile_read_lanes(const TileParams& tile, const TileRead& read) {
  check_tile_read(tile, read);
  const std::vector<std::int32_t> at = tile_placement_model(tile);
  const auto element = [&](int r, int c) {
    return at[static_cast<std::size_t>(r) * tile.cols + c];
  };
  TileLanes lanes;
  lanes.byte_offset.fill(-1);
  lanes.access_bytes = tile.element_bytes;
  for (int l = 0; l < 32; ++l) {
    switch (read.kind) {
      case TileReadKind::Row: {
        const int k = read.index * tile.cols + l;
        lanes.byte_offset[l] = element(k / tile.cols, k % tile.cols);
        break;
      }
      case TileReadKind::Column:
        if (l < tile.rows) lanes.byte_offset[l] = element(l, read.index);
        break;
      case TileReadKind::Ldmatrix:
        lanes.access_bytes = 16;
        // A row's 8 elements are one 16-byte chunk under every mode (the swizzles move 16-byte
        // chunks), so the row's address is that of its first element.
        if (l < 8 * read.matrices)
          lanes.byte_offset[l] = element(read.index + l % 16, 8 * (l / 16));
        break;
    }
    if (lanes.byte_offset[l] >= 0) ++lanes.active;
  }
  return lanes;
}

std::optional<std::string> tile_unsupported(const TileParams& tile, const TileRead* read,
                                            int cc_major, int cc_minor) {
  const std::string cc = std::to_string(cc_major) + "." + std::to_string(cc_minor);
  if (tile.fill == TileFill::Tma && cc_major < 9) {
    return "the TMA (cp.async.bulk.tensor) needs compute capability 9.0; this GPU is " + cc;
  }
  if (read && read->kind == TileReadKind::Ldmatrix && cc_major * 10 + cc_minor < 75) {
    return "ldmatrix needs compute capability 7.5; this GPU is " + cc;
  }
  return std::nullopt;
}

}  // namespace warplens::gpu

// --- the bank model of a read (tma_model.h) ---------------------------------------------------

namespace warplens::gpu {

model::SharedAnalysis tile_read_analysis(const TileParams& tile, const TileRead& read) {
  const TileLanes lanes = tile_read_lanes(tile, read);
  model::WarpAccesses warp{};
  for (int l = 0; l < 32; ++l) {
    model::LaneAccess& a = warp[static_cast<std::size_t>(l)];
    a.lane = l;
    a.tx = l;
    a.active = lanes.byte_offset[l] >= 0;
    if (!a.active) continue;
    a.address = lanes.byte_offset[l];
    a.index = lanes.byte_offset[l] / lanes.access_bytes;
  }
  return model::analyze_shared(warp, lanes.access_bytes, model::Op::Load);
}

}  // namespace warplens::gpu
