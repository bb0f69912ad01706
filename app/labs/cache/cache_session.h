// The cache lab's live state: the L1/shared carveout and the occupancy it allows, the L1 gather
// sweep (where the knee moves with the carveout), the constant cache (k distinct addresses per
// warp) and the read-only / texture path. The host model (carveout table, the capacity a request
// rounds up to, the L1 left, the blocks per SM the table predicts, the constant cache's lane
// groups) is computed on set(); the timed kernels (gpu/cache_lab.h) run on a worker thread so
// the window keeps drawing. After a section's timed runs the worker reads the L1 hit rates of the
// L1 sweep and the read paths from the hardware counters (counter_service.h: dedicated launches
// on the checker's own buffers, never around a timed one). Without a GPU the model parts still show
// and the measured parts say why they are empty, in one line.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "cache_lab.h"
#include "counter_checks.h"
#include "gpu.h"
#include "worker_session.h"

namespace warplens::app {

/// The parts of the cache lab, in lecture order.
enum class CacheSection { Carveout, L1, Constant, ReadPath };
const char* to_string(CacheSection section);  ///< carveout | l1 | constant | read-path
CacheSection parse_cache_section(const std::string& text);  ///< throws std::invalid_argument

struct CacheState {
  CacheSection section = CacheSection::Carveout;
  int carveout = gpu::kCarveoutDefault;           ///< -1 (driver default) or 0..100 %
  std::int64_t dynamic_shared_bytes = 20 * 1024;  ///< per block of the shared-hungry kernel
  std::int64_t working_set_bytes = 64 * 1024;     ///< L1: the point the plot rings
  int k = 4;                                      ///< Constant: distinct addresses per warp
  gpu::ReadPathParams read;                       ///< ReadPath: the bar the view rings
  friend bool operator==(const CacheState& a, const CacheState& b) {
    return a.section == b.section && a.carveout == b.carveout &&
           a.dynamic_shared_bytes == b.dynamic_shared_bytes &&
           a.working_set_bytes == b.working_set_bytes && a.k == b.k && a.read == b.read;
  }
};

/// The L1 sweep's working sets (8 KiB .. 1 MiB, 12 points) and carveouts (-1, 0, 50, 100).
const std::vector<std::int64_t>& l1_working_sets();
const std::vector<int>& l1_carveouts();
/// The dynamic shared memory per block the occupancy table covers (0 .. the opt-in limit).
std::vector<std::int64_t> occupancy_dynamic_shared(std::int64_t optin_limit_bytes);
/// The carveouts the shared-hungry sweep times: gpu::carveouts_per_capacity(*table) (the driver
/// default, then one percent per supported capacity), or -1, 0, 25, 50, 75, 100 without a table.
std::vector<int> hungry_carveouts(const gpu::CarveoutTable* table);
/// The read path's access patterns, in the order the bars and tables show them.
const std::vector<gpu::ReadPattern>& read_patterns();
/// The load paths, in bar order: plain, __ldg, texture.
const std::vector<gpu::ReadPath>& read_paths();

/// One row of the predicted occupancy table (the host table only).
struct PredictedOccupancy {
  int carveout = gpu::kCarveoutDefault;
  std::int64_t dynamic_shared_bytes = 0;
  gpu::CarveoutChoice choice;
  int blocks_per_sm = 0;
  double occupancy_percent = 0;
  std::string limiter;  ///< "shared memory" | "threads" | "blocks per SM"
};

/// The host model of the cache lab for one state: everything shown without a GPU.
struct CacheModel {
  gpu::CarveoutTable table;
  bool table_from_device = false;  ///< false: the model's CC 9.0 (H100) table is assumed
  std::string device_text;         ///< "NVIDIA H100 (CC 9.0)" or "model: CC 9.0 (H100)"
  std::int64_t optin_limit_bytes = 0;
  int reserved_bytes = 0;  ///< per block
  int threads_per_block = 256, max_threads_per_sm = 2048, max_blocks_per_sm = 32;
  PredictedOccupancy current;             ///< for the state's carveout and dynamic shared memory
  std::vector<PredictedOccupancy> sweep;  ///< occupancy_dynamic_shared() at the state's carveout
  /// hungry_carveouts(&table) at the state's dynamic shared memory (the carveout plots' model)
  std::vector<PredictedOccupancy> carveout_sweep;
  bool needs_optin = false;
  std::string optin_note;
  std::vector<std::vector<int>> lane_groups;  ///< constant_lane_groups(state.k)
};

/// The host model for `state` on a device with `limits` (std::nullopt: the model's H100).
/// Throws std::invalid_argument for parameters the lab refuses.
CacheModel cache_model(const CacheState& state, const gpu::CacheDeviceLimits* limits,
                       const std::string& device_name);

/// The table's prediction for `carveout` and `dynamic_bytes` per block on the model's device.
/// Throws std::invalid_argument for a carveout the table refuses.
PredictedOccupancy predict_occupancy(const CacheModel& m, int carveout, std::int64_t dynamic_bytes);

/// The L1 hit rate (hardware counters) of one point of the L1 sweep.
struct L1HitPoint {
  int carveout = gpu::kCarveoutDefault;
  std::int64_t working_set_bytes = 0;
  L1HitRate rate;
};
/// The L1 hit rate (hardware counters) of one read-path bar.
struct ReadHitPoint {
  gpu::ReadPathParams params;
  L1HitRate rate;
};

/// What the GPU measured, per section; each `*_of` is the state the section's numbers belong to.
/// Hit rates are read after a section's timed runs, on dedicated launches (counter_service.h);
/// a `*_hit_note` says in one line why a hit-rate list is empty or stops short.
struct CacheResults {
  std::optional<gpu::CacheDeviceLimits> limits;
  std::vector<gpu::OccupancyInfo> occupancy;  ///< occupancy_dynamic_shared(), the chosen carveout
  std::optional<gpu::SharedHungryMeasurement> hungry;  ///< the chosen carveout
  /// The shared-hungry kernel at hungry_carveouts(), the state's dynamic shared memory.
  std::vector<gpu::SharedHungryMeasurement> hungry_sweep;
  std::optional<CacheState> carveout_of;
  std::vector<gpu::L1GatherMeasurement> l1;  ///< carveout-major over l1_working_sets()
  std::vector<L1HitPoint> l1_hit;            ///< in l1's order
  std::string l1_hit_note;
  std::optional<CacheState> l1_of;
  std::vector<gpu::ConstantMeasurement> constant;  ///< k = 1, 2, ... 32
  std::optional<CacheState> constant_of;
  /// Path-major: read_paths() x read_patterns().
  std::vector<gpu::ReadPathMeasurement> read;
  std::vector<ReadHitPoint> read_hit;  ///< in read's order
  std::string read_hit_note;
  std::optional<CacheState> read_of;
  bool busy = false;
  int done = 0, total = 0;  ///< points of the running section
  std::string status;       ///< what the worker is doing
};

/// Whether two states need the same measurements for `section` (the ringed point does not count).
bool same_cache_measurement(CacheSection section, const CacheState& a, const CacheState& b);

class CacheSession : public WorkerSession<gpu::CacheLab, CacheState> {
 public:
  /// With use_gpu false (or no device) the session runs the model only.
  explicit CacheSession(bool use_gpu);
  ~CacheSession();

