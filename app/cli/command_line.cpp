#include "command_line.h"

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "lab.h"

namespace warplens::app {

namespace {

// Every lab's name on the command line, from the registry.
std::vector<std::string> lab_names() {
  std::vector<std::string> names;
  for (const auto& info : lab_registry()) names.emplace_back(to_string(info.id));
  return names;
}

// analyze's --block-index "XxY": two integers >= 0 (the grid check comes with the pattern's).
model::BlockShape parse_block_index(const std::string& text) {
  model::BlockShape b;
  char x = 0, extra = 0;
  if (std::sscanf(text.c_str(), "%d%c%d%c", &b.x, &x, &b.y, &extra) != 3 ||
      (x != 'x' && x != 'X') || b.x < 0 || b.y < 0) {
    throw model::PatternError("block index must be XxY with integers >= 0, e.g. 3x1 (got \"" +
                              text + "\")");
  }
  return b;
}

}  // namespace

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

MeasureTarget measure_target(const MeasureOptions& options) {
  MeasureTarget target;
  if (!options.lab_preset.empty()) {
    // A lab's own preset option (--kernel FILE): --preset that must be of that lab.
    const Lab lab = options.lab_preset_of;
    const std::string option = std::string("--") + lab_info(lab).preset_option;
    if (!options.scenario.empty() || !options.preset.empty())
      throw std::invalid_argument(option +
                                  ", --preset and --scenario name one program each: use one");
    if (!options.settings.empty())
      throw std::invalid_argument("--set changes a knob of --scenario's or --preset's lab table; " +
                                  option + "'s preset is edited in its file");
    target.loaded = std::make_shared<const Scenario>(load_scenario_file(options.lab_preset));
    if (target.loaded->lab != lab)
      throw ScenarioError(options.lab_preset + ": lab = \"" + to_string(target.loaded->lab) +
                          "\"; " + option + " takes a preset of the " + to_string(lab) +
                          " lab (lab = \"" + to_string(lab) + "\")");
    target.scenario = target.loaded.get();
    target.lab = lab;
    return target;
  }
  if (!options.preset.empty()) {
    if (!options.scenario.empty())
      throw std::invalid_argument(
          "--preset and --scenario name one set of parameters each: use one");
    target.loaded = std::make_shared<const Scenario>(load_scenario_file(options.preset));
  }
  target.scenario = target.loaded              ? target.loaded.get()
                    : options.scenario.empty() ? nullptr
                                               : &find_scenario(options.scenario);
  if (!options.settings.empty()) {
    if (!target.scenario)
      throw std::invalid_argument(
          "--set changes a knob of --scenario NAME or --preset FILE: name the one to start from");
    const bool from_file = !options.preset.empty();
    target.loaded = std::make_shared<const Scenario>(
        with_settings(from_file ? read_preset_file(options.preset)
                                : std::string(builtin_scenario_text(options.scenario)),
                      from_file ? options.preset : options.scenario, options.settings));
    target.scenario = target.loaded.get();
  }
  target.lab = target.scenario ? target.scenario->lab : parse_lab(options.lab);
  return target;
}

CommandLine::CommandLine() {
  cli.require_subcommand(0, 1);
  cli.add_flag("--version", show_version,
               "print WarpLens's version and the CUDA runtime and driver it found");

  // Window (no verb).
  cli.add_option("--scenario", view.scenario, "built-in scenario (see `warplens list`)");
  cli.add_option("--preset", view.preset, "start with a preset file (TOML) of your own");
  const char* const set_help =
      "KEY=VALUE: change a knob of the scenario (or preset) as its preset names it, e.g. "
      "offset=3, pitch=33, matrix.width=1024, layout=soa; repeat for several";
  cli.add_option("--set", view.settings, set_help);
  cli.add_option("--lesson", lesson,
                 "teach a lesson: a built-in one (see `warplens list --lessons`) or a lesson "
                 "file (TOML); Page Down / Page Up move between its steps")
      ->excludes("--preset");
  cli.add_flag("--speaker-view", speaker_view,
               "with --lesson: open the speaker view (notes, next step, question and answer, "
               "clock) from the start; with two monitors it opens as a window of its own anyway")
      ->needs("--lesson");
  cli.add_option("--theme", theme, "light or dark")->check(CLI::IsMember({"light", "dark"}));
  cli.add_option("--scale", view.scale, "UI scale, 1 to 3")->check(CLI::Range(1.0f, 3.0f));
  cli.add_option("--screenshot", screenshot, "save the window to this PNG after --frames and exit");
  cli.add_option("--frames", frames, "frames before --screenshot")->check(CLI::Range(1, 100000));
  cli.add_flag("--model-only", model_only, "do not use the GPU even if there is one");
  // Set by WarpLens itself when it restarts after a GPU fault (gpu_restart.h): the line the new
  // window shows. Hidden from --help.
  cli.add_option("--after-gpu-fault", view.after_gpu_fault)->group("");
  cli.add_option("--gpu-restarts", view.gpu_restarts)->group("")->check(CLI::Range(0, 100));
  const auto add_layout_flags = [&](CLI::App* app) {
    app->add_flag("--presenter", presenter,
                  "presenter layout: the view fills the window, a strip of knobs, the key "
                  "numbers large (default: automatic, by scale and size)");
    app->add_flag("--no-presenter", no_presenter,
                  "the full parameter panel and numbers at any scale")
        ->excludes("--presenter");
  };
  add_layout_flags(&cli);
  cli.add_option("--model", window_model,
                 "memory model shown: modern, fermi-ca, fermi-cg, kepler, g80");

  // render
  render = cli.add_subcommand("render", "draw a scenario's views headless (EGL) to a PNG");
  render->add_option("--scenario", render_scenario, "built-in scenario (see `warplens list`)");
  render->add_option("--out", out,
                     "PNG file to write (one scenario); the folder for --all --format");
  render->add_flag("--all", render_all_scenarios,
                   "every built-in scenario: DIR/NAME.png, and NAME.json/.csv with a GPU");
  render->add_option("--out-dir", out_dir, "folder for --all (created if missing)");
  render->add_option("--preset", render_preset, "a preset file (TOML) instead of --scenario");
  render->add_option("--set", render_settings, set_help)->excludes("--all");
  render
      ->add_option("--lesson", render_lesson,
                   "a lesson's handout (built-in name or lesson file): --format pdf (one PDF to "
                   "--out), svg (a folder of figures) or md (Markdown beside its SVGs)")
      ->excludes("--preset");
  // Each lab's own preset option (LabInfo::preset_option: --kernel FILE).
  for (const LabInfo& info : lab_registry()) {
    if (!info.preset_option) continue;
    render
        ->add_option_function<std::string>(
            std::string("--") + info.preset_option,
            [this, id = info.id](const std::string& file) {
              render_lab_preset = file;
              render_lab_preset_of = id;
            },
            info.preset_option_help)
        ->excludes("--preset");
  }
  render
      ->add_option("--step", render_step,
                   "the step shown: wavefronts served or sectors moved so far (0: none yet); "
                   "the own-kernel lab: the access shown, 1-based")
      ->check(CLI::Range(0, 4096));
  render->add_flag("--animate", render_animate,
                   "every step of the view's access: --format gif (one animated GIF to --out) "
                   "or png-sequence (OUT-00.png, OUT-01.png, ...)");
  render
      ->add_option("--predict", render_predict,
                   "predict, then reveal: hidden, guessed or revealed (the global and shared "
                   "labs)")
      ->check(CLI::IsMember({"hidden", "guessed", "revealed"}));
  render->add_option("--guess", render_guess, "--predict: the class's guess of the count")
      ->check(CLI::Range(0.0, 1e9));
  render->add_option("--guess-gbps", render_guess_gbps, "--predict: the class's guess of GB/s")
      ->check(CLI::Range(0.001, 1e6));
  render->add_option("--size", size_text, "WxH pixels, each 1..8192 (default 1600x960)");
  render->add_option("--theme", render_theme, "light or dark")
      ->check(CLI::IsMember({"light", "dark"}));
  render->add_option("--scale", render_scale, "UI scale, 1 to 3")->check(CLI::Range(1.0f, 3.0f));
  render->add_flag("--model-only", render_model_only, "do not use the GPU even if there is one");
  add_layout_flags(render);
  render->add_flag("--audit", render_audit,
                   "report text cut or ellipsized and view elements hidden, as JSON on stdout; "
                   "exit 1 when the view or the numbers lose any");
  render->add_flag("--as-stored", render_as_stored,
                   "where a tile or matrix as stored has no room beside its bank grid or warp "
                   "view (a projector at 3x), draw it in their place (the window's key T)");
  render->add_option("--model", render_model,
                     "memory model shown: modern, fermi-ca, fermi-cg, kepler, g80");
  render->add_option("--view", render_view,
                     "numbers, heatmap, offset-sweep or stride-sweep (sweeps need a GPU)");
  render->add_option("--sweep-word-bytes", render_sweep_word, "word size of the sweep: 4, 8 or 16")
      ->check(CLI::IsMember({4, 8, 16}));
  render
      ->add_option("--panel", render_panel,
                   "one panel as a figure for notes: banks, warp, tile, heatmap, offset-sweep, "
                   "stride-sweep, bars, plot or numbers, to --out as SVG, PDF or PNG (with "
                   "--all: that panel of every scenario that has it)")
      ->check(CLI::IsMember({"banks", "warp", "tile", "heatmap", "offset-sweep", "stride-sweep",
                             "bars", "plot", "numbers"}));
  render
      ->add_option("--format", render_format,
                   "--panel's file format: svg, pdf or png (default: --out's extension); with "
                   "--all: every panel of every scenario as DIR/SCENARIO-PANEL.EXT; with "
                   "--animate: gif or png-sequence; with --lesson: pdf, svg or md")
      ->check(CLI::IsMember({"svg", "pdf", "png", "gif", "png-sequence", "md"}));
  render->add_option("--width-mm", render_width_mm, "--panel's width on the page, mm (default 160)")
      ->check(CLI::Range(40.0, 500.0));
  render->add_flag("--no-caption", render_no_caption,
                   "--panel: leave out the source line (device or host model, date, scenario)");

  // analyze
  analyze = cli.add_subcommand("analyze", "the model's verdict for one warp's access pattern");
  analyze->add_option("--space", space, "global or shared");
  analyze->add_option("--op", op, "load or store");
  analyze->add_option("--word-bytes", word_bytes, "bytes per lane: 1, 2, 4, 8 or 16");
  CLI::Option* index_option = analyze->add_option(
      "--index", index,
      "element index expression over lane, tx, ty, bdx, bdy, warp, bx, by, gdx, gdy");
  CLI::Option* layout_option = analyze->add_option(
      "--layout", layout,
      "instead of --index: a CuTe layout, e.g. \"(8,4):(32,1)\" or \"Swizzle<3,4,3> o "
      "(8,64):(64,1)\"; thread tx takes its tx-th coordinate, the offset is the element index");
  layout_option->excludes(index_option);
  analyze
      ->add_option("--lane-layout", lane_layout,
                   "with --layout: a second CuTe layout from tx to the layout's coordinates (a "
                   "thread-value layout's threads), e.g. \"(4,8):(8,1)\"")
      ->needs(layout_option);
  analyze->add_option("--block", block, "block shape XxY (default 32x1)");
  analyze->add_option("--grid", grid, "grid XxY in blocks: gdx, gdy (default 1x1)");
  analyze->add_option("--block-index", block_index,
                      "the block's index XxY in the grid: bx, by (default 0x0)");
  analyze->add_option("--warp", warp, "warp of the block (default 0)");
  analyze->add_option("--model", model_name, "modern, fermi-ca, fermi-cg, kepler or g80");
  analyze->add_option("--format", format, "text or json")->check(CLI::IsMember({"text", "json"}));

  // measure
  measure = cli.add_subcommand("measure", "time the strided copy kernel on the GPU");
  MeasureOptions& mo = measure_options;
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
  measure->add_option("--preset", mo.preset,
                      "time the parameters of a preset file (TOML) of any lab, as --scenario does");
  measure->add_option("--set", mo.settings,
                      "KEY=VALUE: change a knob of --scenario's or --preset's lab as its preset "
                      "names it (offset=3, pitch=33); repeat for several");
  for (const LabInfo& info : lab_registry()) {
    if (!info.preset_option) continue;
    measure->add_option_function<std::string>(
        std::string("--") + info.preset_option,
        [&mo, id = info.id](const std::string& file) {
          mo.lab_preset = file;
          mo.lab_preset_of = id;
        },
        info.preset_option_help);
  }
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
                   "global (the copy kernel, default), banks, transpose, matmul, reduction, cache "
                   "or flight")
      ->check(CLI::IsMember(lab_names()));
  measure
      ->add_option("--section", mo.cache.section,
                   "cache lab: carveout, l1, constant, read-path or all; flight lab: latency, "
                   "littles-law, async, all, or timeline (one block's round on its SM, not in all)")
      ->check(CLI::IsMember({"carveout", "l1", "constant", "read-path", "latency", "littles-law",
                             "async", "all", "timeline"}));
  measure
      ->add_option("--copy-bytes", mo.flight_copy_bytes,
                   "flight lab: bytes of each copy buffer (0: 4 x L2, at least 256 MiB; two "
                   "buffers that fit the L2 copy from L2)")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{1} << 34));
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
                      "transpose: copy|naive|tiled|padded|swizzled|vectorized; reduction: "
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

  list = cli.add_subcommand("list", "list the built-in scenarios");
  list->add_flag("--lessons", list_lessons,
                 "list the built-in lessons (one per lecture deck) instead");
  list->add_flag("--glossary", list_glossary,
                 "the field's words the window uses, what each means and its source, as a "
                 "Markdown table (what a hover over them shows)")
      ->excludes("--lessons");

  // verify
  VerifyOptions& vo = verify_options;
  verify = cli.add_subcommand(
      "verify", "check the model against the GPU's hardware counters for every built-in pattern");
  verify->add_option("--format", vo.format, "text or json")->check(CLI::IsMember({"text", "json"}));
  verify->add_option("--filter", vo.filter, "only patterns whose name contains this text");
  // Set by verify itself when it restarts after a GPU fault, and by its fault test (hidden).
  verify->add_option("--resume", vo.resume)->group("");
  verify->add_option("--test-fault-before", vo.fault_before)->group("");
}

