#include "toml_fields.h"

#include <cmath>
#include <sstream>

namespace warplens::app {

std::optional<std::int64_t> integer_value(toml::node_view<const toml::node> node) {
  // toml++ 3.3 casts a float to int64_t before it checks the range (undefined past 2^63; found
  // by fuzz_scenario with `stride = 1e31`): convert floats here.
  if (const auto* f = node.as_floating_point()) {
    const double v = f->get();
    constexpr double kTwo63 = 9223372036854775808.0;
    if (!(v >= -kTwo63 && v < kTwo63) || std::trunc(v) != v) return std::nullopt;
    return static_cast<std::int64_t>(v);
  }
  return node.value<std::int64_t>();
}

const toml::table& ScenarioTable::section(std::string_view name) const {
  const toml::table* t = table[name].as_table();
  if (!t) throw error("missing [" + std::string(name) + "] table");
  return *t;
}

int ScenarioTable::int_value(const toml::table& t, std::string_view key, int fallback) const {
  const auto node = t[key];
  if (!node) return fallback;
  const auto v = integer_value(node);
  if (!v || *v < -(std::int64_t{1} << 31) || *v >= (std::int64_t{1} << 31))
    throw error("\"" + std::string(key) + "\" must be a 32-bit integer");
  return static_cast<int>(*v);
}

std::int64_t ScenarioTable::required_int(const toml::table& t, std::string_view key) const {
  const auto v = integer_value(t[key]);
  if (!v) throw error("missing or mistyped key \"" + std::string(key) + "\"");
  return *v;
}

ScenarioError ScenarioTable::error(const std::string& what) const {
  return ScenarioError(origin + ": " + what);
}

std::string string_value(const toml::table& t, std::string_view key, const std::string& fallback) {
  return t[key].value_or(fallback);
}

std::string toml_text(const toml::table& table) {
  std::ostringstream out;
  out << table << "\n";
  return out.str();
}

}  // namespace warplens::app
