#include "glfw_window.h"

#include <GLFW/glfw3.h>

#include <algorithm>

namespace warplens::viz {

namespace {
std::string last_glfw_error() {
  const char* description = nullptr;
  glfwGetError(&description);
  return description ? description : "unknown GLFW error";
}
}  // namespace

GlfwWindow::GlfwWindow(const std::string& title, int width, int height) {
  if (!glfwInit()) throw GlError("cannot open a window: " + last_glfw_error());
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  window_ = glfwCreateWindow(width, height, title.c_str(), nullptr, nullptr);
  if (!window_) {
    const std::string why = last_glfw_error();
    glfwTerminate();
    throw GlError("cannot open a window with OpenGL 3.3 core: " + why);
  }
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(1);
  if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress))) {
    glfwDestroyWindow(window_);
    glfwTerminate();
    throw GlError("cannot load OpenGL 3.3 core functions for the window");
  }
}

GlfwWindow::~GlfwWindow() {
  glfwDestroyWindow(window_);
  glfwTerminate();
}

bool GlfwWindow::should_close() const {
  return glfwWindowShouldClose(window_);
}
void GlfwWindow::poll_events() {
  glfwPollEvents();
}
void GlfwWindow::swap_buffers() {
  glfwSwapBuffers(window_);
}
void GlfwWindow::framebuffer_size(int* width, int* height) const {
  glfwGetFramebufferSize(window_, width, height);
}
float GlfwWindow::content_scale() const {
  float x = 1, y = 1;
  glfwGetWindowContentScale(window_, &x, &y);
  return std::max(1.0f, x);
}

void GlfwWindow::toggle_fullscreen() {
  if (glfwGetWindowMonitor(window_)) {
    glfwSetWindowMonitor(window_, nullptr, windowed_[0], windowed_[1], windowed_[2], windowed_[3],
                         GLFW_DONT_CARE);
    return;
  }
  glfwGetWindowPos(window_, &windowed_[0], &windowed_[1]);
  glfwGetWindowSize(window_, &windowed_[2], &windowed_[3]);
  // The monitor holding the window's centre (the primary one if none does).
  int count = 0;
  GLFWmonitor** monitors = glfwGetMonitors(&count);
  GLFWmonitor* target = glfwGetPrimaryMonitor();
  const int cx = windowed_[0] + windowed_[2] / 2, cy = windowed_[1] + windowed_[3] / 2;
  for (int i = 0; i < count; ++i) {
    int mx = 0, my = 0;
    glfwGetMonitorPos(monitors[i], &mx, &my);
    const GLFWvidmode* mode = glfwGetVideoMode(monitors[i]);
    if (mode && cx >= mx && cx < mx + mode->width && cy >= my && cy < my + mode->height)
      target = monitors[i];
  }
  if (!target) return;
  const GLFWvidmode* mode = glfwGetVideoMode(target);
  if (!mode) return;
  glfwSetWindowMonitor(window_, target, 0, 0, mode->width, mode->height, mode->refreshRate);
}

}  // namespace warplens::viz
