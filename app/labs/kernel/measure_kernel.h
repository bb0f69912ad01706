// The own-kernel lab's part of `warplens measure` (--kernel FILE.toml or --scenario NAME), its
// figures' numbers and `warplens-bench kernels-once`.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <vector>

#include "kernel_session.h"
#include "kernels_once.h"
#include "measure_options.h"
#include "measured_table.h"
#include "scenario.h"

namespace warplens::app {

/// The lab's `measure` (LabInfo::measure): compiles the scenario's program with NVRTC, runs it
/// (the traced launch, `--runs` timed launches), reads the counters of one launch and prints
/// each row's model beside its GPU trace, the launch's totals beside the counters, GB/s beside
/// the bandwidth model, as text, JSON or CSV. Returns the exit code: 0; 1 a GPU failure, `out`
/// that does not match the host simulation, or a trace that differs from the model; 2 no
/// program (neither --kernel nor --scenario) or a refused one; 3 no CUDA device.
int measure_kernel_lab(const MeasureOptions& options, const Scenario* scenario);

/// How the lab's measure document reads as text and CSV (measured_table.h): the device and
/// compile above one line per row ("rows": its model's cost per request beside the GPU trace's),
/// then the launch's totals beside the counters, GB/s beside the bandwidth model, the check.
MeasuredTable kernel_measure_table(const nlohmann::json& doc);

/// A figure's numbers (LabInstance::figure_numbers): "program", "model" (rows and totals),
/// "gpu_trace" (rows, when the run is of the current program) and "measured".
void kernel_figure_json(const KernelSession& session, const KernelResults& results,
                        nlohmann::json& figure);

/// Small programs of each kind the presets teach (a copy; the naive, tiled and padded
/// transposes at n = 256; AoS; the reduction's two steps; one far out of range), each small
/// enough for the host to simulate the whole grid and check `out`.
std::vector<std::pair<std::string, KernelState>> kernel_small_programs();

/// `warplens-bench kernels-once` for this lab (LabInfo::kernels_once, kernels_once.h): the
/// small programs, then each scenario's program at its own size (one timed launch), every
/// trace compared with the model and `out` with the host simulation where it is complete.
std::vector<KernelRun> kernel_kernels_once(const gpu::DeviceInfo& device,
                                           const std::vector<const Scenario*>& scenarios);

/// Whether the GPU's trace of a row has the model's lanes: the same lanes active, at the same
/// byte offsets.
bool trace_matches_model(const gpu::KernelRowModel& traced, const gpu::KernelRowModel& model);

}  // namespace warplens::app
