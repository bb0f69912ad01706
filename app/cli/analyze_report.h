// `warplens analyze` output (design.md, "analyze contract"): JSON and text for one warp's
// access under a memory-system model.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "access_pattern.h"
#include "memory_model.h"

namespace warplens::app {

/// Analyses `pattern` under `model`; throws model::PatternError for bad input.
nlohmann::json analyze_json(const model::AccessPattern& pattern, model::HardwareModel model);

/// The same numbers as a human-readable report.
std::string analyze_text(const nlohmann::json& report);

}  // namespace warplens::app
