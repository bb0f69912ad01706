// The window's "Export figure…" (figure_export_ui.h), drawn headless on Mesa with mouse events
// fed to ImGui: a right-click on the view opens the menu of its panels, its first item the
// dialog, the dialog's Export writes <scenario>-<panel>.svg into the folder it remembers
// ($XDG_CONFIG_HOME/warplens/figures.toml) and remembers it; in A/B compare side A's view
// exports side A's panel as <scenario>-A-<panel>.svg. (A bad folder's error is
// export_panel_figure's, checked through the CLI in figure_panels_test.cpp.)
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "app_ui.h"
#include "figure_export_ui.h"
#include "frontends.h"
#include "headless_frames.h"
#include "headless_gl_test.h"
#include "test_support.h"

namespace warplens::app {
namespace {

constexpr int kW = 1600, kH = 960;

class FigureExportUi : public test::HeadlessGlTest {
 protected:
  void frame(int n = 1) { scene_->draw_frames(ui_, target_, kW, kH, n); }
  void click(ImVec2 at, ImGuiMouseButton button) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = at;  // this ImGui (Debian 12's 1.86) takes the mouse as state
    frame();
    io.MouseDown[button] = true;
    frame();
    io.MouseDown[button] = false;
    frame();
  }
  // The screen position of the modal's `label` button, checked by ImGui hovering it: up from
  // the dialog's bottom, where its buttons are (once the modal has settled where it appears).
  std::optional<ImVec2> find_button(const char* label) {
    frame(2);
    ImGuiContext& g = *ImGui::GetCurrentContext();
    if (g.OpenPopupStack.Size == 0 || !g.OpenPopupStack.back().Window) return std::nullopt;
    ImGuiWindow* w = g.OpenPopupStack.back().Window;
    const ImGuiID id = w->GetID(label);
    const float x = w->Pos.x + ImGui::GetStyle().WindowPadding.x + 20;
    for (float y = w->Pos.y + w->Size.y - 4; y > w->Pos.y; y -= 4) {
      ImGui::GetIO().MousePos = {x, y};
      frame();
      if (g.HoveredId == id) return ImVec2{x, y};
    }
    return std::nullopt;
  }

  void SetUp() override {
    test::HeadlessGlTest::SetUp();
    if (IsSkipped()) return;
    ViewOptions options;
    options.scenario = "transpose";
    options.use_gpu = false;
    scene_ = std::make_unique<HeadlessScene>(options);
    ui_ = initial_ui(options, scene_->labs, /*interactive=*/true);
    scene_->wait_until_idle();
    frame(3);
  }

