#include "frontends.h"

// clang-format off
#include <glad/gl.h>  // before GLFW, which would include the system's GL header
#include <GLFW/glfw3.h>
// clang-format on
#include <imgui.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>

#include "app_ui.h"
#include "class_mode.h"
#include "exit_codes.h"
#include "figures.h"
#include "frame_phases.h"
#include "gif_writer.h"
#include "glfw_window.h"
#include "gpu_restart.h"
#include "gpu_turn.h"
#include "headless_context.h"
#include "headless_frames.h"
#include "imgui_layer.h"
#include "lesson_mode.h"
#include "lesson_speaker.h"
#include "png_writer.h"
#include "scenarios.h"
#include "software_gl.h"
#include "window_restart.h"
#include "worker_shutdown.h"

namespace warplens::app {

UiState initial_ui(const ViewOptions& options, Workbench& labs, bool interactive) {
  UiState ui;
  ui.theme = options.theme;
  ui.interactive = interactive;
  ui.presenter = options.presenter;
  if (options.array_alone) ui.array_alone = true;
  const auto& catalog = builtin_scenarios();
  const Scenario* start = &find_scenario(options.scenario);
  if (!options.preset.empty()) {
    try {
      ui.loaded.push_back(load_scenario_file(options.preset));
      if (options.preset_lab && ui.loaded.back().lab != *options.preset_lab)
        throw ScenarioError(options.preset + ": lab = \"" + to_string(ui.loaded.back().lab) +
                            "\", not \"" + to_string(*options.preset_lab) + "\"");
      start = &ui.loaded.back();
      ui.preset_message = "loaded " + options.preset;
    } catch (const ScenarioError& e) {
      if (!interactive) throw;  // render: a bad preset is bad input
      ui.preset_message = e.what();
      ui.preset_error = true;
    }
    ui.preset_path = options.preset;
  }
  if (!options.settings.empty() && !ui.preset_error) {
    try {
      const bool from_file = !ui.loaded.empty();
      const std::string text = from_file ? read_preset_file(options.preset)
                                         : std::string(builtin_scenario_text(start->name));
      Scenario set =
          with_settings(text, from_file ? options.preset : start->name, options.settings);
      ui.loaded.clear();
      ui.loaded.push_back(std::move(set));
      start = &ui.loaded.back();
      ui.preset_message = "started with --set: " + start->title;
    } catch (const ScenarioError& e) {
      if (!interactive) throw;       // render: a bad setting is bad input
      ui.preset_message = e.what();  // the window opens on the scenario as it is
      ui.preset_error = true;
    }
  }
  const Scenario& scenario = *start;
  const bool start_loaded = !ui.loaded.empty() && start == &ui.loaded.back();
  ui.scenario = start_loaded ? static_cast<int>(catalog.size()) : 0;
  for (int i = 0; i < static_cast<int>(catalog.size()) && !start_loaded && ui.scenario == 0; ++i) {
    if (catalog[i].name == scenario.name) ui.scenario = i;
  }
  if (options.model != model::HardwareModel::Modern) ui.model_override = options.model;
  apply_scenario(ui, labs, ui.scenario);
  ui.step_lab = ui.lab;
  if (options.step) {
    try {
      if (*options.step < 0) throw std::invalid_argument("--step must be 0 or more");
      go_to_step(labs.lab(ui.lab), *options.step, ui.view_step);
    } catch (const std::invalid_argument& e) {
      throw ScenarioError(e.what());
    }
  }
  if (options.predict) {
    const auto question = predict_question(labs.lab(ui.lab), scenario);
    if (!question)
      throw ScenarioError("--predict: the " + std::string(to_string(ui.lab)) +
                          " lab's view has no count to guess (the global and shared labs have)");
    ui.predict.emplace(*question);
    if (*options.predict != PredictStage::Hidden && options.guess) {
      try {
        ui.predict->guess(*options.guess, options.guess_gbps);
      } catch (const std::invalid_argument& e) {
        throw ScenarioError(std::string("--guess: ") + e.what());
      }
    } else if (*options.predict == PredictStage::Guessed) {
      throw ScenarioError("--predict guessed needs --guess N");
    }
    if (*options.predict == PredictStage::Revealed) ui.predict->reveal();
  }
  if (interactive) ui.model_override.reset();  // later scenarios show their own models
  if (!options.after_gpu_fault.empty()) {
    // software_gl.h: a restarted window draws with the CPU where Mesa is installed.
    const bool cpu_gl = viz::is_software_renderer(viz::current_gl_renderer());
    ui.gpu_notice = std::string("Restarted after a GPU fault, same scenario and parameters (") +
                    (cpu_gl ? "until WarpLens is started again, it draws with the CPU so that the "
                              "GPU only measures"
                            : "until WarpLens is started again, the picture pauses while the GPU "
                              "measures") +
                    "): " + options.after_gpu_fault;
    ui.gpu_notice_until = 40;  // seconds of ImGui time from the start
    ui.preset_message = "restored after a GPU fault";
  }
  ui.bottom = options.view;
  ui.select_bottom = true;
  ui.sweep_word_bytes = options.sweep_word_bytes;
  if (!options.lesson.empty()) {  // after the rest: a lesson's step picks its own view
    start_lesson(ui, labs, find_lesson(options.lesson));
    return ui;
  }
  // The views under the view are a lab's own (the global lab's sweeps): it starts what the view
  // needs, around the scenario where the scenario is its own.
  // (labs.lab() makes an instance: only a lab with bottom views is asked.)
  for (const LabInfo& info : lab_registry())
    if (LabViews* views = info.bottom_views ? labs.lab(info.id).views() : nullptr)
      views->open_bottom_view(options.view, scenario, options.sweep_word_bytes);
  return ui;
}

UiState catalog_ui(const ViewOptions& options) {
  UiState ui;
  ui.theme = options.theme;
  ui.interactive = false;
  ui.presenter = options.presenter;
  if (options.array_alone) ui.array_alone = true;
  if (options.model != model::HardwareModel::Modern) ui.model_override = options.model;
  return ui;
}

PredictStage parse_predict_stage(const std::string& text) {
  for (PredictStage stage : {PredictStage::Hidden, PredictStage::Guessed, PredictStage::Revealed})
    if (text == to_string(stage)) return stage;
  throw std::invalid_argument("--predict must be hidden, guessed or revealed (got \"" + text +
                              "\")");
}

BottomView parse_bottom_view(const std::string& text) {
  if (text == "numbers") return BottomView::Numbers;
  if (text == "heatmap") return BottomView::Heatmap;
  if (text == "offset-sweep") return BottomView::OffsetSweep;
  if (text == "stride-sweep") return BottomView::StrideSweep;
  throw std::invalid_argument(
      "view must be numbers, heatmap, offset-sweep or stride-sweep (got \"" + text + "\")");
}

namespace {

// render --animate: the view at every step of its access, 0 .. the steps its views report.
int write_animation(HeadlessScene& scene, UiState& ui, viz::RenderTarget& target,
                    const ViewOptions& options, const std::string& out_path, int width,
                    int height) {
  if (ui.view_steps <= 0)
    throw ScenarioError("--animate: scenario \"" + scenario_at(ui, ui.scenario).name +
                        "\" shows no view that steps (a bank grid or a modern warp view)");
  std::vector<viz::Image> frames;
  std::vector<int> delays;
  const int steps = ui.view_steps;
  for (int step = 0; step <= steps; ++step) {
    ui.view_step = step;
    scene.draw_still(ui, target, width, height, nullptr, 2);
    frames.push_back(viz::read_framebuffer(width, height));
    delays.push_back(step == steps ? 250 : static_cast<int>(kStepPace * 100));
  }
  const std::string unit = ui.step_unit.empty() ? "step" : ui.step_unit;
  if (options.animate == ViewOptions::Animation::Gif) {
    viz::write_gif(frames, delays, out_path);
    std::cout << "wrote " << out_path << " (" << frames.size() << " frames: " << unit << "s 0.."
              << steps << ", " << width << "x" << height << ")\n";
    return kExitOk;
  }
  const std::filesystem::path base(out_path);
  const std::string stem = (base.parent_path() / base.stem()).string();
  for (std::size_t i = 0; i < frames.size(); ++i) {
    char suffix[32];
    std::snprintf(suffix, sizeof suffix, "-%02zu.png", i);
    viz::write_png(frames[i], stem + suffix);
  }
  std::cout << "wrote " << stem << "-00.png .. " << stem << "-"
            << (frames.size() - 1 < 10 ? "0" : "") << frames.size() - 1 << ".png (" << unit
            << "s 0.." << steps << ")\n";
  return kExitOk;
}

}  // namespace

int render_png(const ViewOptions& options, const std::string& out_path, int width, int height) {
  try {
    (void)find_scenario(options.scenario);  // fail before touching GL
    if (!options.preset.empty()) (void)load_scenario_file(options.preset);
    if (!options.settings.empty())
      (void)with_settings(
          options.preset.empty() ? std::string(builtin_scenario_text(options.scenario))
                                 : read_preset_file(options.preset),
          options.preset.empty() ? options.scenario : options.preset, options.settings);
    const auto device = options.use_gpu ? gpu::query_device() : gpu::DeviceQuery{};
    viz::HeadlessContext context(device.device ? device.device->index : -1);
    if (device.device && !context.matches_cuda_device()) {
      std::cerr << "warplens render: no EGL device reports CUDA device " << device.device->index
                << "; CUDA-GL interop may fail (the host model is used then)\n";
    }
    HeadlessScene scene(options);
    UiState ui = initial_ui(options, scene.labs, false);

    if (!scene.wait_until_idle(std::chrono::seconds(120)))
      std::cerr << "warplens render: the GPU did not finish within 120 s\n";

    viz::RenderTarget target;
    LayoutAudit audit;
    scene.draw_still(ui, target, width, height, options.audit ? &audit : nullptr);
    if (options.animate != ViewOptions::Animation::None)
      return write_animation(scene, ui, target, options, out_path, width, height);
    if (!out_path.empty()) {
      viz::write_png(viz::read_drawn_framebuffer(width, height), out_path);
      (options.audit ? std::cerr : std::cout)
          << "wrote " << out_path << " (" << width << "x" << height << ", "
          << scene.labs.lab(ui.lab).source_text() << "; GL: " << context.renderer() << ")\n";
    }
    const std::string error = scene.labs.lab(ui.lab).error();
    if (!error.empty()) std::cerr << "warplens render: " << error << "\n";
    if (options.audit) {
      nlohmann::json report = {{"findings", nlohmann::json::array()}, {"failing", 0}};
      add_audit_findings(report, scenario_at(ui, ui.scenario).name, audit);
      report["layout"] = ui.presenter_shown ? "presenter" : "full";
      std::cout << report.dump(2) << "\n";
      if (report["failing"].get<int>() > 0) return kExitRuntime;
    }
    return kExitOk;
  } catch (const ScenarioError& e) {
    std::cerr << "warplens render: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "warplens render: " << e.what() << "\n";
    return kExitRuntime;
  }
}

int run_window(const ViewOptions& options, const std::optional<std::string>& screenshot_path,
               int frames) {
  try {
    (void)find_scenario(options.scenario);
    if (!options.lesson.empty()) (void)find_lesson(options.lesson);  // before the window opens
    const bool after_fault = !options.after_gpu_fault.empty();
    if (after_fault) begin_process_after_fault();
    viz::GlfwWindow window("WarpLens", 1600, 960);
    viz::ImGuiLayer layer(window.handle(), options.scale * window.content_scale(), options.theme);
    Workbench labs(options.use_gpu);  // each lab made when first shown
    UiState ui = initial_ui(options, labs, true);
    ui.ui_scale = options.scale;
    std::optional<WindowRestart> restart;
    if (after_fault) settle_process_after_fault();
    register_gl_frames();
    if (options.use_gpu) restart.emplace(options.gpu_restarts);
    bool f11_was_down = false;
    std::unique_ptr<SpeakerWindow> speaker;  // lesson mode with two monitors
    std::string title = "WarpLens";          // in lesson mode: the lesson and its step
    int frame = 0;
    while (!window.should_close()) {
      window.poll_events();
      if (process_parked()) {
        // A new WarpLens measures now (gpu_restart.h): this one's window goes, and the process
        // waits, its faulted context untouched, until the new one ends it.
        glfwHideWindow(window.handle());
        for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
      }
      int width = 0, height = 0;
      window.framebuffer_size(&width, &height);
      if (width == 0 || height == 0) {  // minimised
        answer_alone();  // a job waiting to run alone (gpu_turn.h) need not wait for a frame
        if (restart) restart->refresh(ui, labs);
        labs.update();
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        continue;
      }
      SerialFrame serial;  // after a GPU fault: no GL while a job's kernels run (gpu_turn.h)
      if (!serial.begin()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        continue;
      }
      const auto frame_start = std::chrono::steady_clock::now();
      clear_frame_phases();
      if (restart) restart->refresh(ui, labs);
      labs.update();
      // Lesson mode's speaker view: a window of its own where a second monitor is connected
      // (opened with the lesson, key S closes and opens it), else over this window's right part.
      if (ui.lesson) {
        if (ui.lesson->started < 0) {
          ui.lesson->started = glfwGetTime();
          ui.lesson->speaker = options.speaker_view || monitor_count() >= 2;
        }
        if (speaker) {
          for (const LessonMove move : speaker->take_moves()) move_lesson(ui, labs, move);
          if (speaker->closed()) ui.lesson->speaker = false;
        }
        if (ui.lesson->speaker && !speaker && monitor_count() >= 2) {
          speaker = std::make_unique<SpeakerWindow>(window.handle(), ui.ui_scale, ui.theme);
        } else if (speaker && (!ui.lesson->speaker || monitor_count() < 2)) {
          speaker.reset();
        }
      }
      layer.begin_frame(width, height, 0);
      draw_app(ui, labs, layer, width, height);
      if (ui.lesson && ui.lesson->speaker && !speaker) {
        const float w = static_cast<float>(width), h = static_cast<float>(height);
        draw_speaker_view(speaker_notes(ui, labs.lab(ui.lab), glfwGetTime()), layer,
                          viz::theme(ui.theme), {0.55f * w, 0.08f * h}, {0.43f * w, 0.62f * h});
      }
      glBindFramebuffer(GL_FRAMEBUFFER, 0);
      glViewport(0, 0, width, height);
      const viz::Rgb bg = viz::theme(ui.theme).background;
      glClearColor(bg.r, bg.g, bg.b, 1);
      glClear(GL_COLOR_BUFFER_BIT);
      layer.end_frame();
      if (ui.theme_changed) {
        layer.set_theme(ui.theme);
        ui.theme_changed = false;
      }
      if (ui.scale_changed) {  // fonts rebuilt at the new size, between frames
        layer.set_scale(ui.ui_scale * window.content_scale(), ui.theme);
        if (speaker) speaker->set_scale(ui.ui_scale);
        ui.scale_changed = false;
      }
      // F11: full screen on the window's monitor and back (presenter mode).
      const bool f11 = glfwGetKey(window.handle(), GLFW_KEY_F11) == GLFW_PRESS;
      if (f11 && !f11_was_down) window.toggle_fullscreen();
      f11_was_down = f11;
      if (speaker) speaker->draw(speaker_notes(ui, labs.lab(ui.lab), glfwGetTime()), ui.theme);
      ++frame;
      if (screenshot_path && frame >= frames && labs.idle()) {
        glFinish();
        viz::write_png(viz::read_framebuffer(width, height), *screenshot_path);
        std::cout << "wrote " << *screenshot_path << " (" << width << "x" << height << ", "
                  << labs.lab(ui.lab).source_text() << ")\n";
        return kExitOk;
      }
      window.swap_buffers();
      if (ui.lesson) {  // after the swap: the title says the step the window shows
        const std::string now = "WarpLens \u2014 " + ui.lesson->lesson.title + ": step " +
                                std::to_string(ui.lesson->step + 1) + " of " +
                                std::to_string(ui.lesson->lesson.steps.size());
        if (now != title) {
          title = now;
          glfwSetWindowTitle(window.handle(), title.c_str());
        }
      }
      serial.end([] {
        const PhaseTimer timer("glFinish");
        glFinish();
      });
      log_frame_if_slow(frame_start);
    }
    // Closed: the labs' running jobs are cancelled (a timed launch stops being waited for at
    // once; the kernel itself runs on to its end). With the GPU, the process then leaves without
    // tearing the labs down: freeing their buffers would wait for kernels still running, and the
    // driver releases the context, its memory and CUPTI with the process anyway. The window
    // closes within a second however long a kernel runs.
    const bool stopped = stop_workers(std::chrono::milliseconds(800));
    if (options.use_gpu) {
      if (!stopped) std::cerr << "warplens: a GPU job was still running at exit\n";
      std::cout.flush();
      std::cerr.flush();
      std::fflush(nullptr);
      std::_Exit(kExitOk);
    }
    return kExitOk;
  } catch (const ScenarioError& e) {
    std::cerr << "warplens: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const LessonError& e) {
    std::cerr << "warplens: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "warplens: " << e.what() << "\n";
    return kExitRuntime;
  }
}

}  // namespace warplens::app
