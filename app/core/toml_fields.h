// Reading one table of a preset (toml++): typed fields with defaults and errors that name the
// file and the key, for the labs' section parsers (LabInfo::parse_section); and writing one.
#pragma once

#include <toml++/toml.h>
#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "scenario.h"

namespace warplens::app {

/// The whole preset (its top-level table) and where it came from, for error messages.
struct ScenarioTable {
  const toml::table& table;
  const std::string& origin;  ///< file name, or the built-in asset's path

  /// The table called `name` (e.g. "copy"); throws ScenarioError when it is missing.
  [[nodiscard]] const toml::table& section(std::string_view name) const;
  /// `key` of `t` as a 32-bit integer, `fallback` when absent; throws ScenarioError when
  /// mistyped or out of range.
  [[nodiscard]] int int_value(const toml::table& t, std::string_view key, int fallback) const;
  /// `key` of `t` as an integer that must be present; throws ScenarioError otherwise.
  [[nodiscard]] std::int64_t required_int(const toml::table& t, std::string_view key) const;
  /// A ScenarioError "ORIGIN: what".
  [[nodiscard]] ScenarioError error(const std::string& what) const;
};

/// `node` as a 64-bit integer: an integer, or a float with an integral value within range (as
/// toml++'s value<int64_t>() reads them, without its undefined conversion of a float beyond
/// 2^63); nullopt for anything else.
std::optional<std::int64_t> integer_value(toml::node_view<const toml::node> node);

/// `key` of `t` as a string, `fallback` when absent (or not a string).
std::string string_value(const toml::table& t, std::string_view key, const std::string& fallback);

/// `text` parsed by toml++ (`origin` names it in errors: a file name, or empty), after refusing
/// what toml++ 3.3 cannot read without undefined behaviour: a non-ASCII character outside a
/// string or comment, and one right after a backslash (or after a line-ending backslash's
/// whitespace) in a multi-line basic string. toml++'s is_non_ascii_horizontal_whitespace reaches
/// __builtin_unreachable for U+00A1..U+0499 and parts of U+2F3E..U+FEFE (found by fuzz_scenario
/// with `be =  21\u033E7`). TOML 1.0 allows no non-ASCII character outside strings and comments,
/// so the first rule refuses no valid file; the second refuses only the rare valid multi-line
/// string whose continued line starts with one. Throws toml::parse_error with the line and column
/// (1-based; the column counts bytes) of what it refuses, as toml++ does for its own errors.
toml::table parse_toml_text(std::string_view text, std::string_view origin = {});
/// The file at `path` read and parsed as parse_toml_text does; toml::parse_error as it.
toml::table parse_toml_file(const std::string& path);

/// `table` as TOML text, written by toml++'s formatter (a preset's lab table, LabInstance::
/// preset_section).
std::string toml_text(const toml::table& table);

/// `table` as JSON, written by toml++'s JSON formatter and read by nlohmann::json: tables are
/// objects (keys sorted, as both keep them), arrays arrays, integers, floats, booleans and strings
/// themselves (`warplens measure`'s "preset": the lab's table of the parameters it timed).
nlohmann::json toml_json(const toml::table& table);

}  // namespace warplens::app
