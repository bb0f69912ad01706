// A knob of a lab's table (knob.h) drawn in the parameter panel: its label as a muted heading,
// then its control in the knob's style (a slider or a combo as wide as the panel, radio buttons
// on one line, an integer field, a checkbox), disabled where the knob does not apply and left
// out where it is not shown. A change sets the state through the knob, then runs its `then`. A
// string knob is a text field applied on Enter; text the knob refuses stays in the field with
// the reason under it, and the state keeps its value. On the presenter strip (draw_strip_knobs)
// the knobs that name themselves there are drawn compact, each after its short name.
#pragma once

#include <imgui.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "knob.h"
#include "ui_widgets.h"
#include "view_layout.h"

namespace warplens::app {

namespace knob_detail {

/// A string knob's field: the text being edited (the state's while the field is not active) and
/// the reason the last text was refused.
struct TextField {
  std::string text;
  std::string error;
  bool editing = false;  ///< the field was active on the last frame
};

/// The string knobs' fields, by their ImGui ID (the knob's "##key" in its window).
inline std::map<ImGuiID, TextField>& text_fields() {
  static std::map<ImGuiID, TextField> fields;
  return fields;
}

template <typename State>
bool draw_string_knob(const Knob<State>& knob, State& state, const std::string& id) {
  TextField& f = text_fields()[ImGui::GetID(id.c_str())];
  if (!f.editing && f.error.empty()) f.text = knob.get_string(state);
  char buffer[256];
  const std::size_t n = f.text.copy(buffer, sizeof buffer - 1);
  buffer[n] = '\0';
  ImGui::SetNextItemWidth(-1);
  bool changed = false;
  if (ImGui::InputText(id.c_str(), buffer, sizeof buffer, ImGuiInputTextFlags_EnterReturnsTrue)) {
    f.text = buffer;
    try {
      State next = state;
      knob.set_string(next, f.text);
      if (knob.then) knob.then(next);
      state = std::move(next);
      f.error.clear();
      changed = true;
    } catch (const std::invalid_argument& e) {
      f.error = e.what();
    }
  } else {
    f.text = buffer;
  }
  f.editing = ImGui::IsItemActive();
  if (!f.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.85f, 0.25f, 0.2f, 1.0f));
    ImGui::TextWrapped("%s", f.error.c_str());
    ImGui::PopStyleColor();
  }
  return changed;
}

}  // namespace knob_detail

