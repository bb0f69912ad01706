// The lab registry: one line per lab, in lecture order. Adding a lab is a line here plus the
// lab's own files (docs/adding-a-lab.md).
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

}  // namespace

const std::vector<LabInfo>& lab_registry() {
  static const std::vector<LabInfo> registry = {
      // id, title, short title, A/B ratio, instance, preset table, verify's counter case,
      // measure verb, kernels-once, key
      {Lab::Global, "Global memory", "Global", "bandwidth", make<GlobalLab>, parse_global_table,
       global_counter_case, measure_global, global_kernels_once},
      {Lab::Banks, "Shared banks", "Banks", "bandwidth", make<BankLab>, parse_banks_table,
       shared_counter_case, measure_shared_lab, banks_kernels_once},
      {Lab::Transpose, "Transpose", "Transpose", "bandwidth", make<TransposeLab>,
       parse_transpose_table, transpose_counter_case, measure_shared_lab, transpose_kernels_once},
      {Lab::Matmul, "Matrix multiply", "Matmul", "throughput", make<MatmulLab>, parse_matmul_table,
       shared_counter_case, measure_shared_lab, matmul_kernels_once},
      {Lab::Reduction, "Reduction", "Reduction", "bandwidth", make<ReductionLab>,
       parse_reduction_table, shared_counter_case, measure_shared_lab, reduction_kernels_once},
      {Lab::Cache, "Caches & occupancy", "Caches", nullptr, make<CacheLabUnit>, parse_cache_table,
       nullptr, measure_cache_lab, cache_kernels_once},
      {Lab::Flight, "Bytes in flight", "Flight", "bandwidth", make<FlightLabUnit>,
       parse_flight_table, nullptr, measure_flight_lab, flight_kernels_once},
      {Lab::Kernel, "Your kernel", "Kernel", "bandwidth", make<KernelLabUnit>, parse_kernel_table,
       nullptr, measure_kernel_lab, kernel_kernels_once, 'k'},
  };
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
