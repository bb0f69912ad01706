// Writing the current parameters of a lab as a preset: the same format as assets/scenarios/*.toml,
// read back by parse_preset (scenarios.h) to the same parameters. For "save preset" and for
// restarting on the same scenario and parameters after a GPU fault.
#pragma once

#include <string>
#include <string_view>

#include "lab.h"
#include "scenario.h"

namespace warplens::app {

/// A complete preset for `shown`'s texts (name, title, summary, and look_for, question and
/// presenter where set) in lab `id`, with `section` as the lab's table (LabInstance::
/// preset_section's TOML text), formatted by toml++. compare_with is not written: the preset
/// holds one side's parameters. Throws ScenarioError when `section` is not TOML.
std::string preset_text(Lab id, const Scenario& shown, std::string_view section);

/// preset_text for `lab`'s current parameters (`lab` is an instance of lab `id`).
std::string current_preset_text(const LabInstance& lab, Lab id, const Scenario& shown);

}  // namespace warplens::app
