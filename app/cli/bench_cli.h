// The verbs of warplens-bench that take options (CLI11, as `warplens` does):
//   warplens-bench kernels-once [--lab NAME]... [--no-scenarios]
//   warplens-bench soak MINUTES [--model-only] [--seed N] [--out CSV] [--size WxH]
//                           [--report-memory]
//   warplens-bench live [--lab NAME]... [--limit-ms MS]
//   warplens-bench fault-drill [--lab NAME]... [--limit-ms MS]
// The older forms (`warplens-bench [RUNS] [shared|counters|frames|profiler]`) stay in bench.cpp.
#pragma once

namespace warplens::bench {

/// Whether argv[1] names one of these verbs.
bool is_option_verb(int argc, char** argv);

/// Parses and runs the verb; returns the exit code (2 for a command line CLI11 refuses).
int run_option_verb(int argc, char** argv);

}  // namespace warplens::bench
