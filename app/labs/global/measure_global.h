// `warplens measure` for the global lab: the pattern copy timed on the GPU (see
// measure_global.cpp for what it prints).
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <vector>

#include "kernels_once.h"
#include "measure_options.h"
#include "measured_table.h"
#include "scenario.h"

namespace warplens::app {

/// Times the options' offsets x strides (or `scenario`'s parameters, a global-lab scenario)
/// and prints text, JSON or CSV. Returns the process exit code (0; 1 GPU failure; 2 bad
/// parameters; 3 no CUDA device) with a one-line reason on stderr.
int measure_global(const MeasureOptions& options, const Scenario* scenario);

/// How measure_global's document reads as text and CSV (measured_table.h): the device, buffer
/// and reference copies (cudaMemcpy, the ideal 16-byte copy) above a table of one line per
/// pattern: GB/s, % of cudaMemcpy, the slowest-fastest run's GB/s, the model's sectors per
/// request and its efficiency (requested / moved bytes, %).
MeasuredTable global_measure_table(const nlohmann::json& doc);

/// `warplens-bench kernels-once` for this lab (LabInfo::kernels_once, kernels_once.h).
std::vector<KernelRun> global_kernels_once(const gpu::DeviceInfo& device,
                                           const std::vector<const Scenario*>& scenarios);

}  // namespace warplens::app
