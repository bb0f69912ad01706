// The part of a lab's session that every session with a worker shares: the device it measures
// on, its worker (lab_worker.h) and the lock over what the worker publishes; the queries the
// shell and the panels ask of any session. A lab's session derives from it and keeps its own
// parameters, model and results.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "gpu.h"
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

 protected:
  using Worker = LabWorker<GpuLab, Job>;
  /// The derived session starts the worker (worker_.start()) once it is built and stops it
  /// (worker_.stop()) first in its destructor, before its own members go.
  WorkerSession(bool use_gpu, int slots, typename Worker::MakeLab make_lab,
                typename Worker::RunJob run_job)
      : device_(session_device(use_gpu)), worker_(slots, std::move(make_lab), std::move(run_job)) {}
  ~WorkerSession() = default;

  /// For the derived session's MakeLab, on the worker thread: says "starting the `title` on
  /// DEVICE" and makes the lab's GPU resources on the session's device.
  std::shared_ptr<GpuLab> start_lab(const std::string& title) {
    worker_.set_status("starting the " + title + " on " + device_.device->name);
    return std::make_shared<GpuLab>(*device_.device);
  }

  gpu::DeviceQuery device_;
  mutable std::mutex mutex_;  ///< over what the worker publishes
  Worker worker_;
};

}  // namespace warplens::app
