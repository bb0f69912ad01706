#include "window_restart.h"

#include <imgui.h>

#include <chrono>
#include <cstdio>
#include <exception>

#include "app_ui.h"
#include "gpu_restart.h"
#include "preset_writer.h"

namespace warplens::app {

std::string shown_preset_text(const UiState& ui, Workbench& labs) {
  return current_preset_text(labs.lab(ui.lab), ui.lab, scenario_at(ui, ui.scenario));
}

std::vector<std::string> window_restart_argv(const UiState& ui, const std::string& preset_file,
                                             const std::string& fault) {
  char scale[16];
  std::snprintf(scale, sizeof scale, "%g", static_cast<double>(ui.ui_scale));
  std::vector<std::string> argv = {self_executable(),
                                   "--preset",
                                   preset_file,
                                   "--scale",
                                   scale,
                                   "--theme",
                                   ui.theme == viz::ThemeName::Dark ? "dark" : "light"};
  if (ui.presenter) argv.emplace_back(*ui.presenter ? "--presenter" : "--no-presenter");
  argv.emplace_back("--after-gpu-fault");
  argv.push_back(fault);
  return argv;
}

void register_window_restart(UiState& ui, Workbench& labs, bool after_fault) {
  const auto started = std::chrono::steady_clock::now();
  set_gpu_restart([&ui, &labs, after_fault, started](const std::string& fault) {
    if (after_fault && std::chrono::steady_clock::now() - started < std::chrono::seconds(30)) {
      ui.gpu_notice = fault +
                      "; it faulted again right after a restart, so WarpLens does not restart "
                      "again: the labs show their models (start WarpLens again to measure)";
      ui.gpu_notice_until = ImGui::GetTime() + 1e9;
      return;
    }
    std::string why;
    try {
      const std::string preset =
          write_restart_file("warplens-restore", shown_preset_text(ui, labs));
      why = restart_process(window_restart_argv(ui, preset, fault));
    } catch (const std::exception& e) {
      why = e.what();
    }
    ui.gpu_notice =
        fault + "; WarpLens could not restart itself (" + why + "): start it again to measure";
    ui.gpu_notice_until = ImGui::GetTime() + 1e9;
  });
}

}  // namespace warplens::app
