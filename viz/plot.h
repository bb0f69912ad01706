// A 2D plot drawn with ImGui's draw lists (Debian has no ImPlot): axes with "nice" ticks and
// units, axis labels, legend, hover read-out, linear or log y, colours from the theme.
#pragma once

#include <string>
#include <vector>

#include "theme.h"

struct ImVec2;

namespace warplens::viz {

/// Tick values for [lo, hi]: steps of 1, 2 or 5 x 10^k, about `target` of them.
std::vector<double> nice_ticks(double lo, double hi, int target = 6);
/// Decades (and 2x, 5x between them when there are few decades) inside [lo, hi], lo > 0.
std::vector<double> log_ticks(double lo, double hi);
/// Short label: "0", "2.5", "1k", "3000" (no exponent notation; plots here stay below 10^6).
std::string tick_label(double value);

struct PlotSeries {
  std::string label;
  Rgb color;
  std::vector<double> x, y;
  std::vector<double> y_low, y_high;  ///< optional whiskers (min-max), same length as y
  bool dashed = false;
  bool markers = true;
  int highlight = -1;  ///< index of a point to ring (the current parameters)
};

struct ReferenceLine {
  std::string label;
  Rgb color;
  double y = 0;
};

struct PlotSpec {
  std::string x_label;  ///< with unit, e.g. "stride (elements)"
  std::string y_label;  ///< with unit, e.g. "GB/s (read + write, 10^9 B/s)"
  bool log_y = false;
  double x_min = 0, x_max = 1;      ///< x range (set by the caller: sweeps know theirs)
  bool log_x = false;               ///< log x axis (x_min > 0)
  std::vector<double> x_ticks;      ///< tick values to use instead of the automatic ones
  std::string value_unit = "GB/s";  ///< the unit of y in the hover read-out
};

/// Draws at the current ImGui cursor, `width` x `height` pixels, and advances the cursor.
/// Hovering shows the nearest point's values when `interactive`.
void draw_plot(const char* id, const PlotSpec& spec, const std::vector<PlotSeries>& series,
               const std::vector<ReferenceLine>& references, float width, float height,
               const Theme& theme, float scale, bool interactive);

}  // namespace warplens::viz
