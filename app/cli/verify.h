// `warplens verify`: every pattern of the counter catalog (counter_checks.h) run on the GPU with
// its hardware counters read, one row per pattern: the model's cost per request, the hardware's,
// and whether they agree within the row's tolerance; then a total.
#pragma once

#include <string>

#include "counter_checks.h"
#include "exit_codes.h"

namespace warplens::app {

/// The built-in scenarios (every one with an access the labs can run: global patterns, bank
/// patterns, the transpose / matmul / reduction scenarios' shown shared access, the naive
/// transpose's global write) followed by generated patterns: loads and stores, 1-16-byte words,
/// offsets, strides, same-word, permuted, scattered, load paths, structs, matrices; shared
/// strides 0..32, tiles 32x32 / 32x33 / swizzled by row and column, structs, interleaved /
/// blocked, 8/16-byte phases, matmul and reduction steps; then each lab's own generated cases
/// (LabInfo::verify_cases: the tile lab's swizzle modes, reads and ldmatrix forms) for a GPU of
/// `compute_capability` (10 x major + minor; 90 without a GPU). `pitch_alignment`: the device's
/// (DeviceInfo::pitch_alignment; 512 without a GPU). Names are unique; no two cases are equal.
std::vector<CounterCase> verify_catalog(int pitch_alignment = 512, int compute_capability = 90);

struct VerifyOptions {
  std::string format = "text";  ///< text | json
  std::string filter;           ///< only patterns whose name contains this (empty: all)
  /// Tests only (hidden flag --test-fault-before): the fault probe (gpu_fault.h) leaves the GPU
  /// in a sticky fault just before the counters of the pattern of this name are read.
  std::string fault_before;
  /// Set by verify itself (hidden flag --resume): the rows measured before a restart after a
  /// GPU fault, a JSON file the restarted process continues from (and removes).
  std::string resume;
};

/// Exit codes of run_verify (the shared codes of exit_codes.h, as verify means them).
inline constexpr int kVerifyAgree = kExitOk;               ///< every row agrees
inline constexpr int kVerifyDiffers = kExitRuntime;        ///< a row differs (or its launch failed)
inline constexpr int kVerifyBadInput = kExitBadInput;      ///< the filter matches no pattern
inline constexpr int kVerifyNoDevice = kExitNoDevice;      ///< no CUDA device (or no CUDA build)
inline constexpr int kVerifyNoCounters = kExitNoCounters;  ///< the GPU's counters cannot be read

/// Runs the catalog and prints the table (text) or a JSON document to stdout; reasons for exit
/// codes 2-4 go to stderr as one line (and into the JSON document). Never throws. A pattern whose
/// launch leaves the GPU in a sticky fault (an illegal address, a trap) is reported as differing
/// with the fault in its note; a reset inside the process does not bring the GPU back
/// (gpu_restart.h), so verify then restarts itself (execv, same pid, same stdout) with the rows so
/// far in a file, and the new process measures the remaining patterns and prints the whole result.
int run_verify(const VerifyOptions& options);

}  // namespace warplens::app
