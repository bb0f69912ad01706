// The bytes-in-flight lab as a unit of the lab registry: its session (flight_session.h) and its
// panels (flight_ui.h). A/B compare sets two copies' knobs side by side (B / A of GB/s).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "flight_session.h"
#include "flight_ui.h"
#include "lab.h"

namespace warplens::app {

class FlightLabUnit final : public SessionLab<FlightSession>,
                            public LabFigures,
                            public LabViews,
                            public LabPresenter,
                            public LabFrameHooks,
                            public LabLayoutHints {
 public:
  [[nodiscard]] LabOffers offers() override {
    return {.figures = this,
            .views = this,
            .presenter = this,
            .frame_hooks = this,
            .layout_hints = this};
  }
  explicit FlightLabUnit(bool use_gpu) : SessionLab(use_gpu) {}

  void shown() override { session_.show(); }

  void apply(const Scenario& scenario, std::optional<model::HardwareModel> model) override;
  /// The [flight] table of the current parameters (flight_preset.h).
  [[nodiscard]] std::string preset_section() const override;

  void begin_frame() override;
  void random_change(std::mt19937& rng) override;  // *_random_change.cpp
  void draw_parameters(LabFrame& frame, ImVec2 pos, ImVec2 size) override;
  void draw_view(LabFrame& frame, ImVec2 pos, ImVec2 size, const char* side_name) override;
  [[nodiscard]] float numbers_height(const LabFrame& frame, float body_h, float cap) const override;
  void draw_numbers(LabFrame& frame, ImVec2 pos, ImVec2 size) override;
  /// Keys 1..3: the sections (the latency ladder, Little's law, the async copies).
  bool pick_view(UiState& ui, int view) override;
  [[nodiscard]] std::string status_text() const override;
  [[nodiscard]] bool figure_footer() const override { return false; }
  [[nodiscard]] std::string source_text() const override;
  void figure_numbers(nlohmann::json& figure) const override;
  /// The numbers of every section; the async copies' bars once measured (flight_figures.h).
  [[nodiscard]] std::vector<FigurePanel> figure_panels() const override;
  [[nodiscard]] std::optional<FigurePanelData> figure_panel(FigurePanel panel) const override;

  /// Word size and loads per thread (Little's law), the working set (latency).
  void draw_knobs(LabFrame& frame) override;
  [[nodiscard]] std::vector<KeyNumber> key_numbers() const override;
  [[nodiscard]] CompareColumn compare_column() const override;

 private:
  FlightResults results_;  ///< the worker's results, copied once per frame
  ViewAside aside_;        ///< what the view set aside this frame
};

/// FlightLabUnit::random_change on the session alone (flight_random_change.cpp).
void random_session_change(FlightSession& session, std::mt19937& rng);

}  // namespace warplens::app
