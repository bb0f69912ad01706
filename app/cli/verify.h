// `warplens verify`: every pattern of the counter catalog (counter_checks.h) run on the GPU with
// its hardware counters read, one row per pattern: the model's cost per request, the hardware's,
// and whether they agree within the row's tolerance; then a total.
#pragma once

#include <string>

#include "exit_codes.h"

namespace warplens::app {

struct VerifyOptions {
  std::string format = "text";  ///< text | json
  std::string filter;           ///< only patterns whose name contains this (empty: all)
};

/// Exit codes of run_verify (the shared codes of exit_codes.h, as verify means them).
inline constexpr int kVerifyAgree = kExitOk;               ///< every row agrees
inline constexpr int kVerifyDiffers = kExitRuntime;        ///< a row differs (or its launch failed)
inline constexpr int kVerifyBadInput = kExitBadInput;      ///< the filter matches no pattern
inline constexpr int kVerifyNoDevice = kExitNoDevice;      ///< no CUDA device (or no CUDA build)
inline constexpr int kVerifyNoCounters = kExitNoCounters;  ///< the GPU's counters cannot be read

/// Runs the catalog and prints the table (text) or a JSON document to stdout; reasons for exit
/// codes 2-4 go to stderr as one line (and into the JSON document). Never throws.
int run_verify(const VerifyOptions& options);

}  // namespace warplens::app
