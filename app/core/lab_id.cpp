#include "lab_id.h"

#include <stdexcept>

namespace warplens::app {

const char* to_string(Lab lab) {
  return kLabIdentities.at(static_cast<std::size_t>(lab)).name;
}

Lab parse_lab(const std::string& text) {
  std::string names;
  for (std::size_t i = 0; i < kLabCount; ++i) {
    if (text == kLabIdentities[i].name) return kLabIdentities[i].id;
    names += (i == 0               ? ""
              : i + 1 == kLabCount ? " or "
                                   : ", ") +
             std::string(kLabIdentities[i].name);
  }
  throw std::invalid_argument("lab must be " + names + " (got \"" + text + "\")");
}

}  // namespace warplens::app
