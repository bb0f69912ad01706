// The window's restart after a GPU fault (app/shell/window_restart.h), without a GPU: the command
// line it execs with is one the window's own parser reads back to the same scale, theme, layout
// and preset, with the fault's line for the status bar; and the preset it writes for the lab shown
// restores that lab's parameters (the preset writer's round trips are in preset_writer_test).
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "command_line.h"
#include "gpu_recovery.h"
#include "gpu_restart.h"
#include "window_restart.h"

namespace warplens {
namespace {

app::ViewOptions parse(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  app::CommandLine c;
  c.cli.parse(static_cast<int>(args.size()), args.data());
  return c.window_view_options();
}

TEST(WindowRestart, ItsCommandLineKeepsTheScaleThemeLayoutAndPresetAndCarriesTheFault) {
  app::UiState ui;
  ui.ui_scale = 2.0f;
  ui.theme = viz::ThemeName::Dark;
  ui.presenter = true;
  const std::string fault = "GPU fault (cudaErrorIllegalAddress: an illegal memory access)";
  const auto argv = app::window_restart_argv(ui, "/tmp/warplens-restore-1.toml", fault);
  ASSERT_FALSE(argv.empty());
  EXPECT_EQ(argv.front(), app::self_executable());
  const app::ViewOptions v = parse(argv);
  EXPECT_EQ(v.preset, "/tmp/warplens-restore-1.toml");
  EXPECT_FLOAT_EQ(v.scale, 2.0f);
  EXPECT_EQ(v.theme, viz::ThemeName::Dark);
  ASSERT_TRUE(v.presenter.has_value());
  EXPECT_TRUE(*v.presenter);
  EXPECT_EQ(v.after_gpu_fault, fault);
  EXPECT_EQ(v.gpu_restarts, 1);

  ui.presenter.reset();  // automatic layout: no flag either way
  ui.ui_scale = 1.5f;
  ui.theme = viz::ThemeName::Light;
  const app::ViewOptions w = parse(app::window_restart_argv(ui, "p.toml", fault, 3));
  EXPECT_EQ(w.gpu_restarts, 3);
  EXPECT_FALSE(w.presenter.has_value());
  EXPECT_FLOAT_EQ(w.scale, 1.5f);
  EXPECT_EQ(w.theme, viz::ThemeName::Light);
}

TEST(WindowRestart, TheRestartRunsOnceAndThenFallsBack) {
  int calls = 0;
  app::set_gpu_restart([&](const std::string& fault) {
    ++calls;
    EXPECT_EQ(fault, "the fault");
  });
  EXPECT_TRUE(app::gpu_restart_registered());
  EXPECT_TRUE(app::run_gpu_restart("the fault"));
  EXPECT_EQ(calls, 1);
  // A restart that returned has failed: the next fault falls back instead of looping.
  EXPECT_FALSE(app::gpu_restart_registered());
  EXPECT_FALSE(app::run_gpu_restart("the fault"));
  EXPECT_EQ(calls, 1);
}

TEST(WindowRestart, TheRestartFileIsWrittenWhole) {
  const std::string path = app::write_restart_file("warplens-test-restore", "name = \"x\"\n");
  std::FILE* f = std::fopen(path.c_str(), "r");
  ASSERT_NE(f, nullptr);
  char buf[64] = {};
  const std::size_t n = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  EXPECT_EQ(std::string(buf, n), "name = \"x\"\n");
  std::remove(path.c_str());
}

}  // namespace
}  // namespace warplens

namespace warplens {
namespace {

TEST(WindowRestart, AFaultReportedRunsTheRestartAtOnceOnTheReportingThread) {
  std::string got;
  app::set_gpu_restart([&](const std::string& fault) { got = fault; });
  std::thread worker([] { app::request_gpu_reset(0, "GPU fault (test)"); });
  worker.join();
  EXPECT_EQ(got, "GPU fault (test)");  // no frame of the GL thread needed
  // The restart returned (it failed): the request stays for the fallback, which a stand-in
  // reset ends here so that the process's later tests start clean.
  EXPECT_TRUE(app::gpu_reset_requested());
  EXPECT_TRUE(app::recover_gpu_if_requested([](int) {}));
  EXPECT_FALSE(app::gpu_reset_requested());
}

}  // namespace
}  // namespace warplens
