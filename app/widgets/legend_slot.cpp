#include "legend_slot.h"

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

}  // namespace warplens::app
