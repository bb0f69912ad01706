// The cache lab's LabInstance::random_change (`warplens-bench soak`): one control of the panel
// (section, carveout, dynamic shared memory, working set, k, read path and pattern) moved to a
// value it offers, set through the session.
#include "cache_lab_unit.h"

namespace warplens::app {

void CacheLabUnit::random_change(std::mt19937& rng) {
  random_session_change(session_, rng);
}

void random_session_change(CacheSession& session, std::mt19937& rng) {
  CacheState s = session.state();
  const auto any_of = [&](const auto& list) { return list[rng() % list.size()]; };
  switch (rng() % 7) {
    case 0:
      s.section = pick_one(rng, {CacheSection::Carveout, CacheSection::L1, CacheSection::Constant,
                                 CacheSection::ReadPath});
      break;
    case 1: s.carveout = pick_one(rng, {gpu::kCarveoutDefault, 0, 25, 50, 100}); break;
    case 2:
      s.dynamic_shared_bytes = pick_one<std::int64_t>(rng, {0, 20 * 1024, 56 * 1024, 100 * 1024});
      break;
    case 3: s.working_set_bytes = any_of(l1_working_sets()); break;
    case 4: s.k = 1 + static_cast<int>(rng() % 32); break;
    case 5: s.read.path = any_of(read_paths()); break;
    default: s.read.pattern = any_of(read_patterns()); break;
  }
  session.set(s);
}

}  // namespace warplens::app
