// The speaker view of lesson mode: the step's speaker note, the next step's title, the question
// and its answer, and a clock since the lesson started (lesson_mode.h: SpeakerNotes), for the
// laptop's screen while the projector shows the lesson. With two monitors it is a second GLFW
// window (SpeakerWindow: its own GL context and ImGui context, the same keys); with one, the
// lesson window draws it over its right part (key S opens and closes it either way).
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

#include "imgui_layer.h"
#include "lesson_mode.h"
#include "theme.h"

struct GLFWwindow;
struct ImGuiContext;

namespace warplens::app {

/// Draws `notes` as one ImGui window at `pos`, `size` (the whole speaker window, or an overlay
/// in the lesson window): the lesson and step, the clock, the step's title and slide, the note,
/// the question and its answer, the next step and the keys.
void draw_speaker_view(const SpeakerNotes& notes, const viz::ImGuiLayer& layer,
                       const viz::Theme& theme, ImVec2 pos, ImVec2 size);

/// The monitors connected now (GLFW must be initialised: a window is open).
int monitor_count();

/// The speaker view's own window: a second GLFW window (OpenGL 3.3 core, its own ImGui context
/// through a viz::ImGuiLayer without GLFW input) on a monitor the lesson window is not on. Its
/// keys (Page Down / Page Up, → / ←, Home, End; S or closing it ends it) are read through its
/// own GLFW key callback and handed to the lesson by take_moves(). Its title says the step
/// ("WarpLens \u2014 speaker view: step 3 of 17"), as the lesson window's does.
class SpeakerWindow {
 public:
  /// Opens the window, sized to most of the other monitor's work area; `main` is the lesson's
  /// window, whose GL and ImGui contexts are current again on return. `ui_scale` is the UI scale
  /// (1, 1.5, 2, 3), multiplied by the speaker window's own monitor's content scale and by up to
  /// 2 for a large window (1.5 over a 1080-line screen). Throws viz::GlError when GLFW cannot
  /// open it.
  SpeakerWindow(GLFWwindow* main, float ui_scale, viz::ThemeName theme);
  ~SpeakerWindow();
  SpeakerWindow(const SpeakerWindow&) = delete;
  SpeakerWindow& operator=(const SpeakerWindow&) = delete;

  /// Draws and shows one frame of `notes`, then makes the lesson window's contexts current.
  void draw(const SpeakerNotes& notes, viz::ThemeName theme);
  /// A new UI scale (the status bar's 1x .. 3x): fonts rebuilt before the next frame.
  void set_scale(float ui_scale);
  /// The moves its keys asked for since the last call, in order.
  std::vector<LessonMove> take_moves();
  /// Whether the window was closed (its close button, or S).
  [[nodiscard]] bool closed() const;

 private:
  static void on_key(GLFWwindow* window, int key, int scancode, int action, int mods);

  GLFWwindow* main_ = nullptr;
  GLFWwindow* window_ = nullptr;
  ImGuiContext* main_imgui_ = nullptr;
  ImGuiContext* imgui_ = nullptr;
  viz::ImGuiLayer* layer_ = nullptr;  // owned; made and destroyed with imgui_ current
  viz::ThemeName theme_;
  std::vector<LessonMove> moves_;
  bool close_ = false;
  double last_frame_ = 0;
  float fit_ = 1;      // the text's scale for the window's size, times the UI scale
  std::string title_;  // the step its title says
};

}  // namespace warplens::app
