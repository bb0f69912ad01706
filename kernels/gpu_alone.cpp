// GPU work that runs alone (gpu_fault.h: RunsAlone), in every build.
#include <atomic>
#include <mutex>
#include <unordered_set>

#include "gpu_fault.h"

namespace warplens::gpu {

namespace {
std::atomic<void (*)()> hook_begin{nullptr};
std::atomic<void (*)(bool)> hook_end{nullptr};
}  // namespace

void set_alone_hooks(void (*begin)(), void (*end)(bool faulted)) {
  hook_end = end;
  hook_begin = begin;
}

std::pair<void (*)(), void (*)(bool)> alone_hooks() {
  return {hook_begin.load(), hook_end.load()};
}

bool first_run(std::uint64_t key) {
  static std::mutex mutex;
  static std::unordered_set<std::uint64_t> seen;
  const std::lock_guard lock(mutex);
  return seen.insert(key).second;
}

RunsAlone::RunsAlone(bool alone) {
  const auto [begin, end] = alone_hooks();
  if (!alone || !begin || !end) return;
  begin();
  active_ = true;
}

void RunsAlone::done() {
  if (!active_) return;
  active_ = false;
  if (const auto end = alone_hooks().second) end(false);
}

RunsAlone::~RunsAlone() {
  if (!active_) return;
  // Ended by an exception: a sticky fault keeps the frames stopped until the process ends.
  if (const auto end = alone_hooks().second) end(device_fault().has_value());
}

}  // namespace warplens::gpu
