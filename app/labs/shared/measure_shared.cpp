#include "measure_shared.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <optional>

#include "exit_codes.h"
#include "json_support.h"
#include "lab_id.h"
#include "measured_table.h"
#include "shared_kinds.h"
#include "shared_pattern.h"
#include "shared_preset.h"
#include "shared_scenario.h"
#include "toml_fields.h"

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

std::vector<TableColumn> banks_text_columns() {
  return {field("cycles/request", "/cycles_per_request", 2), field("GB/s (whole GPU)", "/gbps", 0),
          field("B/clk/SM", "/bytes_per_clock_per_sm", 1),
          field("% of 128 B/clk", "/percent_of_128_bytes_per_clock", 1),
          field("SM MHz", "/sm_clock_mhz", 0)};
}

std::vector<TableColumn> matmul_text_columns() {
  return {field("BLOCK_SIZE", "/block_size"), field("n", "/n"), field("GFLOP/s", "/gflops", 1),
          field("check", "/check")};
}

std::vector<TableColumn> transpose_text_columns() {
  return {field("tile", "/tile"),
          field("rows", "/rows_per_block"),
          field("n", "/n"),
          field("GB/s", "/gbps", 1),
          field("% of copy", "/percent_of_copy", 1),
          field("check", "/check")};
}

std::vector<TableColumn> reduction_text_columns() {
  return {field("threads", "/block_threads"), field("GB/s", "/gbps", 1),
          field("median ms", "/timing/median_ms", 4), field("check", "/check")};
}

MeasuredTable shared_measure_table(const nlohmann::json& doc) {
  const SharedKind& kind = shared_kind(parse_lab(doc["lab"].get<std::string>()));
  MeasuredTable t;
  t.head.push_back("device  " + doc["device"].get<std::string>() + " (CC " +
                   doc["compute_capability"].get<std::string>() + ", " +
                   std::to_string(doc["sm_count"].get<int>()) + " SMs)");
  t.head.push_back("lab     " + doc["lab"].get<std::string>());
  if (doc.contains("model"))
    t.head.push_back(
        "model   " + std::to_string(doc["model"]["wavefronts_per_request"].get<int>()) +
        " wavefronts per request  (" + doc["model"]["access"].get<std::string>() + ")");
  std::vector<TableColumn> columns{field("kernel", "/kernel")};
  for (auto& c : kind.text_columns()) columns.push_back(std::move(c));
  t.sections.push_back({"", {}, std::move(columns)});
  // Kernels checked against the CPU say so; the bank probe gives the model's wavefronts.
  t.csv = {
      doc_field("device", "/device"),
      doc_field("lab", "/lab"),
      field("kernel", "/kernel"),
      field("value", std::string("/") + kind.value_key, 3),
      {"unit", [unit = std::string(kind.value_unit)](const auto&, const auto&) { return unit; }},
      field("median_ms", "/timing/median_ms", 5),
      {"verified_or_model_wavefronts", [](const nlohmann::json& r, const nlohmann::json& d) {
         if (r.contains("verified"))
           return nlohmann::json(r["verified"].get<bool>() ? "verified" : "WRONG");
         return d.contains("model") ? d["model"]["wavefronts_per_request"] : nlohmann::json();
       }}};
  return t;
}

namespace {

// The verb's work; run_measure_shared turns what it throws into the exit code.
int measure_shared_body(const SharedMeasureOptions& o) {
  const SharedState& st = o.state;
  std::optional<gpu::BankProbeParams> access;
  access = shown_access(st);
  if (access) (void)gpu::plan_bank_probe(*access, gpu::kModelSharedBytesPerBlock);
  if (const auto check = shared_kind(st.lab).check) check(st);
  const auto device = measure_device();
  if (!device) return kExitNoDevice;
  const gpu::DeviceInfo& d = *device;
  nlohmann::json doc = measurement_header(
      d, to_string(st.lab), "bytes the program asked to read + write / median time, 1e9 B/s");
  // The parameters timed, as the lab's preset table writes them (its knob table).
  doc["preset"] = toml_json(shared_preset_section(st));
  if (access) {
    const auto a = analyze_probe(*access, shown_warp(st), st.model);
    doc["model"] = {{"access", shared_analyze_command(*access, shown_warp(st), st.model)},
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

  write_measurement(std::cout, o.format, doc, shared_measure_table(doc));
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
