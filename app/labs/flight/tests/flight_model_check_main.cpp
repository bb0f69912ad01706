// flight-model-check POINTS.json [INPUTS.json [PROBE.json [TIMELINE.json]]]: the bytes-in-flight
// lab's line (the window's: with the probe's wall when the probe's rows give a curve, else linear)
// and the linear model beside it, judged on the Little's-law copies of POINTS.json (`warplens
// measure --lab flight --section all --format json`), its inputs from INPUTS.json (another run: out
// of sample) or from POINTS.json itself, the probe's rows from PROBE.json when given (else
// INPUTS'), the one-block gaps from TIMELINE.json's timeline rows (`--section timeline`; else
// INPUTS'). Prints one line per copy and the worst errors below and above the knee; exits 0 when
// the line meets both goals (<= 10 % below, <= 5 % above), 1 when not, 2 for a file it cannot read.
// Host only.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <exception>
#include <fstream>

#include "flight_check.h"

namespace {

nlohmann::json read(const char* path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(std::string("cannot open ") + path);
  return nlohmann::json::parse(in);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 5) {
    std::fprintf(stderr,
                 "usage: flight-model-check POINTS.json [INPUTS.json [PROBE.json "
                 "[TIMELINE.json]]]\n");
    return 2;
  }
  try {
    const nlohmann::json points = read(argv[1]);
    const nlohmann::json inputs = argc >= 3 ? read(argv[2]) : points;
    const nlohmann::json probe = argc >= 4 ? read(argv[3]) : nlohmann::json();
    const nlohmann::json timeline = argc == 5 ? read(argv[4]) : nlohmann::json();
    const auto c = warplens::app::check_flight_model(points, inputs, argc >= 4 ? &probe : nullptr,
                                                     argc == 5 ? &timeline : nullptr);
    for (const auto& line : c.lines) std::printf("%s\n", line.c_str());
    std::printf("line: %s, tau %.3f ns per byte of a warp's batch; knee %.0f B per SM\n",
                c.model.c_str(), c.tau_ns_per_byte, c.knee_bytes);
    if (c.gap_points > 0)
      std::printf("one block per SM capped by the timeline's gap at %d thread sizes\n",
                  c.gap_points);
    if (c.probe_model || c.gap_points > 0)
      std::printf(
          "linear model beside it (the line without the probe's %d verified points or the gap): "
          "worst "
          "%.1f %% below the knee, %.1f %% above\n",
          c.probe_points, c.linear_worst_below_pct, c.linear_worst_above_pct);
    std::printf(
        "line's worst error below the knee %.1f %% (%d copies, goal <= 10 %%), above %.1f %% "
        "(%d copies, goal <= 5 %%): %s\n",
        c.worst_below_pct, c.below, c.worst_above_pct, c.above,
        c.meets_goals() ? "goals met" : "goals NOT met");
    return c.meets_goals() ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "flight-model-check: %s\n", e.what());
    return 2;
  }
}
