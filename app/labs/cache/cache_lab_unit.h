// The cache lab as a unit of the lab registry: the cache session (cache_session.h) and its
// panels (cache_ui.h). It has no A/B compare: its plots already set carveouts side by side.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cache_session.h"
#include "cache_ui.h"
#include "lab.h"

namespace warplens::app {

class CacheLabUnit final : public SessionLab<CacheSession>,
                           public LabFigures,
                           public LabPresenter,
                           public LabFrameHooks,
                           public LabLayoutHints {
 public:
  [[nodiscard]] LabOffers offers() override {
    return {.figures = this, .presenter = this, .frame_hooks = this, .layout_hints = this};
  }
  explicit CacheLabUnit(bool use_gpu) : SessionLab(use_gpu) {}

  void shown() override { session_.show(); }
  void remeasure() override {}  // the cache lab re-runs from its own panel

  void apply(const Scenario& scenario, std::optional<model::HardwareModel> model) override;
  /// The [cache] table of the current parameters (cache_preset.h).
  [[nodiscard]] std::string preset_section() const override;

  void begin_frame() override;
  void random_change(std::mt19937& rng) override;  // *_random_change.cpp
  void draw_parameters(LabFrame& frame, ImVec2 pos, ImVec2 size) override;
  void draw_view(LabFrame& frame, ImVec2 pos, ImVec2 size, const char* side_name) override;
  [[nodiscard]] float numbers_height(const LabFrame& frame, float body_h, float cap) const override;
  void draw_numbers(LabFrame& frame, ImVec2 pos, ImVec2 size) override;
  [[nodiscard]] std::string status_text() const override;
  /// The current section measured for the current state; its hit rates come with the section's
  /// own numbers (no separate counter line), so `counters` follows `measured`.
  [[nodiscard]] LiveReading live_reading() const override {
    const CacheResults r = session_.measured();
    LiveReading live;
    live.measured = session_.gpu_mode() && session_.measurement_current() && !r.busy;
    live.counters = live.measured;
    live.text = r.busy ? "measuring: " + r.status : live.measured ? "measured" : "not measured";
    return live;
  }
  [[nodiscard]] bool figure_footer() const override { return false; }
  [[nodiscard]] std::string source_text() const override;
  void figure_numbers(nlohmann::json& figure) const override;
  /// The numbers of every section; the read path's bars once measured (cache_figures.h).
  [[nodiscard]] std::vector<FigurePanel> figure_panels() const override;
  [[nodiscard]] std::optional<FigurePanelData> figure_panel(FigurePanel panel) const override;

  /// The section's knobs: carveout and dynamic shared memory per block, the working set, k, or
  /// the load path and the access pattern.
  void draw_knobs(LabFrame& frame) override;
  /// What each section's "look for" names (cache_key_numbers).
  [[nodiscard]] std::vector<KeyNumber> key_numbers() const override;

 private:
  /// The worker's results, copied once per frame for the panels and the status line.
  CacheResults results_;
  /// What the view set aside this frame for lack of room; the numbers panel shows it.
  CacheAside aside_;
};

/// CacheLabUnit::random_change on the session alone (cache_random_change.cpp).
void random_session_change(CacheSession& session, std::mt19937& rng);

}  // namespace warplens::app
