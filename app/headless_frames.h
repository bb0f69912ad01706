// What the headless renderers (`warplens render`, `warplens render --all`) share: the views and
// sessions a frame draws, waiting for the sessions' GPU work, and drawing the settled frames.
#pragma once

#include <chrono>

#include "app_ui.h"
#include "frontends.h"
#include "gl_program.h"

namespace warplens::app {

/// The ImGui layer, the views and the sessions of one headless render. Needs a current GL
/// context (viz::HeadlessContext) for its whole life; throws what their constructors throw.
struct HeadlessScene {
  explicit HeadlessScene(const ViewOptions& options);

  /// Updates both sessions until they are idle or `timeout` has passed (polling every 5 ms).
  /// Returns whether they are idle.
  bool wait_until_idle(std::chrono::seconds timeout = std::chrono::seconds(120));

  /// Draws the UI `frames` times into `target` (`width` x `height` pixels, cleared to the
  /// theme's background; ImGui settles window sizes over a few frames), then waits for GL
  /// (glFinish), so the framebuffer can be read.
  void draw_frames(UiState& ui, viz::RenderTarget& target, int width, int height, int frames = 3);

  viz::ImGuiLayer layer;
  viz::WarpView view;
  viz::HeatStrip heat;
  viz::BankView bank_view;
  viz::WarpView global_view;  // the transpose lab's global read/write
  CopySession session;
  SharedSession shared;
  CacheSession cache;   // the cache lab's
  CompareSlot compare;  // A/B compare's side A, made when a scenario or the UI asks for it
};

}  // namespace warplens::app