  /// Sets new parameters; refused ones set error() and change nothing (nothing is launched).
  void set(const CacheState& requested);
  [[nodiscard]] const CacheState& state() const { return state_; }
  /// The lab is on screen (call every frame it is, and when a scenario opens it): the first call
  /// starts measuring. Until then the session launches nothing, so a window that never opens the
  /// cache lab never competes with the other labs for the GPU (its sweeps take seconds).
  void show();
  /// Measures the current section again (cancelling what runs).
  void remeasure();
  /// Once per frame: picks up the device limits once the worker has them (the model follows).
  void update();

  /// One line for what needs a GPU when there is none ("needs a GPU: ...").
  [[nodiscard]] std::string no_gpu_text() const;
  [[nodiscard]] const CacheModel& model() const { return model_; }

  [[nodiscard]] CacheResults measured() const;
  /// Whether measured() holds the current section's numbers for the current state.
  [[nodiscard]] bool measurement_current() const;

  /// Tests and figures: replaces the measurements (as if the GPU had produced them).
  void inject_results_for_test(CacheResults results);

 private:
  void request_current();
  void set_error(const std::string& message);

  bool shown_ = false;  ///< show() was called: measurements follow the state
  CacheState state_;
  CacheModel model_;
  std::optional<gpu::CacheDeviceLimits> limits_;  ///< the device's, once known (GL thread copy)

  // Results the worker publishes (under mutex_).
  CacheResults measured_;

  void run_job(const CacheState& job, gpu::CacheLab& lab);
};

}  // namespace warplens::app
