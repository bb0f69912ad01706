#include "png_writer.h"

#include <glad/gl.h>
#include <stb/stb_image_write.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include <unistd.h>

namespace warplens::viz {

Image read_framebuffer(int width, int height) {
  Image image;
  image.width = width;
  image.height = height;
  const std::size_t row = static_cast<std::size_t>(width) * 4;
  std::vector<std::uint8_t> bottom_up(row * static_cast<std::size_t>(height));
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, bottom_up.data());
  image.rgba.resize(bottom_up.size());
  for (int y = 0; y < height; ++y) {
    std::memcpy(image.rgba.data() + static_cast<std::size_t>(y) * row,
                bottom_up.data() + static_cast<std::size_t>(height - 1 - y) * row, row);
  }
  return image;
}

void write_png(const Image& image, const std::string& path) {
  const std::string temporary = path + ".tmp-" + std::to_string(::getpid());
  if (!stbi_write_png(temporary.c_str(), image.width, image.height, 4, image.rgba.data(),
                      image.width * 4)) {
    std::remove(temporary.c_str());
    throw std::runtime_error("cannot write PNG " + path + ": " + std::strerror(errno));
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const int e = errno;
    std::remove(temporary.c_str());
    throw std::runtime_error("cannot write PNG " + path + ": " + std::strerror(e));
  }
}

}  // namespace warplens::viz
