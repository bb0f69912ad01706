// The cache lab's parameters as a preset: the [cache] table that parse_cache_table reads back to
// the same state (the writing side of cache_scenario.h).
#pragma once

#include "cache_scenario.h"

namespace warplens::app {

/// A table holding the [cache] table of `state`: every key parse_cache_table reads, spelled as it
/// reads them. Sizes go in KiB, as the parser reads them (the panel sets whole KiB).
toml::table cache_preset_section(const CacheState& state);

}  // namespace warplens::app
