// A string knob in the parameter panel (knob_widgets.h), driven through ImGui's own input queue
// without a window: Enter applies the text through the knob; text the knob refuses stays in the
// field with the reason under it and the state keeps its value; a later good text clears it.
#include "knob_widgets.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace warplens::app {
namespace {

struct State {
  std::string layout = "(8,4):(32,1)";
};

Knob<State> layout_knob() {
  Knob<State> k;
  k.key = "layout";
  k.label = "CuTe layout";
  k.get_string = [](const State& s) { return s.layout; };
  k.set_string = [](State& s, const std::string& text) {
    if (text.find(':') == std::string::npos)
      throw std::invalid_argument("no ':' between shape and stride");
    s.layout = text;
  };
  return k;
}

class StringKnob : public ::testing::Test {
 protected:
  void SetUp() override {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(800, 600);
    io.IniFilename = nullptr;
    io.KeyMap[ImGuiKey_Enter] = 1;
    io.KeyMap[ImGuiKey_A] = 2;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  }
  void TearDown() override { ImGui::DestroyContext(); }

  // One frame of the panel; `focus` moves the keyboard to the field first. Returns whether the
  // knob changed the state and the text under the field (its error), if any.
  bool frame(State& state, bool focus = false) {
    ImGui::GetIO().DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();
    ImGui::Begin("panel");
    if (focus) ImGui::SetKeyboardFocusHere();
    const bool changed = draw_knob(knob_, state);
    error_ = knob_detail::text_fields()[ImGui::GetID("##layout")].error;
    field_ = knob_detail::text_fields()[ImGui::GetID("##layout")].text;
    ImGui::End();
    ImGui::Render();
    return changed;
  }
  // Selects the field's text and types `text`, then Enter; true if a frame changed the state.
  bool type(State& state, const std::string& text) {
    ImGuiIO& io = ImGui::GetIO();
    bool changed = frame(state, true);
    changed |= frame(state);
    io.KeyCtrl = true;
    io.KeysDown[2] = true;
    changed |= frame(state);
    io.KeysDown[2] = false;
    io.KeyCtrl = false;
    io.AddInputCharactersUTF8(text.c_str());
    changed |= frame(state);
    io.KeysDown[1] = true;
    changed |= frame(state);
    io.KeysDown[1] = false;
    changed |= frame(state);
    return changed;
  }

  Knob<State> knob_ = layout_knob();
  std::string error_, field_;  // the field's reason for a refusal and its text, last frame
};

TEST_F(StringKnob, EnterAppliesAGoodTextAndARefusedOneKeepsTheStateAndSaysWhy) {
  State s;
  ASSERT_FALSE(frame(s));
  EXPECT_TRUE(type(s, "Sw<3,2,3> o (32,32):(32,1)"));
  EXPECT_EQ(s.layout, "Sw<3,2,3> o (32,32):(32,1)");

  EXPECT_FALSE(type(s, "(32,32)"));
  EXPECT_EQ(s.layout, "Sw<3,2,3> o (32,32):(32,1)");     // nothing lost
  EXPECT_EQ(error_, "no ':' between shape and stride");  // drawn under the field
  frame(s);
  EXPECT_EQ(field_, "(32,32)");  // the refused text stays to be mended
  EXPECT_EQ(error_, "no ':' between shape and stride");
  EXPECT_TRUE(type(s, "(4,8):(8,1)"));
  EXPECT_EQ(s.layout, "(4,8):(8,1)");
  EXPECT_EQ(error_, "");
}

}  // namespace
}  // namespace warplens::app
