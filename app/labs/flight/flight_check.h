// The Little's-law model checked against measurements: a `warplens measure --lab flight --section
// all --format json` document gives the model's inputs (cudaMemcpy, the ladder's warp DRAM
// plateau L0, the loaded-latency probe's rows, and for the linear model tau from the one-block
// copies), another (or the same) gives the Little's-law copies it is judged on. Inputs from one
// run and points from another is the out-of-sample check; both from one run is what `measure`
// itself reports in its summary. The model is the lab's own (gpu::littles_law_loaded_gbps, and
// gpu::littles_law_gbps for the linear one), not a copy of it.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace warplens::app {

struct FlightCheck {
  std::string model;         ///< "loaded-latency probe", or "linear" when the inputs have no probe
  int probe_points = 0;      ///< verified probe rows among the inputs
  double knee_bytes = 0;     ///< per SM, from the inputs' L0 and cudaMemcpy
  int below = 0, above = 0;  ///< copies judged on each side of the knee
  /// Worst |measured - model| / model, %, of the model and of the linear one on the same inputs.
  double worst_below_pct = 0, worst_above_pct = 0;
  double linear_worst_below_pct = 0, linear_worst_above_pct = 0;
  std::vector<std::string> lines;  ///< one per copy: its knobs, measured, model, error
  /// The goals: <= 10 % below the knee and <= 5 % above it.
  [[nodiscard]] bool meets_goals() const { return worst_below_pct <= 10 && worst_above_pct <= 5; }
};

/// Throws std::invalid_argument for a document without the fields the model needs (cudaMemcpy,
/// the warp row's DRAM plateau, the SM count) or without Little's-law copies to judge.
FlightCheck check_flight_model(const nlohmann::json& points, const nlohmann::json& inputs);

}  // namespace warplens::app
