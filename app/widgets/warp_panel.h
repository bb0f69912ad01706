// The warp view's ImGui panel: the GL picture of one or more warps' global accesses
// (viz::WarpView) placed in the current window, with lane numbers, byte offsets under the strip,
// historical models' repeated fetches, a hover read-out per lane and the legend. Used by the
// global-memory lab and by the transpose lab's global read/write views.
#pragma once

#include <string>
#include <vector>

#include "imgui_layer.h"
#include "memory_model.h"
#include "theme.h"
#include "warp_view.h"

namespace warplens::app {

struct WarpPanelInfo {
  int first_warp = 0;  ///< warp number of trace slot 0 (for captions and tooltips)
  /// One caption per slot; slots without one get "warp N" (or the one-warp caption).
  std::vector<std::string> slot_captions;
  /// Shorter forms of slot_captions (same order), for slots too narrow for the long ones (several
  /// warps side by side, A/B halves, a projector at 3x). May be empty.
  std::vector<std::string> short_slot_captions;
  /// The memory model the view shades; with a historical model and `analysis`, repeated
  /// fetches of one range are counted over the transaction row.
  model::HardwareModel model = model::HardwareModel::Modern;
  /// Loads or stores: the legend says "requested" and "over-fetch" for loads; for stores it
  /// says "written", and the sector bytes no lane wrote are not fetched for the lanes (L2
  /// completes the sector).
  model::Op op = model::Op::Load;
  const model::GlobalAnalysis* analysis = nullptr;
  const char* strip_caption =
      "bytes from the buffer base \u2022 thin rules: 32 B sectors \u2022 thick rules: 128 B lines";
};

/// `caption` (what the strip's rules mean, "... thin rules: 32 B sectors • thick rules: 128 B
/// lines") for a sector row whose boxes are `box_bytes` each (transaction_box_bytes): as given for
/// 32; the thin rules named transactions for 64; for 128 no thin rules, each line a transaction.
/// Without `thin_rules` (boxes too narrow for them: thin_rules_drawn) the thin rules go unsaid.
std::string strip_rules_caption(const std::string& caption, int box_bytes, bool thin_rules = true);
/// Whether the strip draws its thin rules over boxes of `box_bytes` at `px_per_byte` and UI
/// `scale` (as the shader decides): boxes at least 8 px and 4 px x scale wide.
bool thin_rules_drawn(int box_bytes, float px_per_byte, float scale);

/// Draws `trace` (the CPU copy of what the view's buffer holds) into the available region of the
/// current ImGui window: the picture, its labels and the legend under it.
void draw_warp_panel(viz::WarpView& view, const TraceRecords& trace, const WarpPanelInfo& info,
                     const viz::ImGuiLayer& layer, const viz::Theme& theme, bool interactive);

}  // namespace warplens::app
