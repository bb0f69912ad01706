// Software GL after a GPU fault (viz/software_gl.h): the names of Mesa's software renderers, the
// switch WARPLENS_GL_AFTER_FAULT, and a headless context asked for software GL that is Mesa's
// (llvmpipe) also where the NVIDIA driver's EGL device is there and matches the CUDA device. One
// program of its own: the request changes this process's environment.
#include <gtest/gtest.h>

#include <cstdlib>
#include <exception>
#include <optional>
#include <string>

#include "headless_context.h"
#include "software_gl.h"

namespace warplens::viz {
namespace {

TEST(SoftwareGl, NamesMesasSoftwareRenderers) {
  EXPECT_TRUE(is_software_renderer("llvmpipe (LLVM 15.0.6, 256 bits)"));
  EXPECT_TRUE(is_software_renderer("softpipe"));
  EXPECT_TRUE(is_software_renderer("Software Rasterizer (swrast)"));
  EXPECT_FALSE(is_software_renderer("NVIDIA H100 80GB HBM3/PCIe/SSE2"));
  EXPECT_FALSE(is_software_renderer(""));
}

TEST(SoftwareGl, AfterAFaultUnlessTheUserKeepsTheGpu) {
  unsetenv("WARPLENS_GL_AFTER_FAULT");
  EXPECT_TRUE(software_gl_after_fault());
  setenv("WARPLENS_GL_AFTER_FAULT", "gpu", 1);
  EXPECT_FALSE(software_gl_after_fault());
  setenv("WARPLENS_GL_AFTER_FAULT", "software", 1);
  EXPECT_TRUE(software_gl_after_fault());
  unsetenv("WARPLENS_GL_AFTER_FAULT");
}

TEST(SoftwareGl, RequestedContextIsMesasSoftwareRenderer) {
  EXPECT_FALSE(software_gl_requested());
  request_software_gl();
  EXPECT_TRUE(software_gl_requested());
  EXPECT_STREQ(std::getenv("__GLX_VENDOR_LIBRARY_NAME"), "mesa");  // for GLFW's GLX
  EXPECT_STREQ(std::getenv("LIBGL_ALWAYS_SOFTWARE"), "1");
  std::optional<HeadlessContext> context;
  try {
    context.emplace(0);  // CUDA device 0: on a GPU machine the NVIDIA device would match it
  } catch (const std::exception& e) {
    GTEST_SKIP() << "no headless GL: " << e.what();
  }
  EXPECT_TRUE(is_software_renderer(context->renderer())) << context->renderer();
  EXPECT_TRUE(is_software_renderer(current_gl_renderer())) << current_gl_renderer();
  EXPECT_FALSE(context->matches_cuda_device());
}

}  // namespace
}  // namespace warplens::viz
