#include "view_step.h"

namespace warplens::app {

namespace {
ViewStep* g_open = nullptr;
}  // namespace

ViewStep::Scope::Scope(ViewStep& step) : previous_(g_open) {
  g_open = &step;
}

ViewStep::Scope::~Scope() {
  g_open = previous_;
}

void ViewStep::report(int steps, const char* unit) {
  if (unit_.empty() && unit) unit_ = unit;
  if (steps > steps_) steps_ = steps;
}

ViewStep* open_view_step() {
  return g_open;
}

bool answer_hidden() {
  return g_open && g_open->hide_answer();
}

int open_step() {
  return g_open ? g_open->step() : -1;
}

}  // namespace warplens::app
