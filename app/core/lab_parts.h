// What a lab brings to the registry besides its identity (lab_list.h): its instance, its preset
// table's parser, verify's counter case, its `measure` and `kernels-once` verbs, its bench
// tables, and A/B's ratio. Each lab defines its own in its folder, `LabParts lab_parts_<Id>()`
// (e.g. app/labs/global/global_parts.cpp defines lab_parts_Global()); this header declares one per
// line of lab_list.h, and the registry (app/shell/lab_registry.cpp) calls them in the list's order,
// so a new lab is its folder, its line in lab_list.h and its add_subdirectory
// (docs/adding-a-lab.md). A lab missing its function fails to link, naming it.
#pragma once

#include <any>
#include <memory>
#include <optional>
#include <vector>

#include "kernels_once.h"
#include "lab.h"
#include "lab_id.h"
#include "measure_options.h"
#include "scenario.h"

namespace warplens::app {

struct LabParts {
  /// Whether A/B compare can show two instances side by side, and what its ratio compares
  /// ("bandwidth", "throughput"); null: no compare in this lab.
  const char* compare_ratio = nullptr;
  /// Makes an instance (GL context current; measures on the GPU unless `use_gpu` is false).
  std::unique_ptr<LabInstance> (*make)(bool use_gpu) = nullptr;
  /// Parses the lab's table of a preset into Scenario::parameters (LabInfo::parse_table).
  std::any (*parse_table)(const ScenarioTable& scenario) = nullptr;
  /// verify's counter case of a scenario's access (LabInfo::counter_case); null: none.
  std::optional<CounterCase> (*counter_case)(const Scenario& scenario) = nullptr;
  /// `warplens measure` for this lab (LabInfo::measure).
  int (*measure)(const MeasureOptions& options, const Scenario* scenario) = nullptr;
  /// `warplens-bench kernels-once` for this lab (LabInfo::kernels_once).
  std::vector<KernelRun> (*kernels_once)(const gpu::DeviceInfo& device,
                                         const std::vector<const Scenario*>& scenarios) = nullptr;
  /// verify's generated cases of this lab (LabInfo::verify_cases); null: none.
  std::vector<CounterCase> (*verify_cases)(int compute_capability) = nullptr;
  /// warplens-bench's tables of this lab (LabInfo::bench_tables); null: none.
  void (*bench_tables)(const gpu::DeviceInfo& device, int runs) = nullptr;
  /// The views under the lab's view (LabInfo::bottom_views).
  bool bottom_views = false;
  /// An option of its own for a preset of this lab and its help (LabInfo::preset_option).
  const char* preset_option = nullptr;
  const char* preset_option_help = nullptr;
};

/// An instance of lab unit `T` (LabParts::make).
template <typename T>
std::unique_ptr<LabInstance> make_lab(bool use_gpu) {
  return std::make_unique<T>(use_gpu);
}

#define WARPLENS_LAB_PARTS_DECLARATION(id, name, title, short_title, key) LabParts lab_parts_##id();
WARPLENS_LABS(WARPLENS_LAB_PARTS_DECLARATION)
#undef WARPLENS_LAB_PARTS_DECLARATION

}  // namespace warplens::app
