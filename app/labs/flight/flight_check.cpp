#include "flight_check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "flight_lab.h"

namespace warplens::app {

namespace {

double number(const nlohmann::json& doc, const char* key) {
  if (!doc.contains(key) || !doc[key].is_number())
    throw std::invalid_argument(std::string("the measurement has no number \"") + key + "\"");
  return doc[key].get<double>();
}

std::vector<gpu::StreamMeasurement> copies_of(const nlohmann::json& doc) {
  std::vector<gpu::StreamMeasurement> v;
  if (!doc.contains("rows")) return v;
  for (const auto& r : doc["rows"]) {
    if (r.value("section", "") != "littles-law") continue;
    gpu::StreamMeasurement m;
    m.params.word_bytes = r.at("word_bytes").get<int>();
    m.params.loads_per_thread = r.at("loads_per_thread").get<int>();
    m.params.block_threads = r.value("block_threads", 256);
    m.params.grid_stride = r.value("grid_stride", false);
    m.residency.blocks_per_sm = r.at("blocks_per_sm").get<int>();
    m.residency.warps_per_sm = r.at("warps_per_sm").get<int>();
    m.bytes_in_flight_per_sm = r.at("bytes_in_flight_per_sm").get<std::int64_t>();
    m.gbps = r.at("gbps").get<double>();
    m.verified = r.value("verified", false);
    v.push_back(m);
  }
  return v;
}

std::vector<gpu::LoadedLatencyPoint> probe_of(const nlohmann::json& doc) {
  std::vector<gpu::LoadedLatencyPoint> v;
  if (!doc.contains("rows")) return v;
  for (const auto& r : doc["rows"]) {
    if (r.value("section", "") != "loaded-latency") continue;
    gpu::LoadedLatencyPoint p;
    p.copy_blocks_per_sm = r.at("copy_blocks_per_sm").get<int>();
    p.copy_loads_per_thread = r.value("copy_loads_per_thread", 1);  // 1 before it was a knob
    p.batch_bytes = r.at("batch_bytes").get<int>();
    p.hops = r.value("hops", 0);
    p.ns_per_load = r.at("ns_per_load").get<double>();
    p.copy_gbps = r.at("copy_gbps").get<double>();
    p.verified = r.value("verified", false);
    v.push_back(p);
  }
  return v;
}

std::vector<gpu::BlockTimeline> timelines_of(const nlohmann::json& doc) {
  std::vector<gpu::BlockTimeline> v;
  if (!doc.contains("rows")) return v;
  for (const auto& r : doc["rows"]) {
    if (r.value("section", "") != "timeline") continue;
    gpu::BlockTimeline t;
    t.params.word_bytes = r.at("word_bytes").get<int>();
    t.params.loads_per_thread = r.at("loads_per_thread").get<int>();
    t.residency.blocks_per_sm = r.at("blocks_per_sm").get<int>();
    t.rounds = r.at("rounds").get<long long>();
    t.store_ns = r.at("store_ns").get<double>();
    t.tail_ns = r.at("tail_ns").get<double>();
    t.verified = r.value("verified", false);
    v.push_back(t);
  }
  return v;
}

// The warp row's DRAM plateau: the model's L0.
double idle_latency(const nlohmann::json& doc) {
  if (doc.contains("model_latency_ns") && doc["model_latency_ns"].is_number())
    return doc["model_latency_ns"].get<double>();
  if (doc.contains("plateaus") && doc["plateaus"].contains("default, warp") &&
      doc["plateaus"]["default, warp"]["dram_ns"].is_number())
    return doc["plateaus"]["default, warp"]["dram_ns"].get<double>();
  throw std::invalid_argument("the measurement has no DRAM plateau of the warp chase");
}

}  // namespace

FlightCheck check_flight_model(const nlohmann::json& points, const nlohmann::json& inputs,
                               const nlohmann::json* probe_doc,
                               const nlohmann::json* timeline_doc) {
  gpu::LittlesLawLine l;
  l.sms = static_cast<int>(number(inputs, "sm_count"));
  l.peak_gbps = number(inputs, "memcpy_gbps");
  l.latency_ns = idle_latency(inputs);
  const auto probe = probe_of(probe_doc ? *probe_doc : inputs);
  l.loaded = gpu::loaded_latency_model(probe, l.latency_ns);  // checked against the ladder's L0
  l.batch_ns_per_byte = gpu::batch_ns_per_byte(copies_of(inputs), l.sms, l.latency_ns, l.peak_gbps)
                            .value_or(0.26);  // the H100's
  l.gaps = gpu::block_gaps(timelines_of(timeline_doc ? *timeline_doc : inputs));
  const auto judged = copies_of(points);
  if (judged.empty()) throw std::invalid_argument("the measurement has no Little's-law copies");
  FlightCheck c;
  c.probe_model = l.loaded.has_value();
  c.model = l.loaded ? "probe wall" : "linear";
  if (!l.gaps.empty()) c.model += ", one-block gap";
  c.gap_points = static_cast<int>(l.gaps.gap_ns.size());
  c.tau_ns_per_byte = l.batch_ns_per_byte;
  c.probe_points = static_cast<int>(
      std::count_if(probe.begin(), probe.end(), [](const auto& p) { return p.verified; }));
  c.knee_bytes = gpu::knee_bytes_per_sm(l.sms, l.latency_ns, l.peak_gbps);
  for (const auto& m : judged) {
    if (!m.verified || m.gbps <= 0) continue;
    const auto bif = static_cast<double>(m.bytes_in_flight_per_sm);
    const double batch = 32.0 * m.params.loads_per_thread * m.params.word_bytes;
    const double linear = l.linear_gbps(bif, batch);
    const double line =
        l.gbps(bif, batch, m.residency.blocks_per_sm,
               static_cast<double>(m.params.loads_per_thread) * m.params.word_bytes);
    const double err = 100 * (m.gbps - line) / line;
    const double linear_err = 100 * (m.gbps - linear) / linear;
    const bool below = bif < c.knee_bytes;
    (below ? c.below : c.above) += 1;
    double& worst = below ? c.worst_below_pct : c.worst_above_pct;
    worst = std::max(worst, std::abs(err));
    double& linear_worst = below ? c.linear_worst_below_pct : c.linear_worst_above_pct;
    linear_worst = std::max(linear_worst, std::abs(linear_err));
    char linear_text[64] = "";
    if (l.loaded || !l.gaps.empty())
      std::snprintf(linear_text, sizeof linear_text, ", linear %6.0f (%+5.1f %%)", linear,
                    linear_err);
    char line_text[240];
    std::snprintf(line_text, sizeof line_text,
                  "%2d B x %d loads, %2d warps/SM (%d blocks), %7.1f KiB/SM: measured %6.0f, "
                  "line %6.0f (%+5.1f %%)%s  %s knee",
                  m.params.word_bytes, m.params.loads_per_thread, m.residency.warps_per_sm,
                  m.residency.blocks_per_sm, bif / 1024, m.gbps, line, err, linear_text,
                  below ? "below" : "above");
    c.lines.emplace_back(line_text);
  }
  return c;
}

}  // namespace warplens::app
