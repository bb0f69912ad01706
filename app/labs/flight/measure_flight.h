// `warplens measure --lab flight`: the bytes-in-flight lab on the GPU. Sections: latency (the
// pointer-chase ladder, every row: default and __ldcg, one lane and one warp, with the L1, L2
// and DRAM plateaus and a TLB step where one shows), littles-law (cudaMemcpy, then the copy over
// littles_law_grid(), each row with its bytes in flight per SM, measured GB/s, the line's
// prediction from the ladder's DRAM latency, tau from the one-block copies and near the wall the
// loaded-latency probe's curve, the error, below or above the knee, and the linear model's beside
// it) and async (the plain copies, cp.async and TMA, or why the GPU lacks one); timeline, not in
// all: one block's round on its SM for 16-byte copies of 1-8 loads at one and two blocks per SM
// (FlightLab::measure_block_timeline). Text, JSON or CSV; the summary: the line's worst error
// below and above the knee.
#pragma once

#include <vector>

#include "kernels_once.h"
#include "measure_options.h"
#include "measured_table.h"
#include "scenario.h"

namespace warplens::app {

/// The lab's `measure` (LabInfo::measure): `--section` (latency | littles-law | async | all |
/// timeline, the option the cache lab's sections use too), or the scenario's section;
/// `--copy-bytes` sizes the copy buffers (MeasureOptions::flight_copy_bytes). Returns the exit code
/// (0; 1 a GPU failure or a copy that did not verify; 2 bad parameters; 3 no CUDA device).
int measure_flight_lab(const MeasureOptions& options, const Scenario* scenario);

/// How the verb's document reads as text and CSV (measured_table.h): the device, the ladder's
/// plateaus and the model above one table per kind of row (the ladder, the loaded-latency probe,
/// the Little's-law copies beside the model's line, the plain and asynchronous copies, what the
/// GPU lacks), the worst errors below them; CSV one line per row with its kind's columns.
MeasuredTable flight_measure_table(const nlohmann::json& doc);

/// `warplens-bench kernels-once` for this lab (LabInfo::kernels_once, kernels_once.h).
std::vector<KernelRun> flight_kernels_once(const gpu::DeviceInfo& device,
                                           const std::vector<const Scenario*>& scenarios);

}  // namespace warplens::app
