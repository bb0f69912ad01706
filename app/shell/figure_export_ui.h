// The window's "Export figure…": right-click the view or the numbers, pick a panel the lab has
// there, and a small dialog writes that panel as a course-note figure (SVG, PDF or PNG, width in
// mm, source line on or off) into a folder it remembers ($XDG_CONFIG_HOME/warplens/figures.toml)
// under <scenario>-<panel>.<ext>, through the same export_panel_figure as `render --panel`. The
// result, or the reason it failed (a missing folder, no permission), is one line in the dialog;
// nothing typed is lost.
#pragma once

#include <imgui.h>

#include <string>

#include "lab.h"
#include "ui_state.h"

namespace warplens::app {

/// Screen rectangles of the shown lab's view and numbers (where a right-click opens the menu).
struct FigureAreas {
  ImVec2 view_min, view_max;
  ImVec2 numbers_min, numbers_max;
};

/// Call once per frame after the lab's view and numbers are drawn (interactive windows only).
void draw_figure_export(const UiState& ui, const LabInstance& lab, const FigureAreas& areas);

/// The settings file the dialog remembers its folder in: $XDG_CONFIG_HOME/warplens/figures.toml,
/// else ~/.config/warplens/figures.toml; empty when neither is known.
std::string figure_settings_path();

}  // namespace warplens::app
