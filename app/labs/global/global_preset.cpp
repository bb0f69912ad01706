#include "global_preset.h"

#include <utility>

#include "global_knobs.h"

namespace warplens::app {

CopyState global_state(const GlobalScenario& scenario, std::optional<model::HardwareModel> model) {
  CopyState state;
  state.params = scenario.copy;
  state.warp = scenario.warp;
  state.warps = scenario.warps;
  state.field = scenario.field;
  state.model = model.value_or(scenario.model);
  return state;
}

toml::table global_preset_section(const CopyState& state) {
  toml::table copy;
  write_knobs(copy, state, global_knobs());
  toml::table section;
  section.insert("copy", std::move(copy));
  return section;
}

}  // namespace warplens::app
