// The tile lab's figure panels (render --panel banks and numbers) and its predict question,
// model only: the read on the banks as the window's grid draws it, the numbers, the count.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "figure_panel.h"
#include "headless_gl_test.h"
#include "lab.h"
#include "scenarios.h"

namespace warplens::app {
namespace {

// The lab's views hold GL objects: a headless EGL context, as the other figure tests use.
class TileFigures : public test::HeadlessGlTest {};

std::optional<FigurePanelData> panel_data(const std::string& scenario, FigurePanel panel) {
  const Scenario& s = find_scenario(scenario);
  const auto lab = lab_info(s.lab).make(/*use_gpu=*/false);
  lab->apply(s, std::nullopt);
  lab->update();
  if (lab->figures()->show_figure_panel(panel)) lab->update();
  return lab->figures()->figure_panel(panel);
}

bool holds(const std::vector<std::string>& texts, const std::string& part) {
  for (const auto& t : texts)
    if (t.find(part) != std::string::npos) return true;
  return false;
}

// The tile lab: its read on the banks as the window's grid draws it (the model's lanes, the
// layout named), its numbers, and its predict question; the answers are the model's counts.
TEST_F(TileFigures, PanelsAndQuestionCountTheReadsWavefronts) {
  EXPECT_EQ(figure_panel_list(lab_info(Lab::Tile).make(false)->figures()->figure_panels()),
            "banks, numbers");
  for (const auto& [name, wavefronts] :
       {std::pair{"tma-no-swizzle-column", 32}, std::pair{"tma-128b-swizzle", 4},
        std::pair{"ldmatrix-no-swizzle", 32}, std::pair{"ldmatrix-128b-swizzle", 4}}) {
    const auto banks = panel_data(name, FigurePanel::Banks);
    ASSERT_TRUE(banks) << name;
    EXPECT_EQ(banks->shared.wavefronts, wavefronts) << name;
    EXPECT_NE(banks->access.find("(32,"), std::string::npos) << banks->access;  // the layout
    EXPECT_FALSE(banks->gpu_trace) << name;
    const auto numbers = panel_data(name, FigurePanel::Numbers);
    ASSERT_TRUE(numbers) << name;
    EXPECT_TRUE(holds(
        [&] {
          std::vector<std::string> t;
          for (const auto& r : numbers->rows) t.push_back(r.name + " " + r.model);
          return t;
        }(),
        "wavefronts " + std::to_string(wavefronts)))
        << name;
    EXPECT_NE(numbers->measured_absent.find("CUDA device"), std::string::npos) << name;
    const Scenario& s = find_scenario(name);
    const auto lab = lab_info(s.lab).make(false);
    lab->apply(s, std::nullopt);
    lab->update();
    const auto answer = predict_answer(*lab);
    ASSERT_TRUE(answer) << name;
    EXPECT_EQ(answer->model, wavefronts) << name;
    EXPECT_EQ(answer->question.unit, "wavefronts");
    EXPECT_FALSE(answer->gpu) << name;  // the counters' answer needs a GPU
  }
}

}  // namespace
}  // namespace warplens::app
