#include "cache_preset.h"

namespace warplens::app {

toml::table cache_preset_section(const CacheState& state) {
  toml::table cache;
  cache.insert("section", to_string(state.section));
  cache.insert("carveout", state.carveout);
  cache.insert("dynamic_shared_kib", state.dynamic_shared_bytes / 1024);
  cache.insert("working_set_kib", state.working_set_bytes / 1024);
  cache.insert("k", state.k);
  cache.insert("path", gpu::to_string(state.read.path));
  cache.insert("pattern", gpu::to_string(state.read.pattern));
  cache.insert("image_side", state.read.side);
  cache.insert("radius", state.read.radius);
  cache.insert("scattered_reads", state.read.scattered_reads);
  toml::table section;
  section.insert("cache", std::move(cache));
  return section;
}

}  // namespace warplens::app
