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

/// The text of a user's preset file; throws ScenarioError when it cannot be read.
std::string read_preset_file(const std::string& path);

/// The TOML text of the built-in scenario called `name` (assets/scenarios/); throws ScenarioError
/// listing the names otherwise.
std::string_view builtin_scenario_text(std::string_view name);

/// The preset `toml_text` with `settings` applied, parsed as parse_preset parses it: each
/// setting is "KEY=VALUE", KEY a key of the scenario's lab table as its presets write it
/// ("offset", "pitch", "matrix.width"; the knob tables' keys, app/core/knob.h), VALUE a TOML value
/// (3, true, "soa") or a bare word taken as text (soa, 32x8). Its title gets the settings in
/// brackets. Throws ScenarioError naming the setting for a malformed one, a key the lab's table
/// does not read, or a value the lab refuses (the preset reader's own message).
Scenario with_settings(std::string_view toml_text, const std::string& origin,
                       const std::vector<std::string>& settings);

/// The built-in catalog in lecture order (file-name order).
const std::vector<Scenario>& builtin_scenarios();

/// The built-in scenario called `name`; throws ScenarioError listing the names otherwise.
const Scenario& find_scenario(std::string_view name);

inline constexpr std::string_view kDefaultScenario = "aligned";

}  // namespace warplens::app
