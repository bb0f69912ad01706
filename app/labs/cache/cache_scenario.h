// The cache lab's part of a scenario: the [cache] table of a preset.
#pragma once

#include <any>

#include "cache_session.h"
#include "scenario.h"
#include "toml_fields.h"

namespace warplens::app {

/// Parses [cache]: section, carveout (-1..100 %), dynamic_shared_kib and working_set_kib
/// (KiB), k (1..32), path and pattern of the read path. Throws ScenarioError naming the file.
std::any parse_cache_table(const ScenarioTable& scenario);

/// The cache lab's parameters of a cache-lab scenario (std::logic_error otherwise).
inline const CacheState& cache_scenario(const Scenario& s) {
  return lab_parameters<CacheState>(s, "cache");
}

}  // namespace warplens::app
