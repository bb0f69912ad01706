// The 2D array view: a shared tile or a global matrix drawn as it is stored, rows x columns of
// elements with the row pitch's padding columns, and one warp's lanes on the elements they touch
// (from the same trace the bank grid or warp view draws). A shared tile's words are tinted and
// numbered by bank: beside the bank grid it shows why a column read of tile[32][32] lands in one
// bank (a column is one tint) and why tile[32][33] or an XOR swizzle spreads it (the tints run
// diagonally). A global matrix's elements are tinted by 128-byte line: rows of 120 floats start
// inside a line; cudaMallocPitch's padded rows start on one.
#pragma once

#include <imgui.h>

#include <string>

#include "imgui_layer.h"
#include "index_math.h"
#include "shared_index.h"
#include "theme.h"
#include "ui_state.h"

namespace warplens::app {

/// Whether `index` is an access the tile view can draw: a 2D tile (SharedPatternKind::Tile, or a
/// matrix multiply's blockA / blockB) of 4-byte words, at most 64 elements of row pitch.
[[nodiscard]] bool tile_view_applies(const SharedIndexParams& index);

/// Width an array view wants beside a bank grid or warp view in a `room` x `height` pixel area:
/// at most 40 % of the room, and 0 (none) where the picture beside it would keep less than
/// `keep` pixels x scale.
[[nodiscard]] float array_view_width(float room, float height, float scale, float keep = 520);

/// The most rows the array view and its figure draw.
inline constexpr int kArrayMaxRows = 32;

/// A 2D array as stored, for draw_array_view: rows of `pitch_elements` elements of
/// `element_bytes`, the first `width_elements` of each row in use (the rest is padding), its
/// element 0 at byte `base_bytes` of the traced addresses.
struct ArrayGeometry {
  const char* name = "tile";  ///< "tile" (shared) or "matrix" (global), for the caption
  int pitch_elements = 32;
  int width_elements = 32;
  int element_bytes = 4;
  std::int64_t base_bytes = 0;
  int min_rows = 1;  ///< rows drawn at least (the warp's touched rows are always drawn)
  /// Shared memory: tint and number each element by its bank (`banks` x `bank_width_bytes`).
  /// Global memory (banks = 0): tint by 128-byte line, alternating, so row starts that fall
  /// inside a line show.
  int banks = 32;
  int bank_width_bytes = 4;
};

/// A word's tint by its bank (the tile view's and its figure's): a hue around the circle, pale
/// enough that the lanes' colours stand out on it.
[[nodiscard]] viz::Rgb bank_tint(int bank, int banks, const viz::Theme& theme);

/// What the array view's tint, numbers and rings mean (the window's caption and the figure's
/// key, one wording): a shared tile's cells carry their bank, lanes show by colour, and a word
/// several lanes read (`broadcast`) is ringed; a global matrix's tint is its 128-byte lines and
/// its numbers are lanes. Without `numbered` (cells too small for their numbers) it names the
/// tint alone; with `conflict`, it says what the frame on a conflicting bank's words means.
[[nodiscard]] std::string array_key_text(bool shared, bool broadcast, bool numbered = true,
                                         bool conflict = false);

/// The geometry of a shared tile access (tile_view_applies) with the model's banks.
[[nodiscard]] ArrayGeometry tile_geometry(const SharedIndexParams& index, int banks,
                                          int bank_width_bytes);

/// Draws warp slot 0 of `trace` on the 2D array `array` into a `size` pixel area at the cursor
/// of the current ImGui window. With `interactive`, hovering an element says its row, column,
/// bank or line, and the lanes on it. `count`: the count of the picture it stands in for (a bank
/// grid's "Wavefronts per request: 32"), drawn bold with it so the count stays on screen.
void draw_array_view(const TraceRecords& trace, const ArrayGeometry& array,
                     const viz::ImGuiLayer& layer, const viz::Theme& theme, ImVec2 size,
                     bool interactive, const std::string& count = {});

/// The count a tile view shown in the bank grid's place keeps (begin_array_view's `count`):
/// "Wavefronts per request: 32 • conflict-free would take 1" ("… • the minimum"), or "…: ?"
/// while predict-then-reveal hides the answer.
[[nodiscard]] std::string tile_count_text(int wavefronts, int min_wavefronts, bool hidden);

/// Where begin_array_view put the array view this frame.
enum class ArrayPlacement {
  None,    ///< not drawn: draw the picture alone
  Beside,  ///< left of the picture: draw the picture, then call end_array_beside()
  Alone,   ///< in the picture's place (UiState::array_alone): draw no picture, call no end
};

/// Beside a picture: where `room` (the current window's free region) leaves the picture `keep`
/// pixels x scale, draws the array view in a child on the left, opens a child for the picture on
/// the right and returns Beside. Where both do not fit (a projector at 3x), the array view fills
/// the room in the picture's place (with `count` under it) and returns Alone, or draws
/// nothing and returns None, as `ui.array_alone` says (key T, the presenter strip's "as
/// stored"); unset, an array view that `stays` (a shared tile: the lesson's picture) stands
/// alone and one that does not (a matrix beside its warp view) gives way. It sets
/// `ui.array_left_out` so the shell offers the switch; a staying array view left out on request
/// is no finding, one left out otherwise is a "missing" one.
ArrayPlacement begin_array_view(UiState& ui, const TraceRecords& trace, const ArrayGeometry& array,
                                const viz::ImGuiLayer& layer, const viz::Theme& theme,
                                float keep = 520, bool stays = false,
                                const std::string& count = {});
void end_array_beside();

}  // namespace warplens::app
