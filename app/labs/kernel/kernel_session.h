// The own-kernel lab's live state ("Your kernel", issue 15): the student's program (rows of
// accesses, kernel_program.h), the warp it traces and the access the view steps to; the host
// model of that warp and of the whole launch; and a LabWorker that compiles the program with
// NVRTC, runs it (the traced launch, the timed launches) and reads the counters of one launch.
//
// Traces: the view's buffer receives the shown row of the GPU's trace device to device through
// CUDA-GL interop (KernelLab::copy_trace_row) once the run of the current program is in (a
// host-memory sink, in tests, gets the records the run copied back); before that, or without a
// GPU, the host model's addresses. Rows of
// `in` and `out` go to the warp view (WarpTraceSink), rows of `tile` to the bank view
// (BankTraceSink).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "counter_checks.h"
#include "kernel_lab.h"
#include "kernel_totals.h"
#include "trace_sink.h"
#include "worker_session.h"

namespace warplens::app {

/// What the lab's view shows: one access of the traced warp (stepped), or the generated source.
enum class KernelSection { Access, Source };
const char* to_string(KernelSection section);                 ///< access | source
KernelSection parse_kernel_section(const std::string& text);  ///< throws std::invalid_argument

/// The widest tile row the view draws as stored (KernelState::tile_row), elements: the tile
/// view's (array_panel.h, tile_view_applies).
inline constexpr int kMaxKernelTileRow = 64;

struct KernelState {
  gpu::KernelProgram program;
  gpu::TracedWarp traced;
  int step = 0;  ///< the row the view shows, 0-based (the step control says "access k of N")
  KernelSection section = KernelSection::Access;
  model::HardwareModel model = model::HardwareModel::Modern;
  /// Elements per row of the tile as the view draws it beside the banks, the C declaration's
  /// `tile[rows][tile_row]` (32, or 33 padded); 0: the banks alone. Only the picture reads it:
  /// the program indexes its tile as written. 1 .. kMaxKernelTileRow, 4-byte tile words.
  int tile_row = 0;
  friend bool operator==(const KernelState&, const KernelState&) = default;
};

/// Throws std::invalid_argument saying why `st.tile_row` cannot be drawn (0 always can).
void check_tile_row(const KernelState& st);

/// A coalesced copy of 2^24 floats: `out[i] = in[i]`, 256 threads per block.
KernelState default_kernel_state();

/// One row as a line of C: "out[(bx*32+ty)*n + by*32+tx] = v (4 B)", "v = __ldcg(in[i]) (16 B)".
std::string row_text(const gpu::KernelRow& row);
/// Where a row's index came from: "CuTe layout (8,4):(32,1) gives tx % 8 * 32 + tx / 8" (and
/// the lanes' layout when one was given); empty for a row written as an index.
std::string row_layout_text(const gpu::KernelRow& row);

/// Whether two states need the same GPU run (the step, section and shown model do not count).
bool same_run(const KernelState& a, const KernelState& b);

/// What the GPU gave for the current program, once it is in.
struct KernelResults {
  std::optional<gpu::KernelRun> run;                ///< of `program` / `traced` below
  gpu::KernelProgram program;                       ///< what `run` ran
  gpu::TracedWarp traced;                           ///< the warp `run` traced
  std::optional<gpu::MemcpyMeasurement> reference;  ///< cudaMemcpy on this device
  std::optional<LaunchCounters> counters;           ///< of `program`, one launch
  std::string counters_unavailable;                 ///< why there are none (one line)
  std::string compile_log;                          ///< NVRTC's log when it refused the source
  /// From the edit (set()) to the run's results published, ms (compile + trace + timed runs).
  double edit_to_result_ms = 0;
  int version = 0;  ///< grows with every publication
  bool busy = false;
  std::string status;
};

/// The bandwidth the model predicts for a launch: the reference copy's rate x the bytes the
/// program asks for / the bytes its sectors move (every 32-byte sector a global request touches
/// moved once; no reuse in L1 or L2). GB/s = 10^9 bytes/s of read + write. 0 when nothing moves.
double predicted_gbps(const gpu::KernelTotals& totals, std::int64_t requested_bytes,
                      double reference_gbps);

/// Whether the counters' figure per request over a launch agrees with the model's: within 5 % (at
/// least 0.05), and for shared stores up to 1.5 wavefronts above, never below (Hopper's
/// shared-store wavefront counter reads high under load: +0.1..+1.3 measured on an H100, the
/// verify catalog's tolerance, app/core/counter_checks.cpp).
bool counters_agree(double model_per_request, double counted_per_request, bool shared_store);

/// Without a GPU the prediction scales an H100's cudaMemcpy (2950 GB/s, docs/h100-bench.txt).
inline constexpr double kAssumedCopyGbps = 2950;

class KernelSession : public WorkerSession<gpu::KernelLab, KernelState> {
 public:
  enum Slot { kRun = 0, kCounters = 1 };

