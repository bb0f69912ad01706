// What the cache lab's UI files share (cache_ui*.cpp only, not a public API): the panel flags,
// the label and text helpers (defined in cache_ui.cpp) and one draw function per section of the
// big view (cache_ui_carveout.cpp, cache_ui_l1.cpp, cache_ui_constant.cpp, cache_ui_read_path.cpp).
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

/// The section's title in the bold font, wrapped at the window's right edge.
void heading(const viz::ImGuiLayer& layer, const std::string& text);
/// `long_text` when it leaves `below` pixels of the window's height under it, else `short_text`.
std::string fitting_heading(const viz::ImGuiLayer& layer, const std::string& long_text,
                            const std::string& short_text, float below);
/// The height heading() takes at `width` (with the item spacing under it).
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
/// its legend (wrapped).
float plot_min_height(const std::vector<CacheLegendEntry>& entries, float width, float scale);
/// viz::draw_plot with a legend that wraps: when the plot's one-line legend does not fit
/// `width`, it is drawn in as many lines as it needs inside `height` (the frame gives way), or,
/// in the presenter layout, handed to `aside` under `title`.
void draw_wrapped_plot(const char* id, const std::string& title, const viz::PlotSpec& spec,
                       const std::vector<viz::PlotSeries>& series,
                       const std::vector<viz::ReferenceLine>& references, float width, float height,
                       const viz::Theme& theme, float scale, bool interactive, CacheAside& aside);

/// One plot of a grid (draw_plot_grid): its name for the picker, its legend (for its least
/// height) and how to draw it into `width` x `height` at the cursor.
struct PlotCell {
  std::string name;
  std::vector<CacheLegendEntry> legend;
  std::function<void(float width, float height)> draw;
};
/// Lays `cells` out in the `width` x `height` room: side by side while each keeps about 18
/// lines of width, else in rows, as long as each keeps its least height (plot_min_height);
/// where not even one row of them fits, one at a time, picked with a row of buttons over it.
void draw_plot_grid(const char* id, const std::vector<PlotCell>& cells, float width, float height,
                    float scale);

/// The measured part's one line: no GPU, running, or nothing yet; none when `have`. As a note
/// (CacheAside::Note), or an empty text when there is nothing to say.
CacheAside::Note measured_state_note(const CacheSession& session, const CacheResults& r, bool have);

// --- the big view, one section each ---------------------------------------------------------

// Each draws into the current window's content region and never past it; what it cannot keep
// goes to `aside`.
void draw_carveout_view(const CacheSession& session, const CacheResults& r,
                        const viz::ImGuiLayer& layer, const viz::Theme& theme, bool interactive,
                        CacheAside& aside);
void draw_l1_view(CacheSession& session, const CacheResults& r, const viz::ImGuiLayer& layer,
                  const viz::Theme& theme, bool interactive, CacheAside& aside);
void draw_constant_view(CacheSession& session, const CacheResults& r, const viz::ImGuiLayer& layer,
                        const viz::Theme& theme, bool interactive, CacheAside& aside);
void draw_read_path_view(CacheSession& session, const CacheResults& r, const viz::ImGuiLayer& layer,
                         const viz::Theme& theme, bool interactive, CacheAside& aside);

}  // namespace warplens::app::cache_ui_detail
