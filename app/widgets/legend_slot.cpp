#include "legend_slot.h"

#include <imgui.h>

namespace warplens::app {

namespace {
LegendSlot* g_open = nullptr;
}  // namespace

LegendSlot::Scope::Scope(LegendSlot& slot) : previous_(g_open) {
  g_open = &slot;
}

LegendSlot::Scope::~Scope() {
  g_open = previous_;
}

LegendSlot* open_legend_slot() {
  return g_open;
}

int view_window_flags(const char* side_name) {
  const int flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                    ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings |
                    ImGuiWindowFlags_NoScrollbar;
  return g_open && !side_name ? flags | ImGuiWindowFlags_NoTitleBar : flags;
}

}  // namespace warplens::app
