#include "worker_shutdown.h"

#include <algorithm>
#include <mutex>
#include <thread>
#include <vector>

namespace warplens::app {

namespace {

struct Registry {
  std::mutex mutex;
  std::vector<std::shared_ptr<StoppableWorker>> workers;
};

Registry& registry() {
  static Registry r;
  return r;
}

}  // namespace

WorkerRegistration::WorkerRegistration(StoppableWorker worker)
    : worker_(std::make_shared<StoppableWorker>(std::move(worker))) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.workers.push_back(worker_);
}

WorkerRegistration::~WorkerRegistration() {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.workers.erase(std::remove(r.workers.begin(), r.workers.end(), worker_), r.workers.end());
}

bool stop_workers(std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  Registry& r = registry();
  {
    std::lock_guard lock(r.mutex);
    for (const auto& w : r.workers) w->request_stop();
  }
  for (;;) {
    {
      // Under the lock: a worker being destroyed meanwhile unregisters first.
      std::lock_guard lock(r.mutex);
      if (std::all_of(r.workers.begin(), r.workers.end(),
                      [](const auto& w) { return w->finished(); }))
        return true;
    }
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

}  // namespace warplens::app
