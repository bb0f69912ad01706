#include "global_scenario.h"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace warplens::app {

std::any parse_global_table(const ScenarioTable& scenario) {
  const toml::table& t = scenario.section("copy");
  GlobalScenario g;
  (void)scenario.required_int(t, "word_bytes");                // present,
  g.copy.word_bytes = scenario.int_value(t, "word_bytes", 0);  // and a 32-bit integer
  g.copy.offset = scenario.required_int(t, "offset");
  g.copy.stride = scenario.required_int(t, "stride");
  g.warp = scenario.int_value(t, "warp", 0);
  g.warps = scenario.int_value(t, "warps", 1);
  try {
    g.copy.kind = gpu::parse_index_kind(string_value(t, "pattern", "strided"));
    g.copy.seed = static_cast<std::uint32_t>(scenario.int_value(t, "seed", 1));
    g.copy.side = gpu::parse_pattern_side(string_value(t, "side", "read"));
    g.copy.path = gpu::parse_load_path(string_value(t, "path", "default"));
    g.copy.layout = gpu::parse_struct_layout(string_value(t, "layout", "none"));
    const std::string field = string_value(t, "field", "x");
    if (field.size() != 1 || field[0] < 'x' || field[0] > 'z')
      throw std::invalid_argument("field must be \"x\", \"y\" or \"z\" (got \"" + field + "\")");
    g.field = field[0] - 'x';
    if (g.field != 0 && g.copy.layout == gpu::StructLayout::None)
      throw std::invalid_argument("field applies to a struct layout (layout = \"aos\" or \"soa\")");
    g.model = model::parse_hardware_model(string_value(t, "model", "modern"));
    if (const toml::table* m = t["matrix"].as_table()) {
      g.copy.matrix_width = scenario.int_value(*m, "width", 120);
      g.copy.matrix_pitched = (*m)["pitched"].value_or(false);
      g.copy.matrix_by_column = string_value(*m, "by", "row") == "column";
      g.copy.block_y = scenario.int_value(*m, "block_y", 8);
    }
    (void)gpu::plan_copy(g.copy, gpu::kModelBufferBytes);
  } catch (const std::invalid_argument& e) {
    throw scenario.error(e.what());
  }
  if (g.warps != 1 && g.warps != 2 && g.warps != 4 && g.warps != 8)
    throw scenario.error("warps must be 1, 2, 4 or 8 (got " + std::to_string(g.warps) + ")");
  if (g.warp < 0 || g.warp > g.copy.block_threads / 32 - g.warps) {
    throw scenario.error("warps " + std::to_string(g.warp) + ".." +
                         std::to_string(std::int64_t{g.warp} + g.warps - 1) + " are not in 0.." +
                         std::to_string(g.copy.block_threads / 32 - 1));
  }
  return g;
}

std::optional<CounterCase> global_counter_case(const Scenario& scenario) {
  CounterCase c;
  c.kind = CaseKind::Copy;
  c.copy = global_scenario(scenario).copy;
  return c;
}

}  // namespace warplens::app
