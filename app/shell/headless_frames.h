// What the headless renderers (`warplens render`, `warplens render --all`) share: the views and
// sessions a frame draws, waiting for the sessions' GPU work, and drawing the settled frames.
#pragma once

#include <chrono>

#include "app_ui.h"
#include "frontends.h"
#include "gl_program.h"
#include "layout_audit.h"

namespace warplens::app {

/// The ImGui layer, the views and the sessions of one headless render. Needs a current GL
/// context (viz::HeadlessContext) for its whole life; throws what their constructors throw.
struct HeadlessScene {
  explicit HeadlessScene(const ViewOptions& options);

  /// Updates the labs until they are idle or `timeout` has passed (polling every 5 ms).
  /// Returns whether they are idle.
  bool wait_until_idle(std::chrono::seconds timeout = std::chrono::seconds(120));

  /// Frames a still picture takes to settle: ImGui's window sizes, and the presenter strip,
  /// which measures its knobs (one frame), shows "as stored" where a tile had no room (the
  /// next), gives up the knobs' labels, then takes a second line (one frame each).
  static constexpr int kSettleFrames = 5;

  /// Draws the UI `frames` times into `target` (`width` x `height` pixels, cleared to the
  /// theme's background; ImGui settles window sizes over a few frames), then waits for GL
  /// (glFinish), so the framebuffer can be read. With `audit`, it holds the findings of the
  /// last frame (the one read back) and nothing else.
  void draw_frames(UiState& ui, viz::RenderTarget& target, int width, int height,
                   int frames = kSettleFrames, LayoutAudit* audit = nullptr);

  /// A still picture to read back: as draw_frames, but only the last frame is rasterised (the
  /// ones before it settle the layout and ImGui's state, all they are for; on a software
  /// renderer rasterising is most of a frame's time). The views draw into their own targets
  /// every frame. The framebuffer holds the same pixels as draw_frames would leave.
  void draw_still(UiState& ui, viz::RenderTarget& target, int width, int height,
                  LayoutAudit* audit = nullptr, int frames = kSettleFrames);

  /// An empty frame (no window drawn), then ImGui's garbage collection of every window's and
  /// table's draw buffers (viz::ImGuiLayer::compact_memory) in a second empty frame: what a
  /// window's draw buffers hold afterwards is what the next frames draw, not the largest frame
  /// each window ever drew. Leaves `target` bound.
  void compact_ui_memory(viz::RenderTarget& target, int width, int height);

  viz::ImGuiLayer layer;
  Workbench labs;  ///< every lab the render shows, made on first use (A/B's side A too)

 private:
  void draw(UiState& ui, viz::RenderTarget& target, int width, int height, int frames,
            LayoutAudit* audit, bool rasterize_every_frame);
};

}  // namespace warplens::app
