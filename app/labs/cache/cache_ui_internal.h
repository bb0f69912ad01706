// What the cache lab's UI files share (cache_ui*.cpp only, not a public API): the panel flags,
// the label and text helpers (defined in cache_ui.cpp), the layout helpers (view_layout.h)
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
#include "view_layout.h"

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
