// A LabInstance that does nothing (no session, no GPU, no drawing), for tests of the shell's code
// that a lab is handed to: derive and override what the test needs.
#pragma once

#include <optional>
#include <string>

#include "lab.h"

namespace warplens::test {

class StandInLab : public app::LabInstance {
 public:
  void update() override {}
  [[nodiscard]] bool idle() const override { return true; }
  void remeasure() override {}
  [[nodiscard]] const gpu::DeviceQuery& device() const override { return device_; }
  [[nodiscard]] std::string error() const override { return {}; }
  void apply(const app::Scenario&, std::optional<model::HardwareModel>) override {}
  void copy_parameters_from(const app::LabInstance&) override {}
  [[nodiscard]] std::string preset_section() const override { return {}; }
  void draw_parameters(app::LabFrame&, ImVec2, ImVec2) override {}
  void draw_view(app::LabFrame&, ImVec2, ImVec2, const char*) override {}
  [[nodiscard]] float numbers_height(const app::LabFrame&, float, float) const override {
    return 0;
  }
  void draw_numbers(app::LabFrame&, ImVec2, ImVec2) override {}
  [[nodiscard]] std::string status_text() const override { return {}; }
  [[nodiscard]] std::string source_text() const override { return {}; }
  void figure_numbers(nlohmann::json&) const override {}

 private:
  gpu::DeviceQuery device_;
};

}  // namespace warplens::test
