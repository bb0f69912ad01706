// JSON pieces that several CLI outputs write the same way (`warplens measure`, `warplens render
// --all`), so the documents agree on names and units.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>

#include "gpu.h"
#include "memory_model.h"

namespace warplens::app {

/// A GPU timing as {"median_ms", "min_ms", "max_ms", "runs"}; times in milliseconds.
nlohmann::json timing_json(const gpu::Timing& t);

/// One warp's global request as {"sectors_per_request", "lines_per_request", "requested_bytes",
/// "moved_bytes", "efficiency"} (bytes; efficiency = requested / moved).
nlohmann::json global_analysis_json(const model::GlobalAnalysis& a);

/// One warp's shared access as {"wavefronts_per_request", "phases", "broadcast",
/// "requested_bytes", "moved_bytes", "efficiency"}.
nlohmann::json shared_analysis_json(const model::SharedAnalysis& a);

/// The device `warplens measure` times on; without one, prints "warplens measure: REASON" to
/// stderr and returns nullopt (the caller exits kExitNoDevice).
std::optional<gpu::DeviceInfo> measure_device();

/// The head of a `warplens measure` document: "device", "compute_capability" ("9.0"),
/// "sm_count", "lab" and "gbps_definition" (how the document's GB/s were computed).
nlohmann::json measurement_header(const gpu::DeviceInfo& d, const std::string& lab,
                                  const std::string& gbps_definition);

}  // namespace warplens::app
