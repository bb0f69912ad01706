// `warplens measure --lab cache`: the cache labs' kernels on the GPU. Sections: the carveout
// table and the shared-hungry kernel's occupancy (and time) against dynamic shared memory, and
// its time and resident blocks against the carveout (one per supported capacity, rows of kernel
// "carveout-sweep"); the L1 gather's time against its working set at several carveouts; the
// constant cache against k distinct addresses per warp; and the read paths (plain, __ldg,
// texture) over scattered, 2D-window, Morton-order and per-thread 4 x 4 column-tile reads. The
// l1 and read-path rows also carry the L1 hit rate from hardware counters (l1_hit_rate_pct, in
// percent of sectors; null with l1_hit_note where counters are unavailable), read on dedicated
// launches after all timed runs; WARPLENS_NO_COUNTERS skips them.
#pragma once

#include <vector>

#include "kernels_once.h"
#include "measure_options.h"
#include "measured_table.h"
#include "scenario.h"

namespace warplens::app {

/// Runs the measurement and prints it. Returns the process exit code (0; 1 GPU failure or a
/// checksum that did not verify; 2 bad parameters; 3 no CUDA device), with a one-line reason
/// on stderr.
int run_measure_cache(const CacheMeasureOptions& options);

/// How the verb's document reads as text and CSV (measured_table.h): the device and the
/// carveout table's check above one table per kind of row (occupancy, carveout sweep, the
/// shared-hungry kernel, the L1 sweep, constant reads, read paths); CSV columns device, section,
/// kernel, carveout, x_name, x, value_name, value, median_ms, verified, l1_hit_rate_pct.
MeasuredTable cache_measure_table(const nlohmann::json& doc);

/// The cache lab's `measure` (LabInfo::measure): the options' --section, or the scenario's.
int measure_cache_lab(const MeasureOptions& options, const Scenario* scenario);

/// `warplens-bench kernels-once` for this lab (LabInfo::kernels_once, kernels_once.h).
std::vector<KernelRun> cache_kernels_once(const gpu::DeviceInfo& device,
                                          const std::vector<const Scenario*>& scenarios);

}  // namespace warplens::app
