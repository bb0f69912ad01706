// Offset and stride sweeps of the pattern copy: every point measured on the GPU, next to the
// bandwidth model's prediction (kernels/bandwidth_model.h) and the reference copies.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "bandwidth_model.h"
#include "gpu.h"

namespace warplens::app {

enum class SweepAxis { Offset, Stride };

const char* to_string(SweepAxis axis);  ///< "offset" or "stride"

/// Offsets 0..32 elements at stride 1, or strides 1..64 elements at offset 0; the rest of
/// `base` (word size, pattern side, load path) is kept.
std::vector<gpu::CopyParams> sweep_params(SweepAxis axis, const gpu::CopyParams& base);

/// The swept value of `p` (elements).
double sweep_x(SweepAxis axis, const gpu::CopyParams& p);

struct SweepPoint {
  double x = 0;  ///< offset or stride, elements
  gpu::CopyMeasurement measured;
  double predicted_gbps = 0;
};

struct SweepResult {
  SweepAxis axis = SweepAxis::Offset;
  gpu::CopyParams base;
  std::string device;
  std::int64_t buffer_bytes = 0;
  gpu::MemcpyMeasurement memcpy;
  gpu::MemcpyMeasurement ideal;
  double theoretical_gbps = 0;
  gpu::Calibration calibration;
  std::vector<SweepPoint> points;
  int total_points = 0;
  bool cancelled = false;

  [[nodiscard]] bool complete() const {
    return !cancelled && static_cast<int>(points.size()) == total_points;
  }
  /// Largest |predicted - measured| / measured over the points, and where.
  [[nodiscard]] double worst_prediction_error(const SweepPoint** where = nullptr) const;
};

/// Measures the reference copies and the calibration, then each point (median of `runs`).
/// Calls on_point after each point (for progress). Stops between points when *cancel becomes
/// true, keeping the points measured so far (cancelled = true). Throws gpu::GpuError.
SweepResult run_sweep(gpu::CopyLab& lab, const gpu::DeviceInfo& device, SweepAxis axis,
                      const gpu::CopyParams& base, int runs, const std::atomic<bool>* cancel,
                      const std::function<void(const SweepResult&)>& on_point = {});

/// Measures what predict_copy_gbps needs for `word_bytes` and the shared terms: the coalesced
/// copy of that word size (and of 4-byte words), the overlap probe and the two sparse probes
/// (bandwidth_model.h; five timed points in all), then fits the model's terms to them.
gpu::Calibration calibrate(gpu::CopyLab& lab, const gpu::MemcpyMeasurement& memcpy,
                           const gpu::CopyParams& base, int runs);

/// JSON (everything) and CSV (one row per point) of a sweep.
std::string sweep_json(const SweepResult& sweep);
std::string sweep_csv(const SweepResult& sweep);

}  // namespace warplens::app
