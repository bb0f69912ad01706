// The worker every lab's session runs its GPU work on, so that dragging a slider never waits for
// a kernel. One thread per session takes the session's jobs in turn; for each it holds the
// process-wide GPU turn (gpu_turn.h), makes the lab's GPU resources on the first job, runs the
// job, and turns what the job throws into one line for the status bar. The session keeps its
// parameters, its model and its results; the worker keeps the thread, the jobs waiting, their
// cancellation, what the worker is doing and the last error.
//
// Jobs come in slots (a session's timed measurement, its sweep, its counter read-out ...): a new
// job replaces the one waiting in its slot and cancels the one of its slot that is running; the
// worker takes the lowest waiting slot first. Every call but the job functions runs on the GL
// thread; the job functions run on the worker thread.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "gpu.h"
#include "gpu_fault.h"
#include "gpu_log.h"
#include "gpu_recovery.h"
#include "gpu_turn.h"
#include "worker_shutdown.h"

namespace warplens::app {

/// The device a session measures on: the CUDA device, or why there is none ("GPU disabled
/// (--model-only)" when the user asked for the model alone).
inline gpu::DeviceQuery session_device(bool use_gpu) {
  return use_gpu ? gpu::query_device()
                 : gpu::DeviceQuery{std::nullopt, "GPU disabled: --model-only"};
}

template <typename GpuLab, typename Job>
class LabWorker {
 public:
  static constexpr int kMaxSlots = 4;

  /// Makes the lab's GPU resources on the worker thread (allocations, a reference measurement);
  /// throws when it cannot. May call set_status().
  using MakeLab = std::function<std::shared_ptr<GpuLab>()>;
  /// Runs one job of `slot` with the lab, on the worker thread, holding the GPU turn. Throws to
  /// report a failure; a measurement stopped by cancel_flag(slot) throws gpu::Cancelled, which
  /// is not an error.
  using RunJob = std::function<void(int slot, const Job& job, GpuLab& lab)>;

  LabWorker(int slots, MakeLab make_lab, RunJob run_job)
      : slots_(slots),
        waiting_(static_cast<std::size_t>(slots)),
        make_lab_(std::move(make_lab)),
        run_job_(std::move(run_job)) {
    if (slots < 1 || slots > kMaxSlots) throw std::invalid_argument("LabWorker: 1..4 slots");
  }
  ~LabWorker() { stop(); }
  LabWorker(const LabWorker&) = delete;
  LabWorker& operator=(const LabWorker&) = delete;

