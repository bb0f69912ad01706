// A scenario: what the picker lists and a preset file holds. The shell reads the common fields
// (name, title, texts, lab, compare_with); the scenario's lab parses its own table ([copy],
// [banks], [cache] ...) into `parameters` (LabInfo::parse_section), and reads it back with its
// own accessor (global_scenario(), shared_scenario(), cache_scenario()). Presets' format:
// assets/scenarios/*.toml.
#pragma once

#include <any>
#include <optional>
#include <stdexcept>
#include <string>

#include "lab_id.h"

namespace warplens::app {

/// A preset that cannot be used; what() names the file, line and problem (toml++'s message).
class ScenarioError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Scenario {
  std::string name;      ///< the --scenario name, e.g. "misaligned"
  std::string title;     ///< one line, for the window and figure titles
  std::string summary;   ///< 2-4 sentences
  std::string look_for;  ///< what to watch in the view
  Lab lab = kFirstLab;   ///< which lab the scenario opens
  /// An A/B scenario: the built-in scenario (same lab) shown as side A, this one as side B.
  /// Empty for a single view.
  std::string compare_with;
  /// `presenter = true/false`: the layout the scenario opens in (unset: automatic).
  std::optional<bool> presenter;
  /// `question = "..."`: what predict-then-reveal (key Q) asks for this scenario instead of the
  /// lab's own question (the count it asks for stays the lab's: wavefronts or sectors).
  std::string question;
  /// The lab's parameters as its section parser made them (a value type of the lab's).
  std::any parameters;
};

/// The lab's parameters of `scenario`, or a std::logic_error naming the scenario when it
/// belongs to another lab (or was made without its lab's parser).
template <typename Parameters>
const Parameters& lab_parameters(const Scenario& scenario, const char* lab_name) {
  const auto* p = std::any_cast<Parameters>(&scenario.parameters);
  if (!p) {
    throw std::logic_error("scenario \"" + scenario.name + "\" holds no " + lab_name +
                           " lab parameters");
  }
  return *p;
}

}  // namespace warplens::app
