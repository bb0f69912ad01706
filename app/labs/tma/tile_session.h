// The tile lab's live state: the tile (how it is filled, its swizzle, element size, shape, pitch)
// and the warp's read of it; the host model (the tile's CuTe layout, the model's placement, the
// read's lanes and bank wavefronts); and a LabWorker that, on a GPU, fills the tile, reads the
// placement back, times the read and reads its wavefronts from the counters. Without a GPU, or
// where the GPU lacks the TMA or ldmatrix, the model alone shows and says why.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "index_math.h"
#include "memory_model.h"
#include "tma_lab.h"
#include "trace_sink.h"
#include "worker_session.h"

namespace warplens::app {

struct TileState {
  gpu::TileParams tile;  ///< default: TMA, 128-byte swizzle, 32 x 32 4-byte elements
  gpu::TileRead read;    ///< default: column 0
  friend bool operator==(const TileState& a, const TileState& b) {
    return a.tile == b.tile && a.read == b.read;
  }
};

/// Throws std::invalid_argument (check_tile_read's line) for a state the lab refuses.
void check_tile_state(const TileState& state);

/// The host model of one state.
struct TileModel {
  std::string layout_text;              ///< gpu::tile_layout_text
  std::vector<std::int32_t> placement;  ///< gpu::tile_placement_model: element -> byte offset
  std::vector<std::int32_t> stored;     ///< element slot (byte offset / element bytes) -> element
  gpu::TileLanes lanes;                 ///< the warp's addresses (gpu::tile_read_lanes)
  model::SharedAnalysis analysis;       ///< the read's banks and wavefronts (tile_read_analysis)
};
/// Throws as check_tile_state.
TileModel tile_model(const TileState& state);
/// The trace the bank grid draws: warp slot 0's lanes at the model's byte offsets.
TraceRecords tile_trace(const gpu::TileLanes& lanes);

/// Requests per counter read-out (one warp makes exactly this many): wavefronts per request are
/// (wavefronts of a launch with these reads - wavefronts of the fill alone) / this.
inline constexpr int kTileCounterReads = 256;
/// Reads in the timed loop (gpu::TileLab::measure_read).
inline constexpr int kTileTimedReads = 4096;

/// The counters' wavefronts per request of `state`'s read: two read-outs through the counter
/// service, the fill alone and the fill with kTileCounterReads reads, and their difference over
/// the reads (what the window and `measure` show). `between` runs between the two read-outs
/// (the worker's status and cancellation). `unavailable` says why there is no figure.
struct TileCounted {
  std::optional<double> wavefronts_per_request;
  std::string unavailable;
};
TileCounted count_tile_read(const gpu::DeviceInfo& device, gpu::TileLab& lab,
                            const TileState& state, const std::function<void()>& between = {});

/// What the GPU measured for `state`.
struct TileResults {
  std::optional<TileState> state;                ///< what the numbers below belong to
  std::optional<std::string> unsupported;        ///< this GPU lacks the TMA or ldmatrix
  std::optional<gpu::TilePlacement> placement;   ///< the tile read back
  std::optional<gpu::TileReadMeasurement> read;  ///< cycles per request, values checked
  std::optional<double> wavefronts_per_request;  ///< from the counters
  std::string counters_unavailable;              ///< why there are no counters
  int version = 0;
  bool busy = false;
  std::string status;
};

/// Whether the read-back placement equals the model's (every element where the layout says).
bool placement_matches(const gpu::TilePlacement& placement, const TileModel& model);

class TileSession : public WorkerSession<gpu::TileLab, TileState> {
 public:
  /// `banks` receives the read's trace (the model's lanes) on every change.
  TileSession(BankTraceSink& banks, bool use_gpu);
  ~TileSession();

  /// New parameters; refused ones set error() and change nothing.
  void set(const TileState& requested);
  [[nodiscard]] const TileState& state() const { return state_; }
  [[nodiscard]] const TileModel& model() const { return model_; }
  [[nodiscard]] const TraceRecords& trace() const { return trace_; }
  /// What this GPU cannot run for the state (tile_unsupported), or nullopt (also without a GPU).
  [[nodiscard]] std::optional<std::string> unsupported() const;
  void remeasure();
  /// The lab is on screen: it measures from now on (the first time, the current state). Until
  /// then a window's tile lab leaves the GPU to the lab shown, at start and after a GPU reset.
  void show();
  void update() {}
  [[nodiscard]] TileResults measured() const;
  /// The measured results when they belong to the current state.
  [[nodiscard]] std::optional<TileResults> current() const;
  [[nodiscard]] std::string no_gpu_text() const;

  /// Tests: replaces the measurements (as if the GPU had produced them).
  void inject_results_for_test(TileResults results);

 private:
  void request();
  void run_job(const TileState& job, gpu::TileLab& lab);
  void publish(const std::function<void(TileResults&)>& change);

  BankTraceSink& banks_;
  bool shown_ = false;  ///< show() was called: measurements follow the state
  TileState state_;
  TileModel model_;
  TraceRecords trace_{};
  TileResults measured_;
};

}  // namespace warplens::app
