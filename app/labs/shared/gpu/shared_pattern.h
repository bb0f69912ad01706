// The bank probe seen by the model: its access as an AccessPattern (an index expression the
// model evaluates, what `warplens analyze --space shared` takes) and its host twin
// (shared_element_index, the function the kernels run), so the bank view, `analyze` and
// `measure` give the same wavefront numbers for the same pattern.
#pragma once

#include "access_pattern.h"
#include "cute_layout.h"
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

/// A Layout pattern's index fields (SharedPatternKind::Layout, shared_index.h) for a CuTe
/// layout of elements of `word_bytes`: its shape and strides flattened to their leaves, its
/// offset and swizzle; thread tid of the block takes the layout's tid-th coordinate, and threads
/// past size(layout) sit idle (active_threads). The bank probe's kernel then computes the same
/// offsets as model::CuteLayout (tests/shared_pattern_test.cpp checks it on random layouts).
/// Throws std::invalid_argument for more than kSharedLayoutModes leaves, a value outside int,
/// or fields check_shared_index refuses.
SharedIndexParams shared_layout_index(const model::CuteLayout& layout, int word_bytes);

/// The layout of a Layout pattern in CuTe's notation, flattened as the pattern holds it:
/// "Sw<3,2,3> o (32,32):(32,1)".
std::string shared_layout_text(const SharedIndexParams& index);

}  // namespace warplens
