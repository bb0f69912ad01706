#include "imgui_layer.h"

// clang-format off
#include <glad/gl.h>  // before GLFW, which would include the system's GL header
#include <GLFW/glfw3.h>
// clang-format on
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <imgui_internal.h>  // ImGuiContext::GcCompactAll

#include <algorithm>
#include <filesystem>

#include "font_paths.h"

namespace warplens::viz {

namespace {
ImGuiLayer* windowed = nullptr;  // the layer whose window's keys on_key sees (one at a time)

ImVec4 v4(Rgb c, float a = 1.0f) {
  return {c.r, c.g, c.b, a};
}
}  // namespace

ImGuiLayer::ImGuiLayer(GLFWwindow* window, float scale, ThemeName theme)
    : window_(window), scale_(scale) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // a teaching tool starts the same way every time
  if (window_) io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  if (window_) {
    ImGui_ImplGlfw_InitForOpenGL(window_, true);
    windowed = this;
    glfwSetKeyCallback(window_, on_key);  // in front of ImGui's, which on_key calls
  }
  ImGui_ImplOpenGL3_Init("#version 330 core");
  load_fonts();
  set_theme(theme);
}

ImGuiLayer::~ImGuiLayer() {
  ImGui_ImplOpenGL3_Shutdown();
  if (window_) {
    glfwSetKeyCallback(window_, ImGui_ImplGlfw_KeyCallback);  // what Shutdown expects to find
    ImGui_ImplGlfw_Shutdown();
    if (windowed == this) windowed = nullptr;
  }
  ImGui::DestroyContext();
}

void ImGuiLayer::load_fonts() {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  const float size = 17.0f * scale_;
  // Latin-1 plus the typographic symbols the panels use (– — … × ≈ ≤ ≥ ✓ ✗ •, ⁰-⁹, ←-↓).
  static ImVector<ImWchar> ranges;
  if (ranges.empty()) {
    ImFontGlyphRangesBuilder builder;
    builder.AddRanges(io.Fonts->GetGlyphRangesDefault());
    builder.AddText("\u2013\u2014\u2026\u00d7\u2248\u2264\u2265\u2713\u2717\u2022");
    // Superscript digits (2\u00b2\u2070 in the reduction lab) and the arrows of the keys help.
    static const ImWchar extra[] = {0x2070, 0x2079, 0x2190, 0x2193, 0};
    builder.AddRanges(extra);
    builder.BuildRanges(&ranges);
  }
  const auto load = [&](const std::string& path, float px) -> ImFont* {
    if (!std::filesystem::exists(path)) {
      font_warning_ =
          "font " + path + " not found (install fonts-dejavu-core); using ImGui's built-in font";
      return nullptr;
    }
    return io.Fonts->AddFontFromFileTTF(path.c_str(), px, nullptr, ranges.Data);
  };
  fonts_.regular = load(regular_font_path(), size);
  fonts_.bold = load(bold_font_path(), size * 1.15f);
  fonts_.mono = load(mono_font_path(), size);
  fonts_.large = load(bold_font_path(), size * 2.2f);
  if (!fonts_.regular) {
    ImFontConfig config;
    config.SizePixels = 13.0f * scale_;
    fonts_.regular = io.Fonts->AddFontDefault(&config);
  }
  if (!fonts_.bold) fonts_.bold = fonts_.regular;
  if (!fonts_.mono) fonts_.mono = fonts_.regular;
  if (!fonts_.large) fonts_.large = fonts_.bold;
  io.FontDefault = fonts_.regular;
}

void ImGuiLayer::set_theme(ThemeName name) {
  const Theme& t = theme(name);
  ImGuiStyle style;
  if (name == ThemeName::Light) {
    ImGui::StyleColorsLight(&style);
  } else {
    ImGui::StyleColorsDark(&style);
  }
  style.WindowRounding = 4.0f;
  style.FrameRounding = 3.0f;
  style.GrabRounding = 3.0f;
  style.WindowBorderSize = 1.0f;
  style.FramePadding = ImVec2(8, 5);
  style.ItemSpacing = ImVec2(10, 8);
  style.WindowPadding = ImVec2(12, 10);
  style.Colors[ImGuiCol_WindowBg] = v4(t.background);
  style.Colors[ImGuiCol_Text] = v4(t.text);
  style.Colors[ImGuiCol_TextDisabled] = v4(t.muted_text);
  if (name == ThemeName::Light) {
    // ImGui's light frames are nearly white: on a white window (and a projector) unselected
    // radio buttons and slider tracks vanish. Give them a visible grey and a border.
    style.Colors[ImGuiCol_FrameBg] = ImVec4(0.88f, 0.89f, 0.91f, 1.0f);
    style.Colors[ImGuiCol_FrameBgHovered] = ImVec4(0.80f, 0.85f, 0.93f, 1.0f);
    style.Colors[ImGuiCol_FrameBgActive] = ImVec4(0.72f, 0.80f, 0.93f, 1.0f);
    style.FrameBorderSize = 1.0f;
  }
  style.GrabMinSize = 14.0f;
  style.ScaleAllSizes(scale_);
  ImGui::GetStyle() = style;
}

void ImGuiLayer::compact_memory() {
  ImGui::GetCurrentContext()->GcCompactAll = true;
}

void ImGuiLayer::set_scale(float scale, ThemeName theme) {
  if (scale == scale_) return;
  scale_ = scale;
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  load_fonts();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  set_theme(theme);
}

void ImGuiLayer::begin_frame(int width, int height, float dt) {
  ImGui_ImplOpenGL3_NewFrame();
  if (window_) {
    ImGui_ImplGlfw_NewFrame();
  } else {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
    io.DisplayFramebufferScale = ImVec2(1, 1);
    io.DeltaTime = dt > 0 ? dt : 1.0f / 60.0f;
  }
  ImGui::NewFrame();
  pressed_.clear();
}

void ImGuiLayer::end_frame(bool rasterize) {
  ImGui::Render();
  if (rasterize) ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  if (!window_) return;
  std::vector<std::array<int, 3>> held;
  held.swap(held_);
  for (const auto& [key, scancode, mods] : held)
    ImGui_ImplGlfw_KeyCallback(window_, key, scancode, GLFW_RELEASE, mods);
}

void ImGuiLayer::on_key(GLFWwindow* window, int key, int scancode, int action, int mods) {
  ImGuiLayer* self = windowed;
  if (self && self->window_ == window) {
    auto& pressed = self->pressed_;
    if (action == GLFW_PRESS) pressed.push_back(key);
    if (action == GLFW_RELEASE && std::find(pressed.begin(), pressed.end(), key) != pressed.end()) {
      self->held_.push_back({key, scancode, mods});
      return;
    }
  }
  ImGui_ImplGlfw_KeyCallback(window, key, scancode, action, mods);
}

std::pair<std::string, std::string> two_lines(const std::string& text) {
  std::pair<std::string, std::string> best{text, ""};
  float best_w = ImGui::CalcTextSize(text.c_str()).x;
  for (std::size_t at = text.find(' '); at != std::string::npos; at = text.find(' ', at + 1)) {
    std::string first = text.substr(0, at), second = text.substr(at + 1);
    const float w =
        std::max(ImGui::CalcTextSize(first.c_str()).x, ImGui::CalcTextSize(second.c_str()).x);
    if (w < best_w) {
      best_w = w;
      best = {std::move(first), std::move(second)};
    }
  }
  return best;
}

}  // namespace warplens::viz
