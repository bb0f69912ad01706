#include "measure_flight.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>

#include "exit_codes.h"
#include "flight_lab.h"
#include "flight_scenario.h"
#include "flight_session.h"
#include "json_support.h"

namespace warplens::app {

namespace {

/// A JSON number as text with one decimal ("308.1"), "-" for null (a plateau not found).
std::string one_decimal(const nlohmann::json& v) {
  if (v.is_null()) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", v.get<double>());
  return text;
}

nlohmann::json stream_json(const gpu::StreamMeasurement& m) {
  return {{"word_bytes", m.params.word_bytes},
          {"loads_per_thread", m.params.loads_per_thread},
          {"block_threads", m.params.block_threads},
          {"dynamic_shared_bytes", m.params.dynamic_shared_bytes},
          {"grid_stride", m.params.grid_stride},
          {"blocks_per_sm", m.residency.blocks_per_sm},
          {"warps_per_sm", m.residency.warps_per_sm},
          {"regs_per_thread", m.residency.regs_per_thread},
          {"limiter", m.residency.limiter},
          {"bytes_in_flight_per_sm", m.bytes_in_flight_per_sm},
          {"blocks", m.blocks},
          {"gbps", m.gbps},
          {"timing", timing_json(m.timing)},
          {"verified", m.verified},
          {"check", m.check}};
}

nlohmann::json opt(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

int measure_body(const std::string& section, const std::string& format, std::int64_t copy_bytes) {
  if (section != "all") (void)parse_flight_section(section);
  if (format != "text" && format != "json" && format != "csv")
    throw std::invalid_argument("format must be text, json or csv");
  const auto device = measure_device();
  if (!device) return kExitNoDevice;
  const gpu::DeviceInfo& d = *device;
  nlohmann::json doc = measurement_header(
      d, "flight", "(bytes read + bytes written) / median time, 1e9 B/s; the model counts alike");
  nlohmann::json rows = nlohmann::json::array();
  bool ok = true;
  gpu::FlightLab lab(d, copy_bytes);
  const auto& l = lab.limits();
  doc["limits"] = {{"l1_bytes", l.levels.l1_bytes},
                   {"l2_bytes", l.levels.l2_bytes},
                   {"sm_count", l.sm.sm_count},
                   {"sm_clock_ghz", l.sm_clock_ghz},
                   {"theoretical_gbps", l.theoretical_gbps},
                   {"copy_bytes", lab.copy_bytes()}};
  const bool all = section == "all";
  const auto memcpy = lab.measure_memcpy(7, 2);
  doc["memcpy_gbps"] = memcpy.gbps;
  const auto sets = gpu::ladder_working_sets(l.levels.l2_bytes);
  std::vector<gpu::LatencyPoint> ladder;
  const bool need_ladder = all || section == "latency" || section == "littles-law";
  for (auto ws : sets)
    for (const auto& row : ladder_rows()) {
      if (!need_ladder) break;
      const bool dram_only = !all && section == "littles-law";
      if (dram_only &&
          (row.lanes != 1 || row.path != gpu::LoadPath::Default || ws < 2 * l.levels.l2_bytes))
        continue;
      auto p = lab.measure_latency({ws, row.path, row.lanes}, 3);
      ok = ok && p.verified;
      ladder.push_back(p);
      if (dram_only || all || section == "latency")
        rows.push_back({{"section", "latency"},
                        {"path", gpu::to_string(row.path)},
                        {"lanes", row.lanes},
                        {"working_set_bytes", ws},
                        {"ns_per_load", p.ns_per_load},
                        {"cycles_per_load", p.cycles_per_load},
                        {"verified", p.verified}});
    }
  FlightResults fr;
  fr.ladder = ladder;
  nlohmann::json plateaus = nlohmann::json::object();
  for (const auto& row : ladder_rows()) {
    const auto pl = gpu::find_plateaus(ladder_row(fr, row), l.levels);
    plateaus[ladder_row_label(row)] = {
        {"l1_ns", opt(pl.l1_ns)},
        {"l2_ns", opt(pl.l2_ns)},
        {"dram_ns", opt(pl.dram_ns)},
        {"l1_cycles", opt(pl.l1_cycles)},
        {"l2_cycles", opt(pl.l2_cycles)},
        {"dram_cycles", opt(pl.dram_cycles)},
        {"tlb_step_bytes", pl.tlb_step_bytes ? nlohmann::json(*pl.tlb_step_bytes) : nullptr}};
  }
  if (need_ladder) doc["plateaus"] = plateaus;
  // The loaded-latency probe (flight_lab.h): the warp chase and the two batch chases, idle and
  // beside a copy at each load. The model of Little's law reads its curves.
  // The copy of one load per thread, then of kProbeCopyLoadsMany (the loads near the wall; its
  // idle point would be the same as the first's).
  std::vector<gpu::LoadedLatencyPoint> probe;
  if (need_ladder)
    for (int copy_loads : {1, gpu::kProbeCopyLoadsMany})
      for (int load : gpu::probe_copy_blocks(l.sm))
        for (int batch : {0, gpu::kProbeBatchSmall, gpu::kProbeBatchLarge}) {
          if (load == 0 && copy_loads != 1) continue;
          auto p = lab.measure_loaded_latency(load, batch, 3, nullptr, copy_loads);
          ok = ok && p.verified;
          probe.push_back(p);
          rows.push_back({{"section", "loaded-latency"},
                          {"copy_blocks_per_sm", p.copy_blocks_per_sm},
                          {"copy_loads_per_thread", p.copy_loads_per_thread},
                          {"batch_bytes", p.batch_bytes},
                          {"hops", p.hops},
                          {"ns_per_load", p.ns_per_load},
                          {"cycles_per_load", p.cycles_per_load},
                          {"copy_gbps", p.copy_gbps},
                          {"verified", p.verified},
                          {"check", p.check}});
        }
  const auto dram = gpu::find_plateaus(ladder_row(fr, model_ladder_row()), l.levels).dram_ns;
  // The probe's curve, checked against the ladder's L0 (flight_lab.h, loaded_latency_model).
  const auto loaded = gpu::loaded_latency_model(probe, dram.value_or(0));
  const auto curve_json = [](const gpu::LoadedCurve& c) {
    return nlohmann::json{{"gbps", c.gbps}, {"value", c.value}};
  };
  if (loaded) {
    doc["probe_latency_ns"] = curve_json(loaded->latency);  // the 512-B batch chase's envelope
    doc["probe_batch_ns_per_byte"] = curve_json(loaded->batch);
    doc["probe_idle_warp_ns"] = loaded->idle_warp_ns;
    doc["probe_top_gbps"] = loaded->top_gbps;
  }
  if (all || section == "littles-law") {
    if (!dram) throw gpu::GpuError("the ladder found no DRAM plateau for the model's latency");
    doc["model_latency_ns"] = *dram;
    const double knee = gpu::knee_bytes_per_sm(l.sm.sm_count, *dram, memcpy.gbps);
    doc["knee_bytes_per_sm"] = knee;
    std::vector<gpu::StreamMeasurement> copies;
    for (const auto& p : littles_law_grid(l.sm)) {
      copies.push_back(lab.measure_stream(p, 7, 2));
      ok = ok && copies.back().verified;
    }
    // The model: the window's line, the linear growth with tau from this run's one-block-per-SM
    // copies below the knee (the H100's when fewer than two of them verified), and near the wall
    // the probe's measured latency when the probe gave a curve (flight_lab.h,
    // littles_law_loaded_gbps). The linear model is reported beside it.
    const double tau = gpu::batch_ns_per_byte(copies, l.sm.sm_count, *dram, memcpy.gbps)
                           .value_or(kAssumedBatchNsPerByte);
    doc["model"] = loaded ? "linear loaded latency and the probe's wall, tau from the copies"
                          : "linear loaded latency, tau from the copies";
    doc["linear_batch_ns_per_byte"] = tau;
    for (const auto& m : copies) {
      nlohmann::json r = stream_json(m);
      const auto bif = static_cast<double>(m.bytes_in_flight_per_sm);
      const double batch = 32.0 * m.params.loads_per_thread * m.params.word_bytes;
      const double linear =
          gpu::littles_law_gbps(bif, l.sm.sm_count, *dram, memcpy.gbps, batch, tau);
      const double line = loaded ? gpu::littles_law_loaded_gbps(bif, l.sm.sm_count, *dram,
                                                                memcpy.gbps, batch, tau, *loaded)
                                 : linear;
      r["section"] = "littles-law";
      r["model_gbps"] = line;
      r["model_linear_gbps"] = linear;
      r["error_pct"] = 100.0 * (m.gbps - line) / line;
      r["linear_error_pct"] = 100.0 * (m.gbps - linear) / linear;
      r["below_knee"] = static_cast<double>(m.bytes_in_flight_per_sm) < knee;
      rows.push_back(r);
    }
  }
  if (all || section == "async") {
    for (const auto& p : plain_bar_copies()) {
      const auto m = lab.measure_stream(p, 7, 2);
      ok = ok && m.verified;
      nlohmann::json r = stream_json(m);
      r["section"] = "async";
      r["kind"] = "plain";
      rows.push_back(r);
    }
    for (auto kind : {gpu::AsyncKind::CpAsync, gpu::AsyncKind::Tma}) {
      const auto a = lab.measure_async(kind, 7, 2);
      nlohmann::json r = {{"section", "async"}, {"kind", gpu::to_string(kind)}};
      if (a.unsupported) {
        r["unsupported"] = *a.unsupported;
      } else {
        ok = ok && a.verified;
        r.update({{"blocks_per_sm", a.blocks_per_sm},
                  {"threads_per_block", a.threads_per_block},
                  {"bytes_in_flight_per_sm", a.bytes_in_flight_per_sm},
                  {"gbps", a.gbps},
                  {"timing", timing_json(a.timing)},
                  {"verified", a.verified},
                  {"check", a.check}});
      }
      rows.push_back(r);
    }
  }
  doc["rows"] = rows;
  // The summary docs/flight.md quotes: the model's worst |error| below and above the knee, and
  // the best copy of views 2 and 3 against cudaMemcpy.
  double worst_below = -1, worst_above = -1, best = 0;
  double linear_worst_below = -1, linear_worst_above = -1;
  for (const auto& r : rows) {
    if (r["section"] == "latency" || !r.contains("gbps")) continue;
    best = std::max(best, r["gbps"].get<double>());
    if (!r.contains("error_pct")) continue;
    const bool below = r["below_knee"].get<bool>();
    double& worst = below ? worst_below : worst_above;
    worst = std::max(worst, std::abs(r["error_pct"].get<double>()));
    double& linear_worst = below ? linear_worst_below : linear_worst_above;
    linear_worst = std::max(linear_worst, std::abs(r["linear_error_pct"].get<double>()));
  }
  const auto opt_pct = [](double v) { return v < 0 ? nlohmann::json() : nlohmann::json(v); };
  if (best > 0) {
    doc["summary"] = {{"worst_error_below_knee_pct", opt_pct(worst_below)},
                      {"worst_error_above_knee_pct", opt_pct(worst_above)},
                      {"best_copy_pct_of_memcpy", 100 * best / memcpy.gbps}};
    if (loaded && (linear_worst_below >= 0 || linear_worst_above >= 0)) {
      doc["summary"]["linear_worst_error_below_knee_pct"] = opt_pct(linear_worst_below);
      doc["summary"]["linear_worst_error_above_knee_pct"] = opt_pct(linear_worst_above);
    }
  }
  if (format == "json") {
    std::cout << doc.dump(2) << "\n";
  } else if (format == "csv") {
    std::printf(
        "section,kind,path,lanes,working_set_bytes,ns_per_load,cycles_per_load,word_bytes,"
        "loads_per_thread,block_threads,dynamic_shared_bytes,grid_stride,warps_per_sm,"
        "bytes_in_flight_per_sm,gbps,model_gbps,error_pct,verified\n");
    const auto cell = [](const nlohmann::json& r, const char* k) -> std::string {
      if (!r.contains(k) || r[k].is_null()) return "";
      return r[k].is_string() ? r[k].get<std::string>() : r[k].dump();
    };
    for (const auto& r : rows) {
      std::string line;
      for (const char* k :
           {"section", "kind", "path", "lanes", "working_set_bytes", "ns_per_load",
            "cycles_per_load", "word_bytes", "loads_per_thread", "block_threads",
            "dynamic_shared_bytes", "grid_stride", "warps_per_sm", "bytes_in_flight_per_sm", "gbps",
            "model_gbps", "error_pct", "verified"})
        line += (line.empty() ? "" : ",") + cell(r, k);
      std::printf("%s\n", line.c_str());
    }
  } else {
    std::printf(
        "%s (CC %d.%d, %d SMs): L1 %lld KiB, L2 %lld KiB, cudaMemcpy %.0f GB/s, "
        "theoretical %.0f GB/s\n",
        d.name.c_str(), d.cc_major, d.cc_minor, d.sm_count,
        static_cast<long long>(l.levels.l1_bytes / 1024),
        static_cast<long long>(l.levels.l2_bytes / 1024), memcpy.gbps, l.theoretical_gbps);
    if (need_ladder)
      for (const auto& [name, p] : plateaus.items())
        std::printf("plateaus %-16s L1 %s  L2 %s  DRAM %s ns%s\n", name.c_str(),
                    one_decimal(p["l1_ns"]).c_str(), one_decimal(p["l2_ns"]).c_str(),
                    one_decimal(p["dram_ns"]).c_str(),
                    p["tlb_step_bytes"].is_null()
                        ? ""
                        : ("  TLB step at " + p["tlb_step_bytes"].dump() + " bytes").c_str());
    if (doc.contains("model"))
      std::printf("model: %s (idle latency %.1f ns; linear's tau %.3f ns per byte)\n",
                  doc["model"].get<std::string>().c_str(), doc["model_latency_ns"].get<double>(),
                  doc["linear_batch_ns_per_byte"].get<double>());
    for (const auto& r : rows) {
      const std::string s = r["section"];
      if (s == "latency") {
        std::printf("latency %-8s %2d lane(s) %10.1f KiB  %7.1f ns  %7.1f cycles  %s\n",
                    r["path"].get<std::string>().c_str(), r["lanes"].get<int>(),
                    r["working_set_bytes"].get<double>() / 1024, r["ns_per_load"].get<double>(),
                    r["cycles_per_load"].get<double>(),
                    r["verified"].get<bool>() ? "verified" : "WRONG");
      } else if (s == "loaded-latency") {
        std::printf(
            "loaded latency %2d copy blocks/SM x %d loads, %-10s %4d B  %7.1f ns  %7.1f cycles  "
            "copy %6.0f GB/s  %s\n",
            r["copy_blocks_per_sm"].get<int>(), r["copy_loads_per_thread"].get<int>(),
            r["batch_bytes"].get<int>() == 0 ? "warp chase" : "batch", r["batch_bytes"].get<int>(),
            r["ns_per_load"].get<double>(), r["cycles_per_load"].get<double>(),
            r["copy_gbps"].get<double>(), r["verified"].get<bool>() ? "verified" : "WRONG");
      } else if (r.contains("unsupported")) {
        std::printf("async %-6s %s\n", r["kind"].get<std::string>().c_str(),
                    r["unsupported"].get<std::string>().c_str());
      } else if (s == "async" && r["kind"] != "plain") {
        std::printf(
            "async %-6s %2d blocks/SM x %4d threads  %8.1f KiB in flight/SM  %7.0f GB/s "
            "(%5.1f %% of cudaMemcpy)  %s\n",
            r["kind"].get<std::string>().c_str(), r["blocks_per_sm"].get<int>(),
            r["threads_per_block"].get<int>(), r["bytes_in_flight_per_sm"].get<double>() / 1024,
            r["gbps"].get<double>(), 100 * r["gbps"].get<double>() / memcpy.gbps,
            r["verified"].get<bool>() ? "verified" : "WRONG");
      } else {
        std::printf(
            "%-11s %2d B x %d loads, %4d thr, %3lld KiB dyn%s: %3d warps/SM (%s)  %8.1f "
            "KiB in flight/SM  %7.0f GB/s (%5.1f %%)",
            s.c_str(), r["word_bytes"].get<int>(), r["loads_per_thread"].get<int>(),
            r["block_threads"].get<int>(), r["dynamic_shared_bytes"].get<long long>() / 1024,
            r["grid_stride"].get<bool>() ? ", grid-stride" : "", r["warps_per_sm"].get<int>(),
            r["limiter"].get<std::string>().c_str(),
            r["bytes_in_flight_per_sm"].get<double>() / 1024, r["gbps"].get<double>(),
            100 * r["gbps"].get<double>() / memcpy.gbps);
        if (r.contains("model_gbps"))
          std::printf("  model %7.0f (%+5.1f %%, %s knee)", r["model_gbps"].get<double>(),
                      r["error_pct"].get<double>(),
                      r["below_knee"].get<bool>() ? "below" : "above");
        std::printf("  %s\n", r["verified"].get<bool>() ? "verified" : "WRONG");
      }
    }
  }
  if (format == "text" && doc.contains("summary")) {
    const auto& sm = doc["summary"];
    const auto pct = [](const nlohmann::json& v) {
      return v.is_null() ? std::string("-") : one_decimal(v) + " %";
    };
    if (sm.contains("linear_worst_error_above_knee_pct"))
      std::printf(
          "the linear model (without the probe's wall, not drawn): worst error below the "
          "knee %s, above it %s\n",
          pct(sm["linear_worst_error_below_knee_pct"]).c_str(),
          pct(sm["linear_worst_error_above_knee_pct"]).c_str());
    std::printf(
        "summary: model's worst error below the knee %s, above it %s; best copy %.1f %% "
        "of cudaMemcpy\n",
        pct(sm["worst_error_below_knee_pct"]).c_str(),
        pct(sm["worst_error_above_knee_pct"]).c_str(), sm["best_copy_pct_of_memcpy"].get<double>());
  }
  if (!ok) {
    std::cerr << "warplens measure: a kernel's result did not match the CPU\n";
    return kExitRuntime;
  }
  return kExitOk;
}

}  // namespace

int measure_flight_lab(const MeasureOptions& o, const Scenario* scenario) {
  std::string section = o.cache.section;
  if (scenario) section = to_string(flight_scenario(*scenario).section);
  return exit_code_of("measure",
                      [&] { return measure_body(section, o.format, o.flight_copy_bytes); });
}

}  // namespace warplens::app
