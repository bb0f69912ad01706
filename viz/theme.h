// Colours shared by the ImGui panels and the GL views, in light (projector) and dark themes.
// Lanes use viridis (perceptually ordered, readable with colour-vision deficiencies), so lane
// order reads as a gradient from lane 0 (purple) to lane 31 (yellow).
#pragma once

#include <array>
#include <string_view>

namespace warplens::viz {

struct Rgb {
  float r = 0, g = 0, b = 0;
};

enum class ThemeName { Light, Dark };

struct Theme {
  ThemeName name = ThemeName::Light;
  Rgb background;  ///< view background
  Rgb untouched;   ///< memory bytes no lane touched
  Rgb overfetch;   ///< bytes moved (in a touched sector) that no lane asked for
  Rgb sector;      ///< sectors a request moves (the sector row under the bytes)
  Rgb rule;        ///< sector/line rules, frames
  Rgb inactive;    ///< lanes that did not execute the access
  Rgb text;
  Rgb muted_text;
  Rgb warning;  ///< banners and errors (never used for memory)
  std::array<Rgb, 32> lanes;
  // Shared-memory bank view (Okabe-Ito hues, apart from the viridis lane colours).
  Rgb conflict;   ///< a bank that must serve several distinct words in one phase
  Rgb broadcast;  ///< a word several lanes read together (broadcast / multicast)
};

/// Parses "light" or "dark"; throws std::invalid_argument otherwise.
ThemeName parse_theme(std::string_view text);
const Theme& theme(ThemeName name);

/// Black or white, whichever reads better on `background`.
Rgb text_on(Rgb background);

/// Packs into ImGui's ABGR 32-bit colour.
unsigned to_imgui_color(Rgb c, float alpha = 1.0f);

}  // namespace warplens::viz
