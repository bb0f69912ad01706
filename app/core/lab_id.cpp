#include "lab_id.h"

#include <array>
#include <stdexcept>

namespace warplens::app {

namespace {
// In the enum's order: one name per lab.
constexpr std::array<const char*, 8> kNames = {"global",    "banks", "transpose", "matmul",
                                               "reduction", "cache", "flight",    "kernel"};
static_assert(kNames.size() == static_cast<std::size_t>(Lab::Kernel) + 1, "a name per lab");
}  // namespace

const char* to_string(Lab lab) {
  return kNames.at(static_cast<std::size_t>(lab));
}

Lab parse_lab(const std::string& text) {
  std::string names;
  for (std::size_t i = 0; i < kNames.size(); ++i) {
    if (text == kNames[i]) return static_cast<Lab>(i);
    names += (i == 0 ? "" : i + 1 == kNames.size() ? " or " : ", ") + std::string(kNames[i]);
  }
  throw std::invalid_argument("lab must be " + names + " (got \"" + text + "\")");
}

}  // namespace warplens::app
