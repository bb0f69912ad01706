// Where OpenGL draws after a sticky GPU fault: Mesa's software renderer (llvmpipe), on the CPU.
//
// Why (docs/hardening.md, "Sticky GPU faults", measured on H100 and H200, driver 580.159.04): once
// a process of the machine has met a sticky CUDA fault, a new process that both draws GL and runs
// CUDA on that GPU sometimes has every glFinish wait 19.04 s and then loses its CUDA context
// (Xid 109, then 38), while a process that only runs CUDA, or only draws GL, works at once. So a
// WarpLens restarted after a fault draws with the CPU and leaves the GPU to the measurements; its
// traces go through host memory (no CUDA-GL interop with a software context). The next start of
// WarpLens draws on the GPU again.
//
// Choosing: request_software_gl() before the first context of the process (a GLFW window or a
// viz::HeadlessContext). For GLX (the window) it sets the GL vendor library to Mesa
// (__GLX_VENDOR_LIBRARY_NAME=mesa, LIBGL_ALWAYS_SOFTWARE=1), read when GLFW loads libGL; for EGL
// (headless) HeadlessContext picks the EGL device with EGL_MESA_device_software. Where Mesa is
// not installed the context falls back to the GPU (is_software_renderer() says which was made).
#pragma once

#include <string_view>

namespace warplens::viz {

/// Asks the next OpenGL context of this process to be Mesa's software renderer. Call it before
/// the window or the headless context is made; it changes this process's environment.
void request_software_gl();

/// True once request_software_gl() was called in this process.
[[nodiscard]] bool software_gl_requested();

/// True when GL_RENDERER (as glGetString returns it) names one of Mesa's software renderers
/// (llvmpipe, softpipe, swrast).
[[nodiscard]] bool is_software_renderer(std::string_view gl_renderer);

/// The renderer of the current context (glGetString(GL_RENDERER)); "" without one.
[[nodiscard]] std::string_view current_gl_renderer();

/// glFinish on the calling thread's current context (for code that includes no GL header).
void finish_current_gl();

/// After a fault: software GL unless WARPLENS_GL_AFTER_FAULT is "gpu" (which keeps drawing on the
/// GPU with serialized frames, app/core/gpu_turn.h).
[[nodiscard]] bool software_gl_after_fault();

}  // namespace warplens::viz
