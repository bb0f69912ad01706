// The interactive window: GLFW with an OpenGL 3.3 core context, loaded through glad.
#pragma once

#include <string>

#include "gl_program.h"

struct GLFWwindow;

namespace warplens::viz {

class GlfwWindow {
 public:
  /// Opens a window; throws GlError with GLFW's description when there is no display or no
  /// GL 3.3 core support.
  GlfwWindow(const std::string& title, int width, int height);
  ~GlfwWindow();
  GlfwWindow(const GlfwWindow&) = delete;
  GlfwWindow& operator=(const GlfwWindow&) = delete;

  [[nodiscard]] GLFWwindow* handle() const { return window_; }
  [[nodiscard]] bool should_close() const;
  void poll_events();
  void swap_buffers();
  /// Framebuffer size in pixels.
  void framebuffer_size(int* width, int* height) const;
  /// Content scale reported by the monitor (1 on most projectors, 2 on HiDPI laptops).
  [[nodiscard]] float content_scale() const;
  /// Full screen on the monitor the window is on, or back to the window it was.
  void toggle_fullscreen();

 private:
  GLFWwindow* window_ = nullptr;
  int windowed_[4] = {0, 0, 0, 0};  ///< x, y, width, height before going full screen
};

}  // namespace warplens::viz
