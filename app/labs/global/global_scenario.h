// The global lab's part of a scenario: the [copy] table of a preset.
#pragma once

#include <any>
#include <optional>

#include "counter_checks.h"
#include "gpu.h"
#include "memory_model.h"
#include "scenario.h"
#include "toml_fields.h"

namespace warplens::app {

struct GlobalScenario {
  gpu::CopyParams copy;  ///< the copy kernel's parameters
  int warp = 0;          ///< first warp of block 0 the view traces
  int warps = 1;         ///< warps side by side: 1, 2, 4 or 8
  int field = 0;         ///< a struct layout's field shown: 0 x, 1 y, 2 z ([copy] field = "y")
  /// The memory model shown ([copy] model = "fermi-ca", ...).
  model::HardwareModel model = model::HardwareModel::Modern;
};

/// Parses the [copy] table (word_bytes, offset, stride required; pattern, seed, side, path,
/// layout, field, model, warp, warps, [copy.matrix]
/// optional) and checks it against the model's
/// buffer. Throws ScenarioError naming the file and the problem. Its writing side:
/// global_preset.h.
std::any parse_global_table(const ScenarioTable& scenario);

/// The counter case of the scenario's copy (verify's catalog).
std::optional<CounterCase> global_counter_case(const Scenario& scenario);

/// The global lab's parameters of a global-lab scenario (std::logic_error otherwise).
inline const GlobalScenario& global_scenario(const Scenario& s) {
  return lab_parameters<GlobalScenario>(s, "global");
}

}  // namespace warplens::app
