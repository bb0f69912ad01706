// What the cache lab's UI files share (cache_ui*.cpp only, not a public API): the panel flags,
// the label and text helpers (defined in cache_ui.cpp) and one draw function per section of the
// big view (cache_ui_carveout.cpp, cache_ui_l1.cpp, cache_ui_constant.cpp, cache_ui_read_path.cpp).
#pragma once

#include <imgui.h>

#include <cstdint>
#include <string>

#include "cache_session.h"
#include "cache_ui.h"
#include "imgui_layer.h"
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

void heading(const viz::ImGuiLayer& layer, const std::string& text);

/// The measured part's one line: no GPU, running, or nothing yet.
bool measured_state_line(const CacheSession& session, const CacheResults& r,
                         const viz::Theme& theme, bool have);

// --- the big view, one section each ---------------------------------------------------------

void draw_carveout_view(const CacheSession& session, const CacheResults& r,
                        const viz::ImGuiLayer& layer, const viz::Theme& theme, bool interactive);
void draw_l1_view(CacheSession& session, const CacheResults& r, const viz::ImGuiLayer& layer,
                  const viz::Theme& theme, bool interactive);
void draw_constant_view(CacheSession& session, const CacheResults& r, const viz::ImGuiLayer& layer,
                        const viz::Theme& theme, bool interactive);
void draw_read_path_view(CacheSession& session, const CacheResults& r, const viz::ImGuiLayer& layer,
                         const viz::Theme& theme, bool interactive);

}  // namespace warplens::app::cache_ui_detail
