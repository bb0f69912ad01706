// The global lab's LabInstance::random_change (`warplens-bench soak`): one control of the
// parameter panel moved to a value it offers, set through the session when plan_copy accepts it.
#include "global_knobs.h"
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
  if (!random_knob_change(rng, s, global_knobs())) return false;
  try {
    (void)gpu::plan_copy(s.params, gpu::kModelBufferBytes);
  } catch (const std::invalid_argument&) {
    return false;  // the panel would refuse it
  }
  state = s;
  return true;
}

}  // namespace warplens::app
