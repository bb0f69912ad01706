// warplens-bench's tables of the shared-memory family (LabParts::bench_tables): each prints its
// lab's table on stdout, every row the median of `runs` timed launches (matmul: 5), checked
// against the host. Throw GpuError on CUDA failure.
#pragma once

#include "gpu.h"

namespace warplens::app {

/// The bank probe: one warp alone (clock64 cycles per request) and the whole GPU (bytes per SM
/// per SM clock against the 32 banks x 4 B = 128 limit).
void banks_bench_tables(const gpu::DeviceInfo& device, int runs);
/// The transpose of 8192 x 8192 floats: every variant x tiles 8, 16, 32, GB/s (read + write)
/// and % of the copy kernel with the same tiles; each cell the median of 3 passes.
void transpose_bench_tables(const gpu::DeviceInfo& device, int runs);
/// C = A B of 4096 x 4096 floats: GFLOP/s = 2 n^3 / time by BLOCK_SIZE, 256 entries checked.
void matmul_bench_tables(const gpu::DeviceInfo& device, int runs);
/// The three reductions of 2^26 unsigned integers: GB/s of input read and ms.
void reduction_bench_tables(const gpu::DeviceInfo& device, int runs);

}  // namespace warplens::app
