#include "shared_preset.h"

#include <string>

#include "shared_kinds.h"
#include "shared_knobs.h"

namespace warplens::app {

toml::table banks_preset_table(const SharedState& st) {
  const gpu::BankProbeParams& p = st.probe;
  const SharedIndexParams& x = p.index;
  toml::table t;
  t.insert("pattern", gpu::to_string(x.kind));
  t.insert("word_bytes", x.word_bytes);
  t.insert("offset", x.offset);
  t.insert("stride", x.stride);
  t.insert("tile_width", x.tile_width);
  t.insert("pitch", x.pitch_elements);
  t.insert("by", x.by_column ? "column" : "row");
  t.insert("swizzle", x.swizzle);
  t.insert("struct_words", x.struct_words);
  t.insert("field", x.field);
  t.insert("part", x.part);
  t.insert("op", p.op == gpu::SharedOp::Store ? "store" : "load");
  t.insert("block", model::to_string(model::BlockShape{p.block_x, p.block_y}));
  t.insert("warp", st.warp);
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
