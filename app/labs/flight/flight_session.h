// The bytes-in-flight lab's live state: the section shown (latency ladder, Little's law,
// asynchronous copies), the copy's knobs, the host model (residency, bytes in flight per SM, the
// Little's-law line and the SM picture) and a LabWorker that measures on the GPU. Without a GPU
// the model still shows, from an H100's limits and a placeholder latency, and says so.
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "flight_lab.h"
#include "gpu.h"
#include "worker_session.h"

namespace warplens::app {

enum class FlightSection { Latency, LittlesLaw, Async };
const char* to_string(FlightSection section);                 ///< latency | littles-law | async
FlightSection parse_flight_section(const std::string& text);  ///< throws std::invalid_argument

struct FlightState {
  FlightSection section = FlightSection::LittlesLaw;
  gpu::StreamParams stream;                    ///< Little's law: the current point
  std::int64_t working_set_bytes = 64 * 1024;  ///< Latency: the ringed working set
  friend bool operator==(const FlightState& a, const FlightState& b) {
    return a.section == b.section && a.stream == b.stream &&
           a.working_set_bytes == b.working_set_bytes;
  }
};

/// Without a GPU the model assumes an H100's: cudaMemcpy 2950 GB/s read + write and the idle
/// DRAM latency of its warp chase, 536 ns (both measured on an H100 80GB HBM3, 2026-11-26,
/// docs/h100-bench.txt and docs/flight.md), shown as assumed; on a GPU the reference copy and
/// the ladder's DRAM plateau replace them.
inline constexpr double kAssumedPeakGbps = 2950;
inline constexpr double kAssumedDramNs = 536;
/// And the latency each byte of a warp's batch adds, 0.26 ns per byte (gpu::batch_ns_per_byte
/// of the one-block-per-SM copies of H100 80GB HBM3 runs, 2026-11-27, run 1: 0.264; run 2:
/// 0.250; run 5: 0.244), shown as assumed until this GPU's own copies measure it.
inline constexpr double kAssumedBatchNsPerByte = 0.26;

/// Without a GPU the ladder draws an H100's plateaus of its default, 1-lane row as the model's,
/// shown as assumed: L1 20 ns, L2 145 ns, DRAM 315 ns (H100 80GB HBM3, driver 580.159.04,
/// 2026-11-27, run 8: tests/data/h100-flight-run8.json, 19.1-20.0 / 143.9-145.4 / 313.3-315.5 ns
/// over each level's working sets); on a GPU the measured rows replace them.
inline constexpr double kAssumedLadderL1Ns = 20;
inline constexpr double kAssumedLadderL2Ns = 145;
inline constexpr double kAssumedLadderDramNs = 315;

/// The ladder's rows: load path x lanes, in drawing order.
struct LadderRow {
  gpu::LoadPath path;
  int lanes;
};
const std::vector<LadderRow>& ladder_rows();
std::string ladder_row_label(const LadderRow& row);  ///< "default, 1 lane", "__ldcg, warp"
/// The ladder row whose DRAM plateau is the model's idle latency: default loads, a warp of 32
/// lanes (32 lines in flight at once, nearer a streaming SM than one lane: H100 536 vs 313 ns).
const LadderRow& model_ladder_row();

/// The points the Little's-law sweep measures after the current one: words 4 and 16 B x loads
/// 1, 2, 4, 8 x 1, 2, 4 blocks per SM (dynamic shared memory) and full residency, 256 threads.
std::vector<gpu::StreamParams> littles_law_grid(const gpu::SmLimits& limits);
/// The plain copies the async bars stand beside: one float per thread, and 16-byte words x 4
/// loads with a grid-stride loop.
std::vector<gpu::StreamParams> plain_bar_copies();

/// What the GPU measured so far (every point kept: the plot shows all of them).
struct FlightResults {
  std::optional<gpu::FlightDeviceLimits> limits;
  std::optional<gpu::MemcpyMeasurement> memcpy;
  std::vector<gpu::LatencyPoint> ladder;  ///< any order; rows by (path, lanes)
  std::vector<gpu::StreamMeasurement> stream;
  /// The loaded-latency probe (gpu::probe_copy_blocks x the three chases): the model's input.
  std::vector<gpu::LoadedLatencyPoint> probe;
  /// The one-block copies' timelines (gpu::timeline_copies(limits, 1)): the line's gaps.
  std::vector<gpu::BlockTimeline> timelines;
  std::vector<gpu::AsyncMeasurement> async;
  int version = 0;  ///< grows with every publication (the model follows it)
  bool busy = false;
  int done = 0, total = 0;
  std::string status;
};

/// The ladder row of `results` for `row`, ascending working set.
std::vector<gpu::LatencyPoint> ladder_row(const FlightResults& results, const LadderRow& row);
/// The measurement of `params` in `results`, if any.
const gpu::StreamMeasurement* find_stream(const FlightResults& results,
                                          const gpu::StreamParams& params);

/// The host model for one state.
struct FlightModel {
  gpu::SmLimits sm;
  gpu::LadderLevels levels;
  bool from_device = false;
  std::string device_text;  ///< "NVIDIA H100 (CC 9.0)" or "model: H100 limits"
  int cc_major = 9, cc_minor = 0;
  double peak_gbps = kAssumedPeakGbps;  ///< measured cudaMemcpy, else assumed
  bool peak_measured = false;
  double theoretical_gbps = 3352;      ///< the device's, else an H100 SXM's HBM3 figure
  double latency_ns = kAssumedDramNs;  ///< the DRAM plateau of model_ladder_row()
  bool latency_measured = false;
  double batch_ns_per_byte = kAssumedBatchNsPerByte;  ///< gpu::batch_ns_per_byte, else assumed
  bool batch_measured = false;
  double warp_batch_bytes = 0;  ///< the current point's: 32 lanes x loads x word bytes
  /// The probe's curve (gpu::loaded_latency_model, checked against the measured L0); when set,
  /// the line is gpu::littles_law_loaded_gbps: the linear growth and tau above, with the probe's
  /// measured latency near the wall. Unset without a probe or a measured L0: the line is linear.
  std::optional<gpu::LoadedLatencyModel> loaded;
  /// The line's inputs above in one place (gpu::LittlesLawLine), with the one-block gaps of the
  /// measured timelines (empty without them).
  gpu::LittlesLawLine line;
  /// The gap the line takes off the current point: its SM's idle time per round, ns, when it
  /// holds one block per SM and the timeline measured (else 0).
  double block_gap_ns = 0;
  gpu::Plateaus plateaus;    ///< of the default, 1-lane row
  gpu::Residency residency;  ///< the current point: the API's when measured, else the model's
  bool residency_measured = false;
  gpu::SmPicture picture;
  double bytes_in_flight = 0;  ///< per SM
  double predicted_gbps = 0;
  double knee_bytes = 0;  ///< per SM
  std::vector<std::int64_t> working_sets;
};

/// The predicted line at `bytes_in_flight_per_sm` for the model's warp batch: the linear growth and
/// tau, with the probe's wall once the probe measured and, for one block per SM, less the gap
/// once the timeline measured (FlightModel::line, flight_lab.h).
double flight_line_gbps(const FlightModel& m, double bytes_in_flight_per_sm);
/// What the line assumes beyond the linear growth, for its legend: "" or "; near the wall ...".
std::string flight_line_extras_text(const FlightModel& m);
/// Where the drawn line reaches cudaMemcpy's rate (bytes in flight per SM): later than the knee
/// (where the straight idle-latency line would), since the latency grows with the load.
double flight_line_meets_peak_bytes(const FlightModel& m);

/// Throws std::invalid_argument for parameters the lab refuses.
FlightModel flight_model(const FlightState& state, const FlightResults& results,
                         const std::string& device_name);

class FlightSession : public WorkerSession<gpu::FlightLab, FlightState> {
 public:
  explicit FlightSession(bool use_gpu);
  ~FlightSession();

  /// New parameters; refused ones set error() and change nothing.
  void set(const FlightState& requested);
  [[nodiscard]] const FlightState& state() const { return state_; }
  /// The lab is on screen: the first call starts measuring.
  void show();
  void remeasure();
  /// Once per frame: the model follows new measurements.
  void update();

  [[nodiscard]] std::string no_gpu_text() const;
  [[nodiscard]] const FlightModel& model() const { return model_; }
  [[nodiscard]] FlightResults measured() const;

  /// Tests and figures: replaces the measurements (as if the GPU had produced them).
  void inject_results_for_test(FlightResults results);

 private:
  void request();
  void run_job(const FlightState& job, gpu::FlightLab& lab);
  void publish(const std::function<void(FlightResults&)>& change);

  bool shown_ = false;
  FlightState state_;
  FlightModel model_;
  int model_version_ = -1;

  FlightResults measured_;
};

}  // namespace warplens::app
