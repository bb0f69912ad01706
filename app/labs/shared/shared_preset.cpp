#include "shared_preset.h"

#include <string>

#include "shared_kinds.h"
#include "shared_knobs.h"

namespace warplens::app {

toml::table banks_preset_table(const SharedState& st) {
  toml::table t;
  write_knobs(t, st, banks_knobs());
  return t;
}

toml::table transpose_preset_table(const SharedState& st) {
  toml::table t;
  write_knobs(t, st, transpose_knobs());
  return t;
}

toml::table matmul_preset_table(const SharedState& st) {
  toml::table t;
  write_knobs(t, st, matmul_knobs());
  return t;
}

toml::table reduction_preset_table(const SharedState& st) {
  toml::table t;
  write_knobs(t, st, reduction_knobs());
  return t;
}

toml::table shared_preset_section(const SharedState& state) {
  toml::table t = shared_kind(state.lab).preset_table(state);
  t.insert("model", model::to_string(state.model));
  toml::table section;
  section.insert(to_string(state.lab), std::move(t));
  return section;
}

}  // namespace warplens::app
