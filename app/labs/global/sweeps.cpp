#include "sweeps.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace warplens::app {

const char* to_string(SweepAxis axis) {
  return axis == SweepAxis::Offset ? "offset" : "stride";
}

std::vector<gpu::CopyParams> sweep_params(SweepAxis axis, const gpu::CopyParams& base) {
  std::vector<gpu::CopyParams> list;
  gpu::CopyParams p = base;
  p.kind = IndexKind::Strided;
  p.layout = gpu::StructLayout::None;
  if (axis == SweepAxis::Offset) {
    p.stride = 1;
    for (int k = 0; k <= 32; ++k) {
      p.offset = k;
      list.push_back(p);
    }
  } else {
    p.offset = 0;
    for (int s = 1; s <= 64; ++s) {
      p.stride = s;
      list.push_back(p);
    }
  }
  return list;
}

double sweep_x(SweepAxis axis, const gpu::CopyParams& p) {
  return static_cast<double>(axis == SweepAxis::Offset ? p.offset : p.stride);
}

double SweepResult::worst_prediction_error(const SweepPoint** where) const {
  double worst = 0;
  for (const SweepPoint& pt : points) {
    if (pt.predicted_gbps <= 0 || pt.measured.gbps <= 0) continue;
    const double e = std::abs(pt.predicted_gbps - pt.measured.gbps) / pt.measured.gbps;
    if (e >= worst) {
      worst = e;
      if (where) *where = &pt;
    }
  }
  return worst;
}

gpu::Calibration calibrate(gpu::CopyLab& lab, const gpu::MemcpyMeasurement& memcpy,
                           const gpu::CopyParams& base, int runs) {
  gpu::Calibration c;
  c.memcpy_gbps = memcpy.gbps;
  gpu::CopyParams coalesced = base;
  coalesced.kind = IndexKind::Strided;
  coalesced.layout = gpu::StructLayout::None;
  coalesced.offset = 0;
  coalesced.stride = 1;
  c.coalesced_gbps[base.word_bytes] = lab.measure(coalesced, runs).gbps;
  // The overlap probe runs 4-byte words: its fit needs their coalesced rate too.
  const gpu::CopyParams overlap = gpu::overlap_probe();
  if (c.coalesced_gbps.count(overlap.word_bytes) == 0) {
    coalesced.word_bytes = overlap.word_bytes;
    c.coalesced_gbps[overlap.word_bytes] = lab.measure(coalesced, runs).gbps;
  }
  c.overlap_gbps = lab.measure(overlap, runs).gbps;
  c.sparse_near_gbps = lab.measure(gpu::sparse_near_probe(), runs).gbps;
  c.sparse_far_gbps = lab.measure(gpu::sparse_far_probe(), runs).gbps;
  gpu::fit_calibration(c, lab.buffer_bytes());
  return c;
}

SweepResult run_sweep(gpu::CopyLab& lab, const gpu::DeviceInfo& device, SweepAxis axis,
                      const gpu::CopyParams& base, int runs, const std::atomic<bool>* cancel,
                      const std::function<void(const SweepResult&)>& on_point) {
  SweepResult r;
  r.axis = axis;
  r.base = base;
  r.device = device.name;
  r.buffer_bytes = lab.buffer_bytes();
  r.theoretical_gbps = device.theoretical_gbps;
  const auto params = sweep_params(axis, base);
  r.total_points = static_cast<int>(params.size());
  r.memcpy = lab.measure_memcpy(runs);
  r.ideal = lab.measure_ideal_copy(runs);
  r.calibration = calibrate(lab, r.memcpy, base, runs);
  if (on_point) on_point(r);
  for (const auto& p : params) {
    if (cancel && cancel->load()) {
      r.cancelled = true;
      break;
    }
    SweepPoint pt;
    pt.x = sweep_x(axis, p);
    pt.measured = lab.measure(p, runs);
    pt.predicted_gbps = gpu::predict_copy_gbps(p, pt.measured.plan, r.calibration);
    r.points.push_back(pt);
    if (on_point) on_point(r);
  }
  return r;
}

