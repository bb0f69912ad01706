// The warplens command line: the window's options and every verb's (render, analyze, measure,
// list, verify), built into one CLI11 app apart from running them, so main() and the command
// line's fuzzer (tests/fuzz/fuzz_cli.cpp) parse argv the same way. Exit codes and what each verb
// does: main.cpp.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "access_pattern.h"
#include "figure_export.h"
#include "frontends.h"
#include "layout_access.h"
#include "measure_options.h"
#include "memory_model.h"
#include "scenarios.h"
#include "verify.h"

namespace warplens::app {

/// render's --size in pixels.
struct Size {
  int width = 1600, height = 960;
};

/// Parses render's --size "WxH" (each 1..8192, at least 640x400); throws std::invalid_argument
/// naming the problem.
Size parse_size(const std::string& text);

/// What `measure` times: a built-in scenario's lab and parameters (--scenario NAME), a preset
/// file's (--preset FILE, --kernel FILE), either with --set's knobs changed, or --lab's lab with
/// the options alone (scenario null).
struct MeasureTarget {
  const Scenario* scenario = nullptr;
  Lab lab = kFirstLab;
  /// The preset read or changed by --set, which `scenario` points at; null for a built-in one.
  std::shared_ptr<const Scenario> loaded;
};

/// measure's target; throws ScenarioError for an unknown scenario, an unreadable or refused
/// preset file (--kernel's of another lab) or a --set the lab's table refuses,
/// std::invalid_argument for an unknown lab, --set with no scenario or preset, or two of
/// --scenario, --preset and --kernel.
MeasureTarget measure_target(const MeasureOptions& options);

/// Every option of the command line, filled by `cli.parse(argc, argv)` (which throws
/// CLI::ParseError, or CLI::CallForHelp for --help). Holds pointers into itself: not copyable.
struct CommandLine {
  CommandLine();  ///< builds the app with every option and verb
  CommandLine(const CommandLine&) = delete;
  CommandLine& operator=(const CommandLine&) = delete;

  // Named, not taken from argv[0], so that --help (and the man page and reference made from it
  // at build time) says "warplens" wherever the binary lies.
  CLI::App cli{"WarpLens: how one warp's memory accesses land in sectors, lines and banks",
               "warplens"};
  bool show_version = false;
  /// --lesson NAME|FILE (the window) and render --lesson (the handout): lesson.h.
  std::string lesson, render_lesson;
  bool speaker_view = false;  ///< --speaker-view (with --lesson)

  // The window (no verb).
  ViewOptions view;
  std::string theme = "light";
  std::optional<std::string> screenshot;
  int frames = 3;
  bool model_only = false;
  bool presenter = false, no_presenter = false;  ///< the window's and render's
  std::string window_model = "modern";

  // render
  CLI::App* render = nullptr;
  std::string render_scenario = std::string(kDefaultScenario), out, size_text = "1600x960",
              render_theme = "light";
  float render_scale = 1.0f;
  bool render_model_only = false;
  bool render_all_scenarios = false;
  std::string out_dir;
  std::string render_preset;
  /// render --kernel FILE: a lab's own preset option (LabInfo::preset_option) and its lab.
  std::string render_lab_preset;
  Lab render_lab_preset_of = kFirstLab;
  std::vector<std::string> render_settings;  ///< render --set KEY=VALUE...
  int render_step = -1;           ///< --step K; -1: none (the whole access, the preset's access)
  bool render_animate = false;    ///< --animate (with --format gif or png-sequence)
  std::string render_predict;     ///< --predict hidden|guessed|revealed; empty: off
  double render_guess = -1;       ///< --guess; negative: none
  double render_guess_gbps = -1;  ///< --guess-gbps; not positive: none
  bool render_audit = false;
  bool render_as_stored = false;
  std::string render_view = "numbers", render_model = "modern";
  int render_sweep_word = 4;
  /// render --panel banks|warp: one panel as a figure (figure_export.h).
  std::string render_panel, render_format;
  double render_width_mm = 160;
  bool render_no_caption = false;

  // analyze
  CLI::App* analyze = nullptr;
  std::string space = "global", op = "load", index, block = "32x1", format = "text",
              model_name = "modern", grid = "1x1", block_index = "0x0";
  std::string layout, lane_layout;  ///< analyze --layout / --lane-layout (CuTe, layout_access.h)
  int word_bytes = 4, warp = 0;

  // measure, list, verify
  CLI::App* measure = nullptr;
  MeasureOptions measure_options;
  CLI::App* list = nullptr;
  bool list_lessons = false;   ///< list --lessons: the lessons instead of the scenarios
  bool list_glossary = false;  ///< list --glossary: the glossary (glossary.h) as Markdown
  CLI::App* verify = nullptr;
  VerifyOptions verify_options;

  /// analyze's access: throws model::PatternError for a bad space, op or block, for neither
  /// --index nor --layout, and model::LayoutError for a layout that does not parse. With
  /// --layout the index is the layout's equivalent expression (layout_index_expression).
  [[nodiscard]] model::AccessPattern analyze_pattern() const;
  /// analyze --layout's layout and lane layout; nullopt without --layout. Throws
  /// model::LayoutError.
  [[nodiscard]] std::optional<model::LayoutAccess> analyze_layout() const;
  /// render's view options (theme, view, model, layout); throws std::invalid_argument or
  /// model::PatternError.
  [[nodiscard]] ViewOptions render_view_options() const;
  /// render --panel's figure options (the format from --format, else --out's extension); throws
  /// std::invalid_argument.
  [[nodiscard]] FigureExportOptions figure_options() const;
  /// The window's view options; throws std::invalid_argument or model::PatternError.
  [[nodiscard]] ViewOptions window_view_options() const;
};

}  // namespace warplens::app
