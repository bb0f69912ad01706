#include "figure_export.h"

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iostream>

#include "bank_figure.h"
#include "exit_codes.h"
#include "headless_context.h"
#include "headless_frames.h"
#include "scenarios.h"
#include "warp_figure.h"

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

std::string figure_source_line(const FigurePanelData& data, const std::string& scenario) {
  std::time_t now = std::time(nullptr);
  if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH")) now = std::strtoll(epoch, nullptr, 10);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%d", &utc);
  return (data.gpu_trace ? data.source : "host model (no GPU trace)") + " \u2022 " + date +
         " \u2022 scenario " + scenario + " \u2022 WarpLens";
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
    const auto panels = lab.figure_panels();
    if (std::find(panels.begin(), panels.end(), figure.panel) == panels.end()) {
      std::cerr << "warplens render: scenario " << name << " (" << to_string(ui.lab)
                << " lab) has no " << to_string(figure.panel)
                << " panel; its panels: " << figure_panel_list(panels) << "\n";
      return kExitBadInput;
    }
    lab.show_figure_panel(figure.panel);
    if (!scene.wait_until_idle(std::chrono::seconds(120)))
      std::cerr << "warplens render: the GPU did not finish within 120 s\n";
    const auto data = lab.figure_panel(figure.panel);
    if (!data) {
      std::cerr << "warplens render: " << name << ": the " << to_string(figure.panel)
                << " panel has nothing to draw (" << lab.error() << ")\n";
      return kExitRuntime;
    }
    const viz::Theme& theme = viz::theme(options.theme);
    const std::string source = figure.caption ? figure_source_line(*data, name) : std::string();
    const viz::Figure f = figure.panel == FigurePanel::Banks ? bank_figure(*data, theme, source)
                                                             : warp_figure(*data, theme, source);
    viz::write_figure(f, figure.format, figure.width_mm, figure.out);
    const viz::FigurePage page = viz::figure_page(f, figure.width_mm);
    std::cout << "wrote " << figure.out << " (" << to_string(figure.panel) << " panel of " << name
              << ", " << figure.width_mm << " x " << page.height_pt * 25.4 / 72.0 << " mm, "
              << data->source << "; cairo " << viz::cairo_version_text() << ")\n";
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

}  // namespace warplens::app
