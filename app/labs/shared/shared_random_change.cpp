// The shared-memory labs' LabInstance::random_change (`warplens-bench soak`): one field of the
// lab's state to a value its panel offers, set through the session when the lab's checks accept
// it, as the panel's controls would.
#include <algorithm>

#include "shared_kinds.h"
#include "shared_labs.h"

namespace warplens::app {

void SharedLabBase::random_change(std::mt19937& rng) {
  random_session_change(session_, rng);
}

void random_session_change(SharedSession& session, std::mt19937& rng) {
  SharedState state = session.state();
  const SharedKind& kind = shared_kind(state.lab);
  random_knob_change(rng, state, kind.knobs());
  try {
    const auto access = kind.shown_access(state);
    if (access) (void)gpu::plan_bank_probe(*access, gpu::kModelSharedBytesPerBlock);
    if (kind.check) kind.check(state);
  } catch (const std::invalid_argument&) {
    return;  // a value the panel would refuse: leave the state as it was
  }
  session.set(state);
}

}  // namespace warplens::app
