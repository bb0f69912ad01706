#include "gif_writer.h"

#include <gif_lib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <stdexcept>

namespace warplens::viz {

namespace {

std::runtime_error gif_error(const std::string& path, int code) {
  const char* message = GifErrorString(code);
  return std::runtime_error(
      path + ": cannot write the GIF (" +
      (message ? std::string(message) : "giflib error " + std::to_string(code)) + ")");
}

struct MapDeleter {
  void operator()(ColorMapObject* map) const { GifFreeMapObject(map); }
};

}  // namespace

void write_gif(const std::vector<Image>& frames, const std::vector<int>& delays_cs,
               const std::string& path) {
  if (frames.empty()) throw std::invalid_argument("write_gif: no frames");
  if (delays_cs.size() != frames.size())
    throw std::invalid_argument("write_gif: one delay per frame");
  const int w = frames.front().width, h = frames.front().height;
  for (const Image& f : frames) {
    if (f.width != w || f.height != h || f.width <= 0 || f.height <= 0 ||
        f.rgba.size() != static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 4)
      throw std::invalid_argument("write_gif: frames differ in size or are empty");
  }
  const std::filesystem::path target(path);
  const std::string temporary =
      (target.parent_path() /
       ("." + target.filename().string() + ".tmp" + std::to_string(static_cast<long>(getpid()))))
          .string();
  int error = 0;
  GifFileType* gif = EGifOpenFileName(temporary.c_str(), false, &error);
  if (!gif) throw gif_error(path, error);
  const auto fail = [&](int code) {
    int ignored = 0;
    EGifCloseFile(gif, &ignored);
    std::filesystem::remove(temporary);
    return gif_error(path, code);
  };
  EGifSetGifVersion(gif, true);  // GIF89a: delays and the loop
  if (EGifPutScreenDesc(gif, w, h, 8, 0, nullptr) == GIF_ERROR) throw fail(gif->Error);
  // NETSCAPE2.0: loop forever.
  const unsigned char netscape[] = "NETSCAPE2.0";
  const unsigned char loop[] = {1, 0, 0};
  if (EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
      EGifPutExtensionBlock(gif, 11, netscape) == GIF_ERROR ||
      EGifPutExtensionBlock(gif, 3, loop) == GIF_ERROR || EGifPutExtensionTrailer(gif) == GIF_ERROR)
    throw fail(gif->Error);

  const std::size_t n = static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
  std::vector<GifByteType> red(n), green(n), blue(n), indices(n);
  for (std::size_t f = 0; f < frames.size(); ++f) {
    const std::uint8_t* rgba = frames[f].rgba.data();
    for (std::size_t i = 0; i < n; ++i) {
      red[i] = rgba[4 * i];
      green[i] = rgba[4 * i + 1];
      blue[i] = rgba[4 * i + 2];
    }
    int colors = 256;
    std::unique_ptr<ColorMapObject, MapDeleter> map(GifMakeMapObject(colors, nullptr));
    if (!map) throw fail(E_GIF_ERR_NOT_ENOUGH_MEM);
    if (GifQuantizeBuffer(static_cast<unsigned>(w), static_cast<unsigned>(h), &colors, red.data(),
                          green.data(), blue.data(), indices.data(), map->Colors) == GIF_ERROR)
      throw fail(E_GIF_ERR_NOT_ENOUGH_MEM);
    GraphicsControlBlock control{};
    control.DisposalMode = DISPOSE_DO_NOT;
    control.DelayTime = delays_cs[f];
    control.TransparentColor = NO_TRANSPARENT_COLOR;
    GifByteType extension[4];
    const std::size_t length = EGifGCBToExtension(&control, extension);
    if (EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, static_cast<int>(length), extension) ==
            GIF_ERROR ||
        EGifPutImageDesc(gif, 0, 0, w, h, false, map.get()) == GIF_ERROR)
      throw fail(gif->Error);
    for (int y = 0; y < h; ++y) {
      if (EGifPutLine(gif, indices.data() + static_cast<std::size_t>(y) * w, w) == GIF_ERROR)
        throw fail(gif->Error);
    }
  }
  if (EGifCloseFile(gif, &error) == GIF_ERROR) {
    std::filesystem::remove(temporary);
    throw gif_error(path, error);
  }
  // giflib creates the file for its owner only; a figure is as readable as the PNGs (umask).
  const mode_t mask = umask(0);
  umask(mask);
  std::error_code ignored;
  std::filesystem::permissions(temporary, static_cast<std::filesystem::perms>(0666 & ~mask),
                               ignored);
  std::error_code renamed;
  std::filesystem::rename(temporary, target, renamed);
  if (renamed) {
    std::filesystem::remove(temporary);
    throw std::runtime_error(path + ": cannot write the GIF (" + renamed.message() + ")");
  }
}

}  // namespace warplens::viz
