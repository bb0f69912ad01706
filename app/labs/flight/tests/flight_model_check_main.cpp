// flight-model-check POINTS.json [INPUTS.json]: the bytes-in-flight lab's model judged on the
// Little's-law copies of POINTS.json (`warplens measure --lab flight --section all --format
// json`), its inputs from INPUTS.json (another run: out of sample) or from POINTS.json itself.
// Prints one line per copy and the worst error below and above the knee; exits 0 when both goals
// are met (<= 10 % below, <= 5 % above), 1 when not, 2 for a file it cannot read. Host only.
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
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: flight-model-check POINTS.json [INPUTS.json]\n");
    return 2;
  }
  try {
    const nlohmann::json points = read(argv[1]);
    const nlohmann::json inputs = argc == 3 ? read(argv[2]) : points;
    const auto c = warplens::app::check_flight_model(points, inputs);
    for (const auto& line : c.lines) std::printf("%s\n", line.c_str());
    std::printf("model: %s (%d verified probe points), knee %.0f B per SM\n", c.model.c_str(),
                c.probe_points, c.knee_bytes);
    std::printf("linear model on the same inputs: worst %.1f %% below the knee, %.1f %% above\n",
                c.linear_worst_below_pct, c.linear_worst_above_pct);
    std::printf(
        "worst error below the knee %.1f %% (%d copies, goal <= 10 %%), above %.1f %% "
        "(%d copies, goal <= 5 %%): %s\n",
        c.worst_below_pct, c.below, c.worst_above_pct, c.above,
        c.meets_goals() ? "goals met" : "goals NOT met");
    return c.meets_goals() ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "flight-model-check: %s\n", e.what());
    return 2;
  }
}
