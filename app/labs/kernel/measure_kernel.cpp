#include "measure_kernel.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "counter_service.h"
#include "exit_codes.h"
#include "json_support.h"
#include "kernel_scenario.h"
#include "measured_table.h"

namespace warplens::app {

bool trace_matches_model(const gpu::KernelRowModel& traced, const gpu::KernelRowModel& model) {
  for (std::size_t l = 0; l < traced.lanes.size(); ++l) {
    const model::LaneAccess &a = traced.lanes[l], &b = model.lanes[l];
    if (a.active != b.active || (a.active && a.address != b.address)) return false;
  }
  return true;
}

namespace {

nlohmann::json row_json(const gpu::KernelRow& row, const gpu::KernelRowModel& m) {
  nlohmann::json j = {{"access", row_text(row)},
                      {"space", gpu::to_string(row.space)},
                      {"op", model::to_string(row.op)},
                      {"word_bytes", row.word_bytes},
                      {"index", row.index},
                      {"sync_after", row.sync_after},
                      {"unit", m.cost_unit()},
                      {"per_request", m.cost()}};
  if (!row.layout.empty()) j["layout"] = row.layout;
  if (!row.lane_layout.empty()) j["lane_layout"] = row.lane_layout;
  if (m.out_of_range_lanes >= 0) j["out_of_range_lanes"] = m.out_of_range_lanes;
  return j;
}

nlohmann::json op_json(const gpu::KernelOpTotals& t) {
  return {{"requests", t.requests}, {"cost", t.cost}, {"per_request", t.per_request()}};
}

nlohmann::json totals_json(const gpu::KernelTotals& t) {
  return {{"global_load", op_json(t.global_load)}, {"global_store", op_json(t.global_store)},
          {"shared_load", op_json(t.shared_load)}, {"shared_store", op_json(t.shared_store)},
          {"tile_clear", op_json(t.tile_clear)},   {"warps", t.warps},
          {"warps_evaluated", t.warps_evaluated},  {"exact", t.exact}};
}

nlohmann::json counters_json(const LaunchCounters& c) {
  const auto op = [](double requests, double cost) {
    return nlohmann::json{{"requests", requests},
                          {"cost", cost},
                          {"per_request", requests > 0 ? cost / requests : 0.0}};
  };
  return {{"global_load", op(c.global_load_requests, c.global_load_sectors)},
          {"global_store", op(c.global_store_requests, c.global_store_sectors)},
          {"shared_load", op(c.shared_load_instructions, c.shared_load_wavefronts)},
          {"shared_store", op(c.shared_store_instructions, c.shared_store_wavefronts)},
          {"passes", c.passes}};
}

// Whether the counters agree with the model's totals (counters_agree, kernel_session.h) for every
// kind of access the model or the counters saw, and count as many requests.
bool all_counters_agree(const nlohmann::json& model, const nlohmann::json& counters) {
  for (const char* op : {"global_load", "global_store", "shared_load", "shared_store"}) {
    const double m = model[op]["per_request"], c = counters[op]["per_request"];
    const double mr = model[op]["requests"], cr = counters[op]["requests"];
    if (mr == 0 && cr == 0) continue;
    if (std::abs(mr - cr) > 0.01 * mr) return false;
    if (!counters_agree(m, c, std::string(op) == "shared_store")) return false;
  }
  return true;
}

nlohmann::json program_json(const KernelState& st) {
  const gpu::KernelProgram& p = st.program;
  nlohmann::json constants = nlohmann::json::object();
  for (const auto& c : p.constants) constants[c.name] = c.value;
  return {{"block", {p.block.x, p.block.y}},
          {"grid", {p.grid.x, p.grid.y}},
          {"in", {{"elements", p.in.elements}, {"word_bytes", p.in.word_bytes}}},
          {"out", {{"elements", p.out.elements}, {"word_bytes", p.out.word_bytes}}},
          {"tile", {{"elements", p.tile.elements}, {"word_bytes", p.tile.word_bytes}}},
          {"constants", constants},
          {"traced_warp",
           {{"block", {st.traced.block_x, st.traced.block_y}}, {"warp", st.traced.warp}}}};
}

int measure_body(const KernelState& st, const MeasureOptions& o) {
  if (o.format != "text" && o.format != "json" && o.format != "csv")
    throw std::invalid_argument("format must be text, json or csv");
  const auto device = measure_device();
  if (!device) return kExitNoDevice;
  const gpu::DeviceInfo& d = *device;
  const gpu::KernelProgram& p = st.program;
  gpu::check_program(p, d.shared_bytes_per_block_optin);
  const auto rows_model = gpu::model_warp(p, st.traced, st.model);
  const gpu::KernelTotals totals = gpu::model_totals(p, st.model);
  gpu::KernelLab lab(d);
  const gpu::KernelSimulation simulation = gpu::simulate_program(p, st.traced);
  const gpu::KernelRun run = lab.run(p, st.traced, std::max(o.runs, 1), 3, nullptr, &simulation);
  const gpu::MemcpyMeasurement reference = lab.reference_copy();
  const LaunchCountersRead counters = read_launch_counters(d, lab.counter_launch(p));

  nlohmann::json doc = measurement_header(
      d, "kernel", "(bytes the rows ask to read + write in global memory) / median time, 1e9 B/s");
  doc["program"] = program_json(st);
  doc["architecture"] = run.architecture;
  doc["nvrtc"] = gpu::nvrtc_version();
  doc["compile_ms"] = run.compile_ms;
  bool traces_match = true;
  nlohmann::json rows = nlohmann::json::array();
  for (std::size_t r = 0; r < p.rows.size(); ++r) {
    nlohmann::json j = row_json(p.rows[r], rows_model[r]);
    const bool match = trace_matches_model(run.traced[r], rows_model[r]);
    traces_match = traces_match && match;
    j["gpu_trace_per_request"] = run.traced[r].cost();
    j["trace_matches_model"] = match;
    j["out_of_range_lanes_grid"] = run.out_of_range[r];
    j["row"] = r + 1;
    rows.push_back(j);
  }
  doc["rows"] = rows;
  doc["model_totals"] = totals_json(totals);
  if (counters.counters) {
    doc["counters"] = counters_json(*counters.counters);
    doc["counters_agree"] = all_counters_agree(doc["model_totals"], doc["counters"]);
  } else {
    doc["counters_unavailable"] = counters.unavailable;
  }
  doc["requested_bytes"] = run.requested_bytes;
  doc["gbps"] = run.gbps;
  doc["timing"] = timing_json(run.timing);
  doc["memcpy_gbps"] = reference.gbps;
  doc["model_gbps"] = predicted_gbps(totals, run.requested_bytes, reference.gbps);
  doc["verified"] = run.verified;
  doc["checked"] = run.checked;
  doc["check"] = run.check;

  write_measurement(std::cout, o.format, doc, kernel_measure_table(doc));
  if ((run.checked && !run.verified) || !traces_match) {
    std::cerr << "warplens measure: "
              << (!traces_match ? "the GPU's trace differs from the model"
                                : "out does not match the host simulation")
              << "\n";
    return kExitRuntime;
  }
  return kExitOk;
}

}  // namespace

MeasuredTable kernel_measure_table(const nlohmann::json& doc) {
  MeasuredTable t;
  t.rows_at = "/rows";
  char line[240];
  std::snprintf(line, sizeof line, "%s, %s (NVRTC %s, compiled in %.0f ms)",
                doc["device"].get<std::string>().c_str(),
                doc["architecture"].get<std::string>().c_str(),
                doc["nvrtc"].get<std::string>().c_str(), doc["compile_ms"].get<double>());
  t.head.emplace_back(line);
  t.sections.push_back({"",
                        {},
                        {field("row", "/row"),
                         field("access", "/access"),
                         field("model", "/per_request"),
                         field("unit", "/unit"),
                         field("GPU trace", "/gpu_trace_per_request"),
                         {"trace",
                          [](const nlohmann::json& r, const nlohmann::json&) {
                            return r["trace_matches_model"].get<bool>() ? "same lanes" : "DIFFERS";
                          }},
                         field("out of range (grid)", "/out_of_range_lanes_grid")}});
  t.csv = {field("row", "/row"),
           field("access", "/access"),
           field("unit", "/unit"),
           field("model_per_request", "/per_request"),
           field("gpu_trace_per_request", "/gpu_trace_per_request"),
           field("trace_matches_model", "/trace_matches_model"),
           field("out_of_range_lanes_grid", "/out_of_range_lanes_grid")};
  const auto& mt = doc["model_totals"];
  for (const char* op : {"global_load", "global_store", "shared_load", "shared_store"}) {
    if (mt[op]["requests"] == 0 &&
        (!doc.contains("counters") || doc["counters"][op]["requests"] == 0))
      continue;
    std::snprintf(line, sizeof line, "%-13s model %6.2f per request (%.0f requests%s)", op,
                  mt[op]["per_request"].get<double>(), mt[op]["requests"].get<double>(),
                  mt["exact"].get<bool>() ? "" : ", sampled");
    std::string text = line;
    if (doc.contains("counters")) {
      std::snprintf(line, sizeof line, "  counters %6.2f (%.0f requests)",
                    doc["counters"][op]["per_request"].get<double>(),
                    doc["counters"][op]["requests"].get<double>());
      text += line;
    }
    t.foot.push_back(text);
  }
  if (doc.contains("counters_unavailable"))
    t.foot.push_back("counters: " + doc["counters_unavailable"].get<std::string>());
  std::snprintf(line, sizeof line,
                "%.1f GB/s (median %.4f ms of %d), bandwidth model %.0f GB/s (cudaMemcpy %.0f)",
                doc["gbps"].get<double>(), doc["timing"]["median_ms"].get<double>(),
                doc["timing"]["runs"].get<int>(), doc["model_gbps"].get<double>(),
                doc["memcpy_gbps"].get<double>());
  t.foot.emplace_back(line);
  t.foot.push_back(doc["check"].get<std::string>());
  return t;
}

int measure_kernel_lab(const MeasureOptions& o, const Scenario* scenario) {
  return exit_code_of("measure", [&] {
    if (!scenario)
      throw std::invalid_argument(
          "the own-kernel lab measures a program: --kernel FILE.toml or --scenario NAME");
    return measure_body(kernel_scenario(*scenario), o);
  });
}

void kernel_figure_json(const KernelSession& session, const KernelResults& r, nlohmann::json& j) {
  const KernelState& st = session.state();
  j["model_shown"] = model::to_string(st.model);
  j["program"] = program_json(st);
  j["step"] = st.step + 1;
  nlohmann::json rows = nlohmann::json::array();
  for (std::size_t i = 0; i < st.program.rows.size(); ++i)
    rows.push_back(row_json(st.program.rows[i], session.rows_model()[i]));
  j["model"] = {{"rows", rows}, {"totals", totals_json(session.totals())}};
  nlohmann::json measured = nlohmann::json::object();
  if (session.run_current(r)) {
    nlohmann::json traced = nlohmann::json::array();
    for (std::size_t i = 0; i < r.run->traced.size(); ++i) {
      nlohmann::json t = row_json(st.program.rows[i], r.run->traced[i]);
      t["matches_model"] = trace_matches_model(r.run->traced[i], session.rows_model()[i]);
      t["out_of_range_lanes_grid"] = r.run->out_of_range[i];
      traced.push_back(t);
    }
    j["gpu_trace"] = {{"rows", traced}};
    measured["gbps"] = r.run->gbps;
    measured["timing"] = timing_json(r.run->timing);
    measured["verified"] = r.run->verified;
    measured["check"] = r.run->check;
    measured["architecture"] = r.run->architecture;
    if (r.counters) measured["counters"] = counters_json(*r.counters);
    if (r.reference) measured["memcpy_gbps"] = r.reference->gbps;
  }
  j["measured"] = measured;
}

}  // namespace warplens::app