std::string sweep_json(const SweepResult& s) {
  nlohmann::json points = nlohmann::json::array();
  for (const auto& pt : s.points) {
    points.push_back({{"x", pt.x},
                      {"offset", pt.measured.params.offset},
                      {"stride", pt.measured.params.stride},
                      {"threads", pt.measured.plan.threads},
                      {"requested_bytes", pt.measured.plan.requested_bytes},
                      {"median_ms", pt.measured.timing.median_ms},
                      {"p25_ms", pt.measured.timing.p25_ms},
                      {"p75_ms", pt.measured.timing.p75_ms},
                      {"slow_runs", pt.measured.timing.slow_runs},
                      {"min_ms", pt.measured.timing.min_ms},
                      {"max_ms", pt.measured.timing.max_ms},
                      {"runs", pt.measured.timing.runs},
                      {"gbps", pt.measured.gbps},
                      {"predicted_gbps", pt.predicted_gbps}});
  }
  const gpu::Calibration& c = s.calibration;
  nlohmann::json calibration = {{"memcpy_gbps", c.memcpy_gbps},
                                {"sparse_near_probe_gbps", c.sparse_near_gbps},
                                {"sparse_far_probe_gbps", c.sparse_far_gbps},
                                {"overlap_probe_gbps", c.overlap_gbps},
                                {"sparse_knee_bytes", c.sparse_knee_bytes},
                                {"sparse_exponent", c.sparse_exponent},
                                {"overlap_exponent", c.overlap_exponent}};
  for (const auto& [w, g] : c.coalesced_gbps) {
    calibration["coalesced_gbps_" + std::to_string(w) + "_byte"] = g;
  }
  nlohmann::json doc = {
      {"sweep", to_string(s.axis)},
      {"device", s.device},
      {"word_bytes", s.base.word_bytes},
      {"side", gpu::to_string(s.base.side)},
      {"path", gpu::to_string(s.base.path)},
      {"buffer_bytes", s.buffer_bytes},
      {"gbps_definition", "bytes the program asked to read + write / median time, 1e9 B/s"},
      {"memcpy_d2d_gbps", s.memcpy.gbps},
      {"ideal_copy_gbps", s.ideal.gbps},
      {"theoretical_gbps", s.theoretical_gbps},
      {"calibration", calibration},
      {"complete", s.complete()},
      {"worst_prediction_error", s.worst_prediction_error()},
      {"points", points}};
  return doc.dump(2) + "\n";
}

std::string sweep_csv(const SweepResult& s) {
  std::ostringstream out;
  out << "device,sweep,word_bytes,side,path,offset,stride,threads,median_ms,min_ms,max_ms,runs,"
         "gbps,predicted_gbps,memcpy_d2d_gbps,ideal_copy_gbps\n";
  for (const auto& pt : s.points) {
    char line[512];
    std::snprintf(line, sizeof line,
                  "\"%s\",%s,%d,%s,%s,%lld,%lld,%lld,%.5f,%.5f,%.5f,%d,%.1f,%.1f,%.1f,%.1f\n",
                  s.device.c_str(), to_string(s.axis), s.base.word_bytes,
                  gpu::to_string(s.base.side), gpu::to_string(s.base.path),
                  static_cast<long long>(pt.measured.params.offset),
                  static_cast<long long>(pt.measured.params.stride),
                  static_cast<long long>(pt.measured.plan.threads), pt.measured.timing.median_ms,
                  pt.measured.timing.min_ms, pt.measured.timing.max_ms, pt.measured.timing.runs,
                  pt.measured.gbps, pt.predicted_gbps, s.memcpy.gbps, s.ideal.gbps);
    out << line;
  }
  return out.str();
}

}  // namespace warplens::app
