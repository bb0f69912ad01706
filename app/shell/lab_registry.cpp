// The lab registry: each lab's identity (lab_list.h) with its parts, one line per lab in the
// list's order (checked at compile time). Adding a lab is a line in lab_list.h, a line here and
// the lab's own files (docs/adding-a-lab.md).
#include <array>
#include <stdexcept>

#include "cache_lab_unit.h"
#include "cache_scenario.h"
#include "flight_lab_unit.h"
#include "flight_scenario.h"
#include "global_lab.h"
#include "global_scenario.h"
#include "kernel_lab_unit.h"
#include "kernel_scenario.h"
#include "lab.h"
#include "measure_cache.h"
#include "measure_flight.h"
#include "measure_global.h"
#include "measure_kernel.h"
#include "measure_shared.h"
#include "shared_labs.h"
#include "shared_scenario.h"

namespace warplens::app {

namespace {

template <typename T>
std::unique_ptr<LabInstance> make(bool use_gpu) {
  return std::make_unique<T>(use_gpu);
}

/// What a lab brings besides its identity (lab_list.h), one line per lab in the list's order.
struct LabParts {
  Lab id;
  const char* compare_ratio;
  std::unique_ptr<LabInstance> (*make)(bool use_gpu);
  std::any (*parse_table)(const ScenarioTable& scenario);
  std::optional<CounterCase> (*counter_case)(const Scenario& scenario);
  int (*measure)(const MeasureOptions& options, const Scenario* scenario);
  std::vector<KernelRun> (*kernels_once)(const gpu::DeviceInfo& device,
                                         const std::vector<const Scenario*>& scenarios);
};

// id, A/B ratio, instance, preset table, verify's counter case, measure verb, kernels-once
constexpr std::array<LabParts, kLabCount> kParts = {{
    {Lab::Global, "bandwidth", make<GlobalLab>, parse_global_table, global_counter_case,
     measure_global, global_kernels_once},
    {Lab::Banks, "bandwidth", make<BankLab>, parse_banks_table, shared_counter_case,
     measure_shared_lab, banks_kernels_once},
    {Lab::Transpose, "bandwidth", make<TransposeLab>, parse_transpose_table, transpose_counter_case,
     measure_shared_lab, transpose_kernels_once},
    {Lab::Matmul, "throughput", make<MatmulLab>, parse_matmul_table, shared_counter_case,
     measure_shared_lab, matmul_kernels_once},
    {Lab::Reduction, "bandwidth", make<ReductionLab>, parse_reduction_table, shared_counter_case,
     measure_shared_lab, reduction_kernels_once},
    {Lab::Cache, nullptr, make<CacheLabUnit>, parse_cache_table, nullptr, measure_cache_lab,
     cache_kernels_once},
    {Lab::Flight, "bandwidth", make<FlightLabUnit>, parse_flight_table, nullptr, measure_flight_lab,
     flight_kernels_once},
    {Lab::Kernel, "bandwidth", make<KernelLabUnit>, parse_kernel_table, nullptr, measure_kernel_lab,
     kernel_kernels_once},
}};

constexpr bool parts_in_list_order() {
  for (std::size_t i = 0; i < kLabCount; ++i)
    if (kParts[i].id != kLabIdentities[i].id) return false;
  return true;
}
static_assert(parts_in_list_order(), "kParts must follow lab_list.h, one line per lab");

}  // namespace

const std::vector<LabInfo>& lab_registry() {
  static const std::vector<LabInfo> registry = [] {
    std::vector<LabInfo> labs;
    for (std::size_t i = 0; i < kLabCount; ++i) {
      const LabIdentity& who = kLabIdentities[i];
      const LabParts& parts = kParts[i];
      labs.push_back({who.id, who.title, who.short_title, parts.compare_ratio, parts.make,
                      parts.parse_table, parts.counter_case, parts.measure, parts.kernels_once,
                      who.key});
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
