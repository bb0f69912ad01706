// The shared-memory labs' part of a scenario: the [banks], [transpose], [matmul] or
// [reduction] table of a preset, one parser per lab (LabInfo::parse_section).
#pragma once

#include <any>
#include <optional>
#include <vector>

#include "scenario.h"
#include "shared_session.h"
#include "toml_fields.h"

namespace warplens::app {

/// Each parses its lab's table into a SharedState (lab set) and checks that the shown access
/// fits the model's shared memory. Every table may name the memory model shown, `model =
/// "modern"` (default), "kepler" or "g80". Throw ScenarioError naming the file and the problem.
/// Their writing side: shared_preset.h.
std::any parse_banks_table(const ScenarioTable& scenario);
std::any parse_transpose_table(const ScenarioTable& scenario);
std::any parse_matmul_table(const ScenarioTable& scenario);
std::any parse_reduction_table(const ScenarioTable& scenario);

/// The counter case of the shared access a scenario shows (banks, matmul, reduction); none for
/// a kernel without one (the naive matrix multiply).
std::optional<CounterCase> shared_counter_case(const Scenario& scenario);

/// verify's generated bank-lab cases beside the catalog's own (LabInfo::verify_cases): CuTe
/// layouts run by the bank probe (SharedPatternKind::Layout), e.g. "shared/ld/4B/layout
/// Sw<3,2,3> o (32,32):(32,1)", the 128-byte TMA swizzle of a float tile read down a column.
std::vector<CounterCase> banks_verify_cases(int compute_capability);
/// The transpose's: its tile access, or for the copy and naive variants (no tile) the global
/// write (the read with view = "global-read").
std::optional<CounterCase> transpose_counter_case(const Scenario& scenario);

/// The parameters of a shared-memory lab's scenario (std::logic_error otherwise).
inline const SharedState& shared_scenario(const Scenario& s) {
  return lab_parameters<SharedState>(s, "shared-memory");
}

}  // namespace warplens::app
