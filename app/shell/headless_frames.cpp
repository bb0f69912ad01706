#include "headless_frames.h"

#include <glad/gl.h>

#include "frame_phases.h"

#include <optional>
#include <thread>

namespace warplens::app {

HeadlessScene::HeadlessScene(const ViewOptions& options)
    : layer(nullptr, options.scale, options.theme), labs(options.use_gpu) {}

bool HeadlessScene::wait_until_idle(std::chrono::seconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  labs.update();
  while (!labs.idle() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    labs.update();
  }
  return labs.idle();
}

void HeadlessScene::draw_frames(UiState& ui, viz::RenderTarget& target, int width, int height,
                                int frames, LayoutAudit* audit) {
  draw(ui, target, width, height, frames, audit, true);
}

void HeadlessScene::draw_still(UiState& ui, viz::RenderTarget& target, int width, int height,
                               LayoutAudit* audit, int frames) {
  draw(ui, target, width, height, frames, audit, false);
}

void HeadlessScene::draw(UiState& ui, viz::RenderTarget& target, int width, int height, int frames,
                         LayoutAudit* audit, bool rasterize_every_frame) {
  for (int frame = 0; frame < frames; ++frame) {
    const bool last = frame == frames - 1;
    const bool rasterized = last || rasterize_every_frame;
    const bool audited = audit && last;
    if (audited) audit->clear();
    std::optional<LayoutAudit::Scope> scope;
    if (audited) scope.emplace(*audit);
    target.bind(width, height);
    if (rasterized) {
      const viz::Rgb bg = viz::theme(ui.theme).background;
      glClearColor(bg.r, bg.g, bg.b, 1);
      glClear(GL_COLOR_BUFFER_BIT);
    }
    layer.begin_frame(width, height, 1.0f / 60.0f);
    draw_app(ui, labs, layer, width, height);
    target.bind(width, height);
    const PhaseTimer timer("ImGui render");
    layer.end_frame(rasterized);
  }
  const PhaseTimer timer("glFinish");
  glFinish();
}

void HeadlessScene::compact_ui_memory(viz::RenderTarget& target, int width, int height) {
  for (int frame = 0; frame < 2; ++frame) {
    if (frame == 1) layer.compact_memory();  // acts in this frame's begin_frame
    target.bind(width, height);
    layer.begin_frame(width, height, 1.0f / 60.0f);
    layer.end_frame();
  }
  glFinish();
}

}  // namespace warplens::app
