// The four shared-memory labs' entries (shared_kinds.h): each lab's shown access, its timing
// key and the kernels its worker times.
#include "shared_kinds.h"

#include <stdexcept>
#include <string>

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

constexpr SharedKind kKinds[] = {
    {Lab::Banks, banks_access, banks_same, banks_time},
    {Lab::Transpose, transpose_access, transpose_same, transpose_time},
    {Lab::Matmul, matmul_access, matmul_same, matmul_time},
    {Lab::Reduction, reduction_access, reduction_same, reduction_time},
};

}  // namespace

const SharedKind& shared_kind(Lab lab) {
  for (const SharedKind& k : kKinds)
    if (k.lab == lab) return k;
  throw std::invalid_argument(std::string("the ") + to_string(lab) +
                              " lab is not a shared-memory lab");
}

}  // namespace warplens::app
