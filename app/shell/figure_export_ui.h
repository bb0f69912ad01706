// The window's "Export figure…": right-click the view or the numbers, pick a panel the lab has
// there, and a small dialog writes that panel as a course-note figure (SVG, PDF or PNG, width in
// mm, source line on or off) into a folder it remembers ($XDG_CONFIG_HOME/warplens/figures.toml)
// under <scenario>-<panel>.<ext>, through the same export_panel_figure as `render --panel`. The
// result, or the reason it failed (a missing folder, no permission), is one line in the dialog;
// nothing typed is lost.
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

#include "lab.h"
#include "ui_state.h"

namespace warplens::app {

/// Screen rectangles of a lab's view and numbers (where a right-click opens the menu); an empty
/// rectangle offers nothing there (A/B compare's numbers are both sides').
struct FigureAreas {
  ImVec2 view_min, view_max;
  ImVec2 numbers_min, numbers_max;
};

/// A lab on screen whose panels a right-click in its areas offers: the shown lab, or in A/B
/// compare each side ("A", "B": its files are <scenario>-<side>-<panel>.<ext>).
struct FigureTarget {
  const LabInstance* lab = nullptr;
  std::string side;  ///< empty: the one lab shown
  FigureAreas areas;
};

/// Call once per frame after the labs' views and numbers are drawn (interactive windows only),
/// with the targets in the same order every frame.
void draw_figure_export(const UiState& ui, const std::vector<FigureTarget>& targets);

/// The settings file the dialog remembers its folder in: $XDG_CONFIG_HOME/warplens/figures.toml,
/// else ~/.config/warplens/figures.toml; empty when neither is known.
std::string figure_settings_path();

}  // namespace warplens::app
