// The shared-memory labs' live state: the bank lab's access pattern, the transpose, matrix
// multiply and reduction labs, the model's verdict for the access the bank view shows, the GPU
// trace of that access (through CUDA-GL interop into the bank view's buffer) and the timed
// measurements (on a worker thread, so the window keeps drawing while kernels run). Without a
// GPU the host twin fills the trace and the measured panels say why they are empty.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "counter_service.h"
#include "gpu.h"
#include "gpu_turn.h"
#include "lab_id.h"
#include "lab_worker.h"
#include "memory_model.h"
#include "shared_lab.h"
#include "shared_pattern.h"
#include "trace_sink.h"

namespace warplens::viz {
class BankView;
class WarpView;
}  // namespace warplens::viz

namespace warplens::app {

/// What the transpose lab's view shows: the shared tile's bank pattern, or the kernel's global
/// read or write for the shown warp (sectors and lines, in the warp view).
enum class TransposeView { Tile, GlobalRead, GlobalWrite };

struct SharedState {
  Lab lab = Lab::Banks;        ///< Banks, Transpose, Matmul or Reduction
  gpu::BankProbeParams probe;  ///< the bank lab's access
  int warp = 0;                ///< warp of the block the bank view shows
  /// The bank lab's CuTe layout as written (pattern "layout"; probe.index holds it flattened,
  /// set_bank_layout keeps the two together).
  std::string probe_layout = "(8,4):(32,1)";
  /// The memory model the view and the predicted column follow (modern, kepler's 8-byte banks,
  /// g80's 16 banks); measurements always come from the real device.
  model::HardwareModel model = model::HardwareModel::Modern;
  gpu::TransposeParams transpose;
  bool transpose_read = true;  ///< bank view: the tile read (column) or the tile write (row)
  TransposeView transpose_view = TransposeView::Tile;
  gpu::MatmulParams matmul;
  int matmul_k = 0;       ///< bank view: step k of the inner loop
  bool matmul_b = false;  ///< bank view: blockB[k][tx] instead of blockA[ty][k]
  gpu::ReductionParams reduction;
  int reduction_step = 0;         ///< bank view: which step of the tree
  bool reduction_second = false;  ///< bank view: the second operand s[i + s]

  friend bool operator==(const SharedState& a, const SharedState& b) {
    return a.lab == b.lab && a.probe == b.probe && a.warp == b.warp &&
           a.probe_layout == b.probe_layout && a.model == b.model && a.transpose == b.transpose &&
           a.transpose_read == b.transpose_read && a.transpose_view == b.transpose_view &&
           a.matmul == b.matmul && a.matmul_k == b.matmul_k && a.matmul_b == b.matmul_b &&
           a.reduction == b.reduction && a.reduction_step == b.reduction_step &&
           a.reduction_second == b.reduction_second;
  }
};

/// Makes the bank lab's pattern the CuTe layout `text` (docs/layouts.md's grammar) of its
/// current word size: probe_layout and probe.index together. Throws std::invalid_argument saying
/// where the text is wrong or why the bank probe cannot run it; `state` is then unchanged.
void set_bank_layout(SharedState& state, const std::string& text);

/// Whether `state` shows a global access: the transpose lab's global read or write tab.
bool shows_global(const SharedState& state);

/// The shared-memory access the bank view shows for this state, or std::nullopt when the
/// chosen kernel has none (the copy and naive transposes, the naive matrix multiply). Throws
/// std::invalid_argument for parameters the lab refuses.
std::optional<gpu::BankProbeParams> shown_access(const SharedState& state);

class SharedSession {
 public:
  /// The sinks must outlive the session (see CopySession): `bank_sink` takes the shared
  /// access of the warp the bank view shows, `global_sink` the transpose lab's global read or
  /// write. With use_gpu false (or no device) the session runs the model only. `lab` is the
  /// shared lab the session starts in (its default parameters).
  SharedSession(BankTraceSink& bank_sink, WarpTraceSink& global_sink, bool use_gpu,
                Lab lab = Lab::Banks);
  ~SharedSession();
  SharedSession(const SharedSession&) = delete;
  SharedSession& operator=(const SharedSession&) = delete;

  /// Sets new parameters; refused ones set error() and change nothing.
  void set(const SharedState& requested);
  [[nodiscard]] const SharedState& state() const { return state_; }
  void remeasure();
  /// Once per frame on the GL thread: traces (interop) and collects finished measurements.
  void update();
  [[nodiscard]] bool idle() const;

