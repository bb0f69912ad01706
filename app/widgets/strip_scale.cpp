#include "strip_scale.h"

namespace warplens::app {

namespace {
StripScale* g_open_scale = nullptr;
}  // namespace

StripScale::Scope::Scope(StripScale& scale) : previous_(g_open_scale) {
  g_open_scale = &scale;
  scale.last_ = scale.now_;
  scale.now_ = 0;
}

StripScale::Scope::~Scope() {
  g_open_scale = previous_;
}

StripScale* open_strip_scale() {
  return g_open_scale;
}

}  // namespace warplens::app
