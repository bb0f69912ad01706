// The global-memory lab as a unit of the lab registry: the copy session (copy_session.h) with
// its warp view and sector heatmap.
#pragma once

#include "copy_session.h"
#include "heat_strip.h"
#include "lab.h"
#include "warp_view.h"

namespace warplens::app {

/// The views the session publishes to (built before it).
struct GlobalViews {
  viz::WarpView view_;
  viz::HeatStrip heat_;
};

class GlobalLab final : private GlobalViews,
                        public SessionLab<CopySession>,
                        public LabStages,
                        public LabFigures,
                        public LabViews,
                        public LabPredict,
                        public LabPresenter,
                        public LabMemoryModels {
 public:
  [[nodiscard]] LabOffers offers() override {
    return {.stages = this,
            .figures = this,
            .views = this,
            .predict = this,
            .presenter = this,
            .memory_models = this};
  }
  explicit GlobalLab(bool use_gpu) : SessionLab(view_, heat_, use_gpu) {}

  void apply(const Scenario& scenario, std::optional<model::HardwareModel> model) override;
  /// The [copy] table of the current parameters (global_preset.h).
  [[nodiscard]] std::string preset_section() const override;
  [[nodiscard]] model::HardwareModel shown_model() const override { return session_.state().model; }

  void draw_parameters(LabFrame& frame, ImVec2 pos, ImVec2 size) override;
  void draw_knobs(LabFrame& frame) override;
  void draw_view(LabFrame& frame, ImVec2 pos, ImVec2 size, const char* side_name) override;
  [[nodiscard]] float numbers_height(const LabFrame& frame, float body_h, float cap) const override;
  void draw_numbers(LabFrame& frame, ImVec2 pos, ImVec2 size) override;
  bool pick_view(UiState& ui, int view) override;
  /// The sweeps, on a GPU: around a global scenario's copy, else the default copy.
  void open_bottom_view(BottomView view, const Scenario& scenario, int sweep_word_bytes) override;
  void random_change(std::mt19937& rng) override;  // *_random_change.cpp
  [[nodiscard]] std::string status_text() const override;
  [[nodiscard]] std::string source_text() const override;
  [[nodiscard]] CompareColumn compare_column() const override;
  [[nodiscard]] std::optional<PredictAnswer> predict_answer() const override;
  [[nodiscard]] int step_stages() const override;
  [[nodiscard]] int step_stage() const override;
  void go_to_step_stage(UiState& ui, int stage) override;
  [[nodiscard]] std::string step_stage_name() const override;
  void figure_numbers(nlohmann::json& figure) const override;
  /// The warp view, the numbers, the sector heatmap, and a measured sweep, as figures (render
  /// --panel); global_figures.cpp.
  [[nodiscard]] std::vector<FigurePanel> figure_panels() const override;
  bool show_figure_panel(FigurePanel panel) override;
  [[nodiscard]] std::optional<FigurePanelData> figure_panel(FigurePanel panel) const override;
};

/// GlobalLab::random_change on the session alone (global_random_change.cpp): one control of the
/// parameter panel moved to a value it offers, set when plan_copy accepts it.
void random_session_change(CopySession& session, std::mt19937& rng);
/// Its change of `state`: false (and `state` as it was) when plan_copy refuses the new value.
bool random_state_change(CopyState& state, std::mt19937& rng);

}  // namespace warplens::app
