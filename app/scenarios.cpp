#include "scenarios.h"

#include <toml++/toml.h>

#include <sstream>

#include "embedded.h"

namespace warplens::assets {
extern const EmbeddedFile files[];
extern const std::size_t file_count;
}  // namespace warplens::assets

namespace warplens::app {

namespace {
template <typename T>
T required(const toml::table& table, std::string_view key, const std::string& origin) {
  const auto value = table[key].value<T>();
  if (!value)
    throw ScenarioError(origin + ": missing or mistyped key \"" + std::string(key) + "\"");
  return *value;
}
}  // namespace

namespace {
// "50 %" must not wrap between the number and its unit: use a no-break space (U+00A0).
std::string keep_units_together(std::string text) {
  for (std::size_t at = text.find(" %"); at != std::string::npos; at = text.find(" %", at)) {
    text.replace(at, 1, "\u00a0");
  }
  return text;
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
  s.name = required<std::string>(table, "name", origin);
  s.title = required<std::string>(table, "title", origin);
  s.summary = keep_units_together(required<std::string>(table, "summary", origin));
  s.look_for = keep_units_together(table["look_for"].value_or(std::string()));
  const toml::table* copy = table["copy"].as_table();
  if (!copy) throw ScenarioError(origin + ": missing [copy] table");
  s.copy.word_bytes = static_cast<int>(required<std::int64_t>(*copy, "word_bytes", origin));
  s.copy.offset = required<std::int64_t>(*copy, "offset", origin);
  s.copy.stride = required<std::int64_t>(*copy, "stride", origin);
  s.warp = static_cast<int>((*copy)["warp"].value_or(std::int64_t{0}));
  s.warps = static_cast<int>((*copy)["warps"].value_or(std::int64_t{1}));
  try {
    s.copy.kind = gpu::parse_index_kind((*copy)["pattern"].value_or(std::string("strided")));
    s.copy.seed = static_cast<std::uint32_t>((*copy)["seed"].value_or(std::int64_t{1}));
    s.copy.side = gpu::parse_pattern_side((*copy)["side"].value_or(std::string("read")));
    s.copy.path = gpu::parse_load_path((*copy)["path"].value_or(std::string("default")));
    s.copy.layout = gpu::parse_struct_layout((*copy)["layout"].value_or(std::string("none")));
    if (const toml::table* m = (*copy)["matrix"].as_table()) {
      s.copy.matrix_width = static_cast<int>((*m)["width"].value_or(std::int64_t{120}));
      s.copy.matrix_pitched = (*m)["pitched"].value_or(false);
      s.copy.matrix_by_column = (*m)["by"].value_or(std::string("row")) == "column";
      s.copy.block_y = static_cast<int>((*m)["block_y"].value_or(std::int64_t{8}));
    }
    (void)gpu::plan_copy(s.copy, gpu::kModelBufferBytes);
  } catch (const std::invalid_argument& e) {
    throw ScenarioError(origin + ": " + e.what());
  }
  if (s.warps != 1 && s.warps != 2 && s.warps != 4 && s.warps != 8) {
    throw ScenarioError(origin + ": warps must be 1, 2, 4 or 8 (got " + std::to_string(s.warps) +
                        ")");
  }
  if (s.warp < 0 || s.warp + s.warps > s.copy.block_threads / 32) {
    throw ScenarioError(origin + ": warps " + std::to_string(s.warp) + ".." +
                        std::to_string(s.warp + s.warps - 1) + " are not in 0.." +
                        std::to_string(s.copy.block_threads / 32 - 1));
  }
  return s;
}

const std::vector<Scenario>& builtin_scenarios() {
  static const std::vector<Scenario> catalog = [] {
    std::vector<Scenario> list;
    for (std::size_t i = 0; i < assets::file_count; ++i) {
      list.push_back(parse_scenario(assets::files[i].text, std::string(assets::files[i].path)));
    }
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
