#include "scenarios.h"

#include <toml++/toml.h>

#include <fstream>
#include <sstream>

#include "embedded.h"
#include "lab.h"
#include "toml_fields.h"

namespace warplens::assets {
extern const EmbeddedFile files[];
extern const std::size_t file_count;
}  // namespace warplens::assets

namespace warplens::app {

namespace {
// "50 %" must not wrap between the number and its unit: use a no-break space (U+00A0).
std::string keep_units_together(std::string text) {
  for (std::size_t at = text.find(" %"); at != std::string::npos; at = text.find(" %", at)) {
    text.replace(at, 1, "\u00a0");
  }
  return text;
}

std::string required_string(const toml::table& table, std::string_view key,
                            const std::string& origin) {
  const auto value = table[key].value<std::string>();
  if (!value)
    throw ScenarioError(origin + ": missing or mistyped key \"" + std::string(key) + "\"");
  return *value;
}
}  // namespace

Scenario parse_scenario(std::string_view text, const std::string& origin) {
  toml::table table;
  try {
    table = toml::parse(text, origin);
  } catch (const toml::parse_error& e) {
    std::ostringstream message;
    message << origin << ":" << e.source().begin.line << ":" << e.source().begin.column << ": "
            << e.description();
    throw ScenarioError(message.str());
  }
  Scenario s;
  s.name = required_string(table, "name", origin);
  s.title = required_string(table, "title", origin);
  s.summary = keep_units_together(required_string(table, "summary", origin));
  s.look_for = keep_units_together(table["look_for"].value_or(std::string()));
  s.compare_with = table["compare_with"].value_or(std::string());
  if (const auto* question = table.get("question")) {
    if (!question->is_string() || question->as_string()->get().empty())
      throw ScenarioError(origin + ": question must be a non-empty string");
    s.question = question->as_string()->get();
  }
  if (const auto* presenter = table.get("presenter")) {
    if (!presenter->is_boolean()) throw ScenarioError(origin + ": presenter must be true or false");
    s.presenter = presenter->as_boolean()->get();
  }
  try {
    s.lab = parse_lab(table["lab"].value_or(std::string("global")));
  } catch (const std::invalid_argument& e) {
    throw ScenarioError(origin + ": " + e.what());
  }
  s.parameters = lab_info(s.lab).parse_table(ScenarioTable{table, origin});
  return s;
}

namespace {
// A scenario's compare_with must name another scenario of `catalog` in the same lab (one that
// does not itself compare, so A is plain parameters).
void check_compare_with(const Scenario& s, const std::vector<Scenario>& catalog,
                        const std::string& origin) {
  if (s.compare_with.empty()) return;
  if (!lab_info(s.lab).compare_ratio)
    throw ScenarioError(origin + ": compare_with: the " + std::string(to_string(s.lab)) +
                        " lab has no A/B compare");
  for (const Scenario& other : catalog) {
    if (other.name != s.compare_with) continue;
    if (other.lab != s.lab) {
      throw ScenarioError(origin + ": compare_with = \"" + s.compare_with + "\" is in the " +
                          to_string(other.lab) + " lab, this scenario in the " + to_string(s.lab) +
                          " lab");
    }
    if (!other.compare_with.empty()) {
      throw ScenarioError(origin + ": compare_with = \"" + s.compare_with +
                          "\" is itself an A/B scenario");
    }
    return;
  }
  throw ScenarioError(origin + ": compare_with = \"" + s.compare_with +
                      "\" names no built-in scenario");
}
}  // namespace

Scenario load_scenario_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ScenarioError(path + ": cannot open the preset file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw ScenarioError(path + ": cannot read the preset file");
  return parse_preset(text.str(), path);
}

Scenario parse_preset(std::string_view toml_text, const std::string& origin) {
  Scenario s = parse_scenario(toml_text, origin);
  check_compare_with(s, builtin_scenarios(), origin);
  return s;
}

const std::vector<Scenario>& builtin_scenarios() {
  static const std::vector<Scenario> catalog = [] {
    std::vector<Scenario> list;
    for (std::size_t i = 0; i < assets::file_count; ++i) {
      list.push_back(parse_scenario(assets::files[i].text, std::string(assets::files[i].path)));
    }
    for (std::size_t i = 0; i < list.size(); ++i)
      check_compare_with(list[i], list, std::string(assets::files[i].path));
    return list;
  }();
  return catalog;
}

const Scenario& find_scenario(std::string_view name) {
  std::string names;
  for (const Scenario& s : builtin_scenarios()) {
    if (s.name == name) return s;
    names += (names.empty() ? "" : ", ") + s.name;
  }
  throw ScenarioError("unknown scenario \"" + std::string(name) + "\" (built-in: " + names + ")");
}

}  // namespace warplens::app
