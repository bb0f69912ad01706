// The pattern copy seen by the model: its patterned side as an AccessPattern (an index
// expression the model evaluates) and its host twin (element_index, the function the kernel
// runs), so a test can hold the two against each other and against the GPU's trace.
#pragma once

#include <array>

#include "access_pattern.h"
#include "gpu.h"

namespace warplens {

/// The element index function of params (what the kernel gets), without a buffer to plan for.
IndexParams index_params(const gpu::CopyParams& params);

/// The patterned side of the copy for warp `warp` of block 0 as an index expression, e.g.
/// "1 + 2*(32*warp + lane)" for strided, offset 1, stride 2 (block params.block_threads x 1).
/// op is Load when the read side follows the pattern, Store when the write side does.
model::AccessPattern copy_access_pattern(const gpu::CopyParams& params, int warp);

/// What the instrumented kernel records, computed on the host with element_index.
TraceRecords host_twin_trace(const gpu::CopyParams& params, int warp);

/// Lane records -> lane accesses for the model's analysis (index = address / word bytes).
model::WarpAccesses accesses_from_trace(const TraceRecords& trace);

/// Lane accesses -> lane records (how the host model feeds the warp view).
TraceRecords trace_from_accesses(const model::WarpAccesses& lanes, int word_bytes);

}  // namespace warplens
