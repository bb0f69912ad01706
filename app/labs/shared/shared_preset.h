// The shared-memory labs' parameters as a preset: the [banks], [transpose], [matmul] or
// [reduction] table that the lab's parser (shared_scenario.h) reads back to the same state.
#pragma once

#include "shared_scenario.h"

namespace warplens::app {

/// A table holding the table of `state.lab` (its key: to_string(state.lab)) with every key that
/// lab's parser reads, spelled as it reads them.
toml::table shared_preset_section(const SharedState& state);

}  // namespace warplens::app
