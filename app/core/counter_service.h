// Hardware counters for the labs' stats: one CounterChecker per process (CUPTI allows one
// profiler session), created on first use and shared by the labs' worker threads, which take
// turns. A refusal (no privileges, virtual GPU, no CUPTI) is remembered as one line and every
// later request gets that line instead of a value; the labs keep working. A refusal because
// another profiler holds the GPU (a faulted process still ending beside its restarted one) is
// tried again 250 ms later.
//
// Between read-outs the service keeps CUPTI's range profiler on (each read-out then costs only
// its passes). WARPLENS_COUNTER_HOLD=readout switches it off after each read-out (a CounterBurst
// keeps it on for a sweep), "none" ends the whole CUPTI session: tried on an H200 (driver
// 580.159.04, 2026-11-27) to shorten the end of a faulted process, it did not (the global lab's
// faulted process still took 4.4 s to end), made the counter line at 60 Hz 338 ms instead of
// 87 ms (switching the profiler on costs each read-out about 150 ms) and the soak's anonymous
// memory grew 13.5 MiB in a minute (5.8 on an H100 with the profiler kept on). The default stays
// "keep".
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
