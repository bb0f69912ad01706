// The `warplens measure` verb's options as the command line gives them (one set for every lab:
// CLI11 registers them once in cli/main.cpp). Each lab's measure function (LabInfo::measure)
// reads the ones it uses; units as the flags' help says (elements for offsets and strides,
// bytes for sizes unless the flag says KiB).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lab_id.h"

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

struct MeasureOptions {
  int word_bytes = 4;
  std::vector<long long> offsets{0}, strides{1};
  std::string pattern = "strided", side = "read", path = "default", format = "text",
              layout = "none";
  unsigned seed = 1;
  int runs = 15;
  int matrix_width = 0, block_y = 8;
  std::string scenario;  ///< a built-in scenario's parameters instead of the options above
  /// --preset FILE.toml: a preset of any lab, instead of --scenario.
  std::string preset;
  /// --kernel FILE.toml (a lab's own preset option, LabInfo::preset_option): a preset that must
  /// be of lab `lab_preset_of`, instead of --scenario.
  std::string lab_preset;
  Lab lab_preset_of = kFirstLab;
  /// --set KEY=VALUE: knobs of --scenario's or --preset's lab table changed as its preset names
  /// them (scenarios.h: with_settings), read through the lab's knob table like the window's --set.
  std::vector<std::string> settings;
  bool pitched = false, by_column = false;
  // Shared-memory labs (--lab banks|transpose|matmul|reduction).
  std::string lab = "global", block = "32x1", op = "load", variant;
  int tile_width = 32, pitch_elements = 0, struct_words = 2, field = 0, part = 0, warp = 0;
  bool swizzle = false;
  CacheMeasureOptions cache;  ///< --lab cache
  /// --copy-bytes (--lab flight): bytes of each copy buffer, rounded up to a whole MiB; 0 is the
  /// lab's default, 4 x L2 and at least 256 MiB (a copy from DRAM). Buffers whose two copies fit
  /// the L2 time the same copies from L2: their round time less the ladder's L2 latency is what
  /// a copy's turnaround costs apart from DRAM (docs/flight.md, "What decides the next model").
  std::int64_t flight_copy_bytes = 0;
  int tile = 32, rows_per_block = 8, n = 0, block_size = -1, block_threads = 256;
  long long elements = 1 << 24;
};

}  // namespace warplens::app
