// The shared-memory labs as units of the lab registry: the bank lab, the transpose, the matrix
// multiply and the reduction. Each is a SharedSession (shared_session.h) fixed to its lab, with
// its bank view and, for the transpose's global read and write, a warp view. What differs
// between the four — the A/B table's parameter line and the headline number — is each
// subclass's own.
#pragma once

#include "bank_view.h"
#include "lab.h"
#include "shared_session.h"
#include "shared_ui.h"
#include "warp_view.h"

namespace warplens::app {

/// The views the session publishes to (built before it).
struct SharedViews {
  viz::BankView bank_view_;
  viz::WarpView global_view_;  ///< the transpose's global read or write
};

class SharedLabBase : private SharedViews,
                      public SessionLab<SharedSession>,
                      public LabFigures,
                      public LabPredict,
                      public LabPresenter,
                      public LabLayoutHints,
                      public LabMemoryModels {
 public:
  [[nodiscard]] LabOffers offers() override {
    return {.figures = this,
            .predict = this,
            .presenter = this,
            .layout_hints = this,
            .memory_models = this};
  }
  SharedLabBase(Lab lab, bool use_gpu);

  void apply(const Scenario& scenario, std::optional<model::HardwareModel> model) override;
  /// The lab's table of the current parameters (shared_preset.h).
  [[nodiscard]] std::string preset_section() const override;
  [[nodiscard]] model::HardwareModel shown_model() const override { return session_.state().model; }

  void draw_parameters(LabFrame& frame, ImVec2 pos, ImVec2 size) override;
  void draw_knobs(LabFrame& frame) override;
  void draw_view(LabFrame& frame, ImVec2 pos, ImVec2 size, const char* side_name) override;
  [[nodiscard]] bool tall_view() const override { return !session_.shows_global(); }
  [[nodiscard]] float numbers_height(const LabFrame& frame, float body_h, float cap) const override;
  void draw_numbers(LabFrame& frame, ImVec2 pos, ImVec2 size) override;
  [[nodiscard]] std::string status_text() const override;
  [[nodiscard]] std::string source_text() const override;
  [[nodiscard]] CompareColumn compare_column() const override;
  [[nodiscard]] std::optional<PredictAnswer> predict_answer() const override;
  void figure_numbers(nlohmann::json& figure) const override;
  /// The bank view of the shown shared access (banks), and the transpose's global read or
  /// write (warp); shared_labs.cpp.
  [[nodiscard]] std::vector<FigurePanel> figure_panels() const override;
  bool show_figure_panel(FigurePanel panel) override;
  [[nodiscard]] std::optional<FigurePanelData> figure_panel(FigurePanel panel) const override;
  /// random_session_change on the session.
  void random_change(std::mt19937& rng) override;  // shared_random_change.cpp

 protected:
  /// The lab's own part of the parameter panel.
  virtual void draw_lab_parameters(SharedState& state) = 0;
  /// The A/B table's parameter line.
  [[nodiscard]] virtual std::string parameters_text() const = 0;
  /// The headline from one copy of the worker's results (`current`: they belong to the state).
  [[nodiscard]] virtual Headline headline(const SharedSession::Measured& m, bool current) const = 0;
};

class BankLab final : public SharedLabBase {
 public:
  explicit BankLab(bool use_gpu) : SharedLabBase(Lab::Banks, use_gpu) {}

 protected:
  void draw_lab_parameters(SharedState& state) override { draw_bank_parameters(state); }
  [[nodiscard]] std::string parameters_text() const override;
  [[nodiscard]] Headline headline(const SharedSession::Measured& m, bool current) const override;
};

class TransposeLab final : public SharedLabBase,
                           public LabStages,
                           public LabViews,
                           public LabFrameHooks {
 public:
  [[nodiscard]] LabOffers offers() override {
    LabOffers o = SharedLabBase::offers();
    o.stages = this;
    o.views = this;
    o.frame_hooks = this;
    return o;
  }
  explicit TransposeLab(bool use_gpu) : SharedLabBase(Lab::Transpose, use_gpu) {}
  /// Keys 1..3: the shared tile, the global read, the global write.
  bool pick_view(UiState& ui, int view) override;
  /// Stepping's stages: the global read, the shared tile, the global write, in that order.
  [[nodiscard]] int step_stages() const override { return 3; }
  [[nodiscard]] int step_stage() const override;
  void go_to_step_stage(UiState& ui, int stage) override;
  [[nodiscard]] std::string step_stage_name() const override;
  /// The view tabs have followed the state once (both sides, when comparing).
  void end_frame(UiState& ui) override;

 protected:
  void draw_lab_parameters(SharedState& state) override { draw_transpose_parameters(state); }
  [[nodiscard]] std::string parameters_text() const override;
  [[nodiscard]] Headline headline(const SharedSession::Measured& m, bool current) const override;
};

class MatmulLab final : public SharedLabBase {
 public:
  explicit MatmulLab(bool use_gpu) : SharedLabBase(Lab::Matmul, use_gpu) {}

 protected:
  void draw_lab_parameters(SharedState& state) override { draw_matmul_parameters(state); }
  [[nodiscard]] std::string parameters_text() const override;
  [[nodiscard]] Headline headline(const SharedSession::Measured& m, bool current) const override;
};

class ReductionLab final : public SharedLabBase, public LabStages {
 public:
  [[nodiscard]] LabOffers offers() override {
    LabOffers o = SharedLabBase::offers();
    o.stages = this;
    return o;
  }
  explicit ReductionLab(bool use_gpu) : SharedLabBase(Lab::Reduction, use_gpu) {}
  /// Stepping's stages: the tree one level after another, each level's two loads (s[i], then
  /// s[i + s]).
  [[nodiscard]] int step_stages() const override;
  [[nodiscard]] int step_stage() const override;
  void go_to_step_stage(UiState& ui, int stage) override;
  [[nodiscard]] std::string step_stage_name() const override;

 protected:
  void draw_lab_parameters(SharedState& state) override { draw_reduction_parameters(state); }
  [[nodiscard]] std::string parameters_text() const override;
  [[nodiscard]] Headline headline(const SharedSession::Measured& m, bool current) const override;
};

/// The shared labs' LabInstance::random_change on the session alone (shared_random_change.cpp):
/// one parameter of the session's lab changed to a value its panel offers, and the state set when
/// the lab's checks (SharedKind::shown_access, plan_bank_probe) accept it.
void random_session_change(SharedSession& session, std::mt19937& rng);

}  // namespace warplens::app
