// Animated GIF output (giflib, Debian's libgif-dev) for `warplens render --animate --format gif`:
// the frames of a stepped access for slides. Each frame is quantized to its own 256-colour
// palette (giflib's GifQuantizeBuffer, a median cut); the animation loops forever. Written
// atomically like the PNGs (a temporary file in the same directory, then rename).
#pragma once

#include <string>
#include <vector>

#include "png_writer.h"  // Image

namespace warplens::viz {

/// Writes `frames` (all the same size, RGBA8, alpha ignored) as an animated GIF to `path`, frame
/// i shown for `delays_cs[i]` hundredths of a second. Throws std::invalid_argument for no frames,
/// frames of different sizes or a delay count that does not match, std::runtime_error naming the
/// path and giflib's message when the file cannot be written.
void write_gif(const std::vector<Image>& frames, const std::vector<int>& delays_cs,
               const std::string& path);

}  // namespace warplens::viz