  KernelSession(WarpTraceSink& warp_sink, BankTraceSink& bank_sink, bool use_gpu);
  ~KernelSession();

  /// New parameters: checked (a refusal sets error() and keeps the last good program), modelled,
  /// and, when the run changes, compiled and measured on the worker (a newer edit replaces a
  /// waiting one and cancels the running one between launches).
  void set(const KernelState& requested);
  [[nodiscard]] const KernelState& state() const { return state_; }
  /// The state as last typed, refused or not (the editor's contents).
  [[nodiscard]] const KernelState& edited() const { return edited_; }
  void remeasure();
  /// Once per frame on the GL thread: copies the shown row's GPU trace into its view.
  void update();

  /// The traced warp's rows through the model, and the whole launch's totals.
  [[nodiscard]] const std::vector<gpu::KernelRowModel>& rows_model() const { return rows_; }
  [[nodiscard]] const gpu::KernelTotals& totals() const { return totals_; }
  /// The generated source of the current program (what runs).
  [[nodiscard]] const std::string& source() const { return source_; }
  [[nodiscard]] KernelResults measured() const;
  /// The GPU's run is of the current program and warp.
  [[nodiscard]] bool run_current(const KernelResults& r) const;
  /// The shown row's trace as the view holds it, and whether the GPU wrote it.
  [[nodiscard]] const TraceRecords& trace() const { return trace_; }
  [[nodiscard]] bool traced_on_gpu() const { return traced_on_gpu_; }
  /// The views hold the GPU's trace of the current program and step (what the bench waits for).
  [[nodiscard]] bool shows_current_gpu_trace() const {
    return traced_on_gpu_ && shown_ && *shown_ == state_;
  }
  [[nodiscard]] bool idle() const;

  /// Tests: publishes results as if the GPU had produced them for the current program.
  void inject_results_for_test(KernelResults results);

 private:
  void run_job(int slot, const KernelState& job, gpu::KernelLab& lab);
  void publish(const std::function<void(KernelResults&)>& change);
  void show_host_trace();
  void request_counters();
  bool shown_row_is_tile() const;

  WarpTraceSink& warp_sink_;
  BankTraceSink& bank_sink_;
  struct Interop;
  std::unique_ptr<Interop> interop_;
  bool interop_failed_ = false;
  TraceWait trace_wait_;  ///< the GL thread's trace against a worker's job (gpu_turn.h)

  KernelState state_, edited_;
  std::vector<gpu::KernelRowModel> rows_;
  gpu::KernelTotals totals_;
  std::string source_;
  std::atomic<std::int64_t> edit_time_ns_{0};  ///< steady clock at the last edit of the run

  TraceRecords trace_{};
  bool traced_on_gpu_ = false;
  std::optional<KernelState> shown_;  ///< the state whose row the views hold
  int shown_version_ = -1;
  std::uint64_t counters_requested_ = 0;  ///< the run (trace id) whose counters were asked for

  KernelResults measured_;
};

}  // namespace warplens::app
