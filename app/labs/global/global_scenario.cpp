#include "global_scenario.h"

#include <cstdint>
#include <stdexcept>
#include <string>

#include "global_knobs.h"

namespace warplens::app {

std::any parse_global_table(const ScenarioTable& scenario) {
  const toml::table& t = scenario.section("copy");
  CopyState state;
  // A matrix's own defaults where its table leaves a field out.
  if (t["matrix"].as_table()) {
    state.params.matrix_width = 120;
    state.params.block_y = 8;
  }
  read_knobs(scenario, t, state, global_knobs());
  GlobalScenario g;
  g.copy = state.params;
  g.warp = state.warp;
  g.warps = state.warps;
  g.field = state.field;
  g.model = state.model;
  if (g.field != 0 && g.copy.layout == gpu::StructLayout::None)
    throw scenario.error("field applies to a struct layout (layout = \"aos\" or \"soa\")");
  try {
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
