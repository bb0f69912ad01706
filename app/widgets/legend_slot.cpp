#include "legend_slot.h"

#include <string_view>

#include <imgui.h>

namespace warplens::app {

LegendSlot* open_legend_slot() {
  return LegendSlot::Scope::open();
}

int view_window_flags(const char* side_name) {
  const int flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                    ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings |
                    ImGuiWindowFlags_NoScrollbar;
  return open_legend_slot() && !side_name ? flags | ImGuiWindowFlags_NoTitleBar : flags;
}

std::string pane_title_prefix(const char* side_name) {
  if (!side_name) return "";
  const KnobsEditSide* knobs = KnobsEditSide::Scope::open();
  const bool edited = knobs && std::string_view(knobs->side) == side_name;
  return std::string(side_name) + (edited ? " (knobs) \u2022 " : " \u2022 ");
}

}  // namespace warplens::app
