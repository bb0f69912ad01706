#include "figure_export_ui.h"

#include <toml++/toml.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "app_ui.h"
#include "exit_codes.h"
#include "figure_export.h"
#include "toml_fields.h"

namespace warplens::app {

namespace {

constexpr const char* kMenu = "##figure-export-menu";
constexpr const char* kDialog = "Export figure";

// The dialog's state: one dialog per window.
struct Dialog {
  bool loaded = false;  // the settings file was read
  FigurePanel panel = FigurePanel::Numbers;
  int format = 0;  // svg, pdf, png
  float width_mm = 160;
  bool caption = true;
  char folder[1024] = {};
  char file[256] = {};
  std::string result;
  bool failed = false;
};

Dialog& dialog() {
  static Dialog d;
  return d;
}

viz::FigureFormat format_of(int index) {
  return index == 1   ? viz::FigureFormat::Pdf
         : index == 2 ? viz::FigureFormat::Png
                      : viz::FigureFormat::Svg;
}

void copy_into(char* buffer, std::size_t size, const std::string& text) {
  std::snprintf(buffer, size, "%s", text.c_str());
}

void load_settings(Dialog& d) {
  d.loaded = true;
  std::string folder = std::filesystem::current_path().string();
  const std::string path = figure_settings_path();
  if (!path.empty() && std::filesystem::exists(path)) {
    try {
      const toml::table t = parse_toml_file(path);
      folder = t["folder"].value_or(folder);
      d.format = std::clamp(static_cast<int>(t["format"].value_or(0)), 0, 2);
      d.width_mm = static_cast<float>(t["width_mm"].value_or(160.0));
      d.caption = t["caption"].value_or(true);
    } catch (const std::exception&) {  // an unreadable file: the defaults
    }
  }
  copy_into(d.folder, sizeof d.folder, folder);
}

// Remembers the dialog's choices; a failure to write them is not the export's failure.
void save_settings(const Dialog& d) {
  const std::string path = figure_settings_path();
  if (path.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  toml::table t{{"folder", std::string(d.folder)},
                {"format", d.format},
                {"width_mm", static_cast<double>(d.width_mm)},
                {"caption", d.caption}};
  std::ofstream out(path);
  out << "# WarpLens: the window's \"Export figure\" dialog remembers these\n" << t << "\n";
}

// The panels the lab can export from an area right now.
std::vector<FigurePanel> panels_in(const LabInstance& lab, bool view) {
  std::vector<FigurePanel> out;
  const LabFigures* lab_figures = lab.figures();
  if (!lab_figures) return out;
  for (const FigurePanel p : lab_figures->figure_panels()) {
    const bool view_panel =
        p == FigurePanel::Banks || p == FigurePanel::Warp || p == FigurePanel::Tile;
    if (view_panel == view && lab_figures->figure_panel(p)) out.push_back(p);
  }
  return out;
}

bool inside(ImVec2 p, ImVec2 a, ImVec2 b) {
  return p.x >= a.x && p.x < b.x && p.y >= a.y && p.y < b.y;
}

}  // namespace

std::string figure_settings_path() {
  std::filesystem::path base;
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) {
    base = xdg;
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    base = std::filesystem::path(home) / ".config";
  } else {
    return {};
  }
  return (base / "warplens" / "figures.toml").string();
}

void draw_figure_export(const UiState& ui, const std::vector<FigureTarget>& targets) {
  Dialog& d = dialog();
  static bool over_view = true;
  static std::size_t clicked = 0;  // the target the menu and the dialog are about
  // A right-click on a view or the numbers opens the menu of the panels there.
  if (ImGui::IsMouseClicked(ImGuiMouseButton_Right) &&
      !ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId)) {
    const ImVec2 m = ImGui::GetMousePos();
    for (std::size_t i = 0; i < targets.size(); ++i) {
      const FigureAreas& areas = targets[i].areas;
      const bool view = inside(m, areas.view_min, areas.view_max);
      if (view || inside(m, areas.numbers_min, areas.numbers_max)) {
        over_view = view;
        clicked = i;
        ImGui::OpenPopup(kMenu);
        break;
      }
    }
  }
  if (clicked >= targets.size()) return;
  const LabInstance& lab = *targets[clicked].lab;
  const std::string& side = targets[clicked].side;
  // The file's stem names the side (<scenario>-A-banks.svg); the source line says "side A".
  const std::string name = scenario_at(ui, ui.scenario).name;
  const std::string scenario = name + (side.empty() ? "" : "-" + side);
  const std::string described = name + (side.empty() ? "" : ", side " + side);
  bool open_dialog = false;
  if (ImGui::BeginPopup(kMenu)) {
    const auto panels = panels_in(lab, over_view);
    if (panels.empty()) ImGui::TextDisabled("Nothing here to export as a figure");
    for (const FigurePanel p : panels) {
      if (ImGui::MenuItem(("Export figure\u2026 (" + std::string(to_string(p)) + ")").c_str())) {
        d.panel = p;
        open_dialog = true;
      }
    }
    ImGui::EndPopup();
  }
  if (open_dialog) {
    if (!d.loaded) load_settings(d);
    copy_into(d.file, sizeof d.file, figure_file_name(scenario, d.panel, format_of(d.format)));
    d.result.clear();
    ImGui::OpenPopup(kDialog);
  }
  if (!ImGui::BeginPopupModal(kDialog, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
  if (side.empty()) {
    ImGui::Text("The %s panel of %s, as the window shows it", to_string(d.panel), scenario.c_str());
  } else {
    ImGui::Text("The %s panel of side %s of %s, as the window shows it", to_string(d.panel),
                side.c_str(), name.c_str());
  }
  const int before = d.format;
  ImGui::RadioButton("SVG", &d.format, 0);
  ImGui::SameLine();
  ImGui::RadioButton("PDF", &d.format, 1);
  ImGui::SameLine();
  ImGui::RadioButton("PNG (300 dpi)", &d.format, 2);
  if (d.format != before) {  // the default name follows the format
    const std::string old_default = figure_file_name(scenario, d.panel, format_of(before));
    if (old_default == d.file)
      copy_into(d.file, sizeof d.file, figure_file_name(scenario, d.panel, format_of(d.format)));
  }
  ImGui::SetNextItemWidth(12 * ImGui::GetFontSize());
  ImGui::SliderFloat("width (mm)", &d.width_mm, 40, 500, "%.0f");
  ImGui::Checkbox("source line (device or host model, date, scenario)", &d.caption);
  ImGui::SetNextItemWidth(30 * ImGui::GetFontSize());
  ImGui::InputText("folder", d.folder, sizeof d.folder);
  ImGui::SetNextItemWidth(30 * ImGui::GetFontSize());
  ImGui::InputText("file", d.file, sizeof d.file);
  if (ImGui::Button("Export")) {
    FigureExportOptions options;
    options.panel = d.panel;
    options.format = format_of(d.format);
    options.width_mm = std::clamp(static_cast<double>(d.width_mm), 40.0, 500.0);
    options.caption = d.caption;
    const std::filesystem::path folder(d.folder);
    if (std::string(d.file).empty()) {
      d.result = "give the file a name";
      d.failed = true;
    } else if (!std::filesystem::is_directory(folder)) {
      d.result = "cannot write: " + folder.string() + " is not a folder";
      d.failed = true;
    } else {
      options.out = (folder / d.file).string();
      const FigureExportResult r =
          export_panel_figure(lab, ui.lab, described, options, viz::theme(ui.theme));
      d.result = r.message;
      d.failed = r.code != kExitOk;
      if (!d.failed) save_settings(d);
    }
  }
  ImGui::SameLine();
  if (ImGui::Button("Close")) ImGui::CloseCurrentPopup();
  if (!d.result.empty()) {
    const ImVec4 color = d.failed ? ImVec4{0.85f, 0.2f, 0.1f, 1} : ImVec4{0.1f, 0.55f, 0.25f, 1};
    ImGui::PushTextWrapPos(34 * ImGui::GetFontSize());
    ImGui::TextColored(color, "%s", d.result.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::EndPopup();
}

}  // namespace warplens::app
