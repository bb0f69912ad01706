// Counting a colour's pixels in a rendered image, for the views' pixel tests: a channel matches
// when it is within `tolerance` of the colour's 0..255 value.
#pragma once

#include <cstdint>
#include <cstdlib>

#include "png_writer.h"  // viz::Image
#include "theme.h"       // viz::Rgb

namespace warplens::test {

/// In columns x0 <= x < x1 (the whole width by default).
inline int count_color(const viz::Image& image, viz::Rgb c, int tolerance = 3, int x0 = 0,
                       int x1 = -1) {
  const auto d = [](std::uint8_t v, float f) {
    return std::abs(static_cast<int>(v) - static_cast<int>(f * 255.0f + 0.5f));
  };
  int n = 0;
  for (int y = 0; y < image.height; ++y)
    for (int x = x0; x < (x1 < 0 ? image.width : x1); ++x) {
      const auto* p = image.pixel(x, y);
      n += d(p[0], c.r) <= tolerance && d(p[1], c.g) <= tolerance && d(p[2], c.b) <= tolerance;
    }
  return n;
}

}  // namespace warplens::test
