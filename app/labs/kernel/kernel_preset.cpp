#include "kernel_preset.h"

#include <algorithm>

namespace warplens::app {

namespace {

toml::table buffer_table(const gpu::KernelBuffer& b) {
  toml::table t;
  t.insert("elements", b.elements);
  t.insert("word_bytes", b.word_bytes);
  t.is_inline(true);
  return t;
}

// `constants`: a table, or where that would sort them (a table keeps its keys in order) an
// array of one-name tables, [{ n = 1 }, { m = 2 }].
void insert_constants(toml::table& kernel, const std::vector<model::NamedConstant>& constants) {
  const bool in_order = std::is_sorted(
      constants.begin(), constants.end(),
      [](const model::NamedConstant& a, const model::NamedConstant& b) { return a.name < b.name; });
  if (in_order) {
    toml::table table;
    for (const auto& k : constants) table.insert(k.name, k.value);
    table.is_inline(true);
    kernel.insert("constants", std::move(table));
    return;
  }
  toml::array array;
  for (const auto& k : constants) {
    toml::table one;
    one.insert(k.name, k.value);
    one.is_inline(true);
    array.push_back(std::move(one));
  }
  kernel.insert("constants", std::move(array));
}

toml::table row_table(const gpu::KernelRow& r) {
  toml::table row;
  row.insert("space", gpu::to_string(r.space));
  row.insert("op", r.op == model::Op::Store ? "store" : "load");
  row.insert("word_bytes", r.word_bytes);
  row.insert("path", gpu::to_string(r.path));
  if (r.layout.empty()) {
    row.insert("index", r.index);
  } else {  // the layout it came from: the parser makes the same index of it
    row.insert("layout", r.layout);
    if (!r.lane_layout.empty()) row.insert("lane_layout", r.lane_layout);
  }
  row.insert("sync", r.sync_after);
  return row;
}

}  // namespace

toml::table kernel_preset_section(const KernelState& st) {
  const gpu::KernelProgram& p = st.program;
  toml::table kernel;
  kernel.insert("block", toml::array{p.block.x, p.block.y});
  kernel.insert("grid", toml::array{p.grid.x, p.grid.y});
  kernel.insert("in", buffer_table(p.in));
  kernel.insert("out", buffer_table(p.out));
  const gpu::KernelBuffer no_tile = gpu::KernelProgram{}.tile;
  if (!(p.tile == no_tile)) kernel.insert("tile", buffer_table(p.tile));
  if (!p.constants.empty()) insert_constants(kernel, p.constants);
  toml::table trace;
  trace.insert("block", toml::array{st.traced.block_x, st.traced.block_y});
  trace.insert("warp", st.traced.warp);
  trace.is_inline(true);
  kernel.insert("trace", std::move(trace));
  kernel.insert("step", st.step + 1);
  if (st.tile_row > 0) kernel.insert("tile_row", st.tile_row);
  kernel.insert("section", to_string(st.section));
  kernel.insert("model", model::to_string(st.model));
  toml::array rows;
  for (const auto& r : p.rows) rows.push_back(row_table(r));
  kernel.insert("rows", std::move(rows));
  toml::table section;
  section.insert("kernel", std::move(kernel));
  return section;
}

std::string kernel_preset_toml(const KernelState& state, const std::string& name,
                               const std::string& title, const std::string& summary) {
  toml::table top;
  top.insert("name", name);
  top.insert("lab", "kernel");
  top.insert("title", title);
  top.insert("summary", summary);
  for (auto&& [key, node] : kernel_preset_section(state)) top.insert(key, std::move(node));
  return toml_text(top);
}

}  // namespace warplens::app
