// The window's content, drawn with ImGui: header with the device (or the model-only banner),
// parameter panel, warp view, statistics. The same code draws the interactive window and the
// headless figures, so a figure is exactly what the window shows.
#pragma once

#include <optional>
#include <string>

#include "imgui_layer.h"
#include "lab.h"
#include "scenarios.h"
#include "theme.h"
#include "ui_state.h"
#include "workbench.h"

namespace warplens::app {

/// Draws one frame's UI covering `width` x `height` pixels: the header (one button per lab of
/// the registry), the shown lab's parameter panel, view(s) and numbers — or, while comparing,
/// both sides' views and the A/B table — and the status bar. Call between
/// ImGuiLayer::begin_frame and end_frame with the GL context current; makes the shown lab's
/// instances on first use.
void draw_app(UiState& ui, Workbench& labs, const viz::ImGuiLayer& layer, int width, int height);

/// Scenario `index` of the window's catalog (built-ins, then loaded presets).
const Scenario& scenario_at(const UiState& ui, int index);
int catalog_size(const UiState& ui);

/// Loads a preset file into the catalog and applies it; a bad file leaves everything as it was
/// and sets ui.preset_message. Returns whether it loaded.
bool load_preset(UiState& ui, Workbench& labs, const std::string& path);

/// Applies scenario `index` of the catalog: shows its lab and gives that lab the scenario's
/// parameters. A scenario with `compare_with` switches A/B compare on (A: that scenario, B:
/// this one); any other scenario switches it off.
void apply_scenario(UiState& ui, Workbench& labs, int index);

/// Switches A/B compare on: side A starts as a copy of B's parameters (the window's own lab),
/// and the panel edits B, so what the user changes next shows against where they started.
void start_compare(UiState& ui, Workbench& labs);

/// On the current line, right-aligned to `right_x` (window coordinates): the device that
/// measures, or a warning badge for model-only and teaching models; shortened to fit.
void draw_device_badge(const LabInstance& shown, const viz::ImGuiLayer& layer,
                       const viz::Theme& theme, float right_x);

/// The header at the window's top, `width` x `height` px: WarpLens, a button per lab (the
/// current one highlighted; short titles where the full ones leave no room), A/B compare where the
/// lab has it, and the device badge (app_header.cpp).
void draw_header(UiState& ui, Workbench& labs, const LabInstance& shown,
                 const viz::ImGuiLayer& layer, const viz::Theme& theme, float width, float height);

/// The scenario combo alone (width: SetNextItemWidth before), its preview shortened to
/// `preview_room` pixels; a choice lands in ui.pending_scenario.
void draw_scenario_combo(UiState& ui, float preview_room);
/// The scenarios, grouped by lab, as selectables (inside a combo or popup the caller opened).
void draw_scenario_list(UiState& ui);

/// The scenario combo with the scenario's explanation under it (any lab); a choice lands in
/// ui.pending_scenario.
void draw_scenario_picker(UiState& ui);

}  // namespace warplens::app
