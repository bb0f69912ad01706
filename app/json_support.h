// JSON pieces that several CLI outputs write the same way (`warplens measure`, `warplens render
// --all`), so the documents agree on names and units.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "gpu.h"

namespace warplens::app {

/// A GPU timing as {"median_ms", "min_ms", "max_ms", "runs"}; times in milliseconds.
nlohmann::json timing_json(const gpu::Timing& t);

/// The head of a `warplens measure` document: "device", "compute_capability" ("9.0"),
/// "sm_count", "lab" and "gbps_definition" (how the document's GB/s were computed).
nlohmann::json measurement_header(const gpu::DeviceInfo& d, const std::string& lab,
                                  const std::string& gbps_definition);

}  // namespace warplens::app
