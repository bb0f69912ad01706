#include "legend_slot.h"

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

}  // namespace warplens::app
