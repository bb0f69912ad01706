// What the cache lab's UI files share (cache_ui*.cpp and cache_figures.cpp only, not a public
// API): the panel flags, the label and text helpers (defined in cache_ui.cpp), the numbers'
// tables and the read path's bars as data (cache_ui_tables.cpp), the layout helpers
// (view_layout.h) and one draw function per section of the big view (cache_ui_carveout.cpp with its
// plots in cache_ui_carveout_plots.cpp, cache_ui_l1.cpp, cache_ui_constant.cpp,
// cache_ui_read_path.cpp).
#pragma once

#include <imgui.h>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "cache_session.h"
#include "cache_ui.h"
#include "figure_panel.h"
#include "imgui_layer.h"
#include "plot.h"
#include "theme.h"
#include "ui_widgets.h"
#include "view_layout.h"

namespace warplens::app::cache_ui_detail {

using viz::to_imgui_color;

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

/// Without a GPU, what the section's measured part lacks and what is drawn instead: the
/// session's line, except for the read path, whose bars are measurements only (no model line is
/// drawn there, so none is claimed).
std::string no_gpu_note(const CacheSession& session);

/// The measured part's one line: no GPU, running, or nothing yet; none when `have`. As a note
/// (CacheAside::Note), or an empty text when there is nothing to say.
CacheAside::Note measured_state_note(const CacheSession& session, const CacheResults& r, bool have);

// --- the numbers as data (cache_ui_tables.cpp) ------------------------------------------------

/// One column of a numbers table: its header (one or two short lines, "\n"), its full meaning
/// (the header's tooltip), and whether only the GPU gives its values.
struct NumbersColumn {
  std::string name;
  std::string tip;
  bool measured = false;
};

/// One cell as the window draws it: its text, greyed (`muted`: no measurement yet, "—" or "…",
/// or the driver's own capacity), its tooltip, and a greyed mark after it ("✓": the working set
/// fits that L1).
struct NumbersCell {
  /// Implicit: a cell is its text, unless told otherwise.
  NumbersCell(std::string text_ = {}, bool muted_ = false, std::string tip_ = {})
      : text(std::move(text_)), muted(muted_), tip(std::move(tip_)) {}
  std::string text;
  bool muted = false;
  std::string tip;
  std::string mark;
};

struct NumbersTable {
  const char* id = "";  ///< the ImGui table's id
  std::vector<NumbersColumn> columns;
  std::vector<std::vector<NumbersCell>> rows;
  int current = -1;  ///< the row the state shows (highlighted), -1: none
};

/// The numbers panel's tables for the state's section: Carveout -> the occupancy table by
/// dynamic shared memory and the shared-hungry sweep by carveout (side by side); L1 -> ns per
/// access and the L1 hit rate by working set and carveout; Constant -> k = 1..32; ReadPath ->
/// every load path x access pattern.
std::vector<NumbersTable> cache_numbers_tables(const CacheSession& session, const CacheResults& r);

/// The read path's measured bars (one per load path x pattern measured, in the view's order:
/// grouped by pattern), the ringed one highlighted; empty before a measurement.
std::vector<FigureBar> read_path_bars(const CacheSession& session, const CacheResults& r);
/// The model's bars of the read path (nothing measured): per access pattern, the sectors and the
/// 128-byte lines one warp load touches (read_path_model.h), as the window's model bars.
std::vector<FigureBar> read_path_model_bars(const CacheSession& session);
/// The read path view's long heading: the image and what the bars count (the GB/s, or the
/// `model`'s sectors and lines per warp load before anything is measured).
std::string read_path_title(const CacheState& st, bool model);

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
/// The carveout section's plots as data: occupancy against dynamic shared memory, kernel time
/// and resident blocks against the capacity each carveout asks for (cache_plots.cpp).
std::vector<FigurePlot> carveout_plots(const CacheSession& session, const CacheResults& r);
/// The L1 section's plots as data: time per access per carveout (with the L1 each carveout
/// leaves as the model's vertical marks) and, once read, the L1 hit rate.
std::vector<FigurePlot> l1_plots(const CacheSession& session, const CacheResults& r);
/// The constant section's plot as data: measured cycles per request against k and the model's
/// k x the broadcast. Without the broadcast's cycles and with `reads_without_cycles` (figures),
/// the model's reads per request (k) on a reads axis instead of an empty model line.
FigurePlot constant_plot(const CacheSession& session, const CacheResults& r,
                         bool reads_without_cycles);

void draw_l1_view(CacheSession& session, const CacheResults& r, const viz::ImGuiLayer& layer,
                  const viz::Theme& theme, bool interactive, CacheAside& aside);
void draw_constant_view(CacheSession& session, const CacheResults& r, const viz::ImGuiLayer& layer,
                        const viz::Theme& theme, bool interactive, CacheAside& aside);
void draw_read_path_view(CacheSession& session, const CacheResults& r, const viz::ImGuiLayer& layer,
                         const viz::Theme& theme, bool interactive, CacheAside& aside);

}  // namespace warplens::app::cache_ui_detail
