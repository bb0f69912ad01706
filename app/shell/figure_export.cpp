#include "figure_export.h"

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iostream>

#include "app_ui.h"
#include "exit_codes.h"
#include "headless_context.h"
#include "headless_frames.h"
#include "panel_figure.h"
#include "scenarios.h"
#include "ui_widgets.h"

namespace warplens::app {

viz::FigureFormat figure_format_of(const std::string& out) {
  std::string ext = std::filesystem::path(out).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext.size() > 1) {
    try {
      return viz::parse_figure_format(ext.substr(1));
    } catch (const std::invalid_argument&) {
    }
  }
  throw std::invalid_argument("--format svg|pdf|png is needed: " + out +
                              " does not end in .svg, .pdf or .png");
}

const char* figure_extension(viz::FigureFormat format) {
  switch (format) {
    case viz::FigureFormat::Svg: return "svg";
    case viz::FigureFormat::Pdf: return "pdf";
    case viz::FigureFormat::Png: return "png";
  }
  return "svg";
}

std::string figure_file_name(const std::string& scenario, FigurePanel panel,
                             viz::FigureFormat format) {
  return scenario + "-" + to_string(panel) + "." + figure_extension(format);
}

std::string figure_date_text() {
  std::time_t now = std::time(nullptr);
  if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH")) now = std::strtoll(epoch, nullptr, 10);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%d", &utc);
  return date;
}

std::string figure_source_line(const FigurePanelData& data, const std::string& scenario) {
  return (data.gpu_trace ? data.source : "host model (no GPU trace)") + " \u2022 " +
         figure_date_text() + " \u2022 scenario " + scenario + " \u2022 WarpLens";
}

FigureExportResult export_panel_figure(const LabInstance& lab, Lab lab_id,
                                       const std::string& scenario,
                                       const FigureExportOptions& options,
                                       const viz::Theme& theme) {
  const LabFigures* lab_figures = lab.figures();
  const auto panels = lab_figures ? lab_figures->figure_panels() : std::vector<FigurePanel>{};
  if (std::find(panels.begin(), panels.end(), options.panel) == panels.end()) {
    return {kExitBadInput, "scenario " + scenario + " (" + to_string(lab_id) + " lab) has no " +
                               to_string(options.panel) +
                               " panel; its panels: " + figure_panel_list(panels)};
  }
  try {
    auto data = lab_figures->figure_panel(options.panel);
    if (data) data->step = options.step;
    if (!data) {
      return {kExitRuntime, scenario + ": the " + std::string(to_string(options.panel)) +
                                " panel has nothing to draw (" + lab.error() + ")"};
    }
    const std::string source =
        options.caption ? figure_source_line(*data, scenario) : std::string();
    const viz::Figure f = panel_figure(*data, theme, source);
    const std::filesystem::path folder = std::filesystem::path(options.out).parent_path();
    if (!folder.empty() && !std::filesystem::is_directory(folder))
      return {kExitRuntime,
              "cannot write " + options.out + ": " + folder.string() + " is not a folder"};
    viz::write_figure(f, options.format, options.width_mm, options.out);
    const viz::FigurePage page = viz::figure_page(f, options.width_mm);
    return {kExitOk, "wrote " + options.out + " (" + to_string(options.panel) + " panel of " +
                         scenario + ", " +
                         format("%g x %.1f mm, ", options.width_mm, page.height_pt * 25.4 / 72.0) +
                         data->source + "; cairo " + viz::cairo_version_text() + ")"};
  } catch (const std::exception& e) {
    return {kExitRuntime, e.what()};
  }
}

