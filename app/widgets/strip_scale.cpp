#include "strip_scale.h"

namespace warplens::app {

StripScale* open_strip_scale() {
  return OpenScope<StripScale>::open();
}

}  // namespace warplens::app
