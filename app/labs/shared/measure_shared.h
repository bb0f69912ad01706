// `warplens measure --lab banks|transpose|matmul|reduction`: the shared-memory labs' kernels
// timed on the GPU, next to the model's wavefront count for the access the bank view shows.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

#include "kernels_once.h"
#include "measure_options.h"
#include "measured_table.h"
#include "scenario.h"

#include "shared_session.h"

namespace warplens::app {

struct SharedMeasureOptions {
  SharedState state;         ///< the lab and its parameters
  bool all_variants = true;  ///< transpose/matmul/reduction: every variant (false: the chosen one)
  int runs = 10;
  std::string format = "text";  ///< text | json | csv
};

/// Each shared lab's part of the verb (SharedKind, shared_kinds.h): its kernels timed as JSON
/// rows (every variant when options.all_variants), and the text table's columns of those rows.
nlohmann::json banks_measure_rows(gpu::SharedLab& lab, const SharedMeasureOptions& options);
nlohmann::json transpose_measure_rows(gpu::SharedLab& lab, const SharedMeasureOptions& options);
nlohmann::json matmul_measure_rows(gpu::SharedLab& lab, const SharedMeasureOptions& options);
nlohmann::json reduction_measure_rows(gpu::SharedLab& lab, const SharedMeasureOptions& options);
std::vector<TableColumn> banks_text_columns();
std::vector<TableColumn> transpose_text_columns();
std::vector<TableColumn> matmul_text_columns();
std::vector<TableColumn> reduction_text_columns();

/// How a shared lab's measure document reads as text and CSV (measured_table.h): the device,
/// the lab and the model's wavefronts per request above the lab's table; CSV columns device,
/// lab, kernel, value, unit, median_ms, verified_or_model_wavefronts.
MeasuredTable shared_measure_table(const nlohmann::json& doc);

/// The shared labs' `measure` (LabInfo::measure): the scenario's parameters, or the options'
/// for the lab they name (--lab banks|transpose|matmul|reduction).
int measure_shared_lab(const MeasureOptions& options, const Scenario* scenario);

/// Runs the measurement and prints it. Returns the process exit code (0; 1 GPU failure; 2 bad
/// parameters; 3 no CUDA device), with a one-line reason on stderr.
int run_measure_shared(const SharedMeasureOptions& options);

/// `warplens-bench kernels-once` for this lab (LabInfo::kernels_once, kernels_once.h).
std::vector<KernelRun> banks_kernels_once(const gpu::DeviceInfo& device,
                                          const std::vector<const Scenario*>& scenarios);

/// `warplens-bench kernels-once` for this lab (LabInfo::kernels_once, kernels_once.h).
std::vector<KernelRun> transpose_kernels_once(const gpu::DeviceInfo& device,
                                              const std::vector<const Scenario*>& scenarios);

/// `warplens-bench kernels-once` for this lab (LabInfo::kernels_once, kernels_once.h).
std::vector<KernelRun> matmul_kernels_once(const gpu::DeviceInfo& device,
                                           const std::vector<const Scenario*>& scenarios);

/// `warplens-bench kernels-once` for this lab (LabInfo::kernels_once, kernels_once.h).
std::vector<KernelRun> reduction_kernels_once(const gpu::DeviceInfo& device,
                                              const std::vector<const Scenario*>& scenarios);

}  // namespace warplens::app
