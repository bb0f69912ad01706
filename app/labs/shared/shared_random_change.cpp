// The shared-memory labs' LabInstance::random_change (`warplens-bench soak`): one field of the
// lab's state to a value its panel offers, set through the session when the lab's checks accept
// it, as the panel's controls would.
#include <algorithm>

#include "shared_kinds.h"
#include "shared_labs.h"

namespace warplens::app {

void change_bank_parameter(SharedState& state, std::mt19937& rng) {
  SharedIndexParams& x = state.probe.index;
  switch (rng() % 6) {
    case 0: x.word_bytes = pick_one(rng, {1, 2, 4, 8, 16}); break;
    case 1: x.stride = pick_one(rng, {0, 1, 2, 3, 8, 32}); break;
    case 2: x.offset = pick_one(rng, {0, 1, 4, 9}); break;
    case 3:
      state.probe.op =
          state.probe.op == gpu::SharedOp::Load ? gpu::SharedOp::Store : gpu::SharedOp::Load;
      break;
    case 4:
      if (x.kind == SharedPatternKind::Tile) {
        x.pitch_elements = x.tile_width + pick_one(rng, {0, 1});
        x.swizzle = x.pitch_elements == x.tile_width && rng() % 2;
        x.by_column = rng() % 2;
      }
      break;
    default: {
      const int warps = std::max(1, state.probe.block_x * state.probe.block_y / 32);
      state.warp = static_cast<int>(rng() % static_cast<unsigned>(warps));
      break;
    }
  }
}

void change_transpose_parameter(SharedState& state, std::mt19937& rng) {
  gpu::TransposeParams& t = state.transpose;
  switch (rng() % 4) {
    case 0: t.variant = gpu::kTransposeVariants[rng() % gpu::kTransposeVariants.size()]; break;
    case 1:
      t.tile = pick_one(rng, {8, 16, 32});
      t.rows_per_block = std::min(t.tile, pick_one(rng, {1, 2, 4, 8}));
      break;
    case 2: state.transpose_read = !state.transpose_read; break;
    default:
      state.transpose_view = pick_one(
          rng, {TransposeView::Tile, TransposeView::GlobalRead, TransposeView::GlobalWrite});
      break;
  }
}

void change_matmul_parameter(SharedState& state, std::mt19937& rng) {
  switch (rng() % 3) {
    case 0:
      state.matmul.block_size = pick_one(rng, {0, 8, 16, 32});
      state.matmul_k = 0;
      break;
    case 1:
      if (state.matmul.block_size > 0)
        state.matmul_k = static_cast<int>(rng() % static_cast<unsigned>(state.matmul.block_size));
      break;
    default: state.matmul_b = !state.matmul_b; break;
  }
}

void change_reduction_parameter(SharedState& state, std::mt19937& rng) {
  switch (rng() % 4) {
    case 0: state.reduction.variant = gpu::kReductionVariants[rng() % 3]; break;
    case 1:
      state.reduction.block_threads = pick_one(rng, {64, 128, 256, 512, 1024});
      state.reduction_step = 0;
      break;
    case 2:
      state.reduction_step =
          static_cast<int>(rng() % static_cast<unsigned>(gpu::reduction_steps(state.reduction)));
      break;
    default: state.reduction_second = !state.reduction_second; break;
  }
}

void SharedLabBase::random_change(std::mt19937& rng) {
  random_session_change(session_, rng);
}

void random_session_change(SharedSession& session, std::mt19937& rng) {
  SharedState state = session.state();
  const SharedKind& kind = shared_kind(state.lab);
  kind.change_parameter(state, rng);
  try {
    const auto access = kind.shown_access(state);
    if (access) (void)gpu::plan_bank_probe(*access, gpu::kModelSharedBytesPerBlock);
    if (state.lab == Lab::Banks)
      gpu::check_block_warp(state.probe.block_x, state.probe.block_y, state.warp);
  } catch (const std::invalid_argument&) {
    return;  // a value the panel would refuse: leave the state as it was
  }
  session.set(state);
}

}  // namespace warplens::app
