#include "window_restart.h"

#include <imgui.h>

#include <cstdio>
#include <exception>
#include <mutex>

#include "app_ui.h"
#include "gpu_restart.h"
#include "preset_writer.h"

namespace warplens::app {

std::string shown_preset_text(const UiState& ui, Workbench& labs) {
  return current_preset_text(labs.lab(ui.lab), ui.lab, scenario_at(ui, ui.scenario));
}

std::vector<std::string> window_restart_argv(const UiState& ui, const std::string& preset_file,
                                             const std::string& fault, int restarts) {
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
  argv.emplace_back("--gpu-restarts");
  argv.push_back(std::to_string(restarts));
  return argv;
}

struct WindowRestart::Ready {
  std::mutex mutex;
  std::string section;  ///< the lab's preset_section() the preset below was made from
  Lab lab = kFirstLab;
  int scenario = -1;
  std::string preset;   ///< the full preset text
  UiState layout;       ///< scale, theme and layout (the fields window_restart_argv reads)
  std::string failure;  ///< a restart that could not happen, for the GL thread to show
};

WindowRestart::WindowRestart(int restarts_so_far) : ready_(std::make_shared<Ready>()) {
  set_gpu_restart([ready = ready_, restarts_so_far](const std::string& fault) {
    std::lock_guard lock(ready->mutex);
    if (restarts_so_far >= kMaxGpuRestarts) {
      ready->failure = fault + "; after " + std::to_string(restarts_so_far) +
                       " restarts in a row WarpLens does not restart again: the labs show their "
                       "models (start WarpLens again to measure)";
      return;
    }
    std::string why = "the window had not drawn a frame yet";
    if (!ready->preset.empty()) {
      try {
        const std::string file = write_restart_file("warplens-restore", ready->preset);
        why = spawn_and_park(window_restart_argv(ready->layout, file, fault, restarts_so_far + 1));
      } catch (const std::exception& e) {
        why = e.what();
      }
    }
    ready->failure =
        fault + "; WarpLens could not restart itself (" + why + "): start it again to measure";
  });
}

WindowRestart::~WindowRestart() {
  set_gpu_restart({});
}

void WindowRestart::refresh(UiState& ui, Workbench& labs) {
  LabInstance& lab = labs.lab(ui.lab);
  std::string section = lab.preset_section();
  std::lock_guard lock(ready_->mutex);
  if (section != ready_->section || ui.lab != ready_->lab || ui.scenario != ready_->scenario) {
    ready_->preset = shown_preset_text(ui, labs);
    ready_->section = std::move(section);
    ready_->lab = ui.lab;
    ready_->scenario = ui.scenario;
  }
  ready_->layout.ui_scale = ui.ui_scale;
  ready_->layout.theme = ui.theme;
  ready_->layout.presenter = ui.presenter;
  if (!ready_->failure.empty()) {
    ui.gpu_notice = std::move(ready_->failure);
    ready_->failure.clear();
    ui.gpu_notice_until = ImGui::GetTime() + 1e9;
  }
}

}  // namespace warplens::app
