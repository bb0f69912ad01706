// The global lab's parameters as a preset: the [copy] table that parse_global_table reads back
// to the same state (the writing side of global_scenario.h), and the state a scenario sets.
#pragma once

#include <optional>

#include "copy_session.h"
#include "global_scenario.h"

namespace warplens::app {

/// The lab's state for a global scenario's parameters; `model`, when set, replaces the
/// scenario's memory model (GlobalLab::apply).
CopyState global_state(const GlobalScenario& scenario,
                       std::optional<model::HardwareModel> model = std::nullopt);

/// A table holding the [copy] table of `state`: every key parse_global_table reads, spelled as
/// it reads them ([copy.matrix] when any matrix field differs from its default, `field` with a
/// struct layout).
toml::table global_preset_section(const CopyState& state);

}  // namespace warplens::app
