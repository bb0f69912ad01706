#include "scenarios.h"

#include <toml++/toml.h>

#include <fstream>
#include <sstream>

#include "embedded.h"
#include "lab.h"
#include "number_text.h"
#include "toml_fields.h"

namespace warplens::assets {
extern const EmbeddedFile files[];
extern const std::size_t file_count;
}  // namespace warplens::assets

namespace warplens::app {

namespace {
std::string required_string(const toml::table& table, std::string_view key,
                            const std::string& origin) {
  const auto value = table[key].value<std::string>();
  if (!value)
    throw ScenarioError(origin + ": missing or mistyped key \"" + std::string(key) + "\"");
  return *value;
}
}  // namespace

namespace {

toml::table parse_toml(std::string_view text, const std::string& origin) {
  try {
    return parse_toml_text(text, origin);
  } catch (const toml::parse_error& e) {
    std::ostringstream message;
    message << origin << ":" << e.source().begin.line << ":" << e.source().begin.column << ": "
            << e.description();
    throw ScenarioError(message.str());
  }
}

Scenario scenario_of_table(const toml::table& table, const std::string& origin) {
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

}  // namespace

Scenario parse_scenario(std::string_view text, const std::string& origin) {
  return scenario_of_table(parse_toml(text, origin), origin);
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

std::string read_preset_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ScenarioError(path + ": cannot open the preset file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw ScenarioError(path + ": cannot read the preset file");
  return text.str();
}

Scenario load_scenario_file(const std::string& path) {
  return parse_preset(read_preset_file(path), path);
}

namespace {

// A setting's value: TOML where it parses as one (3, -1, true, "soa", 2.5), else the bare text.
toml::node_view<toml::node> setting_value(toml::table& holder, const std::string& text) {
  try {
    holder = parse_toml_text("v = " + text);
    if (holder.size() == 1) return holder["v"];
  } catch (const toml::parse_error&) {
  }
  holder = toml::table{};
  holder.insert("v", text);
  return holder["v"];
}

// Sets `key` ("pitch", "matrix.width") of `section` to `value`, making a sub-table on the way.
void put_key(toml::table& section, const std::string& key, const toml::node& value) {
  toml::table* t = &section;
  std::string rest = key;
  for (auto dot = rest.find('.'); dot != std::string::npos; dot = rest.find('.')) {
    const std::string part = rest.substr(0, dot);
    if (!t->contains(part)) t->insert(part, toml::table{});
    t = (*t)[part].as_table();
    if (!t) throw std::invalid_argument(part + " is not a table");
    rest = rest.substr(dot + 1);
  }
  value.visit([&](const auto& node) { t->insert_or_assign(rest, node); });
}

bool has_key(const toml::table& section, const std::string& key) {
  return static_cast<bool>(toml::at_path(section, key));
}

}  // namespace

Scenario with_settings(std::string_view toml_text, const std::string& origin,
                       const std::vector<std::string>& settings) {
  toml::table table = parse_toml(toml_text, origin);
  // The lab's table: the one table among the preset's top-level keys ([copy], [banks], ...).
  std::string section_name;
  for (const auto& [key, node] : table)
    if (node.is_table()) section_name = section_name.empty() ? std::string(key.str()) : "?";
  if (section_name.empty() || section_name == "?")
    throw ScenarioError(origin + ": --set needs a preset with one lab table");
  const toml::table original = *table[section_name].as_table();
  std::string applied;
  for (const std::string& setting : settings) {
    const auto eq = setting.find('=');
    const std::string key = eq == std::string::npos ? "" : setting.substr(0, eq);
    if (key.empty() || eq + 1 == setting.size() ||
        key.find_first_of(" \t\"[]") != std::string::npos)
      throw ScenarioError("--set " + setting + ": expected KEY=VALUE, e.g. offset=3");
    toml::table holder;
    const auto value = setting_value(holder, setting.substr(eq + 1));
    toml::table& section = *table[section_name].as_table();
    try {
      // Is the key read by the lab? Its reader refuses a table where it expects a value; a key
      // no knob reads passes unseen (and a key the built-in scenario already sets is known).
      if (!has_key(original, key)) {
        toml::table probe = table;
        put_key(*probe[section_name].as_table(), key, toml::table{});
        bool read = false;
        try {
          (void)scenario_of_table(probe, origin);
        } catch (const ScenarioError&) {
          read = true;
        }
        if (!read)
          throw ScenarioError("--set " + setting + ": the [" + section_name +
                              "] table of this lab reads no key \"" + key + "\"");
      }
      put_key(section, key, *value.node());
    } catch (const std::invalid_argument& e) {
      throw ScenarioError("--set " + setting + ": " + e.what());
    }
    applied += (applied.empty() ? "" : ", ") + key + " = " + setting.substr(eq + 1);
  }
  Scenario s = scenario_of_table(table, origin + " with --set " + applied);
  check_compare_with(s, builtin_scenarios(), origin);
  if (!applied.empty()) {
    // The scenario's own texts describe it unchanged: say what changed instead.
    s.title += " (set: " + applied + ")";
    s.summary = "Changed on the command line (--set " + applied +
                "): the views and numbers show the changed access, which the scenario's own text "
                "(" +
                s.name + ") does not describe.";
    s.look_for.clear();
    s.question.clear();
  }
  return s;
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

std::string_view builtin_scenario_text(std::string_view name) {
  const Scenario& s = find_scenario(name);  // throws, listing the names
  const auto& catalog = builtin_scenarios();
  for (std::size_t i = 0; i < catalog.size(); ++i)
    if (&catalog[i] == &s) return assets::files[i].text;
  throw ScenarioError("no text for the built-in scenario \"" + std::string(name) + "\"");
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
