#include "shared_scenario.h"

#include <stdexcept>
#include <string>

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
