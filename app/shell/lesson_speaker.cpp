#include "lesson_speaker.h"

// clang-format off
#include <glad/gl.h>  // before GLFW, which would include the system's GL header
#include <GLFW/glfw3.h>
// clang-format on
#include <imgui.h>

#include <algorithm>
#include <string>

#include "gl_program.h"
#include "glfw_window.h"
#include "layout_audit.h"
#include "ui_widgets.h"

namespace warplens::app {

void draw_speaker_view(const SpeakerNotes& n, const viz::ImGuiLayer& layer, const viz::Theme& theme,
                       ImVec2 pos, ImVec2 size) {
  const float s = layer.scale();
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin("Speaker view##lesson", nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing);
  ImFont* bold = layer.fonts().bold ? layer.fonts().bold : ImGui::GetFont();
  ImGui::PushTextWrapPos(0);
  // The step and the lesson on the left, the clock on the right.
  const std::string where =
      fit_text(n.position + " \u2022 " + n.lesson,
               ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(n.clock.c_str()).x - 24 * s);
  ImGui::TextDisabled("%s", where.c_str());
  ImGui::SameLine(
      std::max(ImGui::GetCursorPosX() + 12 * s,
               ImGui::GetWindowContentRegionMax().x - ImGui::CalcTextSize(n.clock.c_str()).x));
  ImGui::TextUnformatted(n.clock.c_str());
  ImGui::PushFont(bold);
  ImGui::TextUnformatted(n.title.c_str());
  ImGui::PopFont();
  if (!n.slide.empty()) ImGui::TextDisabled("slide %s", n.slide.c_str());
  ImGui::Separator();
  if (n.note.empty()) {
    ImGui::TextDisabled("(no speaker note for this step)");
  } else {
    ImGui::TextUnformatted(n.note.c_str());
  }
  if (!n.question.empty()) {
    ImGui::Spacing();
    ImGui::Separator();
    ImGui::PushFont(bold);
    ImGui::TextUnformatted(("Ask: " + n.question).c_str());
    ImGui::PopFont();
    for (const std::string& line : n.answer)
      ImGui::TextColored(color4(theme.text), "answer \u2014 %s", line.c_str());
  }
  ImGui::Spacing();
  ImGui::Separator();
  ImGui::TextUnformatted(n.next.c_str());
  ImGui::TextDisabled(
      "Page Down / \u2192 next \u2022 Page Up / \u2190 previous \u2022 Home / End \u2022 S: "
      "close the speaker view");
  ImGui::PopTextWrapPos();
  ImGui::End();
}

int monitor_count() {
  int count = 0;
  (void)glfwGetMonitors(&count);
  return count;
}

namespace {

// The monitor holding the centre of `window`, or null.
GLFWmonitor* monitor_of(GLFWwindow* window) {
  if (GLFWmonitor* full = glfwGetWindowMonitor(window)) return full;
  int x = 0, y = 0, w = 0, h = 0;
  glfwGetWindowPos(window, &x, &y);
  glfwGetWindowSize(window, &w, &h);
  int count = 0;
  GLFWmonitor** monitors = glfwGetMonitors(&count);
  for (int i = 0; i < count; ++i) {
    int mx = 0, my = 0;
    glfwGetMonitorPos(monitors[i], &mx, &my);
    const GLFWvidmode* mode = glfwGetVideoMode(monitors[i]);
    if (mode && x + w / 2 >= mx && x + w / 2 < mx + mode->width && y + h / 2 >= my &&
        y + h / 2 < my + mode->height)
      return monitors[i];
  }
  return nullptr;
}

// The content scale of the monitor `window` is on (1 on most projectors, 2 on HiDPI laptops).
float content_scale(GLFWwindow* window) {
  float x = 1, y = 1;
  glfwGetWindowContentScale(window, &x, &y);
  return std::max(1.0f, x);
}

}  // namespace

SpeakerWindow::SpeakerWindow(GLFWwindow* main, float ui_scale, viz::ThemeName theme)
    : main_(main), main_imgui_(ImGui::GetCurrentContext()), theme_(theme) {
  // On a monitor the lesson's window is not on (the laptop's, while the projector shows the
  // lesson), over most of its work area; opened hidden and shown there, so that it never
  // flashes on the projector.
  int x = 0, y = 0, w = 1100, h = 700;
  bool placed = false;
  int count = 0;
  GLFWmonitor** monitors = glfwGetMonitors(&count);
  GLFWmonitor* lesson_monitor = monitor_of(main);
  for (int i = 0; i < count && !placed; ++i) {
    if (monitors[i] == lesson_monitor) continue;
    int mx = 0, my = 0, mw = 0, mh = 0;
    glfwGetMonitorWorkarea(monitors[i], &mx, &my, &mw, &mh);
    if (mw < 320 || mh < 240) continue;
    w = mw * 9 / 10;
    h = mh * 9 / 10;
    x = mx + (mw - w) / 2;
    y = my + (mh - h) / 2;
    placed = true;
  }
  glfwDefaultWindowHints();
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
  // The keyboard stays with the lesson window (the one just started, or clicked): taking it
  // away would make ImGui there drop the keys of that frame.
  glfwWindowHint(GLFW_FOCUSED, GLFW_FALSE);
  glfwWindowHint(GLFW_FOCUS_ON_SHOW, GLFW_FALSE);
  title_ = "WarpLens \u2014 speaker view";
  window_ = glfwCreateWindow(w, h, title_.c_str(), nullptr, nullptr);
  glfwDefaultWindowHints();
  if (!window_) {
    const char* why = nullptr;
    glfwGetError(&why);
    throw viz::GlError(std::string("cannot open the speaker view's window: ") +
                       (why ? why : "unknown GLFW error"));
  }
  if (placed) glfwSetWindowPos(window_, x, y);
  glfwShowWindow(window_);
  glfwSetWindowUserPointer(window_, this);
  glfwSetKeyCallback(window_, on_key);
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(0);  // the lesson window waits for the display; two waits would halve its rate
  ImGui::SetCurrentContext(nullptr);  // the layer's CreateContext makes its context current
  // Text to the window's size: a speaker window over most of a 1080-line laptop screen reads at
  // 1.5x the UI scale, from a step away.
  const float content = content_scale(window_);
  fit_ = std::clamp(static_cast<float>(h) / (640.0f * content), 1.0f, 2.0f);
  layer_ = new viz::ImGuiLayer(nullptr, ui_scale * content * fit_, theme);
  imgui_ = ImGui::GetCurrentContext();
  ImGui::SetCurrentContext(main_imgui_);
  glfwMakeContextCurrent(main_);
  last_frame_ = glfwGetTime();
}

void SpeakerWindow::set_scale(float ui_scale) {
  glfwMakeContextCurrent(window_);
  ImGui::SetCurrentContext(imgui_);
  layer_->set_scale(ui_scale * content_scale(window_) * fit_, theme_);
  ImGui::SetCurrentContext(main_imgui_);
  glfwMakeContextCurrent(main_);
}

SpeakerWindow::~SpeakerWindow() {
  glfwMakeContextCurrent(window_);
  ImGui::SetCurrentContext(imgui_);
  delete layer_;  // destroys imgui_ (the current context)
  ImGui::SetCurrentContext(main_imgui_);
  glfwMakeContextCurrent(main_);
  glfwDestroyWindow(window_);
}

void SpeakerWindow::on_key(GLFWwindow* window, int key, int, int action, int) {
  auto* self = static_cast<SpeakerWindow*>(glfwGetWindowUserPointer(window));
  if (!self || (action != GLFW_PRESS && action != GLFW_REPEAT)) return;
  switch (key) {
    case GLFW_KEY_PAGE_DOWN:
    case GLFW_KEY_RIGHT: self->moves_.push_back(LessonMove::Next); break;
    case GLFW_KEY_PAGE_UP:
    case GLFW_KEY_LEFT: self->moves_.push_back(LessonMove::Previous); break;
    case GLFW_KEY_HOME: self->moves_.push_back(LessonMove::First); break;
    case GLFW_KEY_END: self->moves_.push_back(LessonMove::Last); break;
    case GLFW_KEY_S:
      if (action == GLFW_PRESS) self->close_ = true;
      break;
    default: break;
  }
}

std::vector<LessonMove> SpeakerWindow::take_moves() {
  std::vector<LessonMove> moves;
  moves.swap(moves_);
  return moves;
}

bool SpeakerWindow::closed() const {
  return close_ || glfwWindowShouldClose(window_);
}

void SpeakerWindow::draw(const SpeakerNotes& notes, viz::ThemeName theme) {
  int width = 0, height = 0;
  glfwGetFramebufferSize(window_, &width, &height);
  if (width == 0 || height == 0) return;  // minimised
  glfwMakeContextCurrent(window_);
  ImGui::SetCurrentContext(imgui_);
  if (theme != theme_) {
    layer_->set_theme(theme);
    theme_ = theme;
  }
  const double now = glfwGetTime();
  layer_->begin_frame(width, height, static_cast<float>(std::max(1e-3, now - last_frame_)));
  last_frame_ = now;
  draw_speaker_view(notes, *layer_, viz::theme(theme), {0, 0},
                    {static_cast<float>(width), static_cast<float>(height)});
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, width, height);
  const viz::Rgb bg = viz::theme(theme).background;
  glClearColor(bg.r, bg.g, bg.b, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  layer_->end_frame();
  glfwSwapBuffers(window_);
  const std::string title = "WarpLens \u2014 speaker view: " + notes.position;
  if (title != title_) {  // after the swap: the title says the step the window shows
    title_ = title;
    glfwSetWindowTitle(window_, title_.c_str());
  }
  ImGui::SetCurrentContext(main_imgui_);
  glfwMakeContextCurrent(main_);
}

}  // namespace warplens::app
