// warplens: the window (no verb), and the verbs render, analyze, measure, list (design.md).
//
// Exit codes: 0 success; 1 a runtime failure (GL, GPU); 2 bad input (usage, values, unknown
// scenario); 3 no CUDA device where one is required (measure, verify); verify: 1 a pattern
// disagrees with the hardware counters, 4 the counters cannot be read (verify.h).
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "analyze_report.h"
#include "command_line.h"
#include "counter_service.h"
#include "exit_codes.h"
#include "figures.h"
#include "frontends.h"
#include "glossary.h"
#include "gpu.h"
#include "gpu_restart.h"
#include "lab.h"
#include "lesson.h"
#include "lesson_handout.h"
#include "measure_options.h"
#include "memory_model.h"
#include "scenarios.h"
#include "verify.h"
#include "version_info.h"

namespace {

using namespace warplens;

using app::kExitBadInput;
using app::kExitNoDevice;
using app::kExitOk;
using app::kExitRuntime;

// --- measure -----------------------------------------------------------------------------------

// `measure`: the lab the scenario (or --lab) names measures (LabInfo::measure).
int run_measure(const app::MeasureOptions& o) {
  app::MeasureTarget target;
  try {
    target = app::measure_target(o);
  } catch (const std::exception& e) {  // invalid_argument, ScenarioError
    std::cerr << "warplens measure: " << e.what() << "\n";
    return kExitBadInput;
  }
  // A measure verb reads counters row after row: the profiler stays on for the whole run.
  const app::CounterBurst burst;
  return app::lab_info(target.lab).measure(o, target.scenario);
}

}  // namespace

int main(int argc, char** argv) {
  app::CommandLine command_line;
  const app::CommandLine& c = command_line;
  CLI::App& cli = command_line.cli;
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

  if (c.show_version) {
    // Exit 0 whatever was found: the answer is the report itself.
    const gpu::CudaVersions v = gpu::cuda_versions();
    if (*build::commit) {
      std::printf("warplens %s (git %s)\n", build::version, build::commit);
    } else {
      std::printf("warplens %s\n", build::version);
    }
    if (!gpu::built_with_cuda()) {
      std::printf("built without the CUDA toolkit: model only\n");
    } else {
      std::printf("CUDA runtime %s; %s\n", gpu::cuda_version_text(v.runtime).c_str(),
                  v.driver
                      ? ("the driver supports CUDA " + gpu::cuda_version_text(v.driver)).c_str()
                      : "no CUDA driver found");
      const gpu::DeviceQuery q = gpu::query_device();
      std::printf("device: %s\n", q.device ? q.device->name.c_str() : q.reason.c_str());
    }
    return kExitOk;
  }

  try {
    if (*c.analyze) {
      const model::AccessPattern pattern = c.analyze_pattern();
      const auto layout = c.analyze_layout();
      const auto report = app::analyze_json(pattern, model::parse_hardware_model(c.model_name),
                                            layout ? &*layout : nullptr);
      std::cout << (c.format == "json" ? report.dump(2) + "\n" : app::analyze_text(report));
      return 0;
    }
    if (*c.measure) {
      const app::MeasureOptions& mo = c.measure_options;
      if (mo.word_bytes != 1 && mo.word_bytes != 2 && mo.word_bytes != 4 && mo.word_bytes != 8 &&
          mo.word_bytes != 16) {
        std::cerr << "warplens measure: word bytes must be 1, 2, 4, 8 or 16 (got " << mo.word_bytes
                  << ")\n";
        return kExitBadInput;
      }
      return run_measure(mo);
    }
    if (*c.verify) return app::run_verify(c.verify_options);
    if (*c.list && c.list_glossary) {
      std::fputs(app::glossary_markdown().c_str(), stdout);
      return 0;
    }
    if (*c.list && c.list_lessons) {
      int width = 0;
      for (const auto& l : app::builtin_lessons())
        width = std::max(width, static_cast<int>(l.name.size()));
      for (const auto& l : app::builtin_lessons()) {
        std::printf("%-*s %2zu steps  %s\n", width, l.name.c_str(), l.steps.size(),
                    l.title.c_str());
      }
      return 0;
    }
    if (*c.list) {
      int width = 0;  // the longest name's, so the columns line up
      for (const auto& s : app::builtin_scenarios())
        width = std::max(width, static_cast<int>(s.name.size()));
      for (const auto& s : app::builtin_scenarios()) {
        std::printf("%-*s %-10s %s\n", width, s.name.c_str(), app::to_string(s.lab),
                    s.title.c_str());
      }
      return 0;
    }
    if (*c.render) {
      const app::Size size = app::parse_size(c.size_text);
      const app::ViewOptions options = c.render_view_options();
      if (!c.render_lesson.empty()) {  // a lesson: its handout, its steps' PNGs or their audit
        if (!c.render_panel.empty() || c.render_all_scenarios || c.render_animate) {
          std::cerr << "warplens render: --lesson takes neither --panel, --all nor --animate\n";
          return kExitBadInput;
        }
        std::optional<app::HandoutFormat> format;
        if (!c.render_format.empty()) format = app::parse_handout_format(c.render_format);
        return app::render_lesson(options, c.render_lesson, format, c.out, c.out_dir, size.width,
                                  size.height);
      }
      // Figures of panels (cairo): --panel P, or --all --format F (every panel of every scenario).
      const bool figures =
          !c.render_panel.empty() || (c.render_all_scenarios && !c.render_format.empty());
      if (figures) {
        if (c.render_audit || (c.out.empty() && c.out_dir.empty()) ||
            (!c.render_all_scenarios && c.out.empty())) {
          std::cerr << "warplens render: --panel writes one figure to --out FILE; --all --format F "
                       "writes every panel into --out DIR; neither takes --audit\n";
          return kExitBadInput;
        }
        if (c.render_all_scenarios) return app::render_all_figures(options, c.figure_options());
        return app::render_figure(options, c.figure_options());
      }
      if (c.render_all_scenarios && c.out_dir.empty() && !c.render_audit) {
        std::cerr << "warplens render: --all needs --out-dir DIR (or --audit)\n";
        return kExitBadInput;
      }
      if (!c.render_all_scenarios && c.out.empty() && !c.render_audit) {
        std::cerr << "warplens render: --out FILE.png is required (or --all --out-dir DIR)\n";
        return kExitBadInput;
      }
      if (c.render_all_scenarios)
        return app::render_all(options, c.out_dir, size.width, size.height);
      return app::render_png(options, c.out, size.width, size.height);
    }
    if (!c.model_only) {
      // The window measures in a child process that WarpLens starts again after a sticky GPU
      // fault (gpu_restart.h); this process only waits for it.
      if (const auto code = app::run_supervised(argc, argv)) return *code;
    }
    app::ViewOptions window = c.window_view_options();
    window.lesson = c.lesson;
    window.speaker_view = c.speaker_view;
    return app::run_window(window, c.screenshot, c.frames);
  } catch (const model::PatternError& e) {
    std::cerr << "warplens " << (*c.analyze ? "analyze" : "") << ": " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::invalid_argument& e) {
    std::cerr << "warplens: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "warplens: " << e.what() << "\n";
    return kExitRuntime;
  }
}
