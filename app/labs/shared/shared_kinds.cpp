// The four shared-memory labs' entries (shared_kinds.h): each lab's shown access, its timing
// key, the kernels its worker times, its measure rows and its knobs (the preset table, the monkey's
// changes and the presenter strip).
#include "shared_kinds.h"

#include <stdexcept>
#include <string>

#include "number_text.h"
#include "shared_knobs.h"

namespace warplens::app {

namespace {

constexpr int kBankRuns = 10;  // median of 10 timed launches after 2 warm-up
constexpr int kTransposeRuns = 10;
constexpr int kMatmulRuns = 5;  // after 1 warm-up: the naive 2048^3 multiply takes a while
constexpr int kReductionRuns = 10;
constexpr std::int64_t kNoAllocationLimit = std::int64_t{1} << 62;  // checks without a device

// --- banks -----------------------------------------------------------------------------------

std::optional<gpu::BankProbeParams> banks_access(const SharedState& state) {
  return state.probe;
}
bool banks_same(const SharedState& a, const SharedState& b) {
  return a.probe == b.probe && a.warp == b.warp;
}
void banks_time(gpu::SharedLab& lab, const SharedState& st, SharedSession::Measured& out,
                const std::atomic<bool>* cancel,
                const std::function<void(const std::string&)>& status) {
  status("timing the bank pattern");
  out.bank = lab.measure_bank(st.probe, st.warp, kBankRuns, 2, cancel);
}

// --- transpose -------------------------------------------------------------------------------

std::optional<gpu::BankProbeParams> transpose_access(const SharedState& state) {
  gpu::check_transpose(state.transpose, kNoAllocationLimit);
  if (state.transpose.variant == gpu::TransposeVariant::Copy ||
      state.transpose.variant == gpu::TransposeVariant::Naive)
    return std::nullopt;
  return state.transpose_read ? gpu::transpose_tile_read(state.transpose)
                              : gpu::transpose_tile_write(state.transpose);
}
bool transpose_same(const SharedState& a, const SharedState& b) {
  return a.transpose.tile == b.transpose.tile &&
         a.transpose.rows_per_block == b.transpose.rows_per_block && a.transpose.n == b.transpose.n;
}
void transpose_time(gpu::SharedLab& lab, const SharedState& st, SharedSession::Measured& out,
                    const std::atomic<bool>* cancel,
                    const std::function<void(const std::string&)>& status) {
  for (auto variant : gpu::kTransposeVariants) {
    gpu::TransposeParams p = st.transpose;
    p.variant = variant;
    // A variant these parameters do not suit (vectorized: n not a multiple of 2T) gets its
    // refusal as its bar, and the others are still timed.
    if (auto refused = gpu::transpose_refusal(p)) {
      out.transpose.push_back(*refused);
      continue;
    }
    status(std::string("timing the ") + gpu::to_string(variant) + " transpose");
    out.transpose.push_back(lab.measure_transpose(p, kTransposeRuns, 2, cancel));
  }
}

// --- matmul ----------------------------------------------------------------------------------

std::optional<gpu::BankProbeParams> matmul_access(const SharedState& state) {
  gpu::check_matmul(state.matmul, kNoAllocationLimit);
  if (state.matmul.block_size == 0) return std::nullopt;
  if (state.matmul_k < 0 || state.matmul_k >= state.matmul.block_size)
    throw std::invalid_argument("k must be 0.." + std::to_string(state.matmul.block_size - 1));
  return state.matmul_b ? gpu::matmul_read_b(state.matmul, state.matmul_k)
                        : gpu::matmul_read_a(state.matmul, state.matmul_k);
}
bool matmul_same(const SharedState& a, const SharedState& b) {
  return a.matmul.n == b.matmul.n;
}
void matmul_time(gpu::SharedLab& lab, const SharedState& st, SharedSession::Measured& out,
                 const std::atomic<bool>* cancel,
                 const std::function<void(const std::string&)>& status) {
  for (int block : gpu::kMatmulBlockSizes) {
    gpu::MatmulParams p = st.matmul;
    p.block_size = block;
    status(block ? "timing the tiled multiply, BLOCK_SIZE " + std::to_string(block)
                 : std::string("timing the naive multiply"));
    out.matmul.push_back(lab.measure_matmul(p, kMatmulRuns, 1, cancel));
  }
}

// --- reduction -------------------------------------------------------------------------------

std::optional<gpu::BankProbeParams> reduction_access(const SharedState& state) {
  gpu::check_reduction(state.reduction, kNoAllocationLimit);
  const int steps = gpu::reduction_steps(state.reduction);
  if (state.reduction_step < 0 || state.reduction_step >= steps)
    throw std::invalid_argument("step must be 0.." + std::to_string(steps - 1));
  return gpu::reduction_step(state.reduction, state.reduction_step, state.reduction_second);
}
bool reduction_same(const SharedState& a, const SharedState& b) {
  return a.reduction.block_threads == b.reduction.block_threads &&
         a.reduction.elements == b.reduction.elements;
}
void reduction_time(gpu::SharedLab& lab, const SharedState& st, SharedSession::Measured& out,
                    const std::atomic<bool>* cancel,
                    const std::function<void(const std::string&)>& status) {
  for (auto variant : gpu::kReductionVariants) {
    gpu::ReductionParams p = st.reduction;
    p.variant = variant;
    status(std::string("timing the ") + gpu::to_string(variant) + " reduction");
    out.reduction.push_back(lab.measure_reduction(p, kReductionRuns, 2, cancel));
  }
}

// --- the command line's options ----------------------------------------------------------------

void banks_options(const MeasureOptions& o, SharedState& st) {
  auto& x = st.probe.index;
  x.kind = gpu::parse_shared_pattern_kind(o.pattern);
  x.word_bytes = o.word_bytes;
  x.offset = static_cast<int>(o.offsets.front());
  x.stride = static_cast<int>(o.strides.front());
  x.tile_width = o.tile_width;
  x.pitch_elements = o.pitch_elements ? o.pitch_elements : o.tile_width;
  x.by_column = o.by_column;
  x.swizzle = o.swizzle;
  x.struct_words = o.struct_words;
  x.field = o.field;
  x.part = o.part;
  st.probe.op = gpu::parse_shared_op(o.op);
  const auto block = model::parse_block(o.block);
  st.probe.block_x = block.x;
  st.probe.block_y = block.y;
  st.warp = o.warp;
}
void transpose_options(const MeasureOptions& o, SharedState& st) {
  if (!o.variant.empty()) st.transpose.variant = gpu::parse_transpose_variant(o.variant);
  st.transpose.tile = o.tile;
  st.transpose.rows_per_block = o.rows_per_block;
  if (o.n) st.transpose.n = o.n;
}
void matmul_options(const MeasureOptions& o, SharedState& st) {
  if (o.block_size >= 0) st.matmul.block_size = o.block_size;
  if (o.n) st.matmul.n = o.n;
}
void reduction_options(const MeasureOptions& o, SharedState& st) {
  if (!o.variant.empty()) st.reduction.variant = gpu::parse_reduction_variant(o.variant);
  st.reduction.block_threads = o.block_threads;
  st.reduction.elements = o.elements;
}
bool unless_variant(const MeasureOptions& o) {
  return o.variant.empty();
}
bool unless_block_size(const MeasureOptions& o) {
  return o.block_size < 0;
}

// --- what the views show beside the access ------------------------------------------------------

void banks_check(const SharedState& st) {
  (void)shared_model_accesses(st.probe, st.warp);  // the warp is in the block
}
// What the multiply's variants read from global memory, from the sizes alone (with or without
// a GPU), and why fewer bytes need not mean more GFLOP/s.
std::vector<std::string> matmul_notes(const SharedState& st, bool all_variants) {
  std::vector<std::string> notes;
  if (all_variants) notes.push_back(matmul_traffic_text(st.matmul.n));
  notes.push_back(matmul_reuse_text());
  return notes;
}
constexpr const char* kTransposeNoAccess =
    "This transpose variant does not stage a tile in shared memory, so it has no bank pattern. "
    "Pick tiled, padded, swizzled or vectorized to see the tile accesses.";
constexpr const char* kMatmulNoAccess =
    "The naive multiply reads both operands straight from global memory: no shared memory, no "
    "banks. Pick a BLOCK_SIZE to see the tiles' bank pattern.";

constexpr SharedKind kKinds[] = {
    {Lab::Banks, true, false, nullptr, banks_check, nullptr, nullptr, banks_access, banks_same,
     banks_time, banks_options, unless_variant, banks_measure_rows, banks_text_columns,
     "cycles_per_request", "cycles/request", banks_knobs},
    {Lab::Transpose, false, true, kTransposeNoAccess, nullptr, transpose_bars, nullptr,
     transpose_access, transpose_same, transpose_time, transpose_options, unless_variant,
     transpose_measure_rows, transpose_text_columns, "gbps", "GB/s", transpose_knobs},
    {Lab::Matmul, false, false, kMatmulNoAccess, nullptr, matmul_bars, matmul_notes, matmul_access,
     matmul_same, matmul_time, matmul_options, unless_block_size, matmul_measure_rows,
     matmul_text_columns, "gflops", "GFLOP/s", matmul_knobs},
    {Lab::Reduction, false, false, nullptr, nullptr, reduction_bars, nullptr, reduction_access,
     reduction_same, reduction_time, reduction_options, unless_variant, reduction_measure_rows,
     reduction_text_columns, "gbps", "GB/s", reduction_knobs},
};

}  // namespace

const SharedKind& shared_kind(Lab lab) {
  for (const SharedKind& k : kKinds)
    if (k.lab == lab) return k;
  throw std::invalid_argument(std::string("the ") + to_string(lab) +
                              " lab is not a shared-memory lab");
}

}  // namespace warplens::app
