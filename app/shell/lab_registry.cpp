// The lab registry: one line per lab, in lecture order. Adding a lab is a line here plus the
// lab's own files (docs/adding-a-lab.md).
#include <stdexcept>

#include "cache_lab_unit.h"
#include "cache_scenario.h"
#include "global_lab.h"
#include "global_scenario.h"
#include "lab.h"
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
      // id, name, title, short title, A/B ratio, instance, preset table, verify's counter case
      {Lab::Global, "global", "Global memory", "Global", "bandwidth", make<GlobalLab>,
       parse_global_table, global_counter_case},
      {Lab::Banks, "banks", "Shared banks", "Banks", "bandwidth", make<BankLab>, parse_banks_table,
       shared_counter_case},
      {Lab::Transpose, "transpose", "Transpose", "Transpose", "bandwidth", make<TransposeLab>,
       parse_transpose_table, transpose_counter_case},
      {Lab::Matmul, "matmul", "Matrix multiply", "Matmul", "throughput", make<MatmulLab>,
       parse_matmul_table, shared_counter_case},
      {Lab::Reduction, "reduction", "Reduction", "Reduction", "bandwidth", make<ReductionLab>,
       parse_reduction_table, shared_counter_case},
      {Lab::Cache, "cache", "Caches & occupancy", "Caches", nullptr, make<CacheLabUnit>,
       parse_cache_table, nullptr},
  };
  return registry;
}

const LabInfo& lab_info(Lab id) {
  return lab_registry().at(static_cast<std::size_t>(id));
}

const char* to_string(Lab lab) {
  return lab_info(lab).name;
}

Lab parse_lab(const std::string& text) {
  const auto& labs = lab_registry();
  std::string names;
  for (std::size_t i = 0; i < labs.size(); ++i) {
    if (text == labs[i].name) return labs[i].id;
    names += (i == 0 ? "" : i + 1 == labs.size() ? " or " : ", ") + std::string(labs[i].name);
  }
  throw std::invalid_argument("lab must be " + names + " (got \"" + text + "\")");
}

std::optional<double> headline_ratio(const Headline& a, const Headline& b) {
  if (!a.value || !b.value || *a.value <= 0) return std::nullopt;
  return *b.value / *a.value;
}

}  // namespace warplens::app
