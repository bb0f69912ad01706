// Built-in scenarios: TOML presets in assets/scenarios/, embedded into the binary at build time.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cache_session.h"
#include "gpu.h"
#include "shared_session.h"

namespace warplens::app {

/// A preset that cannot be used; what() names the file, line and problem (toml++'s message).
class ScenarioError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Scenario {
  std::string name;       ///< the --scenario name, e.g. "misaligned"
  std::string title;      ///< one line, for the window and figure titles
  std::string summary;    ///< 2-4 sentences
  std::string look_for;   ///< what to watch in the view
  Lab lab = Lab::Global;  ///< which lab the scenario opens
  gpu::CopyParams copy;   ///< the copy kernel's parameters (global lab)
  SharedState shared;     ///< the shared-memory labs' parameters (lab banks, transpose, ...)
  CacheState cache;       ///< the cache lab's parameters (lab cache)
  int warp = 0;           ///< first warp of block 0 the view traces
  int warps = 1;          ///< warps side by side: 1, 2, 4 or 8
  /// The memory model the global lab shows ([copy] model = "fermi-ca", ...; the shared labs
  /// keep theirs in `shared.model`).
  model::HardwareModel copy_model = model::HardwareModel::Modern;
  /// An A/B scenario: the built-in scenario (same lab) shown as side A, this one as side B.
  /// Empty for a single view.
  std::string compare_with;
};

/// Parses one preset; `origin` names it in errors. Throws ScenarioError.
Scenario parse_scenario(std::string_view toml_text, const std::string& origin);

/// Reads and parses a user's preset file (the same format as assets/scenarios/*.toml). Throws
/// ScenarioError naming the file, and for a syntax error the line, column and toml++'s message;
/// a file that cannot be read says so.
Scenario load_scenario_file(const std::string& path);

/// The built-in catalog in lecture order (file-name order).
const std::vector<Scenario>& builtin_scenarios();

/// The built-in scenario called `name`; throws ScenarioError listing the names otherwise.
const Scenario& find_scenario(std::string_view name);

inline constexpr std::string_view kDefaultScenario = "aligned";

}  // namespace warplens::app
