// A panel a lab offers for export as a course-note figure (`warplens render --panel`): which
// view it is and the data that view draws (the trace and the model's analysis, the numbers
// table, the heatmap, the measured sweeps or bars), handed from the lab to the figure builders
// (app/widgets/*_figure.h, built by panel_figure in figure_builders.h) through
// LabInstance::figure_panel (lab.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "index_math.h"
#include "memory_model.h"
#include "number_text.h"
#include "plot.h"
#include "shared_index.h"
#include "theme.h"

namespace warplens::app {

/// banks: the bank view of the shared access a scenario shows; warp: the warp view of a global
/// access; tile: the shared tile as stored, tinted by bank (beside the bank view); heatmap: the
/// sector heatmap of the global lab's launch; offset-sweep, stride-sweep: the global lab's
/// measured sweeps with the model's prediction; bars: the shared labs' measured variants, the
/// cache lab's read paths, the async copies; plot: the plots of a lab whose view is plots (the
/// cache lab's carveout, L1 and constant-cache plots, the bytes-in-flight lab's latency ladder
/// and Little's law), the model's lines always, the measured points where measured; numbers: the
/// lab's per-request table, model beside trace (or its own tables), and its measurements.
enum class FigurePanel {
  Banks,
  Warp,
  Tile,
  Heatmap,
  OffsetSweep,
  StrideSweep,
  Bars,
  Plot,
  Numbers
};

/// Every panel, in the order above.
const std::vector<FigurePanel>& all_figure_panels();
/// "banks", "warp", "tile", "heatmap", "offset-sweep", "stride-sweep", "bars", "plot",
/// "numbers".
const char* to_string(FigurePanel panel);
/// Parses a panel's name; throws std::invalid_argument otherwise.
FigurePanel parse_figure_panel(const std::string& text);
/// "banks, warp", "banks", ... ("none" for an empty list): for error messages.
std::string figure_panel_list(const std::vector<FigurePanel>& panels);

/// A name and its value, as a numbers table or a measured list shows it.
struct FigureValue {
  std::string name;
  std::string value;
};

/// One point of a measured sweep: x, the measured median and interquartile range (GB/s), and
/// the model's prediction at that point.
struct FigureSweepPoint {
  double x = 0;
  double measured = 0, low = 0, high = 0;
  double predicted = 0;
};

/// One measured bar (a transpose, multiply or reduction variant).
struct FigureBar {
  std::string name;
  double value = 0;
  std::string text;        ///< the value as the window shows it
  std::string note;        ///< e.g. "verified"
  bool highlight = false;  ///< the variant the state shows
  bool model = false;      ///< the model's value, not a measurement (drawn in the model's colour)
};

/// One cell of a lab's own table: its text as the window shows it, greyed where the window greys
/// it (no measurement yet, the driver's own value).
struct FigureCell {
  std::string text;
  bool muted = false;
};

/// A numbers table of a lab's own columns (the cache and bytes-in-flight labs: not per warp
/// request). Header cells may hold two lines ("\n"); no header: no header row.
struct FigureTable {
  std::vector<std::string> header;
  std::vector<std::vector<FigureCell>> rows;
  int highlight = -1;  ///< the row the state shows, as the window highlights it (-1: none)
};

/// A plot colour by what it shows, so that a plot's data needs no theme: the figure and the
/// window resolve it against the theme they draw with (figure_color).
struct FigureColor {
  /// Series: the i-th of n measured series (the labs' series_color: lanes 2..24 of the light
  /// theme, 8..30 of the dark); Model: the model's lines (the theme's over-fetch colour); Muted,
  /// Warning, Text: the theme's colours of those names.
  enum class Kind { Series, Model, Muted, Warning, Text };
  Kind kind = Kind::Series;
  int index = 0, count = 1;  ///< Series only
};
/// `color` in `theme`.
viz::Rgb figure_color(const FigureColor& color, const viz::Theme& theme);

/// One series of a plot, as viz::PlotSeries (same fields) with its colour by meaning. `model`:
/// the model's series (drawn, and named as the model's, whether or not anything was measured);
/// the others are measurements, empty until measured.
struct FigureSeries {
  std::string label;
  FigureColor color;
  std::vector<double> x, y;
  std::vector<double> y_low, y_high;  ///< optional whiskers, as y's length
  bool dashed = false;
  bool markers = true;
  bool lines = true;
  int highlight = -1;  ///< the point the state shows (ringed)
  bool model = false;
};
/// A horizontal reference line (cudaMemcpy, a plateau, 100 %).
struct FigureReference {
  std::string label;
  FigureColor color;
  double y = 0;
};
/// A vertical line at x: a size the model places something at (a cache level's capacity, the L1
/// a carveout leaves). Figures and the window's plots (plot_x_marks) draw them.
struct FigureXMark {
  std::string label;
  FigureColor color;
  double x = 0;
  std::string tag;        ///< the short form the window writes at the line's top (empty: the label)
  std::string tag_short;  ///< shorter still, where the tag finds no room (empty: none)
};
/// One plot as data: what the window's view draws with viz::draw_plot (plot_series,
/// plot_references), and the figure (plot_figure.h) from the same data. Labels carry their units.
struct FigurePlot {
  std::string title;             ///< "latency ladder"
  std::string x_label, y_label;  ///< the longest form, e.g. "working set (KiB, log scale)"
  double x_min = 0, x_max = 1;
  bool log_x = false, log_y = false;
  std::vector<double> x_ticks;  ///< empty: automatic
  std::string value_unit;       ///< "ns", "GB/s", "cycles"
  std::vector<FigureSeries> series;
  std::vector<FigureReference> references;
  std::vector<FigureXMark> x_marks;
  /// Points measured (of the series that are not the model's).
  [[nodiscard]] std::size_t measured_points() const;
};
/// The window's series and reference lines of `plot` in `theme`'s colours (draw_plot's input).
std::vector<viz::PlotSeries> plot_series(const FigurePlot& plot, const viz::Theme& theme);
std::vector<viz::ReferenceLine> plot_references(const FigurePlot& plot, const viz::Theme& theme);
/// The window's vertical marks of `plot` (viz::PlotSpec::x_marks) in `theme`'s colours.
std::vector<viz::XMark> plot_x_marks(const FigurePlot& plot, const viz::Theme& theme);
/// `plot`'s spec for draw_plot with its longest labels (the window fits its own).
viz::PlotSpec plot_spec(const FigurePlot& plot);

/// What one panel draws: the view's trace, the model's analysis of it (the GPU trace's when
/// the trace came from the GPU) and the lines of text the view shows beside the picture.
struct FigurePanelData {
  FigurePanel panel = FigurePanel::Banks;
  /// Banks: warp slot 0 is the shown warp. Warp: every traced warp slot, side by side.
  TraceRecords trace{};
  model::SharedAnalysis shared;  ///< banks
  model::GlobalAnalysis global;  ///< warp (of slot 0); historical models draw its transactions
  int first_warp = 0;            ///< warp number of slot 0
  /// What the panel shows, e.g. "warp 0 of a 32×32 block • tile[ty][tx] read by column".
  std::string access;
  /// Where the trace came from: "host model" or "GPU trace on NVIDIA H100 ...".
  std::string source;
  bool gpu_trace = false;
  /// Stepping (render --step K, the window's step): the wavefronts served so far in a banks
  /// panel (BankLayout::step); -1 the whole access. The other panels show the whole access.
  int step = -1;

