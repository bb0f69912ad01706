// `warplens analyze` output (design.md, "analyze contract"): JSON and text for one warp's
// access under a memory-system model, and for `analyze --layout` the CuTe layout behind it
// (docs/layouts.md).
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "access_pattern.h"
#include "layout_access.h"
#include "memory_model.h"

namespace warplens::app {

/// Analyses `pattern` under `model`; throws model::PatternError for bad input.
///
/// With `layout` (analyze --layout; pattern.index is then layout_index_expression(*layout)), the
/// report also holds "layout": the text as CuTe prints it ("layout", "lane_layout" or null), its
/// "size", the "expression" and the 32 lanes' "offsets" (elements; null for an inactive lane),
/// and each active lane its "layout_index" (the 1-D coordinate it takes) and "coordinate" (the
/// natural one, as text). Throws model::LayoutError (a PatternError) when an active lane's tx is
/// outside the layout, std::logic_error if the expression and the layout ever disagree.
nlohmann::json analyze_json(const model::AccessPattern& pattern, model::HardwareModel model,
                            const model::LayoutAccess* layout = nullptr);

/// The same numbers as a human-readable report.
std::string analyze_text(const nlohmann::json& report);

}  // namespace warplens::app
