#include "headless_context.h"

#include <glad/egl.h>

#include <cstring>
#include <vector>

#include "software_gl.h"

namespace warplens::viz {

namespace {
[[noreturn]] void fail(const std::string& step) {
  throw GlError("headless OpenGL: " + step + " (EGL error 0x" + [] {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%04x", static_cast<unsigned>(eglGetError ? eglGetError() : 0));
    return std::string(buf);
  }() + ")");
}
}  // namespace

HeadlessContext::HeadlessContext(int cuda_device) {
  try {
    create(cuda_device);
  } catch (...) {
    release();  // a failed start leaves no display, context or loader behind
    throw;
  }
}

void HeadlessContext::create(int cuda_device) {
  if (!gladLoaderLoadEGL(EGL_NO_DISPLAY)) {
    throw GlError(
        "headless OpenGL: cannot load libEGL.so.1 (install libegl1 and a driver: "
        "libegl-mesa0 or the NVIDIA driver)");
  }
  if (!eglQueryDevicesEXT || !eglGetPlatformDisplayEXT) {
    throw GlError(
        "headless OpenGL: no EGL display: EGL_EXT_device_enumeration / "
        "EGL_EXT_platform_device are missing");
  }
  EGLint count = 0;
  if (!eglQueryDevicesEXT(0, nullptr, &count) || count == 0) fail("no EGL display: no EGL devices");
  std::vector<EGLDeviceEXT> devices(static_cast<std::size_t>(count));
  eglQueryDevicesEXT(count, devices.data(), &count);

  EGLDeviceEXT chosen = devices[0];
  bool software_found = false;
  if (software_gl_requested() && eglQueryDeviceStringEXT) {  // software_gl.h: after a GPU fault
    for (EGLDeviceEXT d : devices) {
      const char* extensions = eglQueryDeviceStringEXT(d, EGL_EXTENSIONS);
      if (extensions && std::strstr(extensions, "EGL_MESA_device_software")) {
        chosen = d;
        software_found = true;
        break;
      }
    }
  }
  if (!software_found && cuda_device >= 0 && eglQueryDeviceAttribEXT) {
    for (EGLDeviceEXT d : devices) {
      EGLAttrib value = -1;
      if (eglQueryDeviceAttribEXT(d, EGL_CUDA_DEVICE_NV, &value) && value == cuda_device) {
        chosen = d;
        matches_cuda_ = true;
        break;
      }
    }
  }

  EGLDisplay display = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, chosen, nullptr);
  if (display == EGL_NO_DISPLAY) fail("no EGL display for the device");
  EGLint major = 0, minor = 0;
  if (!eglInitialize(display, &major, &minor)) fail("eglInitialize failed");
  display_ = display;
  gladLoaderLoadEGL(display);  // now with the display's extensions

  if (!eglBindAPI(EGL_OPENGL_API)) fail("eglBindAPI(EGL_OPENGL_API) failed");
  const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint configs = 0;
  eglChooseConfig(display, config_attribs, &config, 1, &configs);
  const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                                    3,
                                    EGL_CONTEXT_MINOR_VERSION,
                                    3,
                                    EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                    EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                    EGL_NONE};
  EGLContext context = eglCreateContext(display, configs ? config : EGL_NO_CONFIG_KHR,
                                        EGL_NO_CONTEXT, context_attribs);
  if (context == EGL_NO_CONTEXT) fail("cannot create an OpenGL 3.3 core context");
  context_ = context;
  if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
    fail("cannot make the context current without a surface");
  }
  if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(eglGetProcAddress))) {
    throw GlError("headless OpenGL: cannot load GL 3.3 core functions");
  }
  renderer_ = std::string(reinterpret_cast<const char*>(glGetString(GL_RENDERER))) + " (" +
              reinterpret_cast<const char*>(glGetString(GL_VERSION)) + ")";
}

HeadlessContext::~HeadlessContext() {
  release();
}

void HeadlessContext::release() {
  auto display = static_cast<EGLDisplay>(display_);
  if (display) {
    eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (context_) eglDestroyContext(display, static_cast<EGLContext>(context_));
    eglTerminate(display);
  }
  display_ = nullptr;
  context_ = nullptr;
  gladLoaderUnloadEGL();
}

}  // namespace warplens::viz
