#include "scenarios.h"

#include <toml++/toml.h>

#include <fstream>
#include <sstream>

#include "embedded.h"

namespace warplens::assets {
extern const EmbeddedFile files[];
extern const std::size_t file_count;
}  // namespace warplens::assets

namespace warplens::app {

namespace {
template <typename T>
T required(const toml::table& table, std::string_view key, const std::string& origin) {
  const auto value = table[key].value<T>();
  if (!value)
    throw ScenarioError(origin + ": missing or mistyped key \"" + std::string(key) + "\"");
  return *value;
}
}  // namespace

namespace {
// "50 %" must not wrap between the number and its unit: use a no-break space (U+00A0).
std::string keep_units_together(std::string text) {
  for (std::size_t at = text.find(" %"); at != std::string::npos; at = text.find(" %", at)) {
    text.replace(at, 1, "\u00a0");
  }
  return text;
}
}  // namespace

namespace {

int int_value(const toml::table& t, std::string_view key, int fallback, const std::string& origin) {
  const auto node = t[key];
  if (!node) return fallback;
  const auto v = node.value<std::int64_t>();
  if (!v || *v < -(std::int64_t{1} << 31) || *v >= (std::int64_t{1} << 31))
    throw ScenarioError(origin + ": \"" + std::string(key) + "\" must be a 32-bit integer");
  return static_cast<int>(*v);
}

std::string string_value(const toml::table& t, std::string_view key, const std::string& fallback) {
  return t[key].value_or(fallback);
}

// The [cache] table of a cache-lab scenario: section, carveout, sizes in KiB, k, read path.
void parse_cache_lab(const toml::table& table, const std::string& origin, Scenario& s) {
  const toml::table* t = table["cache"].as_table();
  if (!t) throw ScenarioError(origin + ": missing [cache] table");
  CacheState& c = s.cache;
  try {
    c.section = parse_cache_section(string_value(*t, "section", "carveout"));
    c.carveout = int_value(*t, "carveout", gpu::kCarveoutDefault, origin);
    gpu::check_carveout(c.carveout);
    c.dynamic_shared_bytes = std::int64_t{1024} * int_value(*t, "dynamic_shared_kib", 20, origin);
    gpu::check_dynamic_shared(c.dynamic_shared_bytes, gpu::kModelSharedBytesPerBlock);
    c.working_set_bytes = std::int64_t{1024} * int_value(*t, "working_set_kib", 64, origin);
    gpu::check_working_set(c.working_set_bytes);
    c.k = int_value(*t, "k", 4, origin);
    gpu::check_constant_k(c.k);
    c.read.path = gpu::parse_read_path(string_value(*t, "path", "plain"));
    c.read.pattern = gpu::parse_read_pattern(string_value(*t, "pattern", "local-2d"));
  } catch (const std::invalid_argument& e) {
    throw ScenarioError(origin + ": " + e.what());
  }
}

// The [banks], [transpose], [matmul] or [reduction] table of a shared-memory scenario.
void parse_shared_lab(const toml::table& table, const std::string& origin, Scenario& s) {
  const char* section = to_string(s.lab);
  const toml::table* t = table[section].as_table();
  if (!t) throw ScenarioError(origin + ": missing [" + std::string(section) + "] table");
  SharedState& st = s.shared;
  st.lab = s.lab;
  try {
    switch (s.lab) {
      case Lab::Banks: {
        gpu::BankProbeParams& p = st.probe;
        p.index.kind = gpu::parse_shared_pattern_kind(string_value(*t, "pattern", "strided"));
        p.index.word_bytes = int_value(*t, "word_bytes", 4, origin);
        p.index.offset = int_value(*t, "offset", 0, origin);
        p.index.stride = int_value(*t, "stride", 1, origin);
        p.index.tile_width = int_value(*t, "tile_width", 32, origin);
        p.index.pitch = int_value(*t, "pitch", p.index.tile_width, origin);
        p.index.by_column = string_value(*t, "by", "row") == "column";
        p.index.swizzle = (*t)["swizzle"].value_or(false);
        p.index.struct_words = int_value(*t, "struct_words", 2, origin);
        p.index.field = int_value(*t, "field", 0, origin);
        p.index.part = int_value(*t, "part", 0, origin);
        p.op = gpu::parse_shared_op(string_value(*t, "op", "load"));
        const auto block = model::parse_block(string_value(*t, "block", "32x1"));
        p.block_x = block.x;
        p.block_y = block.y;
        st.warp = int_value(*t, "warp", 0, origin);
        st.model = model::parse_hardware_model(string_value(*t, "model", "modern"));
        break;
      }
      case Lab::Transpose:
        st.transpose.variant = gpu::parse_transpose_variant(string_value(*t, "variant", "tiled"));
        st.transpose.tile = int_value(*t, "tile", 32, origin);
        st.transpose.rows_per_block = int_value(*t, "rows_per_block", 8, origin);
        st.transpose.n = int_value(*t, "n", 8192, origin);
        st.transpose_read = string_value(*t, "show", "read") == "read";
        {
          const std::string view = string_value(*t, "view", "tile");
          if (view != "tile" && view != "global-read" && view != "global-write")
            throw std::invalid_argument("view must be tile, global-read or global-write (got \"" +
                                        view + "\")");
          st.transpose_view = view == "tile"          ? TransposeView::Tile
                              : view == "global-read" ? TransposeView::GlobalRead
                                                      : TransposeView::GlobalWrite;
        }
        break;
      case Lab::Matmul:
        st.matmul.block_size = int_value(*t, "block_size", 16, origin);
        st.matmul.n = int_value(*t, "n", 2048, origin);
        st.matmul_k = int_value(*t, "k", 0, origin);
        st.matmul_b = string_value(*t, "operand", "a") == "b";
        break;
      case Lab::Reduction:
        st.reduction.variant =
            gpu::parse_reduction_variant(string_value(*t, "variant", "sequential"));
        st.reduction.block_threads = int_value(*t, "block_threads", 256, origin);
        st.reduction.elements = int_value(*t, "elements", 1 << 24, origin);
        st.reduction_step = int_value(*t, "step", 0, origin);
        st.reduction_second = string_value(*t, "operand", "first") == "second";
        break;
      case Lab::Global:
      case Lab::Cache: break;
    }
    const auto access = shown_access(st);
    if (access) (void)gpu::plan_bank_probe(*access, gpu::kModelSharedBytesPerBlock);
    if (s.lab == Lab::Banks) (void)shared_model_accesses(st.probe, st.warp);
  } catch (const std::invalid_argument& e) {
    throw ScenarioError(origin + ": " + e.what());
  }
}

}  // namespace

Scenario parse_scenario(std::string_view text, const std::string& origin) {
  toml::table table;
  try {
    table = toml::parse(text, origin);
  } catch (const toml::parse_error& e) {
    std::ostringstream message;
    message << origin << ":" << e.source().begin.line << ":" << e.source().begin.column << ": "
            << e.description();
    throw ScenarioError(message.str());
  }
  Scenario s;
  s.name = required<std::string>(table, "name", origin);
  s.title = required<std::string>(table, "title", origin);
  s.summary = keep_units_together(required<std::string>(table, "summary", origin));
  s.look_for = keep_units_together(table["look_for"].value_or(std::string()));
  s.compare_with = table["compare_with"].value_or(std::string());
  try {
    s.lab = parse_lab(table["lab"].value_or(std::string("global")));
  } catch (const std::invalid_argument& e) {
    throw ScenarioError(origin + ": " + e.what());
  }
  if (s.lab == Lab::Cache) {
    parse_cache_lab(table, origin, s);
    return s;
  }
  if (s.lab != Lab::Global) {
    parse_shared_lab(table, origin, s);
    return s;
  }
  const toml::table* copy = table["copy"].as_table();
  if (!copy) throw ScenarioError(origin + ": missing [copy] table");
  s.copy.word_bytes = static_cast<int>(required<std::int64_t>(*copy, "word_bytes", origin));
  s.copy.offset = required<std::int64_t>(*copy, "offset", origin);
  s.copy.stride = required<std::int64_t>(*copy, "stride", origin);
  s.warp = static_cast<int>((*copy)["warp"].value_or(std::int64_t{0}));
  s.warps = static_cast<int>((*copy)["warps"].value_or(std::int64_t{1}));
  try {
    s.copy.kind = gpu::parse_index_kind((*copy)["pattern"].value_or(std::string("strided")));
    s.copy.seed = static_cast<std::uint32_t>((*copy)["seed"].value_or(std::int64_t{1}));
    s.copy.side = gpu::parse_pattern_side((*copy)["side"].value_or(std::string("read")));
    s.copy.path = gpu::parse_load_path((*copy)["path"].value_or(std::string("default")));
    s.copy.layout = gpu::parse_struct_layout((*copy)["layout"].value_or(std::string("none")));
    s.copy_model = model::parse_hardware_model((*copy)["model"].value_or(std::string("modern")));
    if (const toml::table* m = (*copy)["matrix"].as_table()) {
      s.copy.matrix_width = static_cast<int>((*m)["width"].value_or(std::int64_t{120}));
      s.copy.matrix_pitched = (*m)["pitched"].value_or(false);
      s.copy.matrix_by_column = (*m)["by"].value_or(std::string("row")) == "column";
      s.copy.block_y = static_cast<int>((*m)["block_y"].value_or(std::int64_t{8}));
    }
    (void)gpu::plan_copy(s.copy, gpu::kModelBufferBytes);
  } catch (const std::invalid_argument& e) {
    throw ScenarioError(origin + ": " + e.what());
  }
  if (s.warps != 1 && s.warps != 2 && s.warps != 4 && s.warps != 8) {
    throw ScenarioError(origin + ": warps must be 1, 2, 4 or 8 (got " + std::to_string(s.warps) +
                        ")");
  }
  if (s.warp < 0 || s.warp + s.warps > s.copy.block_threads / 32) {
    throw ScenarioError(origin + ": warps " + std::to_string(s.warp) + ".." +
                        std::to_string(s.warp + s.warps - 1) + " are not in 0.." +
                        std::to_string(s.copy.block_threads / 32 - 1));
  }
  return s;
}

namespace {
// A scenario's compare_with must name another scenario of `catalog` in the same lab (one that
// does not itself compare, so A is plain parameters).
void check_compare_with(const Scenario& s, const std::vector<Scenario>& catalog,
                        const std::string& origin) {
  if (s.compare_with.empty()) return;
  if (s.lab == Lab::Cache)
    throw ScenarioError(origin + ": compare_with: the cache lab has no A/B compare");
  for (const Scenario& other : catalog) {
    if (other.name != s.compare_with) continue;
    if (other.lab != s.lab) {
      throw ScenarioError(origin + ": compare_with = \"" + s.compare_with + "\" is in the " +
                          to_string(other.lab) + " lab, this scenario in the " + to_string(s.lab) +
                          " lab");
    }
    if (!other.compare_with.empty()) {
      throw ScenarioError(origin + ": compare_with = \"" + s.compare_with +
                          "\" is itself an A/B scenario");
    }
    return;
  }
  throw ScenarioError(origin + ": compare_with = \"" + s.compare_with +
                      "\" names no built-in scenario");
}
}  // namespace

Scenario load_scenario_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ScenarioError(path + ": cannot open the preset file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw ScenarioError(path + ": cannot read the preset file");
  Scenario s = parse_scenario(text.str(), path);
  check_compare_with(s, builtin_scenarios(), path);
  return s;
}

const std::vector<Scenario>& builtin_scenarios() {
  static const std::vector<Scenario> catalog = [] {
    std::vector<Scenario> list;
    for (std::size_t i = 0; i < assets::file_count; ++i) {
      list.push_back(parse_scenario(assets::files[i].text, std::string(assets::files[i].path)));
    }
    for (std::size_t i = 0; i < list.size(); ++i)
      check_compare_with(list[i], list, std::string(assets::files[i].path));
    return list;
  }();
  return catalog;
}

const Scenario& find_scenario(std::string_view name) {
  std::string names;
  for (const Scenario& s : builtin_scenarios()) {
    if (s.name == name) return s;
    names += (names.empty() ? "" : ", ") + s.name;
  }
  throw ScenarioError("unknown scenario \"" + std::string(name) + "\" (built-in: " + names + ")");
}

}  // namespace warplens::app
