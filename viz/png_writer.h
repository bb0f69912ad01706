// PNG output (stb_image_write), written atomically: a temporary file in the same directory,
// then rename, so an interrupted export never leaves a half-written PNG.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace warplens::viz {

/// Top-to-bottom RGBA8 pixels.
struct Image {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgba;
  [[nodiscard]] const std::uint8_t* pixel(int x, int y) const {
    return rgba.data() + (static_cast<std::size_t>(y) * width + x) * 4;
  }
};

/// Reads the bound framebuffer's `width` x `height` pixels (flipping GL's bottom-up rows).
Image read_framebuffer(int width, int height);
/// Reads a 2D texture's `width` x `height` pixels (a GL texture name), through a framebuffer made
/// for the read and deleted after it; the default framebuffer is bound afterwards.
Image read_texture(unsigned texture, int width, int height);

/// Reads the bound framebuffer as read_framebuffer does, and throws std::runtime_error when every
/// pixel is one colour: a view always draws text, so GL drew nothing (on the GPU machines, the
/// NVIDIA GL of a process started after another's GPU fault drew blank frames without an error).
Image read_drawn_framebuffer(int width, int height);

/// Writes `image` as PNG to `path`; throws std::runtime_error naming the path on failure.
void write_png(const Image& image, const std::string& path);

}  // namespace warplens::viz
