// `warplens measure` for the global lab (LabInfo::measure): the pattern copy at every offset x
// stride of the options (or the scenario's one point), next to cudaMemcpy device-to-device and
// the ideal 16-byte copy, with the model's sectors per request for each.
#include "measure_global.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "copy_pattern.h"
#include "exit_codes.h"
#include "global_preset.h"
#include "global_scenario.h"
#include "gpu.h"
#include "json_support.h"
#include "measured_table.h"
#include "memory_model.h"
#include "toml_fields.h"

namespace warplens::app {

namespace {

// "1912-2010": the GB/s of the slowest and the fastest timed run.
std::string gbps_spread(double bytes, const nlohmann::json& timing) {
  char text[40];
  std::snprintf(text, sizeof text, "%.0f-%.0f", bytes / (timing["max_ms"].get<double>() * 1e6),
                bytes / (timing["min_ms"].get<double>() * 1e6));
  return text;
}

std::string kernel_name(const nlohmann::json& r) {
  char name[64];
  if (r["matrix_width"] != 0) {
    std::snprintf(name, sizeof name, "matrix %d %s, pitch %lld", r["matrix_width"].get<int>(),
                  r["matrix_by_column"].get<bool>() ? "by col" : "by row",
                  r["pitch_bytes"].get<long long>());
  } else if (r["layout"] != "none") {
    std::snprintf(name, sizeof name, "struct {x,y,z} %s", r["layout"] == "aos" ? "AoS" : "SoA");
  } else {
    std::snprintf(name, sizeof name, "%s%s W=%d K=%lld S=%lld", r["side"] == "write" ? "st " : "",
                  r["pattern"].get<std::string>().c_str(), r["word_bytes"].get<int>(),
                  r["offset"].get<long long>(), r["stride"].get<long long>());
  }
  return name;
}

}  // namespace

MeasuredTable global_measure_table(const nlohmann::json& doc) {
  MeasuredTable t;
  char line[200];
  std::snprintf(line, sizeof line, "device  %s (CC %s, %d SMs, L2 %lld MiB)",
                doc["device"].get<std::string>().c_str(),
                doc["compute_capability"].get<std::string>().c_str(), doc["sm_count"].get<int>(),
                doc["l2_bytes"].get<long long>() >> 20);
  t.head.emplace_back(line);
  std::snprintf(line, sizeof line,
                "buffer  %lld MiB in + %lld MiB out; median of %d timed runs after 3 warm-up",
                doc["buffer_bytes"].get<long long>() >> 20,
                doc["buffer_bytes"].get<long long>() >> 20, doc["runs"].get<int>());
  t.head.emplace_back(line);
  t.head.emplace_back("GB/s    bytes the program asked to read + write per second, 10^9 B/s");
  const double memcpy_gbps = doc["memcpy_d2d_gbps"].get<double>();
  std::snprintf(
      line, sizeof line, "cudaMemcpy D2D                %7.1f GB/s (runs %s GB/s)", memcpy_gbps,
      gbps_spread(2.0 * doc["memcpy_d2d_bytes"].get<double>(), doc["memcpy_d2d_timing"]).c_str());
  t.head.emplace_back(line);
  std::snprintf(
      line, sizeof line,
      "ideal copy (16 B per thread)  %7.1f GB/s (runs %s GB/s), %.1f %% of cudaMemcpy",
      doc["ideal_copy_gbps"].get<double>(),
      gbps_spread(2.0 * doc["ideal_copy_bytes"].get<double>(), doc["ideal_copy_timing"]).c_str(),
      100.0 * doc["ideal_copy_gbps"].get<double>() / memcpy_gbps);
  t.head.emplace_back(line);
  t.sections.push_back({"",
                        {},
                        {{"kernel", [](const auto& r, const auto&) { return kernel_name(r); }},
                         field("GB/s", "/gbps", 1),
                         field("% memcpy", "/percent_of_memcpy", 1),
                         {"min-max GB/s",
                          [](const auto& r, const auto&) {
                            return gbps_spread(r["requested_bytes"].template get<double>(), r);
                          }},
                         field("sectors", "/model_sectors_per_request"),
                         {"eff. %",
                          [](const auto& r, const auto&) {
                            return 100.0 * r["model_efficiency"].template get<double>();
                          },
                          1}}});
  t.csv = {doc_field("device", "/device"),
           field("word_bytes", "/word_bytes"),
           field("offset", "/offset"),
           field("stride", "/stride"),
           field("threads", "/threads"),
           field("median_ms", "/median_ms", 5),
           field("min_ms", "/min_ms", 5),
           field("max_ms", "/max_ms", 5),
           field("runs", "/runs"),
           field("gbps", "/gbps", 1),
           doc_field("memcpy_d2d_gbps", "/memcpy_d2d_gbps", 1),
           field("percent_of_memcpy", "/percent_of_memcpy", 1),
           field("model_sectors_per_request", "/model_sectors_per_request")};
  return t;
}

int measure_global(const MeasureOptions& o, const Scenario* scenario) {
  const int word_bytes = o.word_bytes;
  const auto& offsets = o.offsets;
  const auto& strides = o.strides;
  const int runs = o.runs;
  const std::string& format = o.format;
  gpu::CopyParams base;
  try {
    if (scenario) {
      base = global_scenario(*scenario).copy;  // the scenario's own parameters
    } else {
      base.kind = gpu::parse_index_kind(o.pattern);
      base.side = gpu::parse_pattern_side(o.side);
      base.path = gpu::parse_load_path(o.path);
      base.seed = o.seed;
      base.layout = gpu::parse_struct_layout(o.layout);
      base.matrix_width = o.matrix_width;
      base.matrix_pitched = o.pitched;
      base.matrix_by_column = o.by_column;
      base.block_y = o.matrix_width ? o.block_y : 1;
    }
  } catch (const std::exception& e) {  // invalid_argument, ScenarioError
    std::cerr << "warplens measure: " << e.what() << "\n";
    return kExitBadInput;
  }
  const auto device = measure_device();
  if (!device) return kExitNoDevice;
  const gpu::DeviceInfo& d = *device;
  base.pitch_alignment = d.pitch_alignment;
  std::vector<gpu::CopyParams> cases;
  if (scenario) cases.push_back(base);
  for (long long offset : scenario ? std::vector<long long>{} : offsets) {
    for (long long stride : strides) {
      gpu::CopyParams p = base;
      p.word_bytes = word_bytes;
      p.offset = offset;
      p.stride = stride;
      cases.push_back(p);
    }
  }
  try {
    gpu::CopyLab lab(d);
    for (const auto& p : cases) {  // refuse bad points before timing anything
      try {
        (void)gpu::plan_copy(p, lab.buffer_bytes());
      } catch (const std::invalid_argument& e) {
        std::cerr << "warplens measure: " << e.what() << "\n";
        return kExitBadInput;
      }
    }
    const auto reference = lab.measure_memcpy(runs);
    const auto ideal = lab.measure_ideal_copy(runs);
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& p : cases) {
      const auto m = lab.measure(p, runs);
      const auto pattern = copy_access_pattern(p, 0);
      const auto model =
          model::analyze_global(model::evaluate_lanes(pattern), p.word_bytes, pattern.op);
      rows.push_back({{"word_bytes", p.word_bytes},
                      {"pattern", gpu::to_string(p.kind)},
                      {"seed", p.seed},
                      {"side", gpu::to_string(p.side)},
                      {"path", gpu::to_string(p.path)},
                      {"layout", gpu::to_string(p.layout)},
                      {"matrix_width", p.matrix_width},
                      {"matrix_by_column", p.matrix_by_column},
                      {"pitch_bytes", m.plan.pitch_bytes},
                      {"offset", p.offset},
                      {"stride", p.stride},
                      {"threads", m.plan.threads},
                      {"requested_bytes", m.plan.requested_bytes},
                      {"median_ms", m.timing.median_ms},
                      {"p25_ms", m.timing.p25_ms},
                      {"p75_ms", m.timing.p75_ms},
                      {"slow_runs", m.timing.slow_runs},
                      {"min_ms", m.timing.min_ms},
                      {"max_ms", m.timing.max_ms},
                      {"runs", m.timing.runs},
                      {"gbps", m.gbps},
                      {"percent_of_memcpy", 100.0 * m.gbps / reference.gbps},
                      {"model_sectors_per_request", model.sectors.size()},
                      {"model_efficiency", model.efficiency()}});
    }
    nlohmann::json doc = {
        {"device", d.name},
        {"compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
        {"sm_count", d.sm_count},
        {"l2_bytes", d.l2_bytes},
        {"buffer_bytes", lab.buffer_bytes()},
        {"gbps_definition", "bytes the program asked to read + write / median time, 1e9 B/s"},
        {"memcpy_d2d_gbps", reference.gbps},
        {"ideal_copy_gbps", ideal.gbps},
        {"theoretical_gbps", d.theoretical_gbps},
        {"runs", runs},
        {"memcpy_d2d_timing", timing_json(reference.timing)},
        {"memcpy_d2d_bytes", reference.bytes},
        {"ideal_copy_timing", timing_json(ideal.timing)},
        {"ideal_copy_bytes", ideal.bytes},
        {"measurements", rows}};
    // The scenario's or preset's knobs, as its [copy] table writes them (the knob table).
    if (scenario)
      doc["preset"] = toml_json(global_preset_section(global_state(global_scenario(*scenario))));
    write_measurement(std::cout, format, doc, global_measure_table(doc));
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "warplens measure: " << e.what() << "\n";
    return kExitRuntime;
  }
}

}  // namespace warplens::app
