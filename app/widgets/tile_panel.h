// The tile view: a 2D shared-memory tile drawn as it is stored, rows x columns of words with the
// row pitch's padding columns, each word tinted and numbered by its bank, and one warp's lanes on
// the words they touch (from the same trace the bank grid draws). Beside the bank grid it shows
// why a column read of tile[32][32] lands in one bank (a column is one tint) and why tile[32][33]
// or an XOR swizzle spreads it (the tints run diagonally).
#pragma once

#include <imgui.h>

#include "imgui_layer.h"
#include "index_math.h"
#include "shared_index.h"
#include "theme.h"

namespace warplens::app {

/// Whether `index` is an access the tile view can draw: a 2D tile (SharedPatternKind::Tile, or a
/// matrix multiply's blockA / blockB) of 4-byte words, at most 64 elements of row pitch.
[[nodiscard]] bool tile_view_applies(const SharedIndexParams& index);

/// Width the tile view wants beside a bank grid in a `room` x `height` pixel area (0: none,
/// when the grid would be left too narrow).
[[nodiscard]] float tile_view_width(const SharedIndexParams& index, float room, float height,
                                    float scale);

/// Draws the tile of `index` with warp slot 0 of `trace` on it into a `size` pixel area at the
/// cursor of the current ImGui window. `banks` x `bank_width_bytes`: the model's banks (32 x 4
/// on every GPU since Fermi). With `interactive`, hovering a word says its row, column, bank and
/// lanes.
void draw_tile_view(const TraceRecords& trace, const SharedIndexParams& index, int banks,
                    int bank_width_bytes, const viz::ImGuiLayer& layer, const viz::Theme& theme,
                    ImVec2 size, bool interactive);

}  // namespace warplens::app
