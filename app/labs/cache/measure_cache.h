// `warplens measure --lab cache`: the cache labs' kernels on the GPU. Sections: the carveout
// table and the shared-hungry kernel's occupancy (and time) against dynamic shared memory, and
// its time and resident blocks against the carveout (one per supported capacity, rows of kernel
// "carveout-sweep"); the L1 gather's time against its working set at several carveouts; the
// constant cache against k distinct addresses per warp; and the read paths (plain, __ldg,
// texture) over scattered, 2D-window, Morton-order and per-thread 4 x 4 column-tile reads. The
// l1 and read-path rows also carry the L1 hit rate from hardware counters (l1_hit_rate_pct, in
// percent of sectors; null with l1_hit_note where counters are unavailable), read on dedicated
// launches after all timed runs; WARPLENS_NO_COUNTERS skips them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace warplens::app {

struct CacheMeasureOptions {
  std::string section = "all";  ///< carveout | l1 | constant | read-path | all
  /// Carveouts for the carveout and l1 sections: -1 (driver default), 0 (max L1), 100 (max
  /// shared) and a middle one.
  std::vector<int> carveouts = {-1, 0, 50, 100};
  /// L1 working sets per block, bytes (empty: 8 KiB .. 1 MiB).
  std::vector<std::int64_t> working_sets;
  /// Dynamic shared memory per block for the occupancy table, bytes (empty: 0 .. 227 KiB), and
  /// for the carveout sweep (empty: 20 and 56 KiB).
  std::vector<std::int64_t> dynamic_shared;
  std::vector<int> ks;  ///< constant: distinct addresses per warp (empty: 1 .. 32)
  int side = 4096;      ///< read-path image side
  int runs = 7;
  std::string format = "text";  ///< text | json | csv
};

/// Runs the measurement and prints it. Returns the process exit code (0; 1 GPU failure or a
/// checksum that did not verify; 2 bad parameters; 3 no CUDA device), with a one-line reason
/// on stderr.
int run_measure_cache(const CacheMeasureOptions& options);

}  // namespace warplens::app
