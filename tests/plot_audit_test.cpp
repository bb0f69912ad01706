// The layout audit's chart checks (issue 32), on draw_wrapped_plot alone in an ImGui frame with no
// GL behind it: a chart with nothing on it and a dashed line without a name are "missing"
// findings (they fail `render --audit`); the model's marks alone, or named lines, are none.
#include <gtest/gtest.h>
#include <imgui.h>

#include <string>
#include <vector>

#include "layout_audit.h"
#include "plot.h"
#include "theme.h"
#include "view_layout.h"

namespace warplens::app {
namespace {

// The findings of one frame that draws a plot of `series`, `references` and `spec`'s marks.
std::vector<LayoutFinding> findings_of(const viz::PlotSpec& spec,
                                       const std::vector<viz::PlotSeries>& series,
                                       const std::vector<viz::ReferenceLine>& references) {
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = {800, 600};
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  LayoutAudit audit;
  {
    LayoutAudit::Scope scope(audit);
    ImGui::NewFrame();
    ImGui::SetNextWindowPos({0, 0});
    ImGui::SetNextWindowSize({800, 600});
    ImGui::Begin("plot");
    ViewAside aside;
    draw_wrapped_plot("test", "time", spec, series, references, 760, 500,
                      viz::theme(viz::ThemeName::Light), 1.0f, false, aside);
    ImGui::End();
    ImGui::EndFrame();
  }
  ImGui::DestroyContext();
  return audit.findings();
}

bool has(const std::vector<LayoutFinding>& findings, const std::string& part) {
  for (const auto& f : findings)
    if (f.kind == "missing" && f.text.find(part) != std::string::npos) return true;
  return false;
}

viz::PlotSpec spec() {
  viz::PlotSpec s;
  s.x_label = "working set (KiB)";
  s.y_label = "ns";
  s.x_min = 1;
  s.x_max = 100;
  return s;
}

TEST(PlotAudit, AnEmptyChartIsMissingItsLines) {
  // As the L1 sweep, the latency ladder and the constant cache drew without a GPU before.
  viz::PlotSeries measured{"measured", {0.2f, 0.2f, 0.6f}, {}, {}, {}, {}, false, true, -1, true};
  EXPECT_TRUE(has(findings_of(spec(), {measured}, {}), "chart is empty"));
  // The model's knee alone is something to read.
  viz::PlotSpec marked = spec();
  marked.x_marks.push_back({"model: L1 256 KiB", {0.5f, 0.5f, 0.5f}, 50, {}});
  EXPECT_FALSE(has(findings_of(marked, {measured}, {}), "chart is empty"));
  viz::PlotSeries points = measured;
  points.x = {1, 10};
  points.y = {2, 3};
  EXPECT_TRUE(findings_of(spec(), {points}, {}).empty());
}

TEST(PlotAudit, ADashedLineWithoutANameIsMissingIt) {
  viz::PlotSeries model{"", {0.8f, 0.4f, 0.1f}, {1, 100}, {1, 2}, {}, {}, true, false, -1, true};
  EXPECT_TRUE(has(findings_of(spec(), {model}, {}), "dashed line without a name"));
  model.label = "model";
  EXPECT_FALSE(has(findings_of(spec(), {model}, {}), "dashed line without a name"));
  const viz::ReferenceLine unnamed{"", {0.5f, 0.5f, 0.5f}, 1.5};
  EXPECT_TRUE(has(findings_of(spec(), {model}, {unnamed}), "dashed line without a name"));
  viz::PlotSpec marked = spec();
  marked.x_marks.push_back({"", {0.5f, 0.5f, 0.5f}, 50, {}});
  EXPECT_TRUE(has(findings_of(marked, {model}, {}), "dashed line without a name"));
}

}  // namespace
}  // namespace warplens::app
