// The tile lab's LabInstance::random_change (`warplens-bench soak`): one knob of the panel moved
// to a value it offers, set through the session when the lab's checks accept it.
#include "tile_knobs.h"
#include "tile_lab_unit.h"

namespace warplens::app {

void TileLabUnit::random_change(std::mt19937& rng) {
  random_session_change(session_, rng);
}

void random_session_change(TileSession& session, std::mt19937& rng) {
  TileState s = session.state();
  if (!random_knob_change(rng, s, tile_knobs())) return;
  try {
    check_tile_state(s);
  } catch (const std::invalid_argument&) {
    return;  // the panel would refuse it
  }
  session.set(s);
}

}  // namespace warplens::app
