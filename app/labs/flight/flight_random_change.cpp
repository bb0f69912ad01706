// The bytes-in-flight lab's LabInstance::random_change (`warplens-bench soak`): one control of
// the panel (section, word size, loads per thread, block size, dynamic shared memory, grid
// stride, the ladder's ringed working set) moved to a value it offers, set through the session
// when check_stream accepts it.
#include "flight_knobs.h"
#include "flight_lab_unit.h"
#include "shared_lab.h"

namespace warplens::app {

void FlightLabUnit::random_change(std::mt19937& rng) {
  random_session_change(session_, rng);
}

void random_session_change(FlightSession& session, std::mt19937& rng) {
  FlightState s = session.state();
  if (!random_knob_change(rng, s, flight_knobs())) return;
  try {
    gpu::check_stream(s.stream, gpu::kModelSharedBytesPerBlock);
  } catch (const std::invalid_argument&) {
    return;  // the panel would refuse it
  }
  session.set(s);
}

}  // namespace warplens::app
