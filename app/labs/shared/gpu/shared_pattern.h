// The bank probe seen by the model: its access as an AccessPattern (an index expression the
// model evaluates, what `warplens analyze --space shared` takes) and its host twin
// (shared_element_index, the function the kernels run), so the bank view, `analyze` and
// `measure` give the same wavefront numbers for the same pattern.
#pragma once

#include "access_pattern.h"
#include "memory_model.h"
#include "shared_lab.h"

namespace warplens {

/// Warp `warp` of the probe's block as an index expression over tx, ty, bdx (and lane, warp),
/// e.g. "tx*33 + ty" for a 32x33 tile read by column. Idle threads cannot be written in the
/// expression language: for patterns with idle threads (reductions) the expression describes
/// every thread, and shared_model_accesses() is the one with the idle lanes.
model::AccessPattern shared_access_pattern(const gpu::BankProbeParams& params, int warp);

/// The `analyze` command line that reproduces the pattern (for the window's "same as" hint,
/// and the docs), e.g. "warplens analyze --space shared --block 32x32 --index 'tx*33 + ty'";
/// a teaching model other than modern adds its --model.
std::string shared_analyze_command(const gpu::BankProbeParams& params, int warp,
                                   model::HardwareModel hw = model::HardwareModel::Modern);

/// Lane accesses of warp `warp` computed on the host with shared_element_index (byte addresses
/// from the start of the shared array; idle lanes inactive). Throws std::invalid_argument for a
/// warp outside the block.
model::WarpAccesses shared_model_accesses(const gpu::BankProbeParams& params, int warp);

/// The same as a trace (slot 0), what the instrumented kernel writes.
TraceRecords shared_model_trace(const gpu::BankProbeParams& params, int warp);

/// The model's verdict for the probe's warp (wavefronts, banks, phases).
model::SharedAnalysis analyze_probe(const gpu::BankProbeParams& params, int warp,
                                    model::HardwareModel hardware = model::HardwareModel::Modern);

model::Op to_model_op(gpu::SharedOp op);

}  // namespace warplens
