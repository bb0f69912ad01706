// The scenario catalog: the built-in presets (assets/scenarios/, embedded into the binary at
// build time) and the user's preset files. A preset's common fields are read here; its lab's
// table by the lab's parser (LabInfo::parse_table).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "scenario.h"

namespace warplens::app {

/// Parses one preset; `origin` names it in errors. Throws ScenarioError.
Scenario parse_scenario(std::string_view toml_text, const std::string& origin);

/// Parses a user's preset from its text as load_scenario_file does: parse_scenario, then its
/// compare_with checked against the built-in catalog. Throws ScenarioError.
Scenario parse_preset(std::string_view toml_text, const std::string& origin);

/// Reads and parses a user's preset file (the same format as assets/scenarios/*.toml). Throws
/// ScenarioError naming the file, and for a syntax error the line, column and toml++'s message;
/// a file that cannot be read says so.
Scenario load_scenario_file(const std::string& path);

/// The built-in catalog in lecture order (file-name order).
const std::vector<Scenario>& builtin_scenarios();

/// The built-in scenario called `name`; throws ScenarioError listing the names otherwise.
const Scenario& find_scenario(std::string_view name);

inline constexpr std::string_view kDefaultScenario = "aligned";

}  // namespace warplens::app
