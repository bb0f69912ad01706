// A string knob in the parameter panel (knob_widgets.h), driven through ImGui's own input queue
// without a window: Enter applies the text through the knob; text the knob refuses stays in the
// field with the reason under it and the state keeps its value; a later good text clears it.
#include "knob_widgets.h"
#include "ui_widgets.h"

#include <gtest/gtest.h>

#include <algorithm>

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

// An ImGui context without a window or GL: an 800x600 display and the font atlas built.
class HeadlessImGui : public ::testing::Test {
 protected:
  void SetUp() override {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(800, 600);
    io.IniFilename = nullptr;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  }
  void TearDown() override { ImGui::DestroyContext(); }
};

class StringKnob : public HeadlessImGui {
 protected:
  void SetUp() override {
    HeadlessImGui::SetUp();
    ImGuiIO& io = ImGui::GetIO();
    io.KeyMap[ImGuiKey_Enter] = 1;
    io.KeyMap[ImGuiKey_A] = 2;
  }

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

// slider_int_thin (ui_widgets.h): over two values ImGui's SliderInt drew a grab half the slider
// wide over the value's text ("access 2 of 2" at 3x); this one draws a thin bar at the value, and
// a click on the slider still picks the nearest whole value.
class ThinSlider : public HeadlessImGui {
 protected:
  // One frame: the slider 400 px wide; returns whether it changed `value`, and the slider's and
  // the grab's extents in x (the grab: the vertices drawn in the SliderGrab colours).
  bool frame(int& value, ImVec2 mouse = {-1, -1}, bool down = false, int high = 2) {
    ImGuiIO& io = ImGui::GetIO();
    io.DeltaTime = 1.0f / 60.0f;
    io.MousePos = mouse;
    io.MouseDown[0] = down;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos({0, 0});
    ImGui::SetNextWindowSize({600, 200});
    ImGui::Begin("strip", nullptr, ImGuiWindowFlags_NoTitleBar);
    ImGui::SetNextItemWidth(400);
    const bool changed =
        slider_int_thin("##step", value, 1, high,
                        "access " + std::to_string(value) + " of " + std::to_string(high));
    slider_x0_ = ImGui::GetItemRectMin().x;
    slider_x1_ = ImGui::GetItemRectMax().x;
    ImGui::End();
    ImGui::Render();
    grab_x0_ = 1e9f;
    grab_x1_ = -1e9f;
    text_x0_ = 1e9f;
    text_x1_ = -1e9f;
    const ImU32 grab = ImGui::GetColorU32(ImGuiCol_SliderGrab),
                active = ImGui::GetColorU32(ImGuiCol_SliderGrabActive),
                text = ImGui::GetColorU32(ImGuiCol_Text);
    const ImDrawData* d = ImGui::GetDrawData();
    for (int l = 0; l < d->CmdListsCount; ++l)
      for (const ImDrawVert& v : d->CmdLists[l]->VtxBuffer) {
        if (v.col == grab || v.col == active) {
          grab_x0_ = std::min(grab_x0_, v.pos.x);
          grab_x1_ = std::max(grab_x1_, v.pos.x);
        }
        if (v.col == text) {
          text_x0_ = std::min(text_x0_, v.pos.x);
          text_x1_ = std::max(text_x1_, v.pos.x);
        }
      }
    return changed;
  }
  float slider_x0_ = 0, slider_x1_ = 0, grab_x0_ = 0, grab_x1_ = 0, text_x0_ = 0, text_x1_ = 0;
};

TEST_F(ThinSlider, TheGrabIsAThinBarAtTheValueAndAClickPicksTheNearestValue) {
  int value = 2;
  EXPECT_FALSE(frame(value));
  const float slider_w = slider_x1_ - slider_x0_;
  ASSERT_GT(slider_w, 300.0f);
  ASSERT_LT(grab_x0_, grab_x1_) << "no grab drawn";
  EXPECT_LT(grab_x1_ - grab_x0_, 0.1f * slider_w);    // ImGui's SliderInt: half the slider
  EXPECT_GT(grab_x0_, slider_x0_ + 0.8f * slider_w);  // at the right end: value 2 of 1..2
  // A click a third of the way along picks 1 (the nearer whole value), and the grab goes there.
  const ImVec2 at{slider_x0_ + 0.3f * slider_w, ImGui::GetFrameHeight() * 0.5f + 8};
  frame(value, at, false);
  bool changed = frame(value, at, true);
  changed = frame(value, at, false) || changed;
  EXPECT_TRUE(changed);
  EXPECT_EQ(value, 1);
  frame(value);
  EXPECT_LT(grab_x1_, slider_x0_ + 0.2f * slider_w);
}

TEST_F(ThinSlider, TheValuesTextStaysClearOfTheGrab) {
  // "access 2 of 3": the grab in the middle, where ImGui centres the text (3x on a projector
  // read "stri|de 32"); the text moves to an end, whole and off the bar.
  int value = 2;
  frame(value, {-1, -1}, false, 3);
  ASSERT_LT(grab_x0_, grab_x1_) << "no grab drawn";
  ASSERT_LT(text_x0_, text_x1_) << "no text drawn";
  EXPECT_TRUE(text_x1_ < grab_x0_ || text_x0_ > grab_x1_)
      << "text " << text_x0_ << ".." << text_x1_ << ", grab " << grab_x0_ << ".." << grab_x1_;
  EXPECT_GE(text_x0_, slider_x0_);
  EXPECT_LE(text_x1_, slider_x1_);
}

}  // namespace
}  // namespace warplens::app