  [[nodiscard]] const gpu::DeviceQuery& device() const { return device_; }
  [[nodiscard]] bool gpu_mode() const { return device_.device.has_value(); }
  [[nodiscard]] bool traced_on_gpu() const { return traced_on_gpu_; }
  [[nodiscard]] const TraceRecords& trace() const { return trace_; }
  /// The access the view shows (std::nullopt: the kernel uses no shared memory).
  [[nodiscard]] const std::optional<gpu::BankProbeParams>& access() const { return access_; }
  [[nodiscard]] const model::SharedAnalysis& predicted() const { return predicted_; }
  /// The model's analysis of the GPU's trace (when the trace came from the GPU).
  [[nodiscard]] const std::optional<model::SharedAnalysis>& traced() const { return traced_; }

  /// Whether the view shows a global access (the transpose lab's global read or write).
  [[nodiscard]] bool shows_global() const { return app::shows_global(state_); }
  /// The transpose's global access of the shown warp (slot 0), its model analysis and, when
  /// traced on the GPU, the analysis of the trace.
  [[nodiscard]] const TraceRecords& global_trace() const { return global_trace_; }
  [[nodiscard]] const model::GlobalAnalysis& global_predicted() const { return global_predicted_; }
  [[nodiscard]] const std::optional<model::GlobalAnalysis>& global_traced() const {
    return global_traced_;
  }

  struct Measured {
    std::optional<gpu::BankMeasurement> bank;
    std::vector<gpu::TransposeMeasurement> transpose;  ///< every variant, Copy first
    std::vector<gpu::MatmulMeasurement> matmul;        ///< naive, then block 8, 16, 32
    std::vector<gpu::ReductionMeasurement> reduction;  ///< the three variants
    std::optional<SharedState> of;                     ///< the state these belong to
    /// The GPU's own counters for the access the view shows (a dedicated launch), per request
    /// beside the model's, or why they could not be read; `counters_of` is the state they
    /// were read for.
    std::optional<LabCounters> counters;
    std::optional<SharedState> counters_of;
    bool busy = false;
    std::string status;  ///< what the worker is doing
  };
  [[nodiscard]] Measured measured() const;
  /// Whether measured() holds numbers for the current state's kernel parameters.
  [[nodiscard]] bool measurement_current() const;
  /// Whether measured().counters belong to the access shown now.
  [[nodiscard]] bool counters_current() const;

  [[nodiscard]] std::string error() const;

  /// Tests: runs `task` on the worker as a job of its own (LabWorker::run_task).
  void run_on_worker(std::function<void(const std::atomic<bool>& cancel)> task) {
    worker_.run_task(std::move(task));
  }

 private:
  void release_gpu();  // before a GPU reset (gpu_recovery.h)
  void restart_gpu();  // after it
  void trace_on_gl_thread();
  void use_host_trace();
  void set_error(const std::string& message);

  /// False when the lab's transpose matrices were busy (nothing traced; try next frame).
  bool trace_global_on_gl_thread(gpu::SharedLab& lab);

  BankTraceSink& bank_sink_;
  WarpTraceSink& global_sink_;
  TraceRecords global_trace_{};
  model::GlobalAnalysis global_predicted_;
  std::optional<model::GlobalAnalysis> global_traced_;
  gpu::DeviceQuery device_;
  SharedState state_;
  std::optional<gpu::BankProbeParams> access_;
  model::SharedAnalysis predicted_;
  std::optional<model::SharedAnalysis> traced_;
  TraceRecords trace_{};
  bool traced_on_gpu_ = false;
  std::optional<SharedState> traced_state_;
  bool have_state_ = false;
  struct Interop;
  std::unique_ptr<Interop> interop_;
  bool interop_failed_ = false;
  TraceWait trace_wait_;  ///< the GL thread's trace against a worker's job (gpu_turn.h)

  // Results the worker publishes (under mutex_).
  mutable std::mutex mutex_;
  Measured measured_;

  /// Slot kMeasure: the timed kernels and then the counters; slot kCounters: the counters
  /// alone (the shown access changed, the kernels' parameters did not).
  /// The state update() last asked the counters for on its own (the catch-up, once per state).
  std::optional<SharedState> counters_asked_;
  static constexpr int kMeasure = 0, kCounters = 1;
  void run_job(int slot, const SharedState& job, gpu::SharedLab& lab);
  /// Last member: stopped (joined) before the rest goes.
  LabWorker<gpu::SharedLab, SharedState> worker_;
  std::optional<GpuUserRegistration> gpu_user_;
};

/// Whether two states need the same measurements (the bank view's choices do not count).
bool same_measurement(const SharedState& a, const SharedState& b);

/// Whether two states show the same access (the hardware counters' subject).
bool same_counters(const SharedState& a, const SharedState& b);

/// The verify case that reads the counters of the access `state` shows, if it has one.
std::optional<CounterCase> counter_case(const SharedState& state);

}  // namespace warplens::app
