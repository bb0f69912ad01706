#include "measure_shared.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <optional>

#include "exit_codes.h"
#include "json_support.h"
#include "shared_kinds.h"
#include "shared_pattern.h"
#include "shared_scenario.h"

namespace warplens::app {

// --- each lab's rows (SharedKind::measure_rows, print_row) ------------------------------------

nlohmann::json banks_measure_rows(gpu::SharedLab& lab, const SharedMeasureOptions& o) {
  const SharedState& st = o.state;
  nlohmann::json rows = nlohmann::json::array();
  const auto m = lab.measure_bank(st.probe, st.warp, o.runs);
  rows.push_back({{"kernel", "bank probe"},
                  {"shared_bytes", m.plan.shared_bytes},
                  {"threads_per_block", m.plan.threads},
                  {"repeats", m.repeats},
                  {"cycles_per_request", m.cycles_per_request},
                  {"gbps", m.gbps},
                  {"bytes_per_clock_per_sm", m.bytes_per_clock_per_sm},
                  {"percent_of_128_bytes_per_clock", 100.0 * m.fraction_of_limit},
                  {"sm_clock_mhz", m.sm_clock_mhz},
                  {"timing", timing_json(m.timing)}});
  return rows;
}

nlohmann::json transpose_measure_rows(gpu::SharedLab& lab, const SharedMeasureOptions& o) {
  const SharedState& st = o.state;
  nlohmann::json rows = nlohmann::json::array();
  std::vector<gpu::TransposeVariant> variants{st.transpose.variant};
  if (o.all_variants)
    variants.assign(gpu::kTransposeVariants.begin(), gpu::kTransposeVariants.end());
  double copy = 0;
  for (auto v : variants) {
    gpu::TransposeParams p = st.transpose;
    p.variant = v;
    // Every variant: one these parameters do not suit is a row that says why (the lab's bars
    // do the same); the one asked for alone throws, as a refused parameter does elsewhere.
    const auto refused = o.all_variants ? gpu::transpose_refusal(p) : std::nullopt;
    const auto m = refused ? *refused : lab.measure_transpose(p, o.runs);
    if (v == gpu::TransposeVariant::Copy) copy = m.gbps;
    rows.push_back({{"kernel", gpu::to_string(v)},
                    {"tile", p.tile},
                    {"rows_per_block", p.rows_per_block},
                    {"n", p.n},
                    {"gbps", m.gbps},
                    {"percent_of_copy", copy > 0 ? 100.0 * m.gbps / copy : 0.0},
                    {"verified", m.verified},
                    {"refused", m.refused},
                    {"check", m.check},
                    {"timing", timing_json(m.timing)}});
  }
  return rows;
}

nlohmann::json matmul_measure_rows(gpu::SharedLab& lab, const SharedMeasureOptions& o) {
  const SharedState& st = o.state;
  nlohmann::json rows = nlohmann::json::array();
  std::vector<int> blocks{st.matmul.block_size};
  if (o.all_variants) blocks.assign(gpu::kMatmulBlockSizes.begin(), gpu::kMatmulBlockSizes.end());
  for (int b : blocks) {
    gpu::MatmulParams p = st.matmul;
    p.block_size = b;
    const auto m = lab.measure_matmul(p, std::max(3, o.runs / 2));
    rows.push_back({{"kernel", b ? "tiled" : "naive"},
                    {"block_size", b},
                    {"n", p.n},
                    {"gflops", m.gflops},
                    {"verified", m.verified},
                    {"checked_entries", m.checked_entries},
                    {"max_relative_error", m.max_relative_error},
                    {"check", m.check},
                    {"timing", timing_json(m.timing)}});
  }
  return rows;
}

nlohmann::json reduction_measure_rows(gpu::SharedLab& lab, const SharedMeasureOptions& o) {
  const SharedState& st = o.state;
  nlohmann::json rows = nlohmann::json::array();
  std::vector<gpu::ReductionVariant> variants{st.reduction.variant};
  if (o.all_variants)
    variants.assign(gpu::kReductionVariants.begin(), gpu::kReductionVariants.end());
  for (auto v : variants) {
    gpu::ReductionParams p = st.reduction;
    p.variant = v;
    const auto m = lab.measure_reduction(p, o.runs);
    rows.push_back({{"kernel", gpu::to_string(v)},
                    {"block_threads", p.block_threads},
                    {"elements", p.elements},
                    {"gbps", m.gbps},
                    {"verified", m.verified},
                    {"check", m.check},
                    {"timing", timing_json(m.timing)}});
  }
  return rows;
}

void banks_print_row(const nlohmann::json& r) {
  std::printf(
      "bank probe: %.2f cycles per request (one warp), %.0f GB/s on the whole GPU, %.1f "
      "B/clk/SM = %.1f %% of 128, SM clock %.0f MHz\n",
      r["cycles_per_request"].get<double>(), r["gbps"].get<double>(),
      r["bytes_per_clock_per_sm"].get<double>(), r["percent_of_128_bytes_per_clock"].get<double>(),
      r["sm_clock_mhz"].get<double>());
}

void matmul_print_row(const nlohmann::json& r) {
  std::printf("%-8s BLOCK_SIZE %2d  n %5d  %9.1f GFLOP/s  %s\n",
              r["kernel"].get<std::string>().c_str(), r["block_size"].get<int>(), r["n"].get<int>(),
              r["gflops"].get<double>(), r["check"].get<std::string>().c_str());
}

void transpose_print_row(const nlohmann::json& r) {
  std::printf("%-9s tile %2d rows %2d n %5d  %8.1f GB/s  %6.1f %% of copy  %s\n",
              r["kernel"].get<std::string>().c_str(), r["tile"].get<int>(),
              r["rows_per_block"].get<int>(), r["n"].get<int>(), r["gbps"].get<double>(),
              r["percent_of_copy"].get<double>(), r["check"].get<std::string>().c_str());
}

void reduction_print_row(const nlohmann::json& r) {
  std::printf("%-22s %5d threads  %8.1f GB/s  %8.4f ms  %s\n",
              r["kernel"].get<std::string>().c_str(), r["block_threads"].get<int>(),
              r["gbps"].get<double>(), r["timing"]["median_ms"].get<double>(),
              r["check"].get<std::string>().c_str());
}

namespace {

// The verb's work; run_measure_shared turns what it throws into the exit code.
int measure_shared_body(const SharedMeasureOptions& o) {
  const SharedState& st = o.state;
  std::optional<gpu::BankProbeParams> access;
  access = shown_access(st);
  if (access) (void)gpu::plan_bank_probe(*access, gpu::kModelSharedBytesPerBlock);
  if (st.lab == Lab::Banks) (void)shared_model_accesses(st.probe, st.warp);
  const auto device = measure_device();
  if (!device) return kExitNoDevice;
  const gpu::DeviceInfo& d = *device;
  nlohmann::json doc = measurement_header(
      d, to_string(st.lab), "bytes the program asked to read + write / median time, 1e9 B/s");
  if (access) {
    const auto a = analyze_probe(*access, st.lab == Lab::Banks ? st.warp : 0, st.model);
    doc["model"] = {
        {"access", shared_analyze_command(*access, st.lab == Lab::Banks ? st.warp : 0, st.model)},
        {"wavefronts_per_request", a.wavefronts},
        {"phases", a.phases.size()},
        {"min_wavefronts_per_request", a.min_wavefronts},
        {"broadcast", a.broadcast},
        {"efficiency", a.efficiency()},
        {"byte_efficiency", a.byte_efficiency()}};
  }
  {
    gpu::SharedLab lab(d);
    doc["measurements"] = shared_kind(st.lab).measure_rows(lab, o);
  }

  const auto& rows = doc["measurements"];
  if (o.format == "json") {
    std::cout << doc.dump(2) << "\n";
  } else if (o.format == "csv") {
    std::cout << "device,lab,kernel,value,unit,median_ms,verified_or_model_wavefronts\n";
    const SharedKind& kind = shared_kind(st.lab);
    for (const auto& r : rows) {
      // Kernels checked against the CPU say so; the bank probe gives the model's wavefronts.
      const std::string extra =
          r.contains("verified")
              ? (r["verified"].get<bool>() ? "verified" : "WRONG")
              : std::to_string(doc["model"]["wavefronts_per_request"].get<int>());
      std::printf("\"%s\",%s,%s,%.3f,%s,%.5f,%s\n", d.name.c_str(), to_string(st.lab),
                  r["kernel"].get<std::string>().c_str(), r[kind.value_key].get<double>(),
                  kind.value_unit, r["timing"]["median_ms"].get<double>(), extra.c_str());
    }
  } else {
    std::printf("device  %s (CC %d.%d, %d SMs)\nlab     %s\n", d.name.c_str(), d.cc_major,
                d.cc_minor, d.sm_count, to_string(st.lab));
    if (doc.contains("model"))
      std::printf("model   %d wavefronts per request  (%s)\n",
                  doc["model"]["wavefronts_per_request"].get<int>(),
                  doc["model"]["access"].get<std::string>().c_str());
    for (const auto& r : rows) shared_kind(st.lab).print_row(r);
  }
  return kExitOk;
}

}  // namespace

int run_measure_shared(const SharedMeasureOptions& o) {
  return exit_code_of("measure", [&] { return measure_shared_body(o); });
}

int measure_shared_lab(const MeasureOptions& o, const Scenario* scenario) {
  SharedMeasureOptions so;
  try {
    if (scenario) {
      so.state = shared_scenario(*scenario);
    } else {
      so.state.lab = parse_lab(o.lab);
      shared_kind(so.state.lab).apply_options(o, so.state);
    }
  } catch (const std::exception& e) {  // invalid_argument, ScenarioError
    std::cerr << "warplens measure: " << e.what() << "\n";
    return kExitBadInput;
  }
  so.all_variants = shared_kind(so.state.lab).every_variant(o);
  so.runs = o.runs;
  so.format = o.format;
  return run_measure_shared(so);
}

}  // namespace warplens::app
