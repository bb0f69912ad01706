#include "cache_scenario.h"

#include <stdexcept>

namespace warplens::app {

std::any parse_cache_table(const ScenarioTable& scenario) {
  const toml::table& t = scenario.section("cache");
  CacheState c;
  try {
    c.section = parse_cache_section(string_value(t, "section", "carveout"));
    c.carveout = scenario.int_value(t, "carveout", gpu::kCarveoutDefault);
    gpu::check_carveout(c.carveout);
    c.dynamic_shared_bytes = std::int64_t{1024} * scenario.int_value(t, "dynamic_shared_kib", 20);
    gpu::check_dynamic_shared(c.dynamic_shared_bytes, gpu::kModelSharedBytesPerBlock);
    c.working_set_bytes = std::int64_t{1024} * scenario.int_value(t, "working_set_kib", 64);
    gpu::check_working_set(c.working_set_bytes);
    c.k = scenario.int_value(t, "k", 4);
    gpu::check_constant_k(c.k);
    c.read.path = gpu::parse_read_path(string_value(t, "path", "plain"));
    c.read.pattern = gpu::parse_read_pattern(string_value(t, "pattern", "local-2d"));
    c.read.side = scenario.int_value(t, "image_side", c.read.side);
    c.read.radius = scenario.int_value(t, "radius", c.read.radius);
    c.read.scattered_reads = scenario.int_value(t, "scattered_reads", c.read.scattered_reads);
    gpu::check_read_path(c.read);
  } catch (const std::invalid_argument& e) {
    throw scenario.error(e.what());
  }
  return c;
}

}  // namespace warplens::app
