#include "kernel_scenario.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "layout_access.h"

namespace warplens::app {

namespace {

// `key` of `t` as [x, y] of integers in 0 .. 2^31 - 1, `fallback` when absent.
model::BlockShape pair_value(const ScenarioTable& s, const toml::table& t, std::string_view key,
                             model::BlockShape fallback) {
  const toml::node* node = t.get(key);
  if (!node) return fallback;
  const toml::array* a = node->as_array();
  if (!a || a->size() != 2)
    throw s.error(std::string(key) + " must be [x, y], two integers (e.g. [32, 8])");
  model::BlockShape b;
  for (std::size_t i = 0; i < 2; ++i) {
    const auto v = integer_value(toml::node_view<const toml::node>((*a)[i]));
    if (!v || *v < 0 || *v > 0x7fffffff)
      throw s.error(std::string(key) + " must be [x, y], two integers in 0 .. 2147483647");
    (i == 0 ? b.x : b.y) = static_cast<int>(*v);
  }
  return b;
}

// A buffer's inline table { elements = N, word_bytes = W }.
gpu::KernelBuffer buffer_value(const ScenarioTable& s, const toml::table& t, std::string_view key,
                               gpu::KernelBuffer fallback) {
  const toml::node* node = t.get(key);
  if (!node) return fallback;
  const toml::table* b = node->as_table();
  if (!b) throw s.error(std::string(key) + " must be { elements = N, word_bytes = W }");
  for (const auto& [k, v] : *b)
    if (k != "elements" && k != "word_bytes")
      throw s.error(std::string(key) + ": unknown key \"" + std::string(k.str()) +
                    "\" (elements, word_bytes)");
  gpu::KernelBuffer out = fallback;
  if (b->contains("elements")) {
    const auto e = integer_value((*b)["elements"]);
    if (!e) throw s.error(std::string(key) + ".elements must be an integer");
    out.elements = *e;
  }
  out.word_bytes = s.int_value(*b, "word_bytes", fallback.word_bytes);
  return out;
}

// `constants`: a table, e.g. { n = 8192, m = 4 } (its names in order), or an array of such
// tables, [{ n = 8192 }, { m = 4 }], that keeps the constants' order.
std::vector<model::NamedConstant> constants_value(const ScenarioTable& s, const toml::node& c) {
  std::vector<model::NamedConstant> constants;
  const auto add = [&](const toml::table& table) {
    for (const auto& [name, value] : table) {
      const auto v = integer_value(toml::node_view<const toml::node>(value));
      if (!v) throw s.error("constants." + std::string(name.str()) + " must be an integer");
      constants.push_back({std::string(name.str()), *v});
    }
  };
  const char* const kForm = "constants must be a table, e.g. { n = 8192 }, or an array of them";
  if (const toml::table* table = c.as_table()) {
    add(*table);
  } else if (const toml::array* array = c.as_array()) {
    for (const toml::node& element : *array) {
      const toml::table* one = element.as_table();
      if (!one) throw s.error(kForm);
      add(*one);
    }
  } else {
    throw s.error(kForm);
  }
  return constants;
}

// A row's `layout` (and `lane_layout`) instead of `index`: the CuTe layout's equivalent index
// expression over tx (model/layout_access.h), every thread of the block's width inside it.
std::string layout_index(const ScenarioTable& s, const toml::table& r, const std::string& name,
                         int block_x) {
  const auto layout = r["layout"].value<std::string>();
  const auto lanes = r.contains("lane_layout") ? r["lane_layout"].value<std::string>()
                                               : std::optional<std::string>("");
  if (!layout || !lanes) throw s.error(name + ": layout and lane_layout must be strings");
  if (r.contains("index")) throw s.error(name + ": give index or layout, not both");
  try {
    const model::LayoutAccess access = model::parse_layout_access(*layout, *lanes);
    model::check_layout_threads(access, std::min(block_x, 1024));  // more: check_program refuses
    return model::layout_index_expression(access);
  } catch (const model::LayoutError& e) {
    throw s.error(name + ": " + e.what());
  }
}

gpu::KernelRow row_value(const ScenarioTable& s, const toml::table& r, std::size_t i, int block_x) {
  const std::string name = "rows[" + std::to_string(i + 1) + "]";
  static const char* const kKeys[] = {"space", "op",     "word_bytes",  "path",
                                      "index", "layout", "lane_layout", "sync"};
  for (const auto& [k, v] : r) {
    bool known = false;
    for (const char* key : kKeys) known = known || k == key;
    if (!known)
      throw s.error(name + ": unknown key \"" + std::string(k.str()) +
                    "\" (space, op, word_bytes, path, index, layout, lane_layout, sync)");
  }
  gpu::KernelRow row;
  try {
    row.space = gpu::parse_kernel_space(string_value(r, "space", "in"));
    const std::string op = string_value(r, "op", "load");
    if (op != "load" && op != "store") throw std::invalid_argument("op must be load or store");
    row.op = op == "store" ? model::Op::Store : model::Op::Load;
    row.path = gpu::parse_load_path(string_value(r, "path", "default"));
  } catch (const std::invalid_argument& e) {
    throw s.error(name + ": " + e.what());
  }
  row.word_bytes = s.int_value(r, "word_bytes", 4);
  if (r.contains("layout") || r.contains("lane_layout")) {
    row.index = layout_index(s, r, name, block_x);
    row.layout = r["layout"].value_or(std::string());
    row.lane_layout = r["lane_layout"].value_or(std::string());
  } else {
    const auto index = r["index"].value<std::string>();
    if (!index)
      throw s.error(name + ": missing or mistyped key \"index\" (a string), or \"layout\"");
    row.index = *index;
  }
  if (const toml::node* sync = r.get("sync")) {
    if (!sync->is_boolean()) throw s.error(name + ": sync must be true or false");
    row.sync_after = sync->as_boolean()->get();
  }
  return row;
}

}  // namespace

std::any parse_kernel_table(const ScenarioTable& scenario) {
  const toml::table& t = scenario.section("kernel");
  KernelState st;
  gpu::KernelProgram& p = st.program;
  p.block = pair_value(scenario, t, "block", {32, 8});
  p.grid = pair_value(scenario, t, "grid", {1, 1});
  p.in = buffer_value(scenario, t, "in", {std::int64_t{1} << 24, 4});
  p.out = buffer_value(scenario, t, "out", {std::int64_t{1} << 24, 4});
  p.tile = buffer_value(scenario, t, "tile", {0, 4});
  if (const toml::node* c = t.get("constants")) p.constants = constants_value(scenario, *c);
  if (const toml::node* tr = t.get("trace")) {
    const toml::table* table = tr->as_table();
    if (!table) throw scenario.error("trace must be { block = [x, y], warp = w }");
    const model::BlockShape b = pair_value(scenario, *table, "block", {0, 0});
    st.traced = {b.x, b.y, scenario.int_value(*table, "warp", 0)};
  }
  st.step = scenario.int_value(t, "step", 1) - 1;
  st.tile_row = scenario.int_value(t, "tile_row", 0);
  const toml::array* rows = t["rows"].as_array();
  if (!rows || rows->empty())
    throw scenario.error("[kernel] needs rows: [[kernel.rows]] tables, 1 .. 8 of them");
  for (std::size_t i = 0; i < rows->size(); ++i) {
    const toml::table* r = (*rows)[i].as_table();
    if (!r) throw scenario.error("rows[" + std::to_string(i + 1) + "] must be a table");
    p.rows.push_back(row_value(scenario, *r, i, p.block.x));
  }
  try {
    st.section = parse_kernel_section(string_value(t, "section", "access"));
    st.model = model::parse_hardware_model(string_value(t, "model", "modern"));
    gpu::check_program(p);
    gpu::check_traced_warp(p, st.traced);
    check_tile_row(st);
    if (st.step < 0 || st.step >= static_cast<int>(p.rows.size()))
      throw std::invalid_argument("step must be 1 .. " + std::to_string(p.rows.size()) +
                                  " (the rows)");
  } catch (const std::invalid_argument& e) {
    throw scenario.error(e.what());
  }
  return st;
}

}  // namespace warplens::app
