// warplens-bench's shared-memory tables: bank-probe throughput against the 128 B/clk/SM limit,
// transpose variants x tile sizes relative to the copy kernel, matmul GFLOP/s by BLOCK_SIZE and
// the three reductions. Throws GpuError on CUDA failure.
#pragma once

#include "gpu.h"

namespace warplens::bench {

void print_shared_tables(const gpu::DeviceInfo& device, int runs);

}  // namespace warplens::bench