int render_figure(const ViewOptions& options, const FigureExportOptions& figure) {
  try {
    (void)find_scenario(options.scenario);  // fail before touching GL
    if (!options.preset.empty()) (void)load_scenario_file(options.preset);
    const auto device = options.use_gpu ? gpu::query_device() : gpu::DeviceQuery{};
    viz::HeadlessContext context(device.device ? device.device->index : -1);
    HeadlessScene scene(options);
    UiState ui = initial_ui(options, scene.labs, false);
    const std::string name = scenario_at(ui, ui.scenario).name;
    if (!scene.wait_until_idle(std::chrono::seconds(120)))
      std::cerr << "warplens render: the GPU did not finish within 120 s\n";
    LabInstance& lab = scene.labs.lab(ui.lab);
    if (lab.figures() && lab.figures()->show_figure_panel(figure.panel) &&
        !scene.wait_until_idle(std::chrono::seconds(120)))
      std::cerr << "warplens render: the GPU did not finish within 120 s\n";
    FigureExportOptions stepped = figure;
    stepped.step = ui.view_step;  // render --step K
    const FigureExportResult r =
        export_panel_figure(lab, ui.lab, name, stepped, viz::theme(options.theme));
    (r.code == kExitOk ? std::cout : std::cerr)
        << (r.code == kExitOk ? "" : "warplens render: ") << r.message << "\n";
    if (r.code != kExitOk) return r.code;
    const std::string error = lab.error();
    if (!error.empty()) std::cerr << "warplens render: " << error << "\n";
    return kExitOk;
  } catch (const ScenarioError& e) {
    std::cerr << "warplens render: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "warplens render: " << e.what() << "\n";
    return kExitRuntime;
  }
}

int render_all_figures(const ViewOptions& options, const FigureExportOptions& figure) {
  try {
    std::error_code ec;
    std::filesystem::create_directories(figure.out, ec);
    if (ec || !std::filesystem::is_directory(figure.out)) {
      std::cerr << "warplens render: cannot create " << figure.out << ": " << ec.message() << "\n";
      return kExitRuntime;
    }
    const auto device = options.use_gpu ? gpu::query_device() : gpu::DeviceQuery{};
    viz::HeadlessContext context(device.device ? device.device->index : -1);
    HeadlessScene scene(options);
    UiState ui = catalog_ui(options);
    const viz::Theme& theme = viz::theme(options.theme);
    int failed = 0, written = 0;
    const auto& catalog = builtin_scenarios();
    for (int i = 0; i < static_cast<int>(catalog.size()); ++i) {
      const Scenario& scenario = catalog[static_cast<std::size_t>(i)];
      apply_scenario(ui, scene.labs, i);
      scene.wait_until_idle();
      LabInstance& lab = scene.labs.lab(ui.lab);
      LabFigures* lab_figures = lab.figures();
      if (!lab_figures) continue;  // a lab that offers no figures
      std::vector<FigurePanel> panels = lab_figures->figure_panels();
      if (!figure.any_panel) {  // --panel P: the scenarios that have it
        if (std::find(panels.begin(), panels.end(), figure.panel) == panels.end()) continue;
        panels = {figure.panel};
      }
      for (const FigurePanel panel : panels) {
        if (lab_figures->show_figure_panel(panel)) scene.wait_until_idle();
        FigureExportOptions one = figure;
        one.panel = panel;
        one.out = (std::filesystem::path(figure.out) /
                   figure_file_name(scenario.name, panel, figure.format))
                      .string();
        const FigureExportResult r = export_panel_figure(lab, ui.lab, scenario.name, one, theme);
        if (r.code == kExitOk) {
          // Flushed per file: the list reads whole in a pipe even when stderr writes between
          // (the ASan build's LeakSanitizer summary landed inside a buffered line).
          std::cout << one.out << std::endl;
          ++written;
        } else {
          std::cerr << "warplens render: " << r.message << "\n";
          ++failed;
        }
      }
    }
    if (written == 0 && failed == 0) {
      std::cerr << "warplens render: no built-in scenario has a " << to_string(figure.panel)
                << " panel\n";
      return kExitBadInput;
    }
    return failed > 0 ? kExitRuntime : kExitOk;
  } catch (const std::exception& e) {
    std::cerr << "warplens render: " << e.what() << "\n";
    return kExitRuntime;
  }
}

}  // namespace warplens::app
