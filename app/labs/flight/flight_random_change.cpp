// The bytes-in-flight lab's LabInstance::random_change (`warplens-bench soak`): one control of
// the panel (section, word size, loads per thread, block size, dynamic shared memory, grid
// stride, the ladder's ringed working set) moved to a value it offers, set through the session
// when check_stream accepts it.
#include "flight_lab_unit.h"
#include "shared_lab.h"

namespace warplens::app {

void FlightLabUnit::random_change(std::mt19937& rng) {
  random_session_change(session_, rng);
}

void random_session_change(FlightSession& session, std::mt19937& rng) {
  FlightState s = session.state();
  gpu::StreamParams& p = s.stream;
  switch (rng() % 7) {
    case 0:
      s.section =
          pick_one(rng, {FlightSection::Latency, FlightSection::LittlesLaw, FlightSection::Async});
      break;
    case 1: p.word_bytes = pick_one(rng, {4, 8, 16}); break;
    case 2: p.loads_per_thread = pick_one(rng, {1, 2, 4, 8}); break;
    case 3: p.block_threads = pick_one(rng, {64, 128, 256, 512, 1024}); break;
    case 4: p.dynamic_shared_bytes = pick_one<std::int64_t>(rng, {0, 32 * 1024, 64 * 1024}); break;
    case 5: p.grid_stride = !p.grid_stride; break;
    default:
      s.working_set_bytes = pick_one<std::int64_t>(rng, {16 * 1024, 64 * 1024, 1024 * 1024});
      break;
  }
  try {
    gpu::check_stream(p, gpu::kModelSharedBytesPerBlock);
  } catch (const std::invalid_argument&) {
    return;  // the panel would refuse it
  }
  session.set(s);
}

}  // namespace warplens::app
