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
#include "global_scenario.h"
#include "gpu.h"
#include "json_support.h"
#include "memory_model.h"

namespace warplens::app {

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
  if (!o.scenario.empty()) cases.push_back(base);
  for (long long offset : o.scenario.empty() ? offsets : std::vector<long long>{}) {
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
        {"measurements", rows}};
    if (format == "json") {
      std::cout << doc.dump(2) << "\n";
    } else if (format == "csv") {
      std::cout << "device,word_bytes,offset,stride,threads,median_ms,min_ms,max_ms,runs,gbps,"
                   "memcpy_d2d_gbps,percent_of_memcpy,model_sectors_per_request\n";
      for (const auto& r : rows) {
        std::printf("\"%s\",%d,%lld,%lld,%lld,%.5f,%.5f,%.5f,%d,%.1f,%.1f,%.1f,%d\n",
                    d.name.c_str(), r["word_bytes"].get<int>(), r["offset"].get<long long>(),
                    r["stride"].get<long long>(), r["threads"].get<long long>(),
                    r["median_ms"].get<double>(), r["min_ms"].get<double>(),
                    r["max_ms"].get<double>(), r["runs"].get<int>(), r["gbps"].get<double>(),
                    reference.gbps, r["percent_of_memcpy"].get<double>(),
                    r["model_sectors_per_request"].get<int>());
      }
    } else {
      std::printf("device  %s (CC %d.%d, %d SMs, L2 %lld MiB)\n", d.name.c_str(), d.cc_major,
                  d.cc_minor, d.sm_count, static_cast<long long>(d.l2_bytes >> 20));
      std::printf("buffer  %lld MiB in + %lld MiB out; median of %d timed runs after 3 warm-up\n",
                  static_cast<long long>(lab.buffer_bytes() >> 20),
                  static_cast<long long>(lab.buffer_bytes() >> 20), runs);
      std::printf("GB/s    bytes the program asked to read + write per second, 10^9 B/s\n\n");
      std::printf("%-30s %9s %9s %17s %9s %8s\n", "kernel", "GB/s", "% memcpy", "min-max GB/s",
                  "sectors", "eff.");
      const auto copy_spread = [](const gpu::MemcpyMeasurement& m) {
        const double bytes = 2.0 * static_cast<double>(m.bytes);
        char text[40];
        std::snprintf(text, sizeof text, "%.0f-%.0f", bytes / (m.timing.max_ms * 1e6),
                      bytes / (m.timing.min_ms * 1e6));
        return std::string(text);
      };
      std::printf("%-30s %9.1f %9s %17s %9s %8s\n", "cudaMemcpy D2D", reference.gbps, "100.0",
                  copy_spread(reference).c_str(), "", "");
      std::printf("%-30s %9.1f %9.1f %17s %9s %8s\n", "ideal copy (16 B per thread)", ideal.gbps,
                  100.0 * ideal.gbps / reference.gbps, copy_spread(ideal).c_str(), "", "");
      for (const auto& r : rows) {
        char name[64];
        if (r["matrix_width"] != 0) {
          std::snprintf(name, sizeof name, "matrix %d %s, pitch %lld", r["matrix_width"].get<int>(),
                        r["matrix_by_column"].get<bool>() ? "by col" : "by row",
                        r["pitch_bytes"].get<long long>());
        } else if (r["layout"] != "none") {
          std::snprintf(name, sizeof name, "struct {x,y,z} %s",
                        r["layout"] == "aos" ? "AoS" : "SoA");
        } else {
          std::snprintf(name, sizeof name, "%s%s W=%d K=%lld S=%lld",
                        r["side"] == "write" ? "st " : "", r["pattern"].get<std::string>().c_str(),
                        r["word_bytes"].get<int>(), r["offset"].get<long long>(),
                        r["stride"].get<long long>());
        }
        const double bytes = r["requested_bytes"].get<double>();
        char spread[40];
        std::snprintf(spread, sizeof spread, "%.0f-%.0f", bytes / (r["max_ms"].get<double>() * 1e6),
                      bytes / (r["min_ms"].get<double>() * 1e6));
        std::printf("%-30s %9.1f %9.1f %17s %9d %7.1f%%\n", name, r["gbps"].get<double>(),
                    r["percent_of_memcpy"].get<double>(), spread,
                    r["model_sectors_per_request"].get<int>(),
                    100.0 * r["model_efficiency"].get<double>());
      }
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "warplens measure: " << e.what() << "\n";
    return kExitRuntime;
  }
}

}  // namespace warplens::app
