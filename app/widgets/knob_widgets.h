// A knob of a lab's table (knob.h) drawn in the parameter panel: its label as a muted heading,
// then its control in the knob's style (a slider or a combo as wide as the panel, radio buttons
// on one line, an integer field, a checkbox), disabled where the knob does not apply and left
// out where it is not shown. A change sets the state through the knob, then runs its `then`.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <string>

#include "knob.h"

namespace warplens::app {

/// Draws `knob` for `state` (an ImGui window is current); true when the user changed it.
template <typename State>
bool draw_knob(const Knob<State>& knob, State& state) {
  if (knob.shown && !knob.shown(state)) return false;
  ImGui::BeginDisabled(!knob.applies_to(state));
  std::int64_t value = knob.get(state);
  bool changed = false;
  const std::string id = "##" + knob.key.substr(knob.key.rfind('.') + 1);
  if (knob.style != KnobStyle::Check) ImGui::TextDisabled("%s", knob.label.c_str());
  switch (knob.style) {
    case KnobStyle::Slider: {
      int v = static_cast<int>(value);
      ImGui::SetNextItemWidth(-1);
      if (ImGui::SliderInt(id.c_str(), &v, static_cast<int>(knob.low), static_cast<int>(knob.high),
                           "%d", ImGuiSliderFlags_AlwaysClamp)) {
        value = v;
        changed = true;
      }
      break;
    }
    case KnobStyle::Radio:
      for (std::size_t i = 0; i < knob.values.size(); ++i) {
        if (ImGui::RadioButton(knob.label_of(knob.values[i]).c_str(), value == knob.values[i])) {
          value = knob.values[i];
          changed = true;
        }
        if (i + 1 < knob.values.size()) ImGui::SameLine();
      }
      break;
    case KnobStyle::Combo:
      ImGui::SetNextItemWidth(-1);
      if (ImGui::BeginCombo(id.c_str(), knob.label_of(value).c_str())) {
        for (std::int64_t v : knob.values) {
          if (ImGui::Selectable(knob.label_of(v).c_str(), value == v)) {
            value = v;
            changed = true;
          }
        }
        ImGui::EndCombo();
      }
      break;
    case KnobStyle::Input: {
      int v = static_cast<int>(value);
      ImGui::SetNextItemWidth(-1);
      if (ImGui::InputInt(id.c_str(), &v) && v >= knob.low) {
        value = v;
        changed = true;
      }
      break;
    }
    case KnobStyle::Check: {
      bool on = value != 0;
      if (ImGui::Checkbox(knob.label.c_str(), &on)) {
        value = on ? 1 : 0;
        changed = true;
      }
      break;
    }
  }
  ImGui::EndDisabled();
  if (changed) {
    knob.set(state, value);
    if (knob.then) knob.then(state);
  }
  return changed;
}

}  // namespace warplens::app
