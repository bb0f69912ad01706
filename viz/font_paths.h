// Where the DejaVu fonts are (Debian: fonts-dejavu-core): one place for the ImGui layer's fonts
// and the figure renderer's (figure_cairo.cpp), so the window and a figure use the same files.
// WARPLENS_FONT_PATH and WARPLENS_MONO_FONT_PATH (CMake cache) choose them.
#pragma once

#include <string>

namespace warplens::viz {

std::string regular_font_path();  ///< DejaVu Sans
std::string bold_font_path();     ///< DejaVu Sans Bold: the regular path with "-Bold" added
std::string mono_font_path();     ///< DejaVu Sans Mono

}  // namespace warplens::viz
