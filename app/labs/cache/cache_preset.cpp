#include "cache_preset.h"

#include <utility>

#include "cache_knobs.h"

namespace warplens::app {

toml::table cache_preset_section(const CacheState& state) {
  toml::table cache;
  write_knobs(cache, state, cache_knobs());
  toml::table section;
  section.insert("cache", std::move(cache));
  return section;
}

}  // namespace warplens::app
