#include "lab_panel.h"

#include <imgui.h>

#include "ui_widgets.h"

namespace warplens::app {

bool section_button(const char* label, bool current, float width) {
  if (current)
    ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
  const bool clicked = ImGui::Button(label, {width, 0});
  if (current) ImGui::PopStyleColor();
  return clicked && !current;
}

bool draw_measure_footer(const MeasureProgress& f, const viz::Theme& theme, bool interactive) {
  bool again = false;
  if (!f.gpu_mode) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s", f.no_gpu_text.c_str());
    ImGui::PopTextWrapPos();
  } else if (f.busy) {
    ImGui::ProgressBar(f.total ? static_cast<float>(f.done) / static_cast<float>(f.total) : 0.0f,
                       {-1, 0}, f.status.c_str());
  } else if (interactive) {
    again = ImGui::Button("Measure again");
  }
  if (!f.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, color4(theme.warning));
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(f.error.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
  }
  return again;
}

ViewAside::Note measured_state_note(const MeasureProgress& p, bool has) {
  // Without a GPU the view draws the model: a quiet note, not a warning over it.
  if (!p.gpu_mode) return has ? ViewAside::Note{} : ViewAside::Note{p.no_gpu_text, false};
  if (p.busy) return {format("%s \u2026 %d / %d", p.status.c_str(), p.done, p.total), false};
  return has ? ViewAside::Note{} : ViewAside::Note{"not measured yet", false};
}

std::string sectioned_status_text(const std::string& lab, const std::string& section,
                                  const std::string& device_text, bool gpu_mode, bool busy,
                                  const std::string& status) {
  std::string text = lab + " \u2022 " + section + " \u2022 " + device_text;
  if (!gpu_mode) return text + " \u2022 model only";
  if (busy) text += " \u2022 " + status;
  return text;
}

}  // namespace warplens::app
