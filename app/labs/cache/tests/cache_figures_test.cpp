// The cache lab's course-note figures without a GPU (`warplens render --panel`): the read path's
// bars panel draws the model's sectors and lines per warp load, labelled as the model's.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "cache_figures.h"
#include "cache_scenario.h"
#include "cache_session.h"
#include "panel_figure.h"
#include "read_path_model.h"
#include "scenarios.h"
#include "theme.h"

namespace warplens::test {
namespace {

using app::FigureBar;
using app::FigurePanel;

TEST(CacheFigures, TheReadPathsBarsWithoutAGpuAreTheModels) {
  // Issue 32: the bars panel was offered only once measured, so a model-only render had none;
  // the window draws the model's sectors and lines per warp load, and so does the figure.
  app::CacheSession cache(false);
  app::CacheState st = app::cache_scenario(app::find_scenario("read-path"));
  st.read.path = gpu::ReadPath::Ldg;  // the model's bars are the plain and __ldg loads' buffer
  cache.set(st);
  EXPECT_EQ(app::figure_panel_list(app::cache_figure_panels(cache, cache.measured())),
            "bars, numbers");
  const auto bars = app::cache_figure_panel(cache, cache.measured(), FigurePanel::Bars);
  ASSERT_TRUE(bars);
  EXPECT_FALSE(bars->gpu_trace);
  EXPECT_EQ(bars->source, "host model");
  ASSERT_EQ(bars->bars.size(), 10u) << "sectors and lines for each of the five patterns";
  int shown = 0;
  for (std::size_t i = 0; i < bars->bars.size(); i += 2) {
    const FigureBar& sectors = bars->bars[i];
    const FigureBar& lines = bars->bars[i + 1];
    EXPECT_TRUE(sectors.model && lines.model) << sectors.name;
    EXPECT_EQ(sectors.text.rfind("model: ", 0), 0u) << sectors.text;
    EXPECT_NE(sectors.name.find("sectors"), std::string::npos) << sectors.name;
    EXPECT_NE(lines.name.find("lines"), std::string::npos) << lines.name;
    shown += sectors.highlight;
  }
  EXPECT_EQ(shown, 1) << "the state's pattern is ringed";
  // The values are the model's (read_path_model.h): the state's pattern among them.
  gpu::ReadPathParams p = st.read;
  p.path = gpu::ReadPath::Plain;
  const app::WarpLoadModel m = app::read_load_model(p);
  const auto it = std::find_if(bars->bars.begin(), bars->bars.end(),
                               [](const FigureBar& b) { return b.highlight; });
  ASSERT_NE(it, bars->bars.end());
  EXPECT_DOUBLE_EQ(it->value, m.sectors);
  EXPECT_DOUBLE_EQ((it + 1)->value, m.lines);
  // The figure says it shows the model, and draws every bar.
  const viz::Figure f = app::panel_figure(*bars, viz::theme(viz::ThemeName::Light), "");
  const auto said = f.texts(viz::FigureRole::ModelOnly);
  ASSERT_FALSE(said.empty());
  EXPECT_NE(said.front()->text.find("model only"), std::string::npos);
  EXPECT_GE(f.count(viz::FigureRole::Bar), 10u);
}

}  // namespace
}  // namespace warplens::test
