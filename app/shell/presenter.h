// The presenter layout (key P, --presenter, a preset's `presenter = true`): what a lecturer
// puts on a 1920×1080 or 1280×720 projector at 2× or 3×. The view fills the window; a one-line
// strip (scenario ◀ picker ▶, the scenario's one or two knobs, the device) replaces the header
// and the parameter panel; the key numbers stand beside the view in the bold font, each with
// what it is, then the scenario's "look for" and the view's legend. The full panel is one key
// (P) away.
#pragma once

#include <imgui.h>

#include <functional>
#include <string>
#include <vector>

#include "imgui_layer.h"
#include "lab.h"
#include "legend_slot.h"
#include "scenario.h"
#include "theme.h"
#include "ui_state.h"

namespace warplens::app {

/// Whether the window draws the presenter layout: ui.presenter when set; else automatic, on
/// when a `width` x `height` window at UI `scale` leaves the normal layout too little room
/// (fewer than 24 text lines of body height, or under 1100 pixels of width per unit of scale:
/// 1920×1080 at 2× and 3×, 1280×720 from 1.5×).
[[nodiscard]] bool presenter_layout(const UiState& ui, float width, float height, float scale);

/// The presenter strip at `pos`, `size`: scenario arrows and picker, `lab`'s knobs, and a
/// button back to the full panel, on one line: where it is short the title takes two lines of
/// text in the picker, the knobs' labels give way, the knobs take a second line (the device
/// moving there where the title needs its room); only where none of that keeps the title whole
/// the picker narrows. Scenario choices land in ui.pending_scenario.
/// The presenter strip's lines for a strip `width` wide: 1 where the scenario's title, its
/// knobs (without their labels if need be) and the device badge fit on one, else 2 (the knobs
/// on the second), as the last frames' strip found.
[[nodiscard]] int presenter_strip_lines(const UiState& ui, float width);
/// Whether the title takes two lines of text in the strip's picker (a two-line strip whose first
/// line cannot hold the title whole on one), as the last frames' strip found.
[[nodiscard]] bool presenter_strip_title_tall(const UiState& ui, float width);
/// The strip's height for `lines` lines, the first as high as a two-line title where
/// `title_tall`.
[[nodiscard]] float presenter_strip_height(int lines, bool title_tall = false);
void draw_presenter_strip(UiState& ui, LabInstance& lab, LabFrame& frame, ImVec2 pos, ImVec2 size);

/// The key numbers of `lab` (LabInstance::key_numbers, else its A/B column: the model's cost,
/// the GPU counters, the measured headline), `scenario`'s "look for" and the view's legend
/// (legend_slot.h), wrapped to `size`. With `with_title`, the scenario's title follows the
/// numbers (the strip had no room for it whole; after them, so that on a short screen the
/// headline stays in the column).
void draw_key_numbers(const LabInstance& lab, const Scenario& scenario,
                      const viz::ImGuiLayer& layer, const LegendSlot& legend, ImVec2 pos,
                      ImVec2 size, bool with_title = false);

/// A scenario's title at the head of the numbers beside the view, wrapped (never cut), over a
/// separator: where the presenter strip's picker cannot show it whole.
void draw_title_beside(const std::string& title);
/// Whether draw_title_beside drew since the last call (the audit's check that the title is on
/// screen whole; one thread, the UI's).
[[nodiscard]] bool take_title_beside_drawn();

/// The view's legend (handed to `legend` while the view drew) under a separator, if any, then
/// what `before_notes` draws (true: it drew something under its own separator), then the notes
/// the view handed in. Returns the legend's end (window y, px): what must be on screen.
/// `flow`: the window is a wide band (A/B's numbers under two views): entries left to right.
float draw_legend_beside(const LegendSlot& legend, const std::function<bool()>& before_notes = {},
                         bool flow = false);

/// A presenter column's text size (call after its window's Begin): where its content ran below
/// it in the last frames of the same `key` (the scenario), scale and width, smaller, down to
/// text as tall, for the screen's height, as 2× on a 1920×1080 screen (1.5× there at 2×, never
/// under scale 1's), and to 1.5×'s share where the legend alone would still be out of sight.
/// Only ever shrinks for one key (a fit that grew back would flip frame to frame). The gaps
/// between its items (ImGui's ItemSpacing, pushed until end_column_fit) shrink with the text.
/// One thread.
void begin_column_fit(const std::string& column, const std::string& key, float ui_scale);
/// At the column's end (before its End): the next frame's size from what ran below it, or the
/// audit's finding where `legend_end` (draw_legend_beside) or `look_for_end` (draw_look_for;
/// negative: none) is below the column even at the least size: those two are kept on screen,
/// down to 1.5×'s share for the legend and 1.25×'s for the look-for. Puts the window's text
/// scale and item spacing back.
void end_column_fit(const std::string& column, float legend_end, float ui_scale,
                    float look_for_end = -1);

/// The scenario's look-for ("Look for: …") under a separator, quiet and wrapped; false (nothing
/// drawn) where it has none. `end`, where given: where it ends (window y, px), for
/// end_column_fit.
bool draw_look_for(const std::string& look_for, float* end = nullptr);

/// One key number in the current window: its value large, then what it is and its note;
/// `compact`: all three in one flow (A/B's column, two sides' numbers in one column).
void draw_key_number(const KeyNumber& number, const viz::ImGuiLayer& layer, bool compact = false);

/// The key numbers a lab without its own list shows: from its A/B column. A/B's column beside
/// two views leaves out what they and its ratio line already say: the access (each view's
/// title names it; `with_access` false) and a side's "not measured" line (`unmeasured` false).
/// `fold_agreeing`: where the GPU's counters are current and agree with the model (their text
/// ends in ✓), the model's number carries the tick and says so, and the counters' own number is
/// left out (A/B's column at 3×: two sides' numbers and the legend in one column).
[[nodiscard]] std::vector<KeyNumber> key_numbers_from(const CompareColumn& column,
                                                      bool with_access = true,
                                                      bool unmeasured = true,
                                                      bool fold_agreeing = false);

}  // namespace warplens::app
