// The Little's-law line checked against measurements: a `warplens measure --lab flight --section
// all --format json` document gives the line's inputs (cudaMemcpy, the ladder's warp DRAM plateau
// L0, tau from its one-block copies below the knee, and the loaded-latency probe's rows), another
// (or the same) gives the Little's-law copies it is judged on. Inputs from one run and points from
// another is the out-of-sample check; both from one run is what `measure` itself reports in its
// summary. The probe's rows may come from a third document (runs 1 and 2 of 2026-11-27 predate
// the probe), the one-block gaps from a fourth's timeline rows. The line judged is the window's,
// gpu::LittlesLawLine: gpu::littles_law_loaded_gbps when the probe gives a curve
// (gpu::loaded_latency_model against the inputs' L0), else the linear model
// gpu::littles_law_gbps, capped for one block per SM by gpu::one_block_wall_gbps when timeline
// rows give gaps; the linear model is always judged beside it. Both are the lab's own
// functions, not copies of them (docs/flight.md, "The line near the wall").
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace warplens::app {

struct FlightCheck {
  std::string model = "linear";  ///< the line judged: "linear" or "probe wall", and
                                 ///< ", one-block gap" when the timeline gave gaps
  int probe_points = 0;          ///< verified probe rows read
  bool probe_model = false;      ///< the probe gave a curve: the line is the probe wall's
  int gap_points = 0;  ///< one-block timelines read (gpu::block_gaps): one block per SM capped
  double tau_ns_per_byte = 0;  ///< tau of a warp's batch, from the inputs' one-block copies
  double knee_bytes = 0;       ///< per SM, from the inputs' L0 and cudaMemcpy
  int below = 0, above = 0;    ///< copies judged on each side of the knee
  /// Worst |measured - model| / model, %, of the line and of the linear model on the same
  /// inputs (the same numbers when there is no probe).
  double worst_below_pct = 0, worst_above_pct = 0;
  double linear_worst_below_pct = 0, linear_worst_above_pct = 0;
  std::vector<std::string> lines;  ///< one per copy: its knobs, measured, line, error, linear's
  /// The goals, for the line: <= 10 % below the knee and <= 5 % above it.
  [[nodiscard]] bool meets_goals() const { return worst_below_pct <= 10 && worst_above_pct <= 5; }
};

/// Throws std::invalid_argument for a document without the fields the model needs (cudaMemcpy,
/// the warp row's DRAM plateau, the SM count) or without Little's-law copies to judge. `probe`:
/// a document whose loaded-latency rows replace the inputs' (nullptr: the inputs' own);
/// `timeline`: one whose "timeline" rows give the one-block gaps (nullptr: the inputs' own; runs
/// before 2026-11-28 have none, and their line has no gap).
FlightCheck check_flight_model(const nlohmann::json& points, const nlohmann::json& inputs,
                               const nlohmann::json* probe = nullptr,
                               const nlohmann::json* timeline = nullptr);

}  // namespace warplens::app
