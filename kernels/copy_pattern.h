// The strided copy seen by the model: its read side as an AccessPattern (an index expression
// the model evaluates) and its host twin (copy_read_index, the function the kernel runs).
#pragma once

#include <array>

#include "access_pattern.h"
#include "gpu.h"

namespace warplens {

/// The copy's reads by warp `warp` of block 0 as an index expression, e.g.
/// "1 + 2*(32*warp + lane)" for offset 1, stride 2 (block params.block_threads x 1).
model::AccessPattern copy_read_pattern(const gpu::CopyParams& params, int warp);

/// What the instrumented kernel would record, computed on the host with copy_read_index.
TraceRecords host_twin_trace(const gpu::CopyParams& params, int warp);

/// Lane records -> lane accesses for the model's analysis (index = address / word bytes).
model::WarpAccesses accesses_from_trace(const TraceRecords& trace);

/// Lane accesses -> lane records (how the host model feeds the warp view).
TraceRecords trace_from_accesses(const model::WarpAccesses& lanes, int word_bytes);

}  // namespace warplens
