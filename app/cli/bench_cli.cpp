#include "bench_cli.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <string>

#include "bench_kernels_once.h"
#include "bench_soak.h"
#include "command_line.h"

namespace warplens::bench {

bool is_option_verb(int argc, char** argv) {
  if (argc < 2) return false;
  const std::string verb = argv[1];
  return verb == "kernels-once" || verb == "soak";
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

  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return cli.exit(e) == 0 ? 0 : 2;
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
