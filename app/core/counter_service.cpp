#include "counter_service.h"

#include <chrono>
#include <cstdlib>
#include <memory>
#include <mutex>

#include "counters.h"
#include "gpu_log.h"

namespace warplens::app {

namespace {
std::mutex service_mutex;
std::unique_ptr<CounterChecker> service_checker;
std::string service_refusal;  // set once the checker could not start
// A refusal that passes (another profiler held the GPU: after a restart, the faulted process
// that ends beside the new one) is tried again after this long.
bool refusal_passes = false;
std::chrono::steady_clock::time_point refused_at;
constexpr auto kBusyRetry = std::chrono::milliseconds(250);

/// What the service holds between read-outs (WARPLENS_COUNTER_HOLD): "keep" the range profiler
/// on (each read-out costs only its passes), "readout" switch it off after each read-out (the
/// next pays about 100 ms to switch it on), "none" end the checker and its CUPTI session.
enum class Hold { Keep, Readout, None };
Hold hold_policy() {
  const char* v = std::getenv("WARPLENS_COUNTER_HOLD");
  const std::string h = v ? v : "";
  if (h == "readout") return Hold::Readout;
  if (h == "none") return Hold::None;
  return Hold::Keep;
}

/// Runs `read` on the process's checker (started on first use) under the service's lock.
/// Returns "" or the one line why nothing was read: WARPLENS_NO_COUNTERS, a refusal remembered
/// from before or met now (then remembered), or another failure.
int burst_depth = 0;  // CounterBurst scopes open now

/// Lets go of what hold_policy() says not to hold between read-outs; under service_mutex.
void let_go_after_readout() {
  if (!service_checker || burst_depth > 0) return;
  try {
    switch (hold_policy()) {
      case Hold::Keep: break;
      case Hold::Readout: service_checker->suspend_profiler(); break;
      case Hold::None: service_checker.reset(); break;
    }
  } catch (const std::exception& e) {
    service_checker.reset();  // the context is gone: the next read-out starts afresh
    gpu_log("counters: letting go of the profiler failed: %s", e.what());
  }
}

template <typename Read>
std::string with_checker(const gpu::DeviceInfo& device, Read&& read) {
  if (std::getenv("WARPLENS_NO_COUNTERS"))
    return "hardware counters off (WARPLENS_NO_COUNTERS is set)";
  std::lock_guard lock(service_mutex);
  if (!service_refusal.empty()) {
    if (!refusal_passes || std::chrono::steady_clock::now() - refused_at < kBusyRetry)
      return service_refusal;
    service_refusal.clear();
  }
  const auto t0 = std::chrono::steady_clock::now();
  const auto ms = [&] {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  };
  try {
    if (!service_checker) {
      service_checker = std::make_unique<CounterChecker>(device);
      gpu_log("counter checker started in %.1f ms", ms());
    }
    read(*service_checker);
  } catch (const gpu::CountersUnavailable& e) {
    service_refusal = e.what();
    refusal_passes = e.failure() == gpu::CounterFailure::ProfilerBusy;
    refused_at = std::chrono::steady_clock::now();
    service_checker.reset();
    gpu_log("counters refused: %s", service_refusal.c_str());
    return service_refusal;
  } catch (const std::exception& e) {
    gpu_log("counter read-out failed after %.1f ms: %s", ms(), e.what());
    return std::string("hardware counters unavailable: ") + e.what();
  }
  gpu_log("counter read-out %.1f ms", ms());
  let_go_after_readout();
  return "";
}

}  // namespace

LabCounters read_lab_counters(const gpu::DeviceInfo& device, const CounterCase& c) {
  LabCounters result;
  result.unavailable =
      with_checker(device, [&](CounterChecker& checker) { result.check = checker.check(c); });
  if (result.unavailable.empty() && result.check && !result.check->hardware)
    result.unavailable = result.check->note;
  return result;
}

L1HitRate read_cache_hit_rate(const gpu::DeviceInfo& device, const CacheCounterCase& c) {
  L1HitRate result;
  const std::string why =
      with_checker(device, [&](CounterChecker& checker) { result = checker.l1_hit_rate(c); });
  if (!why.empty()) {
    result.percent.reset();
    result.unavailable = why;
  }
  return result;
}

LaunchCountersRead read_launch_counters(const gpu::DeviceInfo& device,
                                        const std::function<void()>& launch) {
  LaunchCountersRead result;
  result.unavailable = with_checker(
      device, [&](CounterChecker& checker) { result.counters = checker.read_launch(launch); });
  if (!result.unavailable.empty()) result.counters.reset();
  return result;
}

CounterBurst::CounterBurst() {
  std::lock_guard lock(service_mutex);
  ++burst_depth;
}

CounterBurst::~CounterBurst() {
  std::lock_guard lock(service_mutex);
  --burst_depth;
  let_go_after_readout();
}

void release_counter_checker() {
  std::lock_guard lock(service_mutex);
  service_checker.reset();
}

}  // namespace warplens::app
