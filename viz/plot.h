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
  bool lines = true;   ///< false: the points alone (a scatter of unrelated measurements)
};

struct ReferenceLine {
  std::string label;
  Rgb color;
  double y = 0;
};

/// What a reference line's label inside the frame reads: its name, its value and `unit`
/// ("cudaMemcpy 2890 GB/s"; whole numbers from 100 up, else three significant digits).
std::string reference_label(const ReferenceLine& line, const std::string& unit);

/// A vertical dashed line at x: where the model puts something (a cache level's size, the L1 a
/// carveout leaves), labelled at its top inside the frame.
struct XMark {
  std::string label;
  Rgb color;
  double x = 0;
  std::string short_label;  ///< tried where `label` finds no room, on one line or two (optional)
};

struct PlotSpec {
  std::string x_label;  ///< with unit, e.g. "stride (elements)"
  std::string y_label;  ///< with unit, e.g. "GB/s (read + write, 10^9 B/s)"
  bool log_y = false;
  double x_min = 0, x_max = 1;      ///< x range (set by the caller: sweeps know theirs)
  bool log_x = false;               ///< log x axis (x_min > 0)
  std::vector<double> x_ticks;      ///< tick values to use instead of the automatic ones
  std::string value_unit = "GB/s";  ///< the unit of y in the hover read-out
  std::vector<XMark> x_marks;       ///< the model's vertical marks
};

/// How draw_plot uses its room beyond the data (the defaults are the one-line legend under the
/// x label, as the plain overload draws).
struct PlotLayout {
  /// The legend: one line under the x label (clipped at the plot's right edge), flowed into as
  /// many lines as the width needs (the frame gives way), or none (the caller shows it elsewhere;
  /// the frame takes its row).
  enum class Legend { OneLine, Wrapped, None };
  Legend legend = Legend::OneLine;
  /// Where set, gets the labels of the vertical marks that found no place in the frame free of
  /// the other labels, the other marks' lines and the current points' rings, at the font's size
  /// down to 0.6 of it (they are not drawn; a short or crowded frame).
  std::vector<std::string>* unplaced_marks = nullptr;
  /// Where set, gets the labels of the vertical marks placed away from their own line (beside a
  /// ring further than 24 px x scale from it), hung from it by a leader: nowhere nearer had room
  /// at any size, even over the series (a short frame: 1600x960 at 3x).
  std::vector<std::string>* far_marks = nullptr;
};

/// Draws at the current ImGui cursor, `width` x `height` pixels, and advances the cursor.
/// Hovering shows the nearest point's values when `interactive`. The y ticks thin out to what
/// the frame's height holds apart (a short frame keeps fewer of them, never overlapping).
void draw_plot(const char* id, const PlotSpec& spec, const std::vector<PlotSeries>& series,
               const std::vector<ReferenceLine>& references, float width, float height,
               const Theme& theme, float scale, bool interactive);
void draw_plot(const char* id, const PlotSpec& spec, const std::vector<PlotSeries>& series,
               const std::vector<ReferenceLine>& references, float width, float height,
               const Theme& theme, float scale, bool interactive, const PlotLayout& layout);

/// The height of draw_plot's legend for `series` and `references` in `width` pixels at `scale`
/// (the current ImGui font): one line, or as many as PlotLayout::Legend::Wrapped flows it into.
float plot_legend_height(const std::vector<PlotSeries>& series,
                         const std::vector<ReferenceLine>& references, float width, float scale,
                         PlotLayout::Legend legend);

/// The line (0, 1, ...) each of a row of items `widths` pixels wide starts on when they flow
/// into `width` pixels, `gap` pixels apart (legends that wrap).
std::vector<int> flow_lines(const std::vector<float>& widths, float width, float gap);

/// Of `ticks` (ascending, evenly spaced), every k-th from the first, with the smallest k that
/// keeps labels of `label_height` pixels apart along `length` pixels of axis for the range
/// [lo, hi]; at least the first (and the last when two fit).
std::vector<double> thin_ticks(const std::vector<double>& ticks, double lo, double hi, float length,
                               float label_height, bool log_axis = false);

}  // namespace warplens::viz
