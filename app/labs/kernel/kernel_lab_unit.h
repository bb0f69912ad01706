// The own-kernel lab as a unit of the lab registry: its session (kernel_session.h) with the warp
// view (rows of in and out) and the bank view (rows of the tile), and its panels (kernel_ui.h).
// ← / → step through the accesses; A/B compare sets two programs side by side (B / A of GB/s).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bank_view.h"
#include "kernel_session.h"
#include "kernel_ui.h"
#include "lab.h"
#include "warp_view.h"

namespace warplens::app {

/// The views the session publishes to (built before it).
struct KernelViews {
  viz::WarpView warp_view_;
  viz::BankView bank_view_;
};

class KernelLabUnit final : private KernelViews,
                            public SessionLab<KernelSession>,
                            public LabFigures,
                            public LabViews,
                            public LabAccessWalk,
                            public LabPresenter,
                            public LabFrameHooks,
                            public LabLayoutHints,
                            public LabMemoryModels {
 public:
  [[nodiscard]] LabOffers offers() override {
    return {.figures = this,
            .views = this,
            .access_walk = this,
            .presenter = this,
            .frame_hooks = this,
            .layout_hints = this,
            .memory_models = this};
  }
  explicit KernelLabUnit(bool use_gpu) : SessionLab(warp_view_, bank_view_, use_gpu) {}

  void apply(const Scenario& scenario, std::optional<model::HardwareModel> model) override;
  /// The [kernel] table of the current program (kernel_preset.h).
  [[nodiscard]] std::string preset_section() const override;
  [[nodiscard]] model::HardwareModel shown_model() const override { return session_.state().model; }

  void begin_frame() override { results_ = session_.measured(); }
  void random_change(std::mt19937& rng) override;  // kernel_random_change.cpp
  void draw_parameters(LabFrame& frame, ImVec2 pos, ImVec2 size) override;
  void draw_view(LabFrame& frame, ImVec2 pos, ImVec2 size, const char* side_name) override;
  [[nodiscard]] bool tall_view() const override;
  [[nodiscard]] float numbers_height(const LabFrame& frame, float body_h, float cap) const override;
  void draw_numbers(LabFrame& frame, ImVec2 pos, ImVec2 size) override;
  /// Keys 1 and 2: the access shown, the generated source.
  bool pick_view(UiState& ui, int view) override;
  /// ← / → and --step K: the program's rows, one access at a time.
  bool arrow_key(int direction) override;
  void go_to_access(int step) override;
  [[nodiscard]] std::string status_text() const override;
  [[nodiscard]] bool figure_footer() const override { return false; }
  [[nodiscard]] std::string source_text() const override;
  void figure_numbers(nlohmann::json& figure) const override;

  /// The shown access as a figure: banks for a tile row, warp for a row of in or out
  /// (`render --panel`, with `--step K` for another access).
  [[nodiscard]] std::vector<FigurePanel> figure_panels() const override;
  [[nodiscard]] std::optional<FigurePanelData> figure_panel(FigurePanel panel) const override;

  void draw_knobs(LabFrame& frame) override;
  [[nodiscard]] std::vector<KeyNumber> key_numbers() const override;
  [[nodiscard]] CompareColumn compare_column() const override;

 private:
  KernelResults results_;  ///< the worker's results, copied once per frame
  KernelEditor editor_;
};

/// KernelLabUnit::random_change on the session alone (kernel_random_change.cpp).
void random_session_change(KernelSession& session, std::mt19937& rng);

}  // namespace warplens::app
