#include "shared_preset.h"

#include <string>

#include "shared_kinds.h"

namespace warplens::app {

namespace {

const char* transpose_view_text(TransposeView view) {
  switch (view) {
    case TransposeView::Tile: return "tile";
    case TransposeView::GlobalRead: return "global-read";
    case TransposeView::GlobalWrite: return "global-write";
  }
  return "tile";
}

}  // namespace

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
  t.insert("variant", gpu::to_string(st.transpose.variant));
  t.insert("tile", st.transpose.tile);
  t.insert("rows_per_block", st.transpose.rows_per_block);
  t.insert("n", st.transpose.n);
  t.insert("show", st.transpose_read ? "read" : "write");
  t.insert("view", transpose_view_text(st.transpose_view));
  return t;
}

toml::table matmul_preset_table(const SharedState& st) {
  toml::table t;
  t.insert("block_size", st.matmul.block_size);
  t.insert("n", st.matmul.n);
  t.insert("k", st.matmul_k);
  t.insert("operand", st.matmul_b ? "b" : "a");
  return t;
}

toml::table reduction_preset_table(const SharedState& st) {
  toml::table t;
  t.insert("variant", gpu::to_string(st.reduction.variant));
  t.insert("block_threads", st.reduction.block_threads);
  t.insert("elements", st.reduction.elements);
  t.insert("step", st.reduction_step);
  t.insert("operand", st.reduction_second ? "second" : "first");
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
