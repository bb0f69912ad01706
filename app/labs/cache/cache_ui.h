// The cache lab's panels, drawn with ImGui: the parameters, the big view (the carveout bar and an
// SM's resident blocks, the L1 sweep, the constant cache's lanes and times, the read-path bars)
// and the numbers table under it. app_ui.cpp lays them out when the cache lab is chosen.
#pragma once

#include <imgui.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "cache_session.h"
#include "imgui_layer.h"
#include "lab.h"
#include "theme.h"
#include "view_layout.h"

namespace warplens::app {

/// The cache view's legend entries and what it sets aside are the shared ones (view_layout.h).
using CacheLegendEntry = PlotLegendEntry;
using CacheAside = ViewAside;

/// Every function below draws from `results`: one CacheSession::measured() copy per frame,
/// taken by the caller.
///
/// The parameter panel: the section, then that section's parameters (sets the session).
/// `header`, when given, is drawn first inside the panel (the window's scenario picker).
void draw_cache_parameters(CacheSession& session, const CacheResults& results,
                           const viz::Theme& theme, ImVec2 pos, ImVec2 size, bool interactive,
                           const std::function<void()>& header = {});

/// The big area: Carveout -> the supported capacities as a bar with the chosen one highlighted,
/// the L1 left and one SM's resident blocks, then three plots: blocks per SM against dynamic
/// shared memory (KiB) at the chosen carveout, and the shared-hungry kernel's time (ms) and
/// resident blocks per SM against the capacity each carveout of the sweep asks for (KiB); L1 ->
/// time per access (ns) vs working set, one line per carveout, and under it the L1 hit rate (%)
/// from the hardware counters, or why there is none; Constant -> the warp's lanes by
/// constant-cache read and time per request vs k; ReadPath -> GB/s bars grouped by access
/// pattern, each with its L1 hit rate (%).
/// The view re-lays out to `size`: text wraps, pictures size from the room and stack when
/// narrow, and what cannot stay (notes, legends) goes to `aside` (cleared first); in the
/// presenter layout (an open LegendSlot) `aside` is handed to the slot as well.
void draw_cache_view(CacheSession& session, const CacheResults& results,
                     const viz::ImGuiLayer& layer, const viz::Theme& theme, ImVec2 pos, ImVec2 size,
                     bool interactive, CacheAside& aside);

/// The numbers under the view: what the view set aside, then the model's table next to what
/// the GPU measured.
void draw_cache_numbers(const CacheSession& session, const CacheResults& results,
                        const viz::Theme& theme, ImVec2 pos, ImVec2 size, const CacheAside& aside,
                        float scale);

/// The presenter strip's knobs: the section's one or two parameters as compact controls on the
/// current line (sets the session).
void draw_cache_knobs(CacheSession& session, float scale);

/// The presenter layout's key numbers: the two or three numbers the section's scenarios ask the
/// room to look for, the model's where it has one, "—" and "needs a GPU" where only a GPU can tell.
std::vector<KeyNumber> cache_key_numbers(const CacheSession& session, const CacheResults& results);

/// One line for the status bar.
std::string cache_status_text(const CacheSession& session, const CacheResults& results);

/// The colour of series `i` of `n` (carveouts, load paths, resident blocks): viridis lanes that
/// read on the theme's background.
viz::Rgb cache_series_color(const viz::Theme& theme, int i, int n);

/// "default", "0 % (max L1)", "50 %", "100 % (max shared)".
std::string carveout_text(int carveout);

}  // namespace warplens::app
