// Dear ImGui set-up shared by the GLFW window and the headless renderer: context, OpenGL3
// renderer backend (through our glad loader), DejaVu fonts at the UI scale, light/dark style.
#pragma once

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "theme.h"

struct GLFWwindow;
struct ImFont;

namespace warplens::viz {

struct Fonts {
  ImFont* regular = nullptr;  ///< DejaVu Sans
  ImFont* bold = nullptr;     ///< DejaVu Sans Bold (headings)
  ImFont* mono = nullptr;     ///< DejaVu Sans Mono (numbers)
  ImFont* large = nullptr;    ///< DejaVu Sans Bold at 2.2x (the A/B ratio), rasterised at size
};

class ImGuiLayer {
 public:
  /// With `window`, also installs the GLFW platform backend (input, clipboard, cursor). Needs a
  /// current GL 3.3 context. Fonts that cannot be loaded fall back to ImGui's built-in font and
  /// set font_warning().
  ImGuiLayer(GLFWwindow* window, float scale, ThemeName theme);
  ~ImGuiLayer();
  ImGuiLayer(const ImGuiLayer&) = delete;
  ImGuiLayer& operator=(const ImGuiLayer&) = delete;

  /// Starts a frame. Headless: `width` x `height` pixels, `dt` seconds since the last frame.
  void begin_frame(int width, int height, float dt);
  /// Renders the frame into the bound framebuffer. With `rasterize` false, ends the frame (its
  /// layout and draw lists, all ImGui's state) without drawing it: a headless render's settling
  /// frames, which no one reads back. With a window, then hands ImGui the key releases held back
  /// from this frame's events (see on_key).
  void end_frame(bool rasterize = true);

  /// ImGui's own garbage collection, now: at the next begin_frame, every window and table not
  /// drawn in the last frame gives back its draw buffers (which keep the capacity of the largest
  /// frame they ever drew). ImGui does this by itself for what has not been drawn for
  /// io.ConfigMemoryCompactTimer (60 s); the soak asks for it before its memory samples.
  void compact_memory();

  void set_theme(ThemeName theme);
  /// Rebuilds the fonts at `scale` (rasterised at the new size, so text stays crisp on a
  /// projector) and rescales the style; call between frames.
  void set_scale(float scale, ThemeName theme);
  [[nodiscard]] float scale() const { return scale_; }
  [[nodiscard]] const Fonts& fonts() const { return fonts_; }
  [[nodiscard]] const std::string& font_warning() const { return font_warning_; }

 private:
  void load_fonts();
  // The window's key callback in front of ImGui's: a key pressed and released within one
  // frame's events (a presentation clicker's Page Down, XTest or a synthetic event) would reach
  // ImGui 1.86, which keeps only whether a key is down at each frame, as no press at all; its
  // release is held back to the end of the frame that saw the press.
  static void on_key(GLFWwindow* window, int key, int scancode, int action, int mods);

  GLFWwindow* window_ = nullptr;
  std::vector<int> pressed_;              // keys pressed since the last frame began
  std::vector<std::array<int, 3>> held_;  // releases held back: key, scancode, mods
  float scale_ = 1;
  Fonts fonts_;
  std::string font_warning_;
};

/// `text` broken onto two lines at the space that makes the longer line shortest in the current
/// ImGui font (a title or a chart's label where one line has no room); second is empty when the
/// text has no space or one line is as narrow. Needs a current ImGui frame.
std::pair<std::string, std::string> two_lines(const std::string& text);

}  // namespace warplens::viz
