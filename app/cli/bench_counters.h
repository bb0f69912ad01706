// warplens-bench's counter table (`warplens-bench RUNS counters`): how long the in-process
// hardware-counter read-out of one pattern takes (CounterChecker::read, the median of RUNS),
// against the wall time of reading the same metrics of the same kernel with Nsight Compute
// (`ncu --metrics ... -k regex:KERNEL -c 1 warplens measure --scenario NAME`) when ncu is on
// PATH, and against the same `warplens measure` run without ncu (so the table also shows what
// ncu itself adds).
#pragma once

#include "gpu.h"

namespace warplens::bench {

/// Prints the table; returns the process exit code (0; 4 when counters cannot be read, with the
/// one-line reason on stderr). Throws GpuError on CUDA failure.
int print_counter_table(const gpu::DeviceInfo& device, int runs);

/// How reading counters affects the app's timed launches: the global lab's copy kernel
/// (scenario "misaligned") timed before any counters, with the checker's profiler kept enabled
/// and after the checker is gone; wall time of the whole measurement and the kernel's median.
/// Returns the exit code (4: counters refused).
int print_profiler_effect(const gpu::DeviceInfo& device, int runs);

}  // namespace warplens::bench
