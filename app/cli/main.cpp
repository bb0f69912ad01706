// warplens: the window (no verb), and the verbs render, analyze, measure, list (design.md).
//
// Exit codes: 0 success; 1 a runtime failure (GL, GPU); 2 bad input (usage, values, unknown
// scenario); 3 no CUDA device where one is required (measure, verify); verify: 1 a pattern
// disagrees with the hardware counters, 4 the counters cannot be read (verify.h).
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "analyze_report.h"
#include "cache_scenario.h"
#include "copy_pattern.h"
#include "exit_codes.h"
#include "figures.h"
#include "frontends.h"
#include "global_scenario.h"
#include "gpu.h"
#include "measure_cache.h"
#include "measure_shared.h"
#include "memory_model.h"
#include "scenarios.h"
#include "shared_scenario.h"
#include "verify.h"

namespace {

using namespace warplens;

using app::kExitBadInput;
using app::kExitNoDevice;
using app::kExitOk;
using app::kExitRuntime;

struct Size {
  int width = 1600, height = 960;
};

Size parse_size(const std::string& text) {
  Size s;
  char x = 0;
  char extra = 0;
  if (std::sscanf(text.c_str(), "%d%c%d%c", &s.width, &x, &s.height, &extra) != 3 ||
      (x != 'x' && x != 'X')) {
    throw std::invalid_argument("size must be WxH, e.g. 1600x960 (got \"" + text + "\")");
  }
  if (s.width < 1 || s.height < 1 || s.width > 8192 || s.height > 8192) {
    throw std::invalid_argument("size " + text + " is outside 1..8192 in either dimension");
  }
  if (s.width < 640 || s.height < 400) {
    throw std::invalid_argument("size " + text + " is too small for the views (at least 640x400)");
  }
  return s;
}

// --- measure -----------------------------------------------------------------------------------

struct MeasureOptions {
  int word_bytes = 4;
  std::vector<long long> offsets{0}, strides{1};
  std::string pattern = "strided", side = "read", path = "default", format = "text",
              layout = "none";
  unsigned seed = 1;
  int runs = 15;
  int matrix_width = 0, block_y = 8;
  std::string scenario;  ///< a built-in scenario's parameters instead of the options above
  bool pitched = false, by_column = false;
  // Shared-memory labs (--lab banks|transpose|matmul|reduction).
  std::string lab = "global", block = "32x1", op = "load", variant;
  int tile_width = 32, pitch_elements = 0, struct_words = 2, field = 0, part = 0, warp = 0;
  bool swizzle = false;
  app::CacheMeasureOptions cache;  ///< --lab cache
  int tile = 32, rows_per_block = 8, n = 0, block_size = -1, block_threads = 256;
  long long elements = 1 << 24;
};

// The shared lab's state from the measure options; throws std::invalid_argument.
app::SharedState shared_state_from(const MeasureOptions& o) {
  app::SharedState st;
  st.lab = app::parse_lab(o.lab);
  switch (st.lab) {
    case app::Lab::Banks: {
      auto& x = st.probe.index;
      x.kind = gpu::parse_shared_pattern_kind(o.pattern);
      x.word_bytes = o.word_bytes;
      x.offset = static_cast<int>(o.offsets.front());
      x.stride = static_cast<int>(o.strides.front());
      x.tile_width = o.tile_width;
      x.pitch_elements = o.pitch_elements ? o.pitch_elements : o.tile_width;
      x.by_column = o.by_column;
      x.swizzle = o.swizzle;
      x.struct_words = o.struct_words;
      x.field = o.field;
      x.part = o.part;
      st.probe.op = gpu::parse_shared_op(o.op);
      const auto block = model::parse_block(o.block);
      st.probe.block_x = block.x;
      st.probe.block_y = block.y;
      st.warp = o.warp;
      break;
    }
    case app::Lab::Transpose:
      if (!o.variant.empty()) st.transpose.variant = gpu::parse_transpose_variant(o.variant);
      st.transpose.tile = o.tile;
      st.transpose.rows_per_block = o.rows_per_block;
      if (o.n) st.transpose.n = o.n;
      break;
    case app::Lab::Matmul:
      if (o.block_size >= 0) st.matmul.block_size = o.block_size;
      if (o.n) st.matmul.n = o.n;
      break;
    case app::Lab::Reduction:
      if (!o.variant.empty()) st.reduction.variant = gpu::parse_reduction_variant(o.variant);
      st.reduction.block_threads = o.block_threads;
      st.reduction.elements = o.elements;
      break;
    case app::Lab::Global:
    case app::Lab::Cache: break;
  }
  return st;
}

int run_measure(const MeasureOptions& o) {
  const int word_bytes = o.word_bytes;
  const auto& offsets = o.offsets;
  const auto& strides = o.strides;
  const int runs = o.runs;
  const std::string& format = o.format;
  gpu::CopyParams base;
  try {
    if (o.lab == "cache") {
      app::CacheMeasureOptions co = o.cache;
      co.format = format;
      co.runs = std::max(3, runs / 2);
      return app::run_measure_cache(co);
    }
    const app::Scenario* scenario = o.scenario.empty() ? nullptr : &app::find_scenario(o.scenario);
    if (scenario && scenario->lab == app::Lab::Cache) {
      app::CacheMeasureOptions co = o.cache;
      co.section = app::to_string(app::cache_scenario(*scenario).section);
      co.format = format;
      co.runs = std::max(3, runs / 2);
      return app::run_measure_cache(co);
    }
    const bool shared_lab_scenario = scenario && scenario->lab != app::Lab::Global;
    if (shared_lab_scenario || (!scenario && o.lab != "global")) {
      app::SharedMeasureOptions so;
      so.state = shared_lab_scenario ? app::shared_scenario(*scenario) : shared_state_from(o);
      // --variant picks one transpose or reduction kernel, --block-size one matmul kernel.
      so.all_variants = so.state.lab == app::Lab::Matmul ? o.block_size < 0 : o.variant.empty();
      so.runs = runs;
      so.format = format;
      return app::run_measure_shared(so);
    }
    if (scenario) {
      base = app::global_scenario(*scenario).copy;  // the scenario's own parameters
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
  const auto query = gpu::query_device();
  if (!query.device) {
    std::cerr << "warplens measure: " << query.reason << "\n";
    return kExitNoDevice;
  }
  const gpu::DeviceInfo& d = *query.device;
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

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"WarpLens: how one warp's memory accesses land in sectors, lines and banks"};
  cli.require_subcommand(0, 1);

  // Window (no verb).
  app::ViewOptions view;
  std::string theme = "light";
  std::optional<std::string> screenshot;
  int frames = 3;
  bool model_only = false;
  cli.add_option("--scenario", view.scenario, "built-in scenario (see `warplens list`)");
  cli.add_option("--preset", view.preset, "start with a preset file (TOML) of your own");
  cli.add_option("--theme", theme, "light or dark")->check(CLI::IsMember({"light", "dark"}));
  cli.add_option("--scale", view.scale, "UI scale, 1 to 3")->check(CLI::Range(1.0f, 3.0f));
  cli.add_option("--screenshot", screenshot, "save the window to this PNG after --frames and exit");
  cli.add_option("--frames", frames, "frames before --screenshot")->check(CLI::Range(1, 100000));
  cli.add_flag("--model-only", model_only, "do not use the GPU even if there is one");
  std::string window_model = "modern";
  cli.add_option("--model", window_model,
                 "memory model shown: modern, fermi-ca, fermi-cg, kepler, g80");

  // render
  auto* render = cli.add_subcommand("render", "draw a scenario's views headless (EGL) to a PNG");
  std::string render_scenario = std::string(app::kDefaultScenario), out, size_text = "1600x960",
              render_theme = "light";
  float render_scale = 1.0f;
  bool render_model_only = false;
  render->add_option("--scenario", render_scenario, "built-in scenario (see `warplens list`)");
  render->add_option("--out", out, "PNG file to write (one scenario)");
  bool render_all_scenarios = false;
  std::string out_dir;
  render->add_flag("--all", render_all_scenarios,
                   "every built-in scenario: DIR/NAME.png, and NAME.json/.csv with a GPU");
  render->add_option("--out-dir", out_dir, "folder for --all (created if missing)");
  std::string render_preset;
  render->add_option("--preset", render_preset, "a preset file (TOML) instead of --scenario");
  render->add_option("--size", size_text, "WxH pixels, each 1..8192 (default 1600x960)");
  render->add_option("--theme", render_theme, "light or dark")
      ->check(CLI::IsMember({"light", "dark"}));
  render->add_option("--scale", render_scale, "UI scale, 1 to 3")->check(CLI::Range(1.0f, 3.0f));
  render->add_flag("--model-only", render_model_only, "do not use the GPU even if there is one");
  std::string render_view = "numbers", render_model = "modern";
  render->add_option("--model", render_model,
                     "memory model shown: modern, fermi-ca, fermi-cg, kepler, g80");
  int render_sweep_word = 4;
  render->add_option("--view", render_view,
                     "numbers, heatmap, offset-sweep or stride-sweep (sweeps need a GPU)");
  render->add_option("--sweep-word-bytes", render_sweep_word, "word size of the sweep: 4, 8 or 16")
      ->check(CLI::IsMember({4, 8, 16}));

  // analyze
  auto* analyze =
      cli.add_subcommand("analyze", "the model's verdict for one warp's access pattern");
  std::string space = "global", op = "load", index, block = "32x1", format = "text",
              model_name = "modern";
  int word_bytes = 4, warp = 0;
  analyze->add_option("--space", space, "global or shared");
  analyze->add_option("--op", op, "load or store");
  analyze->add_option("--word-bytes", word_bytes, "bytes per lane: 1, 2, 4, 8 or 16");
  analyze
      ->add_option("--index", index, "element index expression over lane, tx, ty, bdx, bdy, warp")
      ->required();
  analyze->add_option("--block", block, "block shape XxY (default 32x1)");
  analyze->add_option("--warp", warp, "warp of the block (default 0)");
  analyze->add_option("--model", model_name, "modern, fermi-ca, fermi-cg, kepler or g80");
  analyze->add_option("--format", format, "text or json")->check(CLI::IsMember({"text", "json"}));

  // measure
  auto* measure = cli.add_subcommand("measure", "time the strided copy kernel on the GPU");
  MeasureOptions mo;
  measure->add_option("--word-bytes", mo.word_bytes, "bytes per element: 1, 2, 4, 8 or 16");
  measure->add_option("--offset", mo.offsets, "offset(s) in elements, comma-separated")
      ->delimiter(',');
  measure->add_option("--stride", mo.strides, "stride(s) in elements, comma-separated")
      ->delimiter(',');
  measure->add_option("--pattern", mo.pattern, "strided, permuted, same-word or scattered");
  measure->add_option("--seed", mo.seed, "seed of the permuted and scattered patterns");
  measure->add_option("--side", mo.side, "read (loads follow the pattern) or write (stores do)");
  measure->add_option("--path", mo.path, "load path: default, ldcg (L2 only), ldg (read-only)");
  measure->add_option("--scenario", mo.scenario,
                      "time a built-in scenario (see `warplens list`) instead of the options");
  measure->add_option("--matrix-width", mo.matrix_width,
                      "read a row-major matrix of this many floats per row (2D access)");
  measure->add_flag("--pitched", mo.pitched, "matrix rows padded by cudaMallocPitch");
  measure->add_flag("--by-column", mo.by_column, "matrix read with threadIdx.x down a column");
  measure->add_option("--block-y", mo.block_y, "matrix block rows: 8 (32x8), 16 (16x16), 32 (8x32)")
      ->check(CLI::IsMember({8, 16, 32}));
  measure->add_option("--layout", mo.layout,
                      "struct {x,y,z} read field by field: none, aos or soa (4-byte words)");
  measure
      ->add_option("--lab", mo.lab,
                   "global (the copy kernel, default), banks, transpose, matmul or reduction")
      ->check(CLI::IsMember({"global", "banks", "transpose", "matmul", "reduction", "cache"}));
  measure
      ->add_option("--section", mo.cache.section,
                   "cache lab: carveout, l1, constant, read-path or all")
      ->check(CLI::IsMember({"carveout", "l1", "constant", "read-path", "all"}));
  measure
      ->add_option("--carveout", mo.cache.carveouts,
                   "cache lab: carveout(s) -1 (default), 0 (max L1) .. 100 (max shared)")
      ->delimiter(',');
  measure
      ->add_option("--working-set", mo.cache.working_sets,
                   "cache lab, l1: working set(s) per block, bytes")
      ->delimiter(',');
  measure
      ->add_option("--dynamic-shared", mo.cache.dynamic_shared,
                   "cache lab, carveout: dynamic shared memory per block, bytes")
      ->delimiter(',');
  measure
      ->add_option("--k", mo.cache.ks, "cache lab, constant: distinct addresses per warp (1..32)")
      ->delimiter(',');
  measure->add_option("--image-side", mo.cache.side, "cache lab, read-path: image side (pixels)");
  measure->add_option("--block", mo.block, "banks: block shape XxY (default 32x1)");
  measure->add_option("--op", mo.op, "banks: load or store");
  measure->add_option("--tile-width", mo.tile_width, "banks, pattern tile: elements per tile row");
  measure->add_option("--pitch", mo.pitch_elements,
                      "banks, pattern tile: elements between tile rows");
  measure->add_flag("--swizzle", mo.swizzle, "banks, pattern tile: column XOR (row % width)");
  measure->add_option("--struct-words", mo.struct_words, "banks, pattern struct: words per struct");
  measure->add_option("--field", mo.field, "banks, pattern struct: which word");
  measure->add_option("--part", mo.part, "banks, patterns interleaved/blocked: access 0 or 1");
  measure->add_option("--warp", mo.warp, "banks: the warp of the block whose access is shown");
  measure->add_option("--variant", mo.variant,
                      "transpose: copy|naive|tiled|padded|swizzled; reduction: "
                      "interleaved-divergent|interleaved|sequential (default: all)");
  measure->add_option("--tile", mo.tile, "transpose: tile 8, 16 or 32");
  measure->add_option("--rows-per-block", mo.rows_per_block, "transpose: block rows, divides tile");
  measure->add_option("--n", mo.n, "transpose/matmul: matrix size n (n x n floats)");
  measure->add_option("--block-size", mo.block_size,
                      "matmul: BLOCK_SIZE 8, 16 or 32, 0 for the naive kernel (default: all)");
  measure->add_option("--block-threads", mo.block_threads, "reduction: threads per block");
  measure->add_option("--elements", mo.elements, "reduction: integers summed");
  measure->add_option("--runs", mo.runs, "timed launches per point (median; at least 10)")
      ->check(CLI::Range(10, 1000));
  measure->add_option("--format", mo.format, "text, json or csv")
      ->check(CLI::IsMember({"text", "json", "csv"}));

  auto* list = cli.add_subcommand("list", "list the built-in scenarios");

  // verify
  app::VerifyOptions vo;
  auto* verify = cli.add_subcommand(
      "verify", "check the model against the GPU's hardware counters for every built-in pattern");
  verify->add_option("--format", vo.format, "text or json")->check(CLI::IsMember({"text", "json"}));
  verify->add_option("--filter", vo.filter, "only patterns whose name contains this text");

  try {
    cli.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return cli.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return cli.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "warplens: " << e.what() << "\n";
    return kExitBadInput;
  }

  try {
    if (*analyze) {
      model::AccessPattern pattern;
      pattern.space = model::parse_space(space);
      pattern.op = model::parse_op(op);
      pattern.word_bytes = word_bytes;
      pattern.block = model::parse_block(block);
      pattern.warp = warp;
      pattern.index = index;
      const auto report = app::analyze_json(pattern, model::parse_hardware_model(model_name));
      std::cout << (format == "json" ? report.dump(2) + "\n" : app::analyze_text(report));
      return 0;
    }
    if (*measure) {
      if (mo.word_bytes != 1 && mo.word_bytes != 2 && mo.word_bytes != 4 && mo.word_bytes != 8 &&
          mo.word_bytes != 16) {
        std::cerr << "warplens measure: word bytes must be 1, 2, 4, 8 or 16 (got " << mo.word_bytes
                  << ")\n";
        return kExitBadInput;
      }
      return run_measure(mo);
    }
    if (*verify) return app::run_verify(vo);
    if (*list) {
      for (const auto& s : app::builtin_scenarios()) {
        std::printf("%-22s %-10s %s\n", s.name.c_str(), app::to_string(s.lab), s.title.c_str());
      }
      return 0;
    }
    if (*render) {
      const Size size = parse_size(size_text);
      if (render_all_scenarios && out_dir.empty()) {
        std::cerr << "warplens render: --all needs --out-dir DIR\n";
        return kExitBadInput;
      }
      if (!render_all_scenarios && out.empty()) {
        std::cerr << "warplens render: --out FILE.png is required (or --all --out-dir DIR)\n";
        return kExitBadInput;
      }
      app::ViewOptions options;
      options.scenario = render_scenario;
      options.preset = render_preset;
      options.theme = viz::parse_theme(render_theme);
      options.scale = render_scale;
      options.use_gpu = !render_model_only;
      options.view = app::parse_bottom_view(render_view);
      options.model = model::parse_hardware_model(render_model);
      options.sweep_word_bytes = render_sweep_word;
      if (render_all_scenarios) return app::render_all(options, out_dir, size.width, size.height);
      return app::render_png(options, out, size.width, size.height);
    }
    view.theme = viz::parse_theme(theme);
    view.use_gpu = !model_only;
    view.model = model::parse_hardware_model(window_model);
    return app::run_window(view, screenshot, frames);
  } catch (const model::PatternError& e) {
    std::cerr << "warplens " << (*analyze ? "analyze" : "") << ": " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::invalid_argument& e) {
    std::cerr << "warplens: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "warplens: " << e.what() << "\n";
    return kExitRuntime;
  }
}
