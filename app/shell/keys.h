// The keys a lecturer drives the window with (arrows, space, . and ,, Q, 1-4, C, A / B, P, T, ?,
// each lab's own letter) and the "?" overlay that lists them. F11 is the GLFW frontend's.
#pragma once

#include "ui_state.h"
#include "workbench.h"

namespace warplens::app {

/// The keyboard help overlay ("?"), centred in a `w` x `h` window, while ui.show_keys.
void draw_keys_help(UiState& ui, float w, float h);

/// This frame's keys, after the views are drawn; ignored while a text field has the keyboard
/// or the window is not interactive. `presenter_shown`: the layout this frame drew (P flips it).
void handle_keys(UiState& ui, Workbench& labs, bool presenter_shown);

}  // namespace warplens::app
