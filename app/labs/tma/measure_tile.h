// `warplens measure --lab tile`: the tile lab on the GPU, for a scenario's state (or the lab's
// default: a TMA tile of 32 x 32 4-byte elements under the 128-byte swizzle, read by column 0):
// the fill's cycles, whether the placement read back equals the model's, the read's cycles per
// request, its values' check, and its wavefronts per request from the counters beside the
// model's. Text, JSON or CSV.
#pragma once

#include <vector>

#include "kernels_once.h"
#include "measure_options.h"
#include "measured_table.h"
#include "scenario.h"

namespace warplens::app {

/// The lab's `measure` (LabInfo::measure). Returns the exit code (0; 1 a GPU failure, a
/// placement or values that differ from the model; 2 bad parameters or a GPU without the TMA or
/// ldmatrix; 3 no CUDA device).
int measure_tile_lab(const MeasureOptions& options, const Scenario* scenario);

/// How the verb's document reads as text and CSV: the device above one table of reads.
MeasuredTable tile_measure_table(const nlohmann::json& doc);

/// `warplens-bench kernels-once` for this lab (kernels_once.h): every fill x swizzle mode on a
/// small tile with each read kind, then each scenario, every placement and value checked.
std::vector<KernelRun> tile_kernels_once(const gpu::DeviceInfo& device,
                                         const std::vector<const Scenario*>& scenarios);

}  // namespace warplens::app
