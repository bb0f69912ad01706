// The glossary in the window (ui_widgets.h: glossary_tooltip): the mouse over a heading that
// uses a field's word shows what it means; over one that uses none, or away from it, nothing.
// Drawn on headless EGL; the PNG lands in the build's out/ folder to look at.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <filesystem>
#include <optional>
#include <string>

#include "gl_program.h"
#include "headless_gl_test.h"
#include "imgui_layer.h"
#include "png_writer.h"
#include "view_layout.h"

namespace warplens::test {
namespace {

class GlossaryUi : public HeadlessGlTest {};

// Draws `text` as a view's heading at the window's top with the mouse at `mouse`; returns the
// tooltip's rectangle when one was drawn in the last frame.
std::optional<ImRect> hover_heading(const std::string& text, ImVec2 mouse,
                                    const char* png = nullptr) {
  viz::ImGuiLayer layer(nullptr, 2.0f, viz::ThemeName::Light);
  viz::RenderTarget target;
  constexpr int kW = 1280, kH = 720;
  for (int frame = 0; frame < 3; ++frame) {
    target.bind(kW, kH);
    ImGui::GetIO().MousePos = mouse;
    layer.begin_frame(kW, kH, 1.0f / 60.0f);
    ImGui::SetNextWindowPos({0, 0});
    ImGui::SetNextWindowSize({kW, kH});
    ImGui::Begin("view", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings);
    app::heading(layer, text);
    ImGui::End();
    target.bind(kW, kH);
    layer.end_frame();
  }
  glFinish();
  if (png) {
    std::filesystem::create_directories(WARPLENS_TEST_OUT_DIR);
    viz::write_png(viz::read_framebuffer(kW, kH), std::string(WARPLENS_TEST_OUT_DIR) + "/" + png);
  }
  const ImGuiWindow* tip = ImGui::FindWindowByName("##Tooltip_00");
  if (!tip || !tip->Active) return std::nullopt;
  return tip->Rect();
}

TEST_F(GlossaryUi, AHeadingThatUsesAFieldsWordExplainsItUnderTheMouse) {
  const auto tip =
      hover_heading("Wavefronts per request: 4 (model)", {40, 20}, "glossary-wavefront.png");
  ASSERT_TRUE(tip.has_value());
  // Two terms (request, wavefront): a meaning and a source each, several lines at 2x.
  EXPECT_GT(tip->GetHeight(), 150.0f);
  EXPECT_NEAR(tip->Min.x, 40.0f, 60.0f);  // beside the mouse
}

TEST_F(GlossaryUi, NothingWhereTheHeadingUsesNoTermOrTheMouseIsAway) {
  EXPECT_FALSE(hover_heading("Latency ladder", {40, 20}).has_value());
  EXPECT_FALSE(hover_heading("Wavefronts per request: 4 (model)", {600, 600}).has_value());
}

}  // namespace
}  // namespace warplens::test
