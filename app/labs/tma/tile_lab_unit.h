// The tile lab as a unit of the lab registry: its session (tile_session.h) with the bank view of
// the warp's read, and its panels (tile_ui.h). No A/B compare: the lesson is one picture.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bank_view.h"
#include "lab.h"
#include "tile_session.h"
#include "tile_ui.h"

namespace warplens::app {

/// The view the session publishes to (built before it).
struct TileViews {
  viz::BankView bank_view_;
};

class TileLabUnit final : private TileViews,
                          public SessionLab<TileSession>,
                          public LabFigures,
                          public LabPredict,
                          public LabPresenter,
                          public LabFrameHooks,
                          public LabLayoutHints {
 public:
  [[nodiscard]] LabOffers offers() override {
    return {.figures = this,
            .predict = this,
            .presenter = this,
            .frame_hooks = this,
            .layout_hints = this};
  }
  explicit TileLabUnit(bool use_gpu) : SessionLab(bank_view_, use_gpu) {}

  void apply(const Scenario& scenario, std::optional<model::HardwareModel> model) override;
  /// The [tile] table of the current parameters (tile_preset.h).
  [[nodiscard]] std::string preset_section() const override;

  void shown() override { session_.show(); }
  void begin_frame() override { results_ = session_.measured(); }
  void random_change(std::mt19937& rng) override;  // tile_random_change.cpp
  void draw_parameters(LabFrame& frame, ImVec2 pos, ImVec2 size) override;
  void draw_view(LabFrame& frame, ImVec2 pos, ImVec2 size, const char* side_name) override;
  [[nodiscard]] float numbers_height(const LabFrame& frame, float body_h, float cap) const override;
  void draw_numbers(LabFrame& frame, ImVec2 pos, ImVec2 size) override;
  [[nodiscard]] std::string status_text() const override;
  [[nodiscard]] bool figure_footer() const override { return false; }
  [[nodiscard]] std::string source_text() const override;
  void figure_numbers(nlohmann::json& figure) const override;
  [[nodiscard]] std::vector<KeyNumber> key_numbers() const override;
  [[nodiscard]] CompareColumn compare_column() const override;
  [[nodiscard]] std::optional<PredictAnswer> predict_answer() const override;
  [[nodiscard]] std::vector<FigurePanel> figure_panels() const override;
  bool show_figure_panel(FigurePanel panel) override;
  [[nodiscard]] std::optional<FigurePanelData> figure_panel(FigurePanel panel) const override;

 private:
  TileResults results_;  ///< the worker's results, copied once per frame
};

/// TileLabUnit::random_change on the session alone (tile_random_change.cpp).
void random_session_change(TileSession& session, std::mt19937& rng);

}  // namespace warplens::app
