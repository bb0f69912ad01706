// The part of a lab's session that every session with a worker shares: the device it measures
// on, its worker (lab_worker.h) and the lock over what the worker publishes; the queries the
// shell and the panels ask of any session. A lab's session derives from it and keeps its own
// parameters, model and results.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "gpu.h"
#include "gpu_recovery.h"
#include "lab_worker.h"

namespace warplens::app {

template <typename GpuLab, typename Job>
class WorkerSession {
 public:
  WorkerSession(const WorkerSession&) = delete;
  WorkerSession& operator=(const WorkerSession&) = delete;

  [[nodiscard]] const gpu::DeviceQuery& device() const { return device_; }
  [[nodiscard]] bool gpu_mode() const { return device_.device.has_value(); }
  /// The last problem (a refused parameter, a failed launch), one line; empty when none.
  [[nodiscard]] std::string error() const { return worker_.error(); }
  /// Nothing more will come without a change: model only, or the worker has settled.
  [[nodiscard]] bool idle() const { return !gpu_mode() || worker_.settled(); }
  /// Tests: runs `task` on the worker as a job of its own (LabWorker::run_task), e.g. the
  /// fault probe (gpu_fault.h).
  void run_on_worker(std::function<void(const std::atomic<bool>& cancel)> task) {
    worker_.run_task(std::move(task));
  }

 protected:
  using Worker = LabWorker<GpuLab, Job>;
  /// The derived session starts the worker (worker_.start()) once it is built and stops it
  /// (worker_.stop()) first in its destructor, before its own members go.
  WorkerSession(bool use_gpu, int slots, typename Worker::MakeLab make_lab,
                typename Worker::RunJob run_job)
      : device_(session_device(use_gpu)), worker_(slots, std::move(make_lab), std::move(run_job)) {}
  ~WorkerSession() = default;

  /// Starts the worker and registers the session as a GPU user (gpu_recovery.h): after a sticky
  /// fault its lab is released and `restart` runs (the derived session measures again). Call
  /// last in the derived constructor; does nothing without a GPU.
  /// `release_own` (may be empty) lets go of the session's own GPU objects first (its views'
  /// interop registrations), on the GL thread, before the lab goes.
  void start_worker(std::function<void()> restart, std::function<void()> release_own = {}) {
    if (!gpu_mode()) return;
    worker_.start();
    gpu_user_.emplace(GpuUser{[this, release_own = std::move(release_own)] {
                                if (release_own) release_own();
                                worker_.release_lab();
                              },
                              std::move(restart)});
  }

  /// For the derived session's MakeLab, on the worker thread: says "starting the `title` on
  /// DEVICE" and makes the lab's GPU resources on the session's device.
  std::shared_ptr<GpuLab> start_lab(const std::string& title) {
    worker_.set_status("starting the " + title + " on " + device_.device->name);
    return std::make_shared<GpuLab>(*device_.device);
  }

  gpu::DeviceQuery device_;
  mutable std::mutex mutex_;  ///< over what the worker publishes
  Worker worker_;
  std::optional<GpuUserRegistration> gpu_user_;
};

}  // namespace warplens::app
