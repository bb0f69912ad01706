// The cache lab's LabInstance::random_change (`warplens-bench soak`): one control of the panel
// (section, carveout, dynamic shared memory, working set, k, read path and pattern) moved to a
// value it offers, set through the session.
#include "cache_knobs.h"
#include "cache_lab_unit.h"

namespace warplens::app {

void CacheLabUnit::random_change(std::mt19937& rng) {
  random_session_change(session_, rng);
}

void random_session_change(CacheSession& session, std::mt19937& rng) {
  CacheState s = session.state();
  if (random_knob_change(rng, s, cache_knobs())) session.set(s);
}

}  // namespace warplens::app
