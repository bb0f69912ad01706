#include "figure_panel.h"

#include <stdexcept>

namespace warplens::app {

const char* to_string(FigurePanel panel) {
  return panel == FigurePanel::Banks ? "banks" : "warp";
}

FigurePanel parse_figure_panel(const std::string& text) {
  if (text == "banks") return FigurePanel::Banks;
  if (text == "warp") return FigurePanel::Warp;
  throw std::invalid_argument("panel must be banks or warp (got \"" + text + "\")");
}

std::string figure_panel_list(const std::vector<FigurePanel>& panels) {
  if (panels.empty()) return "none";
  std::string out;
  for (const FigurePanel p : panels) out += (out.empty() ? "" : ", ") + std::string(to_string(p));
  return out;
}

}  // namespace warplens::app
