// The pattern copy seen by the model: its patterned side as an AccessPattern (an index
// expression the model evaluates) and its host twin (element_index, the function the kernel
// runs), so a test can hold the two against each other and against the GPU's trace.
#pragma once

#include <array>
#include <string>

#include "access_pattern.h"
#include "gpu.h"

namespace warplens {

/// The element index function of params (what the kernel gets), without a buffer to plan for.
IndexParams index_params(const gpu::CopyParams& params);

/// The patterned side of the copy for warp `warp` of block 0 as an index expression (for a
/// struct layout: field x), e.g.
/// "1 + 2*(32*warp + lane)" for strided, offset 1, stride 2 (block params.block_threads x 1).
/// op is Load when the read side follows the pattern, Store when the write side does.
model::AccessPattern copy_access_pattern(const gpu::CopyParams& params, int warp);

/// The element index of a 1D copy pattern (params.kind) as text: in the analyze grammar (the
/// model's expression) or for the window ("1 + 2×i"). Both printed from index_functions, the
/// definition the kernel evaluates.
std::string index_text(const gpu::CopyParams& params, index_expr::ExpressionStyle style);

/// Field `field` (0..2) of the struct kernel for warp `warp` of block 0 as an index expression,
/// e.g. "3*(32*warp + lane) + 1" (array of structures, field y).
model::AccessPattern struct_field_pattern(const gpu::CopyParams& params, int warp, int field);

/// Trace slots the view shows: the warps, or for a struct layout the three field requests.
int trace_slots(const gpu::CopyParams& params, int warps);

/// What the instrumented kernel records for warps first_warp .. first_warp + warps - 1 of
/// block 0, computed on the host with element_index.
TraceRecords host_twin_trace(const gpu::CopyParams& params, int first_warp, int warps = 1);

/// The same records from the model: each warp's index expression evaluated by the model (how
/// the host model feeds the warp view). Throws model::PatternError.
TraceRecords model_trace(const gpu::CopyParams& params, int first_warp, int warps = 1);

/// What the heatmap launch counts, computed on the host with element_index over a launch of
/// `threads` threads (warps past the heatmap's sectors are skipped where the pattern only grows).
SectorHeatmap host_twin_heatmap(const gpu::CopyParams& params, std::int64_t threads);

/// Warp slot `slot`'s lane records -> lane accesses for the model's analysis
/// (index = address / word bytes).
model::WarpAccesses accesses_from_trace(const TraceRecords& trace, int slot = 0);

/// One warp's lane accesses -> lane records in warp slot `slot` of `trace`.
void put_accesses(const model::WarpAccesses& lanes, int word_bytes, int slot, TraceRecords& trace);

}  // namespace warplens
