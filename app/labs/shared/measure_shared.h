// `warplens measure --lab banks|transpose|matmul|reduction`: the shared-memory labs' kernels
// timed on the GPU, next to the model's wavefront count for the access the bank view shows.
#pragma once

#include <string>

#include "shared_session.h"

namespace warplens::app {

struct SharedMeasureOptions {
  SharedState state;         ///< the lab and its parameters
  bool all_variants = true;  ///< transpose/matmul/reduction: every variant (false: the chosen one)
  int runs = 10;
  std::string format = "text";  ///< text | json | csv
};

/// Runs the measurement and prints it. Returns the process exit code (0; 1 GPU failure; 2 bad
/// parameters; 3 no CUDA device), with a one-line reason on stderr.
int run_measure_shared(const SharedMeasureOptions& options);

}  // namespace warplens::app
