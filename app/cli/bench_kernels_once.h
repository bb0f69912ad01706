// `warplens-bench kernels-once`: every kernel of every lab launched once on small sizes, in one
// process, its result checked (LabInfo::kernels_once, kernels_once.h): the run compute-sanitizer
// looks at in scripts/gpu-sanitize (docs/hardening.md).
#pragma once

#include <string>
#include <vector>

namespace warplens::bench {

struct KernelsOnceOptions {
  std::vector<std::string> labs;  ///< lab names (to_string(Lab)); empty: every lab
  bool scenarios = true;          ///< also each built-in scenario's kernels at its parameters
};

/// Prints one line per run (lab, kernel, parameters, ok/FAIL, milliseconds, what was checked)
/// and a summary line "kernels-once: N runs, F failed, S scenarios, T s". Returns 0 when every
/// run passed, 1 when one failed, 2 for an unknown lab name, 3 without a CUDA device.
int run_kernels_once(const KernelsOnceOptions& options);

}  // namespace warplens::bench
