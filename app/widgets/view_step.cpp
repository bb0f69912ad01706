#include "view_step.h"

namespace warplens::app {

void ViewStep::report(int steps, const char* unit) {
  if (unit_.empty() && unit) unit_ = unit;
  if (steps > steps_) steps_ = steps;
}

ViewStep* open_view_step() {
  return ViewStep::Scope::open();
}

bool answer_hidden() {
  return open_view_step() && open_view_step()->hide_answer();
}

int open_step() {
  return open_view_step() ? open_view_step()->step() : -1;
}

}  // namespace warplens::app
