#include "font_paths.h"

#ifndef WARPLENS_FONT_PATH
#define WARPLENS_FONT_PATH "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
#endif
#ifndef WARPLENS_MONO_FONT_PATH
#define WARPLENS_MONO_FONT_PATH "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
#endif

namespace warplens::viz {

std::string regular_font_path() {
  return WARPLENS_FONT_PATH;
}

std::string bold_font_path() {
  std::string p = WARPLENS_FONT_PATH;
  const auto dot = p.rfind(".ttf");
  return dot == std::string::npos ? p : p.substr(0, dot) + "-Bold.ttf";
}

std::string mono_font_path() {
  return WARPLENS_MONO_FONT_PATH;
}

}  // namespace warplens::viz