/// Draws `knob` for `state` (an ImGui window is current); true when the user changed it.
template <typename State>
bool draw_knob(const Knob<State>& knob, State& state) {
  if (knob.shown && !knob.shown(state)) return false;
  if (knob.get_string) {
    ImGui::BeginDisabled(!knob.applies_to(state));
    ImGui::TextDisabled("%s", knob.label.c_str());
    const bool changed =
        knob_detail::draw_string_knob(knob, state, "##" + knob.key.substr(knob.key.rfind('.') + 1));
    ImGui::EndDisabled();
    return changed;
  }
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

/// One knob on the presenter strip (Knob::strip): a drop-down of its values' strip words, a
/// row of buttons, a checkbox, or an integer field over [low, high]; a change sets the state
/// through the knob, then runs its `then`. `label` (or nullptr: the knob's strip name) names it.
template <typename State>
bool draw_strip_knob(const Knob<State>& knob, State& state, const char* label = nullptr) {
  const char* name = label ? label : knob.strip.c_str();
  using StripStyle = typename Knob<State>::StripStyle;
  std::int64_t value = knob.get(state);
  bool changed = false;
  if (knob.style == KnobStyle::Check) {
    bool on = value != 0;
    changed = knob_check(name, on);
    value = on ? 1 : 0;
  } else if (knob.strip_style == StripStyle::Check && knob.values.size() == 2) {
    bool on = value == knob.values[1];
    changed = knob_check(name, on);
    value = knob.values[on ? 1 : 0];
  } else if (!knob.values.empty()) {
    std::vector<std::string> words;
    std::vector<const char*> names;
    int index = 0;
    for (std::size_t i = 0; i < knob.values.size(); ++i) {
      words.push_back(i < knob.strip_words.size() ? knob.strip_words[i]
                                                  : knob.label_of(knob.values[i]));
      if (knob.values[i] == value) index = static_cast<int>(i);
    }
    for (const auto& w : words) names.push_back(w.c_str());
    std::vector<std::string> tip_words;
    std::vector<const char*> tips;
    if (knob.strip_tip)
      for (const std::int64_t v : knob.values) tip_words.push_back(knob.strip_tip(v));
    for (const auto& t : tip_words) tips.push_back(t.c_str());
    changed = knob.strip_style == StripStyle::Buttons
                  ? knob_buttons(name, index, names.data(), static_cast<int>(names.size()),
                                 tips.empty() ? nullptr : tips.data())
                  : knob_choice(name, index, names.data(), static_cast<int>(names.size()));
    value = knob.values[static_cast<std::size_t>(index)];
  } else {
    const auto [low, high] =
        knob.strip_range ? knob.strip_range(state) : std::pair{knob.low, knob.high};
    int v = static_cast<int>(value);
    changed = knob_int(name, v, static_cast<int>(low), static_cast<int>(high), knob.strip_chars);
    value = v;
  }
  if (changed) {
    knob.set(state, value);
    if (knob.then) knob.then(state);
  }
  return changed;
}

/// A worded knob on the strip (Knob::strip_text), `room` px wide at most (its share of the
/// strip, set by draw_strip_knobs); a change sets the state through the knob, then its `then`.
template <typename State>
bool draw_worded_strip_knob(const Knob<State>& knob, State& state, float room) {
  using StripStyle = typename Knob<State>::StripStyle;
  const std::int64_t value = knob.get(state);
  const auto [low, high] =
      knob.strip_range ? knob.strip_range(state) : std::pair{knob.low, knob.high};
  const float pad = 2 * ImGui::GetStyle().FramePadding.x, frame_h = ImGui::GetFrameHeight();
  const auto need = [&](const std::string& text) {
    return ImGui::CalcTextSize(text.c_str()).x + pad + frame_h;
  };
  float widest = 0, widest_brief = 2.5f * frame_h;
  for (const std::int64_t v :
       knob.values.empty() ? std::vector<std::int64_t>{low, high} : knob.values) {
    widest = std::max(widest, need(knob.strip_text(v, false)));
    widest_brief = std::max(widest_brief, need(knob.strip_text(v, true)));
  }
  const float w = std::max(widest_brief, std::min(widest, room));
  const auto says = [&](std::int64_t v) {
    const std::string words = knob.strip_text(v, false);
    return ImGui::CalcTextSize(words.c_str()).x + pad <= w ? words : knob.strip_text(v, true);
  };
  const std::string id = "##knob-" + knob.key;
  std::int64_t chosen = value;
  bool changed = false;
  ImGui::SetNextItemWidth(w);
  if (knob.values.empty()) {
    int v = static_cast<int>(value);
    changed =
        slider_int_thin(id.c_str(), v, static_cast<int>(low), static_cast<int>(high), says(v));
    chosen = v;
  } else {
    int index = 0;
    for (std::size_t i = 0; i < knob.values.size(); ++i)
      if (knob.values[i] == value) index = static_cast<int>(i);
    if (knob.strip_style == StripStyle::Slider) {
      changed = slider_int_thin(id.c_str(), index, 0, static_cast<int>(knob.values.size()) - 1,
                                says(knob.values[static_cast<std::size_t>(index)]));
      chosen = knob.values[static_cast<std::size_t>(index)];
    } else {
      const std::string preview =
          fitting({knob.strip_text(value, false), knob.strip_text(value, true)}, w - frame_h - pad);
      if (ImGui::BeginCombo(id.c_str(), preview.c_str())) {
        for (std::size_t i = 0; i < knob.values.size(); ++i)
          if (ImGui::Selectable(knob.strip_text(knob.values[i], false).c_str(),
                                static_cast<int>(i) == index)) {
            changed = knob.values[i] != value;
            chosen = knob.values[i];
          }
        ImGui::EndCombo();
      }
    }
  }
  if (knob.strip_tip && ImGui::IsItemHovered())
    ImGui::SetTooltip("%s", knob.strip_tip(value).c_str());
  if (changed) {
    knob.set(state, chosen);
    if (knob.then) knob.then(state);
  }
  return changed;
}

/// The table's knobs that are on the strip for `state` (Knob::strip, strip_when; a knob the
/// panel hides is not), in the table's order, `gap` px apart on one line (a negative gap: the
/// strip's own, 1.5 of the font after a labelled knob). Whether one changed.
template <typename State>
bool draw_strip_knobs(const std::vector<Knob<State>>& knobs, State& state, float gap = -1) {
  const auto on_strip = [&](const Knob<State>& k) {
    return !k.strip.empty() && !(k.shown && !k.shown(state)) &&
           !(k.strip_when && !k.strip_when(state));
  };
  // A worded knob's share: of a little over half the line, with the strip's arrows and title
  // before it.
  int shown = 0;
  for (const auto& k : knobs) shown += on_strip(k) ? 1 : 0;
  const float share =
      ImGui::GetContentRegionAvail().x * 0.55f / static_cast<float>(std::max(1, shown)) -
      std::max(gap, 0.0f);
  bool changed = false, first = true;
  for (const auto& k : knobs) {
    if (!on_strip(k)) continue;
    if (!first && gap >= 0) ImGui::SameLine(0, gap);
    first = false;
    changed =
        (k.strip_text ? draw_worded_strip_knob(k, state, share) : draw_strip_knob(k, state)) ||
        changed;
  }
  return changed;
}

}  // namespace warplens::app
