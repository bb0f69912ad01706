// The cache lab's parts for the registry (lab_parts.h): no A/B compare, no warp access for
// verify's catalog (its counter checks are the cache lab's own).
#include "cache_lab_unit.h"
#include "cache_scenario.h"
#include "lab_parts.h"
#include "measure_cache.h"

namespace warplens::app {

LabParts lab_parts_Cache() {
  return {nullptr, make_lab<CacheLabUnit>, parse_cache_table,
          nullptr, measure_cache_lab,      cache_kernels_once};
}

}  // namespace warplens::app
