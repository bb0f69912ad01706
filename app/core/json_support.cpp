#include "json_support.h"

#include <iostream>
#include <nlohmann/json.hpp>
#include <utility>

namespace warplens::app {

nlohmann::json global_analysis_json(const model::GlobalAnalysis& a) {
  return {{"sectors_per_request", a.sectors.size()},
          {"lines_per_request", a.lines.size()},
          {"requested_bytes", a.requested_bytes},
          {"moved_bytes", a.moved_bytes},
          {"efficiency", a.efficiency()},
          {"bytes_used", a.efficiency()}};
}

nlohmann::json shared_analysis_json(const model::SharedAnalysis& a) {
  return {{"wavefronts_per_request", a.wavefronts},
          {"min_wavefronts_per_request", a.min_wavefronts},
          {"phases", a.phases.size()},
          {"broadcast", a.broadcast},
          {"requested_bytes", a.requested_bytes},
          {"moved_bytes", a.moved_bytes},
          {"efficiency", a.efficiency()},
          {"wavefronts_needed", a.efficiency()},
          {"byte_efficiency", a.byte_efficiency()}};
}

nlohmann::json timing_json(const gpu::Timing& t) {
  return {{"median_ms", t.median_ms}, {"p25_ms", t.p25_ms},      {"p75_ms", t.p75_ms},
          {"min_ms", t.min_ms},       {"max_ms", t.max_ms},      {"runs", t.runs},
          {"slow_runs", t.slow_runs}, {"fast_runs", t.fast_runs}};
}

std::optional<gpu::DeviceInfo> measure_device() {
  auto query = gpu::query_device();
  if (!query.device) std::cerr << "warplens measure: " << query.reason << "\n";
  return std::move(query.device);
}

nlohmann::json measurement_header(const gpu::DeviceInfo& d, const std::string& lab,
                                  const std::string& gbps_definition) {
  return {{"device", d.name},
          {"compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
          {"sm_count", d.sm_count},
          {"lab", lab},
          {"gbps_definition", gbps_definition}};
}

}  // namespace warplens::app
