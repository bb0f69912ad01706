// Builds without CUPTI (no CUDA toolkit, or a toolkit without CUPTI / libnvperf): no hardware
// counters, said in one line.
#include "counters.h"

namespace warplens::gpu {

namespace {
std::string reason() {
#if defined(WARPLENS_NO_CUPTI)
  return counters_failure_text(CounterFailure::CuptiMissing, "built without CUPTI");
#else
  return counters_failure_text(CounterFailure::NoCudaToolkit);
#endif
}

[[noreturn]] void no_cuda() {
#if defined(WARPLENS_NO_CUPTI)
  throw CountersUnavailable(reason(), CounterFailure::CuptiMissing);
#else
  throw CountersUnavailable(reason(), CounterFailure::NoCudaToolkit);
#endif
}
}  // namespace

struct CounterSession::Impl {};

CounterSession::CounterSession(int) {
  no_cuda();
}
CounterSession::CounterSession(int, const std::vector<std::vector<std::string>>&, KeepEnabled) {
  no_cuda();
}
CounterSession::~CounterSession() = default;

CounterSet CounterSession::profile(const std::function<void()>&) {
  no_cuda();
}

CounterSession::MetricValues CounterSession::profile_group(const std::function<void()>&,
                                                           std::size_t) {
  no_cuda();
}

void CounterSession::suspend() {}
bool CounterSession::profiler_enabled() const {
  return false;
}
int CounterSession::passes() const {
  no_cuda();
}

int CounterSession::passes(std::size_t) const {
  no_cuda();
}

const std::vector<std::string>& CounterSession::collected_metrics(std::size_t) const {
  no_cuda();
}

const std::vector<std::string>& CounterSession::collected_metrics() const {
  no_cuda();
}

std::optional<std::string> counters_available(int) {
  return reason();
}

}  // namespace warplens::gpu
