// The global lab's LabInstance::random_change (`warplens-bench soak`): one control of the
// parameter panel moved to a value it offers, set through the session when plan_copy accepts it.
#include "global_lab.h"

namespace warplens::app {

void GlobalLab::random_change(std::mt19937& rng) {
  random_session_change(session_, rng);
}

void random_session_change(CopySession& session, std::mt19937& rng) {
  CopyState s = session.state();
  if (random_state_change(s, rng)) session.set(s);
}

bool random_state_change(CopyState& state, std::mt19937& rng) {
  CopyState s = state;
  gpu::CopyParams& p = s.params;
  if (p.matrix_width != 0) {  // the matrix's own controls
    switch (rng() % 3) {
      case 0: p.matrix_by_column = !p.matrix_by_column; break;
      case 1: p.matrix_pitched = !p.matrix_pitched; break;
      default: p.block_y = pick_one(rng, {8, 16, 32}); break;
    }
  } else if (p.layout != gpu::StructLayout::None) {  // the struct's field shown
    s.field = static_cast<int>(rng() % gpu::kStructFields);
  } else {
    switch (rng() % 8) {
      case 0: p.word_bytes = pick_one(rng, {1, 2, 4, 8, 16}); break;
      case 1: p.offset = pick_one<std::int64_t>(rng, {0, 1, 2, 5, 31}); break;
      case 2: p.stride = pick_one<std::int64_t>(rng, {1, 2, 3, 4, 8, 16, 32, 64}); break;
      case 3:
        p.kind = pick_one(rng, {IndexKind::Strided, IndexKind::Permuted, IndexKind::SameWord,
                                IndexKind::Scattered});
        break;
      case 4:
        p.side =
            p.side == gpu::PatternSide::Read ? gpu::PatternSide::Write : gpu::PatternSide::Read;
        break;
      case 5:
        p.path =
            pick_one(rng, {gpu::LoadPath::Default, gpu::LoadPath::L2Only, gpu::LoadPath::ReadOnly});
        break;
      case 6:
        s.warps = pick_one(rng, {1, 2, 4, 8});
        s.warp = 0;
        break;
      default:
        s.model = pick_one(rng, {model::HardwareModel::Modern, model::HardwareModel::Kepler,
                                 model::HardwareModel::FermiCaching});
    }
  }
  try {
    (void)gpu::plan_copy(p, gpu::kModelBufferBytes);
  } catch (const std::invalid_argument&) {
    return false;  // the panel would refuse it
  }
  state = s;
  return true;
}

}  // namespace warplens::app
