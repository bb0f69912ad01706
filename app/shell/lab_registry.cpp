// The lab registry: each lab's identity (lab_list.h) with the parts the lab defines in its folder
// (lab_parts.h: lab_parts_<Id>()), in the list's order. Adding a lab is its folder, a line in
// lab_list.h and its add_subdirectory (docs/adding-a-lab.md); nothing here names a lab.
#include <array>

#include "lab.h"
#include "lab_parts.h"

namespace warplens::app {

const std::vector<LabInfo>& lab_registry() {
  static const std::vector<LabInfo> registry = [] {
#define WARPLENS_LAB_PARTS_CALL(id, name, title, short_title, key) lab_parts_##id(),
    const std::array<LabParts, kLabCount> parts = {{WARPLENS_LABS(WARPLENS_LAB_PARTS_CALL)}};
#undef WARPLENS_LAB_PARTS_CALL
    std::vector<LabInfo> labs;
    for (std::size_t i = 0; i < kLabCount; ++i) {
      const LabIdentity& who = kLabIdentities[i];
      const LabParts& p = parts[i];
      labs.push_back({who.id, who.title, who.short_title, p.compare_ratio, p.make, p.parse_table,
                      p.counter_case, p.measure, p.kernels_once, who.key, p.verify_cases,
                      p.bench_tables, p.bottom_views, p.preset_option, p.preset_option_help});
    }
    return labs;
  }();
  return registry;
}

const LabInfo& lab_info(Lab id) {
  return lab_registry().at(static_cast<std::size_t>(id));
}

std::optional<double> headline_ratio(const Headline& a, const Headline& b) {
  if (!a.value || !b.value || *a.value <= 0) return std::nullopt;
  return *b.value / *a.value;
}

}  // namespace warplens::app
