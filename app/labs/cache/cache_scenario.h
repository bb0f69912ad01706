// The cache lab's part of a scenario: the [cache] table of a preset.
#pragma once

#include <any>

#include "cache_session.h"
#include "scenario.h"
#include "toml_fields.h"

namespace warplens::app {

/// Parses [cache]: section, carveout (-1..100 %), dynamic_shared_kib and working_set_kib
/// (KiB), k (1..32), and the read path's path, pattern, image_side (pixels, a power of two in
/// 64..8192, default 4096), radius (0..4, default 2) and scattered_reads (1..32, default 4).
/// Throws ScenarioError naming the file. Its writing side: cache_preset.h.
std::any parse_cache_table(const ScenarioTable& scenario);

/// The cache lab's parameters of a cache-lab scenario (std::logic_error otherwise).
inline const CacheState& cache_scenario(const Scenario& s) {
  return lab_parameters<CacheState>(s, "cache");
}

}  // namespace warplens::app
