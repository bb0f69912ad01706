#include "theme.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace warplens::viz {

namespace {

// Viridis, sampled from matplotlib's table at 8 stops and interpolated linearly.
Rgb viridis(float t) {
  static constexpr Rgb stops[] = {{0.267f, 0.005f, 0.329f}, {0.275f, 0.194f, 0.497f},
                                  {0.213f, 0.359f, 0.552f}, {0.153f, 0.498f, 0.558f},
                                  {0.122f, 0.633f, 0.530f}, {0.288f, 0.759f, 0.428f},
                                  {0.626f, 0.854f, 0.223f}, {0.993f, 0.906f, 0.144f}};
  const float x = std::clamp(t, 0.0f, 1.0f) * 7.0f;
  const int i = std::min(static_cast<int>(x), 6);
  const float f = x - static_cast<float>(i);
  const Rgb a = stops[i], b = stops[i + 1];
  return {a.r + (b.r - a.r) * f, a.g + (b.g - a.g) * f, a.b + (b.b - a.b) * f};
}

std::array<Rgb, 32> lane_palette() {
  std::array<Rgb, 32> lanes{};
  for (int i = 0; i < 32; ++i) lanes[i] = viridis(static_cast<float>(i) / 31.0f);
  return lanes;
}

constexpr Rgb hex(unsigned v) {
  return {static_cast<float>((v >> 16) & 0xff) / 255.0f,
          static_cast<float>((v >> 8) & 0xff) / 255.0f, static_cast<float>(v & 0xff) / 255.0f};
}

}  // namespace

ThemeName parse_theme(std::string_view text) {
  if (text == "light") return ThemeName::Light;
  if (text == "dark") return ThemeName::Dark;
  throw std::invalid_argument("theme must be light or dark (got \"" + std::string(text) + "\")");
}

const Theme& theme(ThemeName name) {
  static const Theme light{ThemeName::Light, hex(0xffffff), hex(0xe6e6e6),  hex(0xd55e00),
                           hex(0x0072b2),    hex(0x1a1a1a), hex(0xb0b0b0),  hex(0x111111),
                           hex(0x5a5a5a),    hex(0xb2182b), lane_palette(), hex(0xd55e00),
                           hex(0xcc79a7)};
  static const Theme dark{ThemeName::Dark, hex(0x1c1e22), hex(0x3a3d44),  hex(0xe69f00),
                          hex(0x56b4e9),   hex(0xdadada), hex(0x55585f),  hex(0xf0f0f0),
                          hex(0xa8a8a8),   hex(0xe05a6a), lane_palette(), hex(0xf07a3a),
                          hex(0xe29ac6)};
  return name == ThemeName::Light ? light : dark;
}

Rgb text_on(Rgb c) {
  const float luminance = 0.2126f * c.r + 0.7152f * c.g + 0.0722f * c.b;
  return luminance > 0.45f ? Rgb{0, 0, 0} : Rgb{1, 1, 1};
}

unsigned to_imgui_color(Rgb c, float alpha) {
  const auto byte = [](float v) {
    return static_cast<unsigned>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f));
  };
  return (byte(alpha) << 24) | (byte(c.b) << 16) | (byte(c.g) << 8) | byte(c.r);
}

}  // namespace warplens::viz