  std::unique_ptr<HeadlessScene> scene_;
  UiState ui_;
  viz::RenderTarget target_;
};

TEST_F(FigureExportUi, RightClickExportsTheViewsPanelIntoTheRememberedFolder) {
  namespace fs = std::filesystem;
  const fs::path config = test::temp_path("config"), out = test::temp_path("out");
  fs::remove_all(config);
  fs::remove_all(out);
  fs::create_directories(config / "warplens");
  fs::create_directories(out);
  ::setenv("XDG_CONFIG_HOME", config.c_str(), 1);
  EXPECT_EQ(figure_settings_path(), (config / "warplens" / "figures.toml").string());
  std::ofstream(config / "warplens" / "figures.toml") << "folder = \"" << out.string() << "\"\n";

  ImGuiContext& g = *ImGui::GetCurrentContext();
  // The view: right of the parameter panel, over the numbers.
  const ImVec2 view{0.6f * kW, 0.3f * kH};
  click(view, ImGuiMouseButton_Right);
  ASSERT_EQ(g.OpenPopupStack.Size, 1) << "the menu";
  EXPECT_FALSE(g.OpenPopupStack[0].Window->Flags & ImGuiWindowFlags_Modal);
  // Its first item ("Export figure… (banks)"), just under the click.
  click({view.x + 30, view.y + 0.5f * ImGui::GetFrameHeight() + 4}, ImGuiMouseButton_Left);
  ASSERT_EQ(g.OpenPopupStack.Size, 1) << "the dialog";
  ASSERT_TRUE(g.OpenPopupStack[0].Window->Flags & ImGuiWindowFlags_Modal);

  const auto button = find_button("Export");
  ASSERT_TRUE(button) << "the dialog's Export button";
  click(*button, ImGuiMouseButton_Left);
  const fs::path written = out / "transpose-banks.svg";
  ASSERT_TRUE(fs::exists(written)) << "nothing in " << out;
  std::ifstream in(written);
  const std::string svg((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(svg.find(">Wavefronts per request: 32<"), std::string::npos) << "real <text>";
  EXPECT_NE(svg.find("scenario transpose"), std::string::npos);
  // The folder is remembered.
  std::ifstream settings(config / "warplens" / "figures.toml");
  const std::string toml((std::istreambuf_iterator<char>(settings)),
                         std::istreambuf_iterator<char>());
  EXPECT_NE(toml.find(out.string()), std::string::npos) << toml;
  EXPECT_EQ(g.OpenPopupStack.Size, 1) << "the dialog stays open with its result line";

  fs::remove_all(config);
  fs::remove_all(out);
}

TEST_F(FigureExportUi, ThePresenterLayoutOffersTheMenuOnItsViewAndItsNumbers) {
  ui_.presenter = true;
  frame(3);
  ASSERT_TRUE(ui_.presenter_shown);
  ImGuiContext& g = *ImGui::GetCurrentContext();
  click({0.4f * kW, 0.5f * kH}, ImGuiMouseButton_Right);  // the view, left of the key numbers
  ASSERT_EQ(g.OpenPopupStack.Size, 1) << "the view's menu";
  EXPECT_FALSE(g.OpenPopupStack[0].Window->Flags & ImGuiWindowFlags_Modal);
  click({0.3f * kW, kH - 10.0f}, ImGuiMouseButton_Left);  // the status text: the menu closes
  ASSERT_EQ(g.OpenPopupStack.Size, 0);
  click({0.9f * kW, 0.6f * kH}, ImGuiMouseButton_Right);  // the key numbers' column
  EXPECT_EQ(g.OpenPopupStack.Size, 1) << "the numbers' menu";
}

TEST_F(FigureExportUi, InABCompareEachSidesViewExportsThatSidesPanel) {
  namespace fs = std::filesystem;
  // The folders of the first test: the dialog loads its settings once per process.
  const fs::path config = test::temp_path("config"), out = test::temp_path("out");
  fs::remove_all(config);
  fs::remove_all(out);
  fs::create_directories(config / "warplens");
  fs::create_directories(out);
  ::setenv("XDG_CONFIG_HOME", config.c_str(), 1);
  std::ofstream(config / "warplens" / "figures.toml") << "folder = \"" << out.string() << "\"\n";
  ViewOptions options;
  options.scenario = "ab-tile-32x32-vs-32x33";
  options.use_gpu = false;
  scene_.reset();  // one ImGui layer at a time
  scene_ = std::make_unique<HeadlessScene>(options);
  ui_ = initial_ui(options, scene_->labs, /*interactive=*/true);
  scene_->wait_until_idle();
  frame(3);
  ASSERT_TRUE(ui_.compare);
  ASSERT_FALSE(ui_.presenter_shown);

  ImGuiContext& g = *ImGui::GetCurrentContext();
  // Side A's view: the left half of the views right of the parameter panel.
  const ImVec2 view{0.45f * kW, 0.3f * kH};
  click(view, ImGuiMouseButton_Right);
  ASSERT_EQ(g.OpenPopupStack.Size, 1) << "the menu";
  click({view.x + 30, view.y + 0.5f * ImGui::GetFrameHeight() + 4}, ImGuiMouseButton_Left);
  ASSERT_EQ(g.OpenPopupStack.Size, 1) << "the dialog";
  const auto button = find_button("Export");
  ASSERT_TRUE(button) << "the dialog's Export button";
  click(*button, ImGuiMouseButton_Left);
  const fs::path written = out / "ab-tile-32x32-vs-32x33-A-banks.svg";
  std::string listing;
  for (const auto& e : fs::directory_iterator(out)) listing += e.path().filename().string() + " ";
  ASSERT_TRUE(fs::exists(written)) << "in " << out << ": " << listing;
  std::ifstream in(written);
  const std::string svg((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // Side A is the 32 x 32 tile: its column read is a 32-way conflict.
  EXPECT_NE(svg.find(">Wavefronts per request: 32<"), std::string::npos);
  EXPECT_NE(svg.find("side A"), std::string::npos);
  fs::remove_all(config);
  fs::remove_all(out);
}

}  // namespace
}  // namespace warplens::app
