#include "global_preset.h"

#include <cstdint>

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
  const gpu::CopyParams& p = state.params;
  toml::table copy;
  copy.insert("word_bytes", p.word_bytes);
  copy.insert("offset", p.offset);
  copy.insert("stride", p.stride);
  copy.insert("pattern", gpu::to_string(p.kind));
  // The parser reads a 32-bit integer and keeps its bits: every seed comes back the same.
  copy.insert("seed", std::int64_t{static_cast<std::int32_t>(p.seed)});
  copy.insert("side", gpu::to_string(p.side));
  copy.insert("path", gpu::to_string(p.path));
  copy.insert("layout", gpu::to_string(p.layout));
  // The parser refuses a field other than x without a struct layout (where it shows nothing).
  if (p.layout != gpu::StructLayout::None || state.field == 0)
    copy.insert("field", std::string(1, static_cast<char>('x' + state.field)));
  copy.insert("model", model::to_string(state.model));
  copy.insert("warp", state.warp);
  copy.insert("warps", state.warps);
  const gpu::CopyParams none;
  if (p.matrix_width != 0 || p.matrix_pitched != none.matrix_pitched ||
      p.matrix_by_column != none.matrix_by_column || p.block_y != none.block_y) {
    toml::table matrix;
    matrix.insert("width", p.matrix_width);
    matrix.insert("pitched", p.matrix_pitched);
    matrix.insert("by", p.matrix_by_column ? "column" : "row");
    matrix.insert("block_y", p.block_y);
    copy.insert("matrix", std::move(matrix));
  }
  toml::table section;
  section.insert("copy", std::move(copy));
  return section;
}

}  // namespace warplens::app