model::AccessPattern CommandLine::analyze_pattern() const {
  model::AccessPattern pattern;
  pattern.space = model::parse_space(space);
  pattern.op = model::parse_op(op);
  pattern.word_bytes = word_bytes;
  pattern.block = model::parse_block(block);
  pattern.warp = warp;
  pattern.grid = model::parse_block(grid);
  pattern.block_index = parse_block_index(block_index);
  if (const auto access = analyze_layout()) {
    pattern.index = model::layout_index_expression(*access);
  } else if (analyze->count("--index") == 0) {
    throw model::PatternError("analyze needs --index EXPR or --layout LAYOUT");
  } else {
    pattern.index = index;
  }
  return pattern;
}

std::optional<model::LayoutAccess> CommandLine::analyze_layout() const {
  if (analyze->count("--layout") == 0) return std::nullopt;
  return model::parse_layout_access(layout, lane_layout);
}

ViewOptions CommandLine::render_view_options() const {
  ViewOptions options;
  options.scenario = render_scenario;
  options.preset = render_lab_preset.empty() ? render_preset : render_lab_preset;
  options.settings = render_settings;
  if (!render_lab_preset.empty()) options.preset_lab = render_lab_preset_of;
  if (render_step >= 0) options.step = render_step;
  if (render_animate) {
    if (render_format == "gif") {
      options.animate = ViewOptions::Animation::Gif;
    } else if (render_format == "png-sequence") {
      options.animate = ViewOptions::Animation::PngSequence;
    } else {
      throw std::invalid_argument("render --animate needs --format gif or png-sequence");
    }
  } else if (render_format == "gif" || render_format == "png-sequence") {
    throw std::invalid_argument("render --format " + render_format + " needs --animate");
  }
  if (!render_predict.empty()) options.predict = parse_predict_stage(render_predict);
  if (render_guess >= 0) options.guess = render_guess;
  if (render_guess_gbps > 0) options.guess_gbps = render_guess_gbps;
  options.theme = viz::parse_theme(render_theme);
  options.scale = render_scale;
  options.use_gpu = !render_model_only;
  options.audit = render_audit;
  options.array_alone = render_as_stored;
  if (presenter || no_presenter) options.presenter = presenter;
  options.view = parse_bottom_view(render_view);
  options.model = model::parse_hardware_model(render_model);
  options.sweep_word_bytes = render_sweep_word;
  return options;
}

FigureExportOptions CommandLine::figure_options() const {
  FigureExportOptions f;
  f.any_panel = render_panel.empty();
  if (!render_panel.empty()) f.panel = parse_figure_panel(render_panel);
  if (render_all_scenarios) {  // a folder of figures: the format must be named
    if (render_format.empty())
      throw std::invalid_argument("render --all with --panel needs --format svg|pdf|png");
    f.format = viz::parse_figure_format(render_format);
    f.out = out_dir.empty() ? out : out_dir;
  } else {
    f.format =
        render_format.empty() ? figure_format_of(out) : viz::parse_figure_format(render_format);
    f.out = out;
  }
  f.width_mm = render_width_mm;
  f.caption = !render_no_caption;
  return f;
}

ViewOptions CommandLine::window_view_options() const {
  ViewOptions options = view;
  options.theme = viz::parse_theme(theme);
  options.use_gpu = !model_only;
  if (presenter || no_presenter) options.presenter = presenter;
  options.model = model::parse_hardware_model(window_model);
  return options;
}

}  // namespace warplens::app
