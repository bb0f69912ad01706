#include "shared_preset.h"

#include <string>

#include "shared_kinds.h"

namespace warplens::app {

toml::table shared_preset_section(const SharedState& state) {
  toml::table t;
  write_knobs(t, state, shared_kind(state.lab).knobs());
  t.insert("model", model::to_string(state.model));
  toml::table section;
  section.insert(to_string(state.lab), std::move(t));
  return section;
}

}  // namespace warplens::app
