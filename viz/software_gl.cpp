#include "software_gl.h"

#include <glad/gl.h>

#include <atomic>
#include <cstdlib>
#include <string>

namespace warplens::viz {

namespace {
std::atomic<bool>& requested() {
  static std::atomic<bool> flag{false};
  return flag;
}
}  // namespace

void request_software_gl() {
  // libglvnd's GLX picks the vendor library by this name; Mesa then renders with llvmpipe.
  setenv("__GLX_VENDOR_LIBRARY_NAME", "mesa", 1);
  setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1);
  requested() = true;
}

bool software_gl_requested() {
  return requested().load();
}

bool is_software_renderer(std::string_view gl_renderer) {
  for (const std::string_view name : {"llvmpipe", "softpipe", "swrast"}) {
    if (gl_renderer.find(name) != std::string_view::npos) return true;
  }
  return false;
}

std::string_view current_gl_renderer() {
  if (!glGetString) return {};
  const auto* text = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  return text ? std::string_view(text) : std::string_view();
}

void finish_current_gl() {
  if (glFinish) glFinish();
}

bool software_gl_after_fault() {
  const char* v = std::getenv("WARPLENS_GL_AFTER_FAULT");
  return !(v && std::string_view(v) == "gpu");
}

}  // namespace warplens::viz
