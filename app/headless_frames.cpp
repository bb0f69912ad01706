#include "headless_frames.h"

#include <glad/gl.h>

#include <thread>

namespace warplens::app {

HeadlessScene::HeadlessScene(const ViewOptions& options)
    : layer(nullptr, options.scale, options.theme),
      session(view, heat, options.use_gpu),
      shared(bank_view, global_view, options.use_gpu),
      cache(options.use_gpu),
      compare(options.use_gpu) {}

bool HeadlessScene::wait_until_idle(std::chrono::seconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  const auto idle = [&] {
    return session.idle() && shared.idle() && cache.idle() && compare.idle();
  };
  session.update();
  shared.update();
  cache.update();
  compare.update();
  while (!idle() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    session.update();
    shared.update();
    cache.update();
    compare.update();
  }
  return idle();
}

void HeadlessScene::draw_frames(UiState& ui, viz::RenderTarget& target, int width, int height,
                                int frames) {
  for (int frame = 0; frame < frames; ++frame) {
    target.bind(width, height);
    const viz::Rgb bg = viz::theme(ui.theme).background;
    glClearColor(bg.r, bg.g, bg.b, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    layer.begin_frame(width, height, 1.0f / 60.0f);
    draw_app(ui, session, shared, view, bank_view, global_view, heat, layer, width, height, &cache,
             &compare);
    target.bind(width, height);
    layer.end_frame();
  }
  glFinish();
}

}  // namespace warplens::app
