// The global-load lab's live state: parameters, the model's prediction, the GPU trace (through
// CUDA-GL interop into the warp view's buffer) and the timed measurement (on a worker thread,
// so dragging a slider never freezes the window). Without a GPU the host model fills the trace.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "copy_pattern.h"
#include "counter_service.h"
#include "gl_interop.h"
#include "gpu.h"
#include "gpu_recovery.h"
#include "gpu_turn.h"
#include "lab_worker.h"
#include "memory_model.h"
#include "sweeps.h"
#include "trace_sink.h"

namespace warplens::app {

struct CopyState {
  gpu::CopyParams params;
  int warp = 0;   ///< first warp of block 0 the view traces
  int warps = 1;  ///< warps traced side by side: 1, 2, 4 or 8 (not for a struct layout)
  /// A struct layout's field whose load request the view and the per-request numbers show:
  /// 0 x, 1 y, 2 z (one request at a time; the totals still sum all three loads).
  int field = 0;
  /// The memory model the view and the predicted column follow. Measurements always come from
  /// the real device.
  model::HardwareModel model = model::HardwareModel::Modern;
  friend bool operator==(const CopyState&, const CopyState&) = default;
};

enum class TraceSource {
  None,       ///< nothing traced yet
  GpuKernel,  ///< the instrumented kernel wrote the buffer through interop
  HostModel,  ///< the host model wrote the buffer (no GPU, or the GPU path failed)
};

class CopySession {
 public:
  /// The sinks must outlive the session. The session publishes the warp trace (with the
  /// historical models' transactions) and the sector heatmap to them: a GL view's (its GL
  /// context current on the calling thread for every call) or host memory (trace_sink.h; the
  /// GPU path then shows the host model, as it has no GL buffer to trace into). With use_gpu
  /// false (or no device) the session runs the model only.
  CopySession(WarpTraceSink& warp_sink, HeatmapSink& heat_sink, bool use_gpu);
  ~CopySession();
  CopySession(const CopySession&) = delete;
  CopySession& operator=(const CopySession&) = delete;

  /// Sets new parameters (invalid ones are refused with error() set, the old ones kept).
  void set(const CopyState& requested);
  [[nodiscard]] const CopyState& state() const { return state_; }
  /// Asks for a new timed measurement of the current parameters.
  void remeasure();

  /// Call once per frame on the GL thread: traces (interop), collects finished measurements.
  void update();
  /// True when the trace and the measurement for the current parameters are in (or failed).
  [[nodiscard]] bool idle() const;

  [[nodiscard]] const gpu::DeviceQuery& device() const { return device_; }
  [[nodiscard]] bool gpu_mode() const { return device_.device.has_value(); }
  [[nodiscard]] TraceSource trace_source() const { return trace_source_; }
  [[nodiscard]] const TraceRecords& trace() const { return trace_; }
  /// The sector heatmap of the whole launch (read back from the heat strip's buffer).
  [[nodiscard]] const SectorHeatmap& heatmap() const { return heatmap_; }
  /// Why there is no heatmap for the current parameters (empty when there is one).
  [[nodiscard]] const std::string& heatmap_unavailable() const { return heatmap_unavailable_; }

  /// The model's prediction for the current parameters (always available).
  [[nodiscard]] const model::GlobalAnalysis& predicted() const { return predicted_; }
  /// The same analysis of the traced addresses (GPU trace mode only).
  [[nodiscard]] const std::optional<model::GlobalAnalysis>& traced() const { return traced_; }

  /// Sectors over all traced warps (a struct layout: its three field loads): distinct (what the
  /// warps together move at best, when they share sectors through L1/L2) and summed (each
  /// warp's request on its own).
  struct WarpTotals {
    int warps = 1;
    std::size_t distinct_sectors = 0;
    std::size_t summed_sectors = 0;
  };
  [[nodiscard]] const WarpTotals& predicted_totals() const { return predicted_totals_; }
  [[nodiscard]] const std::optional<WarpTotals>& traced_totals() const { return traced_totals_; }

  struct Measured {
    std::optional<gpu::CopyMeasurement> copy;      ///< the latest finished measurement
    std::optional<gpu::MemcpyMeasurement> memcpy;  ///< cudaMemcpy D2D reference
    /// The GPU's own counters for the measured parameters (a dedicated launch after the timed
    /// ones): sectors per request beside the model's, or why they could not be read.
    std::optional<LabCounters> counters;
    bool busy = false;       ///< a measurement waits or runs
    std::string gpu_status;  ///< what the worker is doing, e.g. "measuring"
  };
  [[nodiscard]] Measured measured() const;
  /// Whether the copy measurement matches the current parameters.
  [[nodiscard]] bool measurement_current() const;

  /// Starts an offset or stride sweep around `base` on the worker (after a running measurement);
  /// a sweep already running is cancelled first. Needs a GPU.
  void start_sweep(SweepAxis axis, const gpu::CopyParams& base);
  /// Stops the running sweep between points; the points measured so far stay.
  void cancel_sweep();
  /// The latest sweep (running or finished), if any.
  [[nodiscard]] std::optional<SweepResult> sweep() const;
  [[nodiscard]] bool sweep_running() const;

  /// The last problem, one line, empty if none. GPU failures leave the session running.
  [[nodiscard]] std::string error() const;

  /// Tests: runs `task` on the worker as a job of its own (LabWorker::run_task).
  void run_on_worker(std::function<void(const std::atomic<bool>& cancel)> task) {
    worker_.run_task(std::move(task));
  }

 private:
  void trace_on_gl_thread();
  void use_host_model_trace();
  void set_error(const std::string& message);
  void show_transactions();  // historical models: their transactions into the view
  void release_gpu();        // before a GPU reset (gpu_recovery.h)
  void restart_gpu();        // after it

  WarpTraceSink& warp_sink_;
  HeatmapSink& heat_sink_;
  SectorHeatmap heatmap_{};
  std::string heatmap_unavailable_;
  std::unique_ptr<gpu::GlInteropBuffer> heat_interop_;
  gpu::DeviceQuery device_;
  CopyState state_;
  model::GlobalAnalysis predicted_;
  std::optional<model::GlobalAnalysis> traced_;
  WarpTotals predicted_totals_;
  std::optional<WarpTotals> traced_totals_;
  TraceRecords trace_{};
  TraceSource trace_source_ = TraceSource::None;
  std::optional<CopyState> traced_state_;
  std::unique_ptr<gpu::GlInteropBuffer> interop_;
  bool interop_failed_ = false;
  TraceWait trace_wait_;  ///< the GL thread's trace against a worker's job (gpu_turn.h)

  // Results the worker publishes (under mutex_).
  mutable std::mutex mutex_;
  Measured measured_;
  std::optional<SweepResult> sweep_;

  /// The measurement job (slot kMeasure) or the sweep job (slot kSweep, taken first).
  struct Job {
    CopyState state;
    SweepAxis axis = SweepAxis::Offset;
  };
  static constexpr int kSweep = 0, kMeasure = 1;
  void run_job(int slot, const Job& job, gpu::CopyLab& lab);
  std::shared_ptr<gpu::CopyLab> make_lab();
  /// Last member: stopped (joined) before the rest goes. The worker times on the lab's stream
  /// while the GL thread traces on its trace stream (CopyLab allows that pair concurrently).
  LabWorker<gpu::CopyLab, Job> worker_;
  std::optional<GpuUserRegistration> gpu_user_;
};

}  // namespace warplens::app
