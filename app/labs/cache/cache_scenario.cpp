#include "cache_scenario.h"

#include <stdexcept>

#include "cache_knobs.h"

namespace warplens::app {

std::any parse_cache_table(const ScenarioTable& scenario) {
  const toml::table& t = scenario.section("cache");
  CacheState c;
  read_knobs(scenario, t, c, cache_knobs());
  try {
    gpu::check_carveout(c.carveout);
    gpu::check_dynamic_shared(c.dynamic_shared_bytes, gpu::kModelSharedBytesPerBlock);
    gpu::check_working_set(c.working_set_bytes);
    gpu::check_constant_k(c.k);
    gpu::check_read_path(c.read);
  } catch (const std::invalid_argument& e) {
    throw scenario.error(e.what());
  }
  return c;
}

}  // namespace warplens::app
