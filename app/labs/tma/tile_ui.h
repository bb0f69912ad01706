// The tile lab's panels: the parameter panel (the knob table), the view (the tile's CuTe layout,
// the tile as stored beside the warp's read on the 32 banks), the numbers under it, the status
// line and the presenter's key numbers.
#pragma once

#include <imgui.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bank_view.h"
#include "imgui_layer.h"
#include "lab.h"
#include "theme.h"
#include "tile_session.h"
#include "ui_state.h"

namespace warplens::app {

void draw_tile_parameters(TileSession& session, const TileResults& r, const viz::Theme& theme,
                          ImVec2 pos, ImVec2 size, bool interactive,
                          const std::function<void()>& header);
/// Beside the tile, the bank grid; where both do not fit, one of them, as `ui.array_alone` says
/// (unset: the bank grid), and `ui.array_left_out` set so the shell offers the switch (key T).
void draw_tile_view(UiState& ui, TileSession& session, const TileResults& r, viz::BankView& banks,
                    const viz::ImGuiLayer& layer, const viz::Theme& theme, ImVec2 pos, ImVec2 size,
                    bool interactive, const char* side_name);
void draw_tile_numbers(const TileSession& session, const TileResults& r,
                       const viz::ImGuiLayer& layer, const viz::Theme& theme, ImVec2 pos,
                       ImVec2 size);

/// The tile as stored: shared rows x 16-byte chunks, each cell naming the element (row, column)
/// that starts it, tinted by its first bank, the chunks the warp's read touches outlined. From
/// the GPU's read-back when `placement` is set, else the model's. Fills `size` at the cursor.
void draw_stored_tile(const TileState& state, const TileModel& model,
                      const gpu::TilePlacement* placement, const viz::ImGuiLayer& layer,
                      const viz::Theme& theme, ImVec2 size, bool interactive);

/// Who gives and who receives an ldmatrix's rows (PTX ISA, "ldmatrix"): "Lanes 0-7 matrix 0's,
/// 8-15 matrix 1's ... row addresses (Ln in the tile); lane t receives row t/4, elements 2(t%4)
/// and +1 of each matrix, matrix m in its register m." (.trans: column t/4, rows 2(t%4), +1).
std::string ldmatrix_lanes_text(const gpu::TileRead& read);

/// "the model's: 4 wavefronts per request" and the like (tile_ui.cpp).
std::string tile_model_text(const TileModel& model);
/// The counters' line: "GPU counters: 4.00 wavefronts per request ✓", why there are none, or
/// what is still running; empty without a GPU.
std::string tile_counter_text(const TileSession& session, const TileResults& r);
/// Whether the counters confirmed the model (equal to 1/100 of a wavefront).
bool tile_counters_agree(const TileModel& model, const TileResults& r);
std::string tile_status_text(const TileSession& session, const TileResults& r);
std::vector<KeyNumber> tile_key_numbers(const TileSession& session, const TileResults& r);

}  // namespace warplens::app
