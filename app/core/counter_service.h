// Hardware counters for the labs' stats: one CounterChecker per process (CUPTI allows one
// profiler session), created on first use and shared by the labs' worker threads, which take
// turns. A refusal (no privileges, virtual GPU, no CUPTI) is remembered as one line and every
// later request gets that line instead of a value; the labs keep working. A refusal because
// another profiler holds the GPU (a faulted process still ending beside its restarted one) is
// tried again 250 ms later.
//
// Between read-outs the service holds no range profiler on the context the labs' kernels run in
// (WARPLENS_COUNTER_HOLD=readout, the default; "keep" keeps it on, "none" ends the whole CUPTI
// session): on an H100 (driver 580.159.04, 2026-11-27) a sticky fault in a context with the
// profiler on took the driver 4.4 s to take back, and no other process could profile until then,
// against 0.42 s from fault to the restarted process's point with counters off. Switching it on
// again costs each read-out about 100 ms; a run of read-outs (a sweep) opens a CounterBurst to
// pay it once.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "counter_checks.h"
#include "gpu.h"

namespace warplens::app {

/// A lab's counters for its current access: the check, or why there is none.
struct LabCounters {
  std::optional<CounterCheck> check;
  std::string unavailable;  ///< one line, set when the counters could not be read
};

/// Reads the counters of `c` on `device` (blocking; call from a worker thread, never the GL
/// thread). Never throws. With the environment variable WARPLENS_NO_COUNTERS set, reads
/// nothing and says so (the labs then never start CUPTI's profiler).
LabCounters read_lab_counters(const gpu::DeviceInfo& device, const CounterCase& c);

/// The L1 hit rate of one cache-lab launch (CounterChecker::l1_hit_rate) on the same checker, or
/// why there is none in `unavailable` (one line: WARPLENS_NO_COUNTERS, the remembered refusal, a
/// metric this GPU lacks, a failed launch). Blocking, for a worker thread, after its timed runs
/// (never around one); never throws.
L1HitRate read_cache_hit_rate(const gpu::DeviceInfo& device, const CacheCounterCase& c);

/// The labs' counters of one launch of any kernel (CounterChecker::read_launch), or why there are
/// none in `unavailable` (one line). Blocking, for a worker thread; never throws.
struct LaunchCountersRead {
  std::optional<LaunchCounters> counters;
  std::string unavailable;
};
LaunchCountersRead read_launch_counters(const gpu::DeviceInfo& device,
                                        const std::function<void()>& launch);

/// A run of read-outs (a sweep of hit rates, a measure verb's rows): while one is open the
/// profiler stays on between read-outs; when the last closes, the service lets go of it as after
/// a single read-out. Scopes nest; any thread.
class CounterBurst {
 public:
  CounterBurst();
  ~CounterBurst();
  CounterBurst(const CounterBurst&) = delete;
  CounterBurst& operator=(const CounterBurst&) = delete;
};

/// Destroys the process's checker now (its labs, their buffers and its CUPTI session) instead of at
/// exit, e.g. before a command-line verb returns; a later read starts a new one. A remembered
/// refusal stays remembered.
void release_counter_checker();

}  // namespace warplens::app
