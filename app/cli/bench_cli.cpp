#include "bench_cli.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <string>

#include "bench_kernels_once.h"
#include "bench_live.h"
#include "bench_soak.h"
#include "command_line.h"
#include "gpu_restart.h"

namespace warplens::bench {

bool is_option_verb(int argc, char** argv) {
  if (argc < 2) return false;
  const std::string verb = argv[1];
  return verb == "kernels-once" || verb == "soak" || verb == "live" || verb == "fault-drill";
}

int run_option_verb(int argc, char** argv) {
  CLI::App cli{"warplens-bench: measured tables, and the hardening runs (docs/hardening.md)"};
  cli.require_subcommand(1);

  KernelsOnceOptions once;
  bool no_scenarios = false;
  CLI::App* kernels = cli.add_subcommand(
      "kernels-once",
      "Launch every kernel of every lab once on small sizes (the labs see the GPU as one SM) and "
      "check each result; then each built-in scenario's kernels. For compute-sanitizer "
      "(scripts/gpu-sanitize). Exit 0 all passed, 1 one failed, 3 no CUDA device");
  kernels->add_option("--lab", once.labs, "Only these labs (repeatable): global, banks, ...");
  kernels->add_flag("--no-scenarios", no_scenarios, "Skip the built-in scenarios' runs");

  SoakOptions soak;
  std::string size = "1600x960";
  CLI::App* soak_cmd = cli.add_subcommand(
      "soak",
      "A headless monkey driving the window's own code for MINUTES: random scenarios, "
      "parameter changes, lab switches, A/B compare, presets, keys; a frame every 100 ms through "
      "EGL. Samples host RSS and GPU memory every second. Fails (exit 1) on a crash, a lab error "
      "left at the end, RSS or GPU memory growth of 5 MiB or more after minute 1 (half the run "
      "under 2 minutes), or frame p99 over 16.7 ms; on a software GL renderer (llvmpipe) the "
      "frame time is reported, not judged. Exit 3 without a CUDA device unless --model-only");
  soak_cmd->add_option("minutes", soak.minutes, "Run time in minutes (fractions allowed)")
      ->required()
      ->check(CLI::Range(1.0 / 60.0, 24.0 * 60.0));
  soak_cmd->add_flag("--model-only", soak.model_only, "Leave the GPU alone: every lab's model");
  soak_cmd->add_option("--seed", soak.seed, "Seed of the monkey's choices");
  soak_cmd->add_option("--out", soak.csv,
                       std::string("One CSV row per second: ") + soak_csv_header());
  soak_cmd->add_option("--size", size, "Framebuffer WxH pixels");
  soak_cmd->add_flag("--report-memory", soak.report_memory,
                     "Report host and GPU memory growth without judging it (a short run cannot "
                     "tell a leak from the allocator's warm-up; CI's 6-second run uses this); the "
                     "two samples then skip their sweep over every scenario and scale");

  LiveOptions live;
  CLI::App* live_cmd = cli.add_subcommand(
      "live",
      "The live path on the GPU: in each lab a scenario, then one parameter change as the panel "
      "makes it, frames drawn at 1600x960 until the new measured point and its counter line are "
      "on screen. Exit 0 when every lab's came within the limit with no lab error, 1 otherwise, "
      "3 without a CUDA device");
  live_cmd->add_option("--lab", live.labs, "Only these labs (repeatable): global, banks, ...");
  live_cmd->add_option("--limit-ms", live.change_limit_ms, "Change -> point and counter line");
  LiveOptions drill;
  drill.fault_drill = true;
  CLI::App* drill_cmd = cli.add_subcommand(
      "fault-drill",
      "In each lab: measured, then a trapping kernel on the lab's GPU worker; WarpLens restarts "
      "itself as the window does after a sticky GPU fault, and the restarted process must show a "
      "measured point with its counters, same scenario and parameters, within the limit. Exit 0 "
      "all passed, 1 a lab failed, 3 without a CUDA device");
  drill_cmd->add_option("--lab", drill.labs, "Only these labs (repeatable)");
  drill_cmd->add_option("--limit-ms", drill.restart_limit_ms,
                        "Fault -> point and counters in the restarted process");
  drill_cmd->add_flag("--proven-code", drill.proven_code,
                      "The faulting kernel first runs clean once: a fault in code that ran before, "
                      "which runs beside the frames, not alone as new code does");
  drill_cmd->add_option("--state", drill.state, "(set by the drill itself when it restarts)")
      ->group("");

  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return cli.exit(e) == 0 ? 0 : 2;
  }
  if (*live_cmd) return run_live(live);
  if (*drill_cmd) {
    // As the window: the drill's processes run under a supervisor that starts them again.
    if (const auto code = app::run_supervised(argc, argv)) return *code;
    return run_live(drill);
  }
  if (*kernels) {
    once.scenarios = !no_scenarios;
    return run_kernels_once(once);
  }
  try {
    const app::Size s = app::parse_size(size);
    soak.width = s.width;
    soak.height = s.height;
  } catch (const std::exception& e) {
    std::cerr << "warplens-bench soak: " << e.what() << "\n";
    return 2;
  }
  return run_soak(soak);
}

}  // namespace warplens::bench
