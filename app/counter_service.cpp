#include "counter_service.h"

#include <cstdlib>
#include <memory>
#include <mutex>

#include "counters.h"

namespace warplens::app {

namespace {
std::mutex service_mutex;
std::unique_ptr<CounterChecker> service_checker;
std::string service_refusal;  // set once the checker could not start
}  // namespace

LabCounters read_lab_counters(const gpu::DeviceInfo& device, const CounterCase& c) {
  LabCounters result;
  if (std::getenv("WARPLENS_NO_COUNTERS")) {
    result.unavailable = "hardware counters off (WARPLENS_NO_COUNTERS is set)";
    return result;
  }
  std::lock_guard lock(service_mutex);
  if (!service_refusal.empty()) {
    result.unavailable = service_refusal;
    return result;
  }
  try {
    if (!service_checker) service_checker = std::make_unique<CounterChecker>(device);
    result.check = service_checker->check(c);
    if (!result.check->hardware && !result.check->note.empty())
      result.unavailable = result.check->note;
  } catch (const gpu::CountersUnavailable& e) {
    service_refusal = e.what();
    service_checker.reset();
    result.unavailable = service_refusal;
  } catch (const std::exception& e) {
    result.unavailable = std::string("hardware counters unavailable: ") + e.what();
  }
  return result;
}

}  // namespace warplens::app
