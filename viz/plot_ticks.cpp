// The plots' axis ticks and the texts of their numbers (plot.h): arithmetic, no drawing.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "plot.h"  // nice_ticks, log_ticks, tick_label, reference_label

namespace warplens::viz {

std::vector<double> nice_ticks(double lo, double hi, int target) {
  std::vector<double> ticks;
  if (!(hi > lo) || target < 1) return ticks;
  const double raw = (hi - lo) / target;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    step = m * magnitude;
    if (step >= raw) break;
  }
  for (double v = std::ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) {
    ticks.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);
  }
  return ticks;
}

std::vector<double> log_ticks(double lo, double hi) {
  std::vector<double> ticks;
  if (!(lo > 0) || !(hi > lo)) return ticks;
  const int first = static_cast<int>(std::floor(std::log10(lo)));
  const int last = static_cast<int>(std::ceil(std::log10(hi)));
  const bool fine = last - first <= 2;
  for (int e = first; e <= last; ++e) {
    for (double m : fine ? std::vector<double>{1, 2, 5} : std::vector<double>{1}) {
      const double v = m * std::pow(10.0, e);
      if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) ticks.push_back(v);
    }
  }
  return ticks;
}

std::string tick_label(double v) {
  char buf[32];
  if (std::abs(v) >= 10000 && std::fmod(v, 1000.0) == 0) {
    std::snprintf(buf, sizeof buf, "%.0fk", v / 1000);
  } else if (v == std::floor(v)) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
  } else {
    std::snprintf(buf, sizeof buf, "%g", v);
  }
  return buf;
}

std::string reference_label(const ReferenceLine& line, const std::string& unit) {
  char buf[32];
  // Whole from 10 up, as the key numbers beside the chart write them ("L1 20 ns", not 19.7).
  std::snprintf(buf, sizeof buf, std::fabs(line.y) >= 10 ? "%.0f" : "%.3g", line.y);
  return line.label + " " + buf + (unit.empty() ? "" : " " + unit);
}

}  // namespace warplens::viz
