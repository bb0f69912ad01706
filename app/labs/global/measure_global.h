// `warplens measure` for the global lab: the pattern copy timed on the GPU (see
// measure_global.cpp for what it prints).
#pragma once

#include <vector>

#include "kernels_once.h"
#include "measure_options.h"
#include "scenario.h"

namespace warplens::app {

/// Times the options' offsets x strides (or `scenario`'s parameters, a global-lab scenario)
/// and prints text, JSON or CSV. Returns the process exit code (0; 1 GPU failure; 2 bad
/// parameters; 3 no CUDA device) with a one-line reason on stderr.
int measure_global(const MeasureOptions& options, const Scenario* scenario);

/// `warplens-bench kernels-once` for this lab (LabInfo::kernels_once, kernels_once.h).
std::vector<KernelRun> global_kernels_once(const gpu::DeviceInfo& device,
                                           const std::vector<const Scenario*>& scenarios);

}  // namespace warplens::app
