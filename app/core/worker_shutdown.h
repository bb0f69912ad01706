// Closing the window while the GPU works: every lab's worker (lab_worker.h) is registered here
// while its thread runs, so the window can stop them all at once and wait a bounded time.
#pragma once

#include <chrono>
#include <functional>
#include <memory>

namespace warplens::app {

/// What the shutdown asks of one worker.
struct StoppableWorker {
  std::function<void()> request_stop;  ///< cancel the running job, start no other; no waiting
  std::function<bool()> finished;      ///< the thread has left its loop
};

/// A registered worker; unregisters when destroyed (LabWorker holds one while its thread runs).
class WorkerRegistration {
 public:
  explicit WorkerRegistration(StoppableWorker worker);
  ~WorkerRegistration();
  WorkerRegistration(const WorkerRegistration&) = delete;
  WorkerRegistration& operator=(const WorkerRegistration&) = delete;

 private:
  std::shared_ptr<StoppableWorker> worker_;
};

/// Asks every registered worker to stop (its running job cancelled: a timed measurement stops at
/// its next poll, within a millisecond; gpu_fault.h) and waits until all have finished, at most
/// `limit`. Returns whether they all did. A job that cannot be cancelled (a counter read-out's
/// passes, a lab's allocations) may outlast the limit: the window then leaves the process
/// without tearing the labs down (std::_Exit), and the driver ends what runs on the GPU.
bool stop_workers(std::chrono::milliseconds limit);

}  // namespace warplens::app
