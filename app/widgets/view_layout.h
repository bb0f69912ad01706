// What re-lays a lab's big view out to the room it has, shared by the labs whose views are
// plots and drawings (the cache lab, the bytes-in-flight lab): headings and notes that wrap and
// move aside, legends that flow into lines, plots sized from the room, and the grid that shows
// them side by side, in rows or one at a time. What a view cannot keep goes to a ViewAside,
// which the numbers panel (or, in the presenter layout, the legend slot) shows instead.
// Sizes are pixels at the current ImGui font; `scale` is the UI scale.
#pragma once

#include <imgui.h>

#include <functional>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "imgui_layer.h"
#include "plot.h"
#include "theme.h"

namespace warplens::app {

class LegendSlot;

/// The presenter layout's column of key numbers beside the view, in px of a window `window_w`
/// px wide at UI scale `scale`: 28 % of the window, at least 300 px x scale, at most 40 %.
float presenter_numbers_width(float window_w, float scale);

/// One entry of a legend: a line (dashed or not) or a filled box in `color`, and its label.
struct PlotLegendEntry {
  std::string label;
  viz::Rgb color;
  bool dashed = false;
  bool box = false;
  bool point = false;   ///< a series of points alone (PlotSeries::lines false): a dot
  bool ringed = false;  ///< its point ringed, as the plot rings the current parameters';
                        ///< with `box`: an empty frame, as a view frames the current bar
};

/// What the view could not keep for lack of room: explanatory notes (in the order they read)
/// and the legends of plots too narrow for them. The numbers under the view show them above
/// their table; in the presenter layout they go beside the view, under the key numbers. The view
/// fills it each frame; the caller keeps it until the numbers are drawn.
struct ViewAside {
  struct Note {
    std::string text;
    bool warning = false;  ///< drawn in the theme's warning colour (no GPU, a failed read)
  };
  std::vector<Note> notes;
  std::vector<std::pair<std::string, std::vector<PlotLegendEntry>>> legends;  ///< title, entries
  [[nodiscard]] bool empty() const { return notes.empty() && legends.empty(); }
  /// Draws the legends, then the notes, into the current window, wrapped to its width.
  void draw(const viz::Theme& theme, float scale) const;
  void draw_legends(float scale) const;
  void draw_notes(const viz::Theme& theme) const;
  /// Hands the legends and the notes to `slot` (the presenter's column beside the view).
  void hand_to(LegendSlot& slot, const viz::Theme& theme, float scale) const;
};

/// The section's title in the bold font, wrapped at the window's right edge (none when empty).
void heading(const viz::ImGuiLayer& layer, const std::string& text);
/// `long_text` when it leaves `below` pixels of the window's height under it, else `short_text`
/// when it does or there is no `shortest`, else `shortest` ("": no heading).
std::string fitting_heading(const viz::ImGuiLayer& layer, const std::string& long_text,
                            const std::string& short_text, float below,
                            const char* shortest = nullptr);
/// The height heading() takes at `width` (with the item spacing under it; 0 for "").
float heading_height(const viz::ImGuiLayer& layer, const std::string& text, float width);
/// The height `text` takes wrapped at `width` in the current font (with the item spacing).
float wrapped_height(const std::string& text, float width);
/// `text` wrapped at the window's right edge, muted or in the theme's warning colour.
void draw_note(const ViewAside::Note& note, const viz::Theme& theme);
/// Of `notes` (in reading order), those whose wrapped heights at `width` add up to at most
/// `room`; the rest go to `aside`. `height` gets what the kept ones take.
std::vector<ViewAside::Note> fit_notes(const std::vector<ViewAside::Note>& notes, float room,
                                       float width, ViewAside& aside, float& height);
/// The first of `options` no wider than `room` in the current font; else the last, shortened
/// with an ellipsis (an audit finding).
std::string fitting(std::initializer_list<std::string> options, float room);

/// A plot's legend entries: its series' (those with points) and its reference lines' labels.
std::vector<PlotLegendEntry> legend_entries(const std::vector<viz::PlotSeries>& series,
                                            const std::vector<viz::ReferenceLine>& references);
/// Height of `entries` flowed into lines `width` pixels wide (draw_legend).
float legend_height(const std::vector<PlotLegendEntry>& entries, float width, float scale);
/// Draws `entries` at the cursor, flowed into as many lines `width` pixels wide as they need.
void draw_legend(const std::vector<PlotLegendEntry>& entries, float width, float scale);

/// The least height a plot of `width` reads at: a frame of a few lines, its axis labels and
/// its legend (one line, wrapped, or none where it goes beside the view).
float plot_min_height(const std::vector<PlotLegendEntry>& entries, float width, float scale);
/// The least height a plot shown alone (one at a time) reads at: plot_min_height with a frame
/// of two lines (its y ticks thin to two).
float plot_least_height(const std::vector<PlotLegendEntry>& entries, float width, float scale);
/// viz::draw_plot with a legend that wraps: when the plot's one-line legend does not fit
/// `width`, it is drawn in as many lines as it needs inside `height` (the frame gives way), or,
/// in the presenter layout, handed to `aside` under `title` (the frame takes its row).
void draw_wrapped_plot(const char* id, const std::string& title, const viz::PlotSpec& spec,
                       const std::vector<viz::PlotSeries>& series,
                       const std::vector<viz::ReferenceLine>& references, float width, float height,
                       const viz::Theme& theme, float scale, bool interactive, ViewAside& aside);

/// One plot of a grid (draw_plot_grid): its name for the picker (and a short one where the
/// long ones do not fit its row), its legend (for its least height) and how to draw it into
/// `width` x `height` at the cursor. A cell that is not a plot (a drawing) says its least height
/// at a width in `min_height`.
struct PlotCell {
  std::string name;
  std::vector<PlotLegendEntry> legend;
  std::function<void(float width, float height)> draw;
  std::string short_name;
  std::function<float(float width)> min_height;
};
/// The least height `cell` reads at in `width`.
float cell_min_height(const PlotCell& cell, float width, float scale);
/// The height of draw_plot_grid's picker over `cells` in `width` (one row or more).
float picker_height(const std::vector<PlotCell>& cells, float width);
/// Lays `cells` out in the `width` x `height` room: side by side while each keeps about 18
/// lines of width, else in rows, as long as each keeps its least height (cell_min_height);
/// where not even one row of them fits, or `one_at_a_time`, one at a time, picked with a row of
/// buttons over it (the picked one stays picked across frames, by `id`), in the rest of the
/// room (an audit finding below its least height, plot_least_height).
void draw_plot_grid(const char* id, const std::vector<PlotCell>& cells, float width, float height,
                    float scale, bool one_at_a_time = false);

}  // namespace warplens::app