  // --- tile (besides trace and shared) ---
  SharedIndexParams tile_index{};  ///< the tile access (tile_view_applies)

  // --- numbers ---
  std::vector<StatText> rows;       ///< the per-request table, as the window's
  std::string trace_column;         ///< the trace column's title (trace_column_title)
  std::vector<FigureTable> tables;  ///< a lab's own tables, after `rows`' table (if any)
  std::vector<std::string> notes;   ///< lines under the table (the window's greyed notes)
  /// What the GPU measured, as the window lists it; empty: model only (`measured_absent` says
  /// why). The same holds for the sweeps and the bars.
  std::vector<FigureValue> measured;
  std::string measured_absent;  ///< "model only: measurements need a CUDA device (...)"
  std::string measured_title;   ///< e.g. "measured (read + write, 10⁹ B/s)"

  // --- heatmap ---
  std::optional<SectorHeatmap> heatmap;
  std::string heatmap_buffer;  ///< "input" or "output"

  // --- offset-sweep, stride-sweep ---
  std::vector<FigureSweepPoint> sweep;
  std::string x_label;
  double memcpy_gbps = 0, peak_gbps = 0;  ///< the sweep's reference lines (0: none)
  double highlight_x = -1;                ///< the shown state's x, marked on the sweep

  // --- plot: one or more plots, one under another (a lab's view's plots for the state's
  // section); `measured` lists what was measured (empty: model only, `measured_absent` says why)
  // and `notes` the lines under them ---
  std::vector<FigurePlot> plots;

  // --- bars ---
  std::vector<FigureBar> bars;
  std::string bars_title;  ///< what the bars measure ("bars: GB/s of input read", ...)
};

/// The panels of a lab whose views are plots (the cache and bytes-in-flight labs): its numbers,
/// and before them its bars once `bars_measured` (a bars panel is never empty), or where the
/// model draws bars of its own (the read path's sectors and lines).
std::vector<FigurePanel> numbers_and_measured_bars(bool bars_measured);

/// A bars panel of the model's `bars` (each FigureBar::model): `access` heads it, `title` says
/// what the bars count; its source is the host model, and `why` says why nothing was measured.
std::optional<FigurePanelData> model_bars_panel(std::vector<FigureBar> bars, std::string access,
                                                std::string title, std::string why);

/// A bars panel of measured `bars` (nullopt when there are none): `access` heads it, `title`
/// says what the bars measure, `source` where they were measured.
std::optional<FigurePanelData> measured_bars_panel(std::vector<FigureBar> bars, std::string access,
                                                   std::string title, std::string source);

/// Where `d.measured` says where a numbers panel's values come from: "measured on <device>"
/// (`device_name`; "measured" without one), or, with nothing measured, "host model" and why in
/// `measured_absent` (no CUDA device and `no_device_reason`, the measurement still running, or
/// not measured yet). Sets gpu_trace to whether anything was measured.
void set_measured_source(FigurePanelData& d, bool gpu_mode, const std::string& device_name,
                         const std::string& no_device_reason, bool busy);

}  // namespace warplens::app
