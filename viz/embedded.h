// Text files embedded at build time (cmake/EmbedText.cmake): shaders and scenario presets.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace warplens {

struct EmbeddedFile {
  std::string_view path;  ///< relative to the source tree, e.g. "shaders/warp_strip.frag"
  std::string_view text;
};

}  // namespace warplens

namespace warplens::shaders {
extern const EmbeddedFile files[];
extern const std::size_t file_count;
/// The embedded shader whose path ends with `name`; throws std::runtime_error if none.
std::string_view source(std::string_view name);
}  // namespace warplens::shaders
