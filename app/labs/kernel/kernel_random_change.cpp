// `warplens-bench soak`: one random change of the own-kernel lab, as the panel makes it.
#include <algorithm>

#include "kernel_lab_unit.h"

namespace warplens::app {

void KernelLabUnit::random_change(std::mt19937& rng) {
  random_session_change(session_, rng);
}

void random_session_change(KernelSession& session, std::mt19937& rng) {
  KernelState st = session.state();
  auto& rows = st.program.rows;
  switch (rng() % 4) {
    case 0: st.step = static_cast<int>(rng() % rows.size()); break;
    case 1: {
      auto& row = rows[rng() % rows.size()];
      row.word_bytes = pick_one(rng, {1, 2, 4, 8, 16});
      break;
    }
    case 2: st.section = pick_one(rng, {KernelSection::Access, KernelSection::Source}); break;
    default:
      st.traced.warp = static_cast<int>(rng() % std::max(1, st.program.block.warps()));
      break;
  }
  session.set(st);  // a change the checks refuse is not set (the session says why)
}

}  // namespace warplens::app
