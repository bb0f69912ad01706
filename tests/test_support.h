// Helpers for tests that run the warplens binary and look at the PNGs it writes.
#pragma once

#include <stb/stb_image.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "theme.h"

namespace warplens::test {

struct CommandResult {
  int exit_code = -1;
  std::string output;  ///< stdout and stderr together
};

/// A program the tests run: the environment variable `env` when set (the GPU smoke run's copy of
/// the build lives elsewhere than the build folder the path was compiled with), else `built`.
inline std::string tool_path(const char* env, const char* built) {
  const char* set = std::getenv(env);
  return set && *set ? set : built;
}

#ifdef WARPLENS_BINARY
/// The build's warplens binary, for the tests that run it (compile definition WARPLENS_BINARY).
inline const std::string kWarplens = WARPLENS_BINARY;
#endif

inline CommandResult run_command(const std::string& command) {
  CommandResult r;
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen((command + " 2>&1").c_str(), "r"), pclose);
  if (!pipe) return r;
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), buf.size(), pipe.get())) r.output += buf.data();
  const int status = pclose(pipe.release());
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

struct Png {
  int width = 0, height = 0;
  std::unique_ptr<unsigned char, void (*)(void*)> rgba{nullptr, stbi_image_free};
  [[nodiscard]] const unsigned char* at(int x, int y) const {
    return rgba.get() + (static_cast<std::size_t>(y) * width + x) * 4;
  }
};

inline Png load_png(const std::string& path) {
  Png png;
  int channels = 0;
  png.rgba.reset(stbi_load(path.c_str(), &png.width, &png.height, &channels, 4));
  return png;
}

inline bool near(const unsigned char* p, viz::Rgb c, int tolerance = 6) {
  const auto d = [&](unsigned char v, float f) {
    return std::abs(static_cast<int>(v) - static_cast<int>(f * 255.0f + 0.5f));
  };
  return d(p[0], c.r) <= tolerance && d(p[1], c.g) <= tolerance && d(p[2], c.b) <= tolerance;
}

/// Whether two RGB(A) pixels agree within `tolerance` in each of red, green and blue.
inline bool rgb_close(const unsigned char* a, const unsigned char* b, int tolerance) {
  for (int c = 0; c < 3; ++c)
    if (std::abs(int(a[c]) - int(b[c])) > tolerance) return false;
  return true;
}

/// Pixels within `tolerance` of colour `c`.
inline int count_near(const Png& png, viz::Rgb c, int tolerance = 6) {
  int n = 0;
  for (int y = 0; y < png.height; ++y)
    for (int x = 0; x < png.width; ++x) n += near(png.at(x, y), c, tolerance);
  return n;
}

/// The same within columns [x0, x1) and rows [y0, y1) (clipped to the image).
inline int count_near_in(const Png& png, viz::Rgb c, int x0, int y0, int x1, int y1,
                         int tolerance = 6) {
  int n = 0;
  for (int y = std::max(0, y0); y < std::min(png.height, y1); ++y)
    for (int x = std::max(0, x0); x < std::min(png.width, x1); ++x)
      n += near(png.at(x, y), c, tolerance);
  return n;
}

inline std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("warplens-test-" + std::to_string(::getpid()) + "-" + name))
      .string();
}

}  // namespace warplens::test
