// libFuzzer target: a preset's TOML as `warplens --preset FILE` and `render --preset FILE` read
// it (scenarios.h: parse_preset, the text part of load_scenario_file): toml++, the common
// fields, every lab's table parser through the registry (parse_global_table, parse_banks_table,
// ..., parse_cache_table) with the parameter checks they run, and compare_with against the
// built-in catalog. Input: the file's bytes.
//
// The contract is that a bad preset throws ScenarioError and nothing else; any other exception
// escapes to libFuzzer as a finding, as would a crash, a sanitizer report, a leak or a hang. A
// preset that parses is read back through its lab's accessor and counter case (verify's), which
// must not throw for a scenario its own parser made.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "lab.h"
#include "scenario.h"
#include "scenarios.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)warplens::app::builtin_scenarios();  // parsed once, outside the timed inputs
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace warplens::app;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string origin = "fuzz.toml";
  Scenario scenario;
  try {
    scenario = parse_preset(text, origin);
  } catch (const ScenarioError& e) {
    // Every refusal names the preset.
    if (std::string_view(e.what()).substr(0, origin.size()) != origin) std::abort();
    return 0;
  }
  if (!scenario.parameters.has_value()) std::abort();
  const LabInfo& lab = lab_info(scenario.lab);
  if (lab.counter_case) (void)lab.counter_case(scenario);
  return 0;
}
