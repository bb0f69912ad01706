// What the cache lab's UI files share (cache_ui*.cpp only, not a public API): the panel flags,
// the label and text helpers (defined in cache_ui.cpp), the layout helpers (cache_ui_layout.cpp)
// and one draw function per section of the big view (cache_ui_carveout.cpp with its plots in
// cache_ui_carveout_plots.cpp, cache_ui_l1.cpp, cache_ui_constant.cpp, cache_ui_read_path.cpp).
#pragma once

#include <imgui.h>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "cache_session.h"
#include "cache_ui.h"
#include "imgui_layer.h"
#include "plot.h"
#include "theme.h"

namespace warplens::app::cache_ui_detail {

using viz::to_imgui_color;

inline constexpr ImGuiWindowFlags kPanelFlags =
    ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
    ImGuiWindowFlags_NoSavedSettings;

inline float to_f(double v) {
  return static_cast<float>(v);
}

/// "48 KiB", "1 MiB", "1.5 KiB".
std::string kib(std::int64_t bytes);

/// "plain load", "__ldg", "texture".
const char* path_label(gpu::ReadPath p);

/// A pattern's footprint (per thread, and the warp's shape of centres) and its layout.
const char* pattern_footprint(gpu::ReadPattern p);
const char* pattern_layout(gpu::ReadPattern p);
std::string pattern_label(gpu::ReadPattern p);

/// "87 %", or "n/a" without a percent.
std::string hit_text(const L1HitRate& rate);

inline viz::Rgb series_color(const viz::Theme& theme, int i, int n) {
  return cache_series_color(theme, i, n);
}

void text_centered(ImDrawList* draw, ImVec2 center, ImU32 color, const std::string& text);

// --- layout: what re-lays the view out to the room it has ------------------------------------

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
void draw_note(const CacheAside::Note& note, const viz::Theme& theme);
/// Of `notes` (in reading order), those whose wrapped heights at `width` add up to at most
/// `room`; the rest go to `aside`. `height` gets what the kept ones take.
std::vector<CacheAside::Note> fit_notes(const std::vector<CacheAside::Note>& notes, float room,
                                        float width, CacheAside& aside, float& height);
/// The first of `options` no wider than `room` in the current font; else the last, shortened
/// with an ellipsis (an audit finding).
std::string fitting(std::initializer_list<std::string> options, float room);

/// A plot's legend entries: its series' and its reference lines' labels.
std::vector<CacheLegendEntry> legend_entries(const std::vector<viz::PlotSeries>& series,
                                             const std::vector<viz::ReferenceLine>& references);
/// Height of `entries` flowed into lines `width` pixels wide (draw_legend).
float legend_height(const std::vector<CacheLegendEntry>& entries, float width, float scale);
/// Draws `entries` at the cursor, flowed into as many lines `width` pixels wide as they need.
void draw_legend(const std::vector<CacheLegendEntry>& entries, float width, float scale);

/// The least height a plot of `width` reads at: a frame of a few lines, its axis labels and
/// its legend (one line, wrapped, or none where it goes beside the view).
float plot_min_height(const std::vector<CacheLegendEntry>& entries, float width, float scale);
/// The least height a plot shown alone (one at a time) reads at: plot_min_height with a frame
/// of two lines (its y ticks thin to two).
float plot_least_height(const std::vector<CacheLegendEntry>& entries, float width, float scale);
/// viz::draw_plot with a legend that wraps: when the plot's one-line legend does not fit
/// `width`, it is drawn in as many lines as it needs inside `height` (the frame gives way), or,
/// in the presenter layout, handed to `aside` under `title` (the frame takes its row).
void draw_wrapped_plot(const char* id, const std::string& title, const viz::PlotSpec& spec,
                       const std::vector<viz::PlotSeries>& series,
                       const std::vector<viz::ReferenceLine>& references, float width, float height,
                       const viz::Theme& theme, float scale, bool interactive, CacheAside& aside);

/// One plot of a grid (draw_plot_grid): its name for the picker (and a short one where the
/// long ones do not fit its row), its legend (for its least height) and how to draw it into
/// `width` x `height` at the cursor. A cell that is not a plot (a drawing) says its least height
/// at a width in `min_height`.
struct PlotCell {
  std::string name;
  std::vector<CacheLegendEntry> legend;
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

/// The measured part's one line: no GPU, running, or nothing yet; none when `have`. As a note
/// (CacheAside::Note), or an empty text when there is nothing to say.
CacheAside::Note measured_state_note(const CacheSession& session, const CacheResults& r, bool have);

// --- the big view, one section each ---------------------------------------------------------

// Each draws into the current window's content region and never past it; what it cannot keep
// goes to `aside`.
void draw_carveout_view(const CacheSession& session, const CacheResults& r,
                        const viz::ImGuiLayer& layer, const viz::Theme& theme, bool interactive,
                        CacheAside& aside);
/// The carveout section's three plots (occupancy, the sweep's time and resident blocks) in the
/// `width` x `height` room at the cursor (draw_plot_grid); with `picture`, that drawing is
/// the first of four shown one at a time.
void draw_carveout_plots(const CacheSession& session, const CacheResults& r,
                         const viz::ImGuiLayer& layer, const viz::Theme& theme, bool interactive,
                         CacheAside& aside, float width, float height, const PlotCell* picture);
/// The least height draw_carveout_plots needs at `width`: one plot and the picker over it.
float carveout_plots_min_height(const viz::Theme& theme, float width, float scale);
void draw_l1_view(CacheSession& session, const CacheResults& r, const viz::ImGuiLayer& layer,
                  const viz::Theme& theme, bool interactive, CacheAside& aside);
void draw_constant_view(CacheSession& session, const CacheResults& r, const viz::ImGuiLayer& layer,
                        const viz::Theme& theme, bool interactive, CacheAside& aside);
void draw_read_path_view(CacheSession& session, const CacheResults& r, const viz::ImGuiLayer& layer,
                         const viz::Theme& theme, bool interactive, CacheAside& aside);

}  // namespace warplens::app::cache_ui_detail
