// The window's content, drawn with ImGui: header with the device (or the model-only banner),
// parameter panel, warp view, statistics. The same code draws the interactive window and the
// headless figures, so a figure is exactly what the window shows.
#pragma once

#include <string>

#include "copy_session.h"
#include "heat_strip.h"
#include "imgui_layer.h"
#include "theme.h"
#include "warp_view.h"

namespace warplens::app {

enum class BottomView { Numbers, Heatmap, OffsetSweep, StrideSweep };

struct UiState {
  int scenario = 0;  ///< index into builtin_scenarios()
  viz::ThemeName theme = viz::ThemeName::Light;
  bool theme_changed = false;  ///< set by the panel; the caller re-styles ImGui
  bool interactive = true;     ///< false for headless figures (no hover tooltips, no buttons)
  BottomView bottom = BottomView::Numbers;
  bool select_bottom = false;  ///< select `bottom`'s tab on the next frame (startup, figures)
  int sweep_word_bytes = 4;
  bool log_y = false;
  std::string message;  ///< last export result
};

/// Draws one frame's UI covering `width` x `height` pixels. Call between
/// ImGuiLayer::begin_frame and end_frame, with the session's GL context current.
void draw_app(UiState& ui, CopySession& session, viz::WarpView& view, viz::HeatStrip& heat,
              const viz::ImGuiLayer& layer, int width, int height);

}  // namespace warplens::app
