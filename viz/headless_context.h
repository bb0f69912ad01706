// A headless OpenGL 3.3+ core context through EGL (no display server, no window): used by
// `warplens render` and the rendering tests. Works on Mesa (llvmpipe) and on the NVIDIA driver.
//
// Recipe (design.md, "Running on the GPU machine"): eglQueryDevicesEXT ->
// eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, device) -> eglBindAPI(EGL_OPENGL_API) ->
// core-profile context made current with no surface; drawing goes into framebuffer objects.
#pragma once

#include <memory>
#include <string>

#include "gl_program.h"

namespace warplens::viz {

class HeadlessContext {
 public:
  /// Creates and makes current a context. With `cuda_device` >= 0, prefers the EGL device
  /// whose EGL_CUDA_DEVICE_NV equals it (needed for CUDA-GL interop on multi-GPU machines).
  /// After viz::request_software_gl() (software_gl.h) it prefers Mesa's software device
  /// (EGL_MESA_device_software) instead, and falls back to the rule above without one.
  /// Throws GlError naming the step that failed (e.g. "no EGL display").
  explicit HeadlessContext(int cuda_device = -1);
  ~HeadlessContext();
  HeadlessContext(const HeadlessContext&) = delete;
  HeadlessContext& operator=(const HeadlessContext&) = delete;

  /// "GL_RENDERER (GL_VERSION)", e.g. "llvmpipe (LLVM 15.0.6, 256 bits) (4.5 (Core Profile)
  /// Mesa 22.3.6)".
  [[nodiscard]] const std::string& renderer() const { return renderer_; }
  /// True if the chosen EGL device reported EGL_CUDA_DEVICE_NV == cuda_device.
  [[nodiscard]] bool matches_cuda_device() const { return matches_cuda_; }

 private:
  void create(int cuda_device);
  void release();

  void* display_ = nullptr;
  void* context_ = nullptr;
  std::string renderer_;
  bool matches_cuda_ = false;
};

}  // namespace warplens::viz
