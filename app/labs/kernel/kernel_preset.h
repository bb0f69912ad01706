// The own-kernel lab's parameters as a preset: the [kernel] table that parse_kernel_table reads
// back to the same state (the writing side of kernel_scenario.h).
#pragma once

#include <string>

#include "kernel_scenario.h"

namespace warplens::app {

/// A table holding the [kernel] table of `state`: every key parse_kernel_table reads, spelled as
/// it reads them (constants as a table when their names are in order, else as an array of
/// one-name tables, which keeps their order).
toml::table kernel_preset_section(const KernelState& state);

/// A whole preset file for `state` (name, title, summary, lab = "kernel" and the [kernel] table)
/// that parse_kernel_table reads back to the same state.
std::string kernel_preset_toml(const KernelState& state, const std::string& name,
                               const std::string& title, const std::string& summary);

}  // namespace warplens::app
