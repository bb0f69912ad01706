// The global-memory lab as a unit of the lab registry: the copy session (copy_session.h) with
// its warp view and sector heatmap.
#pragma once

#include "copy_session.h"
#include "heat_strip.h"
#include "lab.h"
#include "warp_view.h"

namespace warplens::app {

class GlobalLab final : public LabInstance {
 public:
  explicit GlobalLab(bool use_gpu) : session_(view_, heat_, use_gpu) {}

  [[nodiscard]] CopySession& session() { return session_; }
  [[nodiscard]] const CopySession& session() const { return session_; }

  void update() override { session_.update(); }
  [[nodiscard]] bool idle() const override { return session_.idle(); }
  void remeasure() override { session_.remeasure(); }
  [[nodiscard]] const gpu::DeviceQuery& device() const override { return session_.device(); }
  [[nodiscard]] std::string error() const override { return session_.error(); }

  void apply(const Scenario& scenario, std::optional<model::HardwareModel> model) override;
  void copy_parameters_from(const LabInstance& other) override;
  [[nodiscard]] model::HardwareModel shown_model() const override { return session_.state().model; }

  void draw_parameters(LabFrame& frame, ImVec2 pos, ImVec2 size) override;
  void draw_view(LabFrame& frame, ImVec2 pos, ImVec2 size, const char* side_name) override;
  [[nodiscard]] float numbers_height(const LabFrame& frame, float body_h, float cap) const override;
  void draw_numbers(LabFrame& frame, ImVec2 pos, ImVec2 size) override;
  bool pick_view(UiState& ui, int view) override;
  [[nodiscard]] std::string status_text() const override;
  [[nodiscard]] std::string source_text() const override;
  [[nodiscard]] CompareColumn compare_column() const override;
  void figure_numbers(nlohmann::json& figure) const override;

 private:
  viz::WarpView view_;
  viz::HeatStrip heat_;
  CopySession session_;
};

}  // namespace warplens::app
