#include "shared_scenario.h"

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cute_layout.h"
#include "shared_pattern.h"

#include "shared_knobs.h"

namespace warplens::app {

namespace {

// Runs `fill` on the lab's table, reads the memory model shown (`model`, every shared lab), then
// checks the shown access; std::invalid_argument from any becomes a ScenarioError naming the file.
template <typename Fill>
std::any parse_shared(const ScenarioTable& scenario, Lab lab, Fill&& fill) {
  const toml::table& t = scenario.section(to_string(lab));
  SharedState st;
  st.lab = lab;
  try {
    fill(t, st);
    st.model = model::parse_hardware_model(string_value(t, "model", "modern"));
    const auto access = shown_access(st);
    if (access) (void)gpu::plan_bank_probe(*access, gpu::kModelSharedBytesPerBlock);
  } catch (const std::invalid_argument& e) {
    throw scenario.error(e.what());
  }
  return st;
}

}  // namespace

std::any parse_banks_table(const ScenarioTable& scenario) {
  return parse_shared(scenario, Lab::Banks, [&](const toml::table& t, SharedState& st) {
    read_knobs(scenario, t, st, banks_knobs());
    if (!t.contains("pitch")) st.probe.index.pitch_elements = st.probe.index.tile_width;
    (void)shared_model_accesses(st.probe, st.warp);  // the warp is in the block
  });
}

std::any parse_transpose_table(const ScenarioTable& scenario) {
  return parse_shared(scenario, Lab::Transpose, [&](const toml::table& t, SharedState& st) {
    read_knobs(scenario, t, st, transpose_knobs());
  });
}

std::any parse_matmul_table(const ScenarioTable& scenario) {
  return parse_shared(scenario, Lab::Matmul, [&](const toml::table& t, SharedState& st) {
    read_knobs(scenario, t, st, matmul_knobs());
  });
}

std::any parse_reduction_table(const ScenarioTable& scenario) {
  return parse_shared(scenario, Lab::Reduction, [&](const toml::table& t, SharedState& st) {
    read_knobs(scenario, t, st, reduction_knobs());
  });
}

std::optional<CounterCase> shared_counter_case(const Scenario& scenario) {
  const auto access = shown_access(shared_scenario(scenario));
  if (!access) return std::nullopt;
  CounterCase c;
  c.kind = CaseKind::Bank;
  c.probe = *access;
  return c;
}

std::vector<CounterCase> banks_verify_cases(int) {
  // Layouts of the lecture (docs/layouts.md) and of the tile lab's swizzle modes, one warp of
  // 32 threads each: (layout, element bytes).
  const std::pair<const char*, int> layouts[] = {
      {"(8,4):(32,1)", 4},                    // 8 wavefronts: rows 32 words apart
      {"(32,32):(32,1)", 4},                  // a column of the 32 x 32 tile: 32
      {"Sw<5,0,5> o (32,32):(32,1)", 4},      // tile[32][33] told as a swizzle: 1
      {"(32,32):(33,1)", 4},                  // tile[32][33] itself: 1
      {"Sw<3,2,3> o (32,32):(32,1)", 4},      // the TMA's 128-byte mode, floats: 4
      {"Sw<2,2,3> o (32,16):(16,1)", 4},      // its 64-byte mode: 4
      {"Swizzle<3,4,3> o (8,64):(64,1)", 2},  // docs/layouts.md, example 2: 2
      {"Sw<3,3,3> o (8,64):(64,1)", 2},       // the 128-byte mode of halves: 1
      {"(4,8):(2,8)", 8},                     // 8-byte words in two phases
  };
  std::vector<CounterCase> cases;
  for (const auto& [text, word] : layouts) {
    CounterCase c;
    c.name = "shared/ld/" + std::to_string(word) + "B/layout " + text;
    c.kind = CaseKind::Bank;
    c.probe.index = shared_layout_index(model::parse_layout(text), word);
    c.probe.op = gpu::SharedOp::Load;
    c.probe.block_x = 32;
    c.probe.block_y = 1;
    cases.push_back(std::move(c));
  }
  return cases;
}

std::optional<CounterCase> transpose_counter_case(const Scenario& scenario) {
  if (auto c = shared_counter_case(scenario)) return c;
  const SharedState& st = shared_scenario(scenario);
  CounterCase c;
  c.kind = CaseKind::TransposeGlobal;
  c.transpose = st.transpose;
  c.transpose_write = st.transpose_view != TransposeView::GlobalRead;
  return c;
}

}  // namespace warplens::app
