#include "toml_fields.h"

namespace warplens::app {

const toml::table& ScenarioTable::section(std::string_view name) const {
  const toml::table* t = table[name].as_table();
  if (!t) throw error("missing [" + std::string(name) + "] table");
  return *t;
}

int ScenarioTable::int_value(const toml::table& t, std::string_view key, int fallback) const {
  const auto node = t[key];
  if (!node) return fallback;
  const auto v = node.value<std::int64_t>();
  if (!v || *v < -(std::int64_t{1} << 31) || *v >= (std::int64_t{1} << 31))
    throw error("\"" + std::string(key) + "\" must be a 32-bit integer");
  return static_cast<int>(*v);
}

std::int64_t ScenarioTable::required_int(const toml::table& t, std::string_view key) const {
  const auto v = t[key].value<std::int64_t>();
  if (!v) throw error("missing or mistyped key \"" + std::string(key) + "\"");
  return *v;
}

ScenarioError ScenarioTable::error(const std::string& what) const {
  return ScenarioError(origin + ": " + what);
}

std::string string_value(const toml::table& t, std::string_view key, const std::string& fallback) {
  return t[key].value_or(fallback);
}

}  // namespace warplens::app
