// The shared-memory labs' LabInstance::random_change (`warplens-bench soak`): one field of the
// lab's state to a value its panel offers, set through the session when the lab's checks accept
// it, as the panel's controls would.
#include <algorithm>

#include "shared_kinds.h"
#include "shared_knobs.h"
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
  random_knob_change(rng, state, transpose_knobs());
}

void change_matmul_parameter(SharedState& state, std::mt19937& rng) {
  random_knob_change(rng, state, matmul_knobs());
}

void change_reduction_parameter(SharedState& state, std::mt19937& rng) {
  random_knob_change(rng, state, reduction_knobs());
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