  /// Starts the thread (once the owner is fully built: the job functions use it).
  void start() {
    if (thread_.joinable()) return;
    finished_ = false;
    thread_ = std::thread([this] { loop(); });
    registration_.emplace(
        StoppableWorker{[this] { request_stop(); }, [this] { return finished_.load(); }});
  }
  /// Cancels the running job and joins the thread. The owner calls it first in its destructor,
  /// so that no job runs against a half-destroyed session. Jobs posted afterwards never run.
  void stop() {
    registration_.reset();  // stop_workers (worker_shutdown.h) no longer sees this worker
    request_stop();
    if (thread_.joinable()) thread_.join();
  }
  /// Cancels the running job and lets no other start, without waiting (the window closing:
  /// stop_workers). stop() joins later.
  void request_stop() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
      for (auto& c : cancel_) c = true;
      task_cancel_ = true;
    }
    wake_.notify_all();
  }
  /// The thread has left its loop (or never ran).
  [[nodiscard]] bool finished() const { return finished_; }
  [[nodiscard]] bool started() const { return thread_.joinable(); }

  /// Queues `job` in `slot`, replacing the one waiting there and cancelling the running one of
  /// the same slot.
  void post(int slot, Job job) {
    {
      std::lock_guard lock(mutex_);
      waiting_.at(static_cast<std::size_t>(slot)) = std::move(job);
      cancel_.at(static_cast<std::size_t>(slot)) = true;
    }
    wake_.notify_all();
  }
  /// When a job of `slot` starts, the job waiting in `dropped` is dropped (it does a part of
  /// what `slot` does, e.g. a counter read-out that a full measurement also makes). Set up
  /// before start().
  void supersede(int slot, int dropped) {
    supersedes_.at(static_cast<std::size_t>(slot)) |= 1u << dropped;
  }
  /// Drops the job waiting in `slot` and cancels the running one of that slot.
  void cancel(int slot) {
    std::lock_guard lock(mutex_);
    waiting_.at(static_cast<std::size_t>(slot)).reset();
    cancel_.at(static_cast<std::size_t>(slot)) = true;
  }
  /// The flag the running job of `slot` passes to the GPU lab's measure calls.
  [[nodiscard]] const std::atomic<bool>* cancel_flag(int slot) const {
    return &cancel_.at(static_cast<std::size_t>(slot));
  }
  [[nodiscard]] bool cancelled(int slot) const { return *cancel_flag(slot); }

  [[nodiscard]] bool waiting(int slot) const {
    std::lock_guard lock(mutex_);
    return waiting_.at(static_cast<std::size_t>(slot)).has_value();
  }
  [[nodiscard]] bool running(int slot) const {
    std::lock_guard lock(mutex_);
    return running_ == slot;
  }
  /// A job of `slot` waits or runs.
  [[nodiscard]] bool pending(int slot) const {
    std::lock_guard lock(mutex_);
    return running_ == slot || waiting_.at(static_cast<std::size_t>(slot)).has_value();
  }
  /// Any job waits or runs.
  [[nodiscard]] bool busy() const {
    std::lock_guard lock(mutex_);
    if (running_ >= 0 || task_) return true;
    for (const auto& w : waiting_)
      if (w) return true;
    return false;
  }

  /// What the worker is doing, one line ("timing the bank pattern"); empty between jobs.
  [[nodiscard]] std::string status() const {
    std::lock_guard lock(mutex_);
    return status_;
  }
  void set_status(std::string text) {
    std::lock_guard lock(mutex_);
    status_ = std::move(text);
  }

  /// The lab's GPU resources once the first job made them (null before, or when that failed).
  [[nodiscard]] std::shared_ptr<GpuLab> lab() const {
    std::lock_guard lock(mutex_);
    return lab_;
  }
  /// Lets go of the lab's GPU resources (gpu_recovery.h: before a device reset, with the GPU turn
  /// held, so no job runs); the next job makes them again.
  void release_lab() {
    std::lock_guard lock(mutex_);
    lab_.reset();
  }
  /// Tests: runs `task` once as a job of its own (before the slots' jobs), holding the GPU turn,
  /// the lab made, reporting what it throws as a job's failure would be. Its `cancel` is set
  /// when the worker is asked to stop.
  void run_task(std::function<void(const std::atomic<bool>& cancel)> task) {
    {
      std::lock_guard lock(mutex_);
      task_ = std::move(task);
    }
    wake_.notify_all();
  }
  /// Sticky GPU faults met in a row (without a job between them that succeeded).
  [[nodiscard]] int faults_in_a_row() const {
    std::lock_guard lock(mutex_);
    return faults_in_a_row_;
  }
  /// Making the lab failed (an allocation larger than the GPU, say): the session shows the host
  /// model and waits for retry() instead of failing again on every change.
  [[nodiscard]] bool lab_failed() const { return lab_failed_; }
  void retry() { lab_failed_ = false; }
  /// Nothing more will come without a new job: no job waits or runs, or the lab failed to start.
  [[nodiscard]] bool settled() const { return !busy() || lab_failed(); }

  /// A copy of a session's `results` (read under `results_mutex`, the session's lock) with this
  /// worker's progress filled in: `busy` and its `status` line, once the thread runs.
  template <typename Results>
  [[nodiscard]] Results with_progress(std::mutex& results_mutex, const Results& results) const {
    Results r;
    {
      std::lock_guard lock(results_mutex);
      r = results;
    }
    if (started()) {
      r.busy = busy();
      r.status = status();
    }
    return r;
  }

  /// The last problem, one line; empty when none. Sessions report refused parameters here too.
  [[nodiscard]] std::string error() const {
    std::lock_guard lock(mutex_);
    return error_;
  }
  void set_error(std::string message) {
    std::lock_guard lock(mutex_);
    error_ = std::move(message);
  }
  void clear_error() { set_error({}); }
  /// The session refused new parameters (`what`: why); the message stands until parameters are
  /// accepted.
  void refuse(const std::string& what) {
    std::lock_guard lock(mutex_);
    error_ = "parameters refused: " + what;
    refused_ = true;
  }
  /// The session accepted parameters: a refusal's message ends; a measurement's error ends only
  /// when they `changed` (a new measurement follows then).
  void accept(bool changed) {
    std::lock_guard lock(mutex_);
    if (changed || refused_) error_.clear();
    refused_ = false;
  }

 private:
  void loop() {
    for (;;) {
      int slot = -1;
      Job job;
      std::function<void(const std::atomic<bool>&)> task;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || task_ || first_waiting() >= 0; });
        if (stop_) {
          finished_ = true;
          return;
        }
        if (task_) {
          task = std::move(task_);
          task_ = nullptr;
          task_cancel_ = false;
          running_ = kTaskSlot;
        } else {
          slot = first_waiting();
          auto& w = waiting_[static_cast<std::size_t>(slot)];
          job = std::move(*w);
          w.reset();
          for (int d = 0; d < slots_; ++d)  // under the same lock as the take, as posted
            if (supersedes_[static_cast<std::size_t>(slot)] & (1u << d))
              waiting_[static_cast<std::size_t>(d)].reset();
          cancel_[static_cast<std::size_t>(slot)] = false;
          running_ = slot;
        }
      }
      try {
        // The whole job, counter read-outs included, holds the GPU: no other lab's kernels run
        // during its timed launches, nor land in its counters.
        const auto turn =
            take_gpu_turn([&] { set_status("waiting for the GPU (another lab is measuring)"); });
        const JobTurn job_turn;  // lent to frames between its GPU phases (gpu_turn.h)
        auto lab = this->lab();
        if (!lab) {
          const auto made_from = std::chrono::steady_clock::now();
          lab = make_lab_();
          gpu_log("worker: lab made on the GPU in %.1f ms",
                  std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                            made_from)
                      .count());
          std::lock_guard lock(mutex_);
          lab_ = lab;
          lab_failed_ = false;
        }
        if (task) {
          task(task_cancel_);
        } else {
          const auto job_from = std::chrono::steady_clock::now();
          run_job_(slot, job, *lab);
          gpu_log(
              "worker slot %d: job done in %.1f ms", slot,
              std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - job_from)
                  .count());
        }
        std::lock_guard lock(mutex_);
        if (passing_error_) error_.clear();  // measured again after a fault or an overdue launch
        faults_in_a_row_ = 0;
        passing_error_ = false;
      } catch (const std::exception& e) {
        if (!dynamic_cast<const gpu::Cancelled*>(&e)) {
          gpu_log("worker slot %d failed: %s", slot, e.what());
          report(e);
        }
      }
      std::lock_guard lock(mutex_);
      running_ = -1;
      status_.clear();
    }
  }
  // A job's failure, one line. A sticky fault (the device's context unusable) asks for the
  // process-wide reset (gpu_recovery.h); a second one in a row, right after a reset, leaves the
  // lab waiting for retry() instead of measuring again on its own (a kernel that faults every
  // time would otherwise reset the GPU for ever).
  void report(const std::exception& e) {
    const auto* thrown = dynamic_cast<const gpu::DeviceFaultError*>(&e);
    const auto fault =
        thrown ? std::optional<gpu::DeviceFault>(thrown->fault) : gpu::device_fault();
    if (fault) {
      std::string line;
      {
        std::lock_guard lock(mutex_);
        ++faults_in_a_row_;
        passing_error_ = true;
        error_ = "GPU fault (" + fault->what + "); the GPU is reset and every lab measures again";
        if (faults_in_a_row_ > 1) {
          lab_failed_ = true;
          error_ = "GPU fault again after a reset (" + fault->what + "): measure again to retry";
        }
        line = error_;
      }
      // Not under the lock: the restart may end the process from here, and the GL thread reads
      // this worker's state while it draws (its frame must be able to end first).
      request_gpu_reset(fault->device, line);
      return;
    }
    std::lock_guard lock(mutex_);
    passing_error_ = dynamic_cast<const gpu::LaunchTimeout*>(&e) != nullptr;
    error_ =
        "measurement failed: " + gpu::out_of_memory_text(e.what(), gpu::current_device_memory());
    if (!lab_) {
      lab_failed_ = true;
      passing_error_ = true;  // the retry that succeeds ends it
      error_ += " (measure again to retry)";
    }
  }
  int first_waiting() const {
    for (int s = 0; s < slots_; ++s)
      if (waiting_[static_cast<std::size_t>(s)]) return s;
    return -1;
  }

  static constexpr int kTaskSlot = kMaxSlots;  ///< running_ while a run_task() task runs

  const int slots_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<std::optional<Job>> waiting_;
  std::array<std::atomic<bool>, kMaxSlots> cancel_{};
  std::array<unsigned, kMaxSlots> supersedes_{};
  int running_ = -1;
  bool stop_ = false;
  std::string status_;
  std::string error_;
  bool refused_ = false;                                ///< error_ is a refusal of parameters
  std::function<void(const std::atomic<bool>&)> task_;  ///< run_task()'s, waiting
  std::atomic<bool> task_cancel_{false};                ///< set by request_stop()
  std::atomic<bool> finished_{true};
  std::optional<WorkerRegistration> registration_;
  int faults_in_a_row_ = 0;
  /// error_ is a fault's or an overdue launch's: the next job that succeeds ends it.
  bool passing_error_ = false;
  std::shared_ptr<GpuLab> lab_;
  std::atomic<bool> lab_failed_{false};
  MakeLab make_lab_;
  RunJob run_job_;
  std::thread thread_;
};

}  // namespace warplens::app
