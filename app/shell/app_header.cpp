// The window's header: the lab buttons, the A/B compare button and the device badge.
#include <imgui.h>
#include <imgui_internal.h>

#include <string>

#include "app_ui.h"
#include "ui_widgets.h"

namespace warplens::app {

void draw_device_badge(const LabInstance& shown, const viz::ImGuiLayer& layer,
                       const viz::Theme& theme, float right_x) {
  std::string text;
  bool warn = false;
  const model::HardwareModel shown_model = app::shown_model(shown);
  const auto& device = shown.device().device;
  if (device) {
    const auto& d = *device;
    text = format("measured on %s (CC %d.%d, %d SMs)", d.name.c_str(), d.cc_major, d.cc_minor,
                  d.sm_count);
    if (shown_model != model::HardwareModel::Modern) {
      text = "teaching model: " + std::string(model::to_string(shown_model)) +
             " \u2022 measurements come from the real " + d.name + " (CC " +
             std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor) + ")";
      warn = true;
    }
  } else {
    text = "model only, no GPU";  // the status line's words
    warn = true;
  }
  // What is left of the line, shortened to the GPU's name (or the short warning), then cut
  // with an ellipsis; never drawn over what is left of it.
  const float room = right_x - ImGui::GetCursorPosX() - 20 * layer.scale();
  if (ImGui::CalcTextSize(text.c_str()).x > room) {
    text = !warn    ? device->name
           : device ? "teaching model: " + std::string(model::to_string(shown_model))
                    : text;
  }
  if (ImGui::CalcTextSize(text.c_str()).x > room && warn)  // the fewest words that still warn
    text = device ? std::string(model::to_string(shown_model)) : std::string("no GPU");
  // The card without its maker ("H200", not "NVIDI…"): the status line names it in full.
  const std::string maker = "NVIDIA ";
  if (!warn && ImGui::CalcTextSize(text.c_str()).x > room && text.rfind(maker, 0) == 0)
    text.erase(0, maker.size());
  text = fit_text(text, room);
  const float text_w = ImGui::CalcTextSize(text.c_str()).x;
  ImGui::SameLine(std::max(ImGui::GetCursorPosX() + 20 * layer.scale(), right_x - text_w));
  if (warn) {
    // On a line of framed widgets the text sits FramePadding.y lower (AlignTextToFramePadding).
    const ImVec2 p = {
        ImGui::GetCursorScreenPos().x,
        ImGui::GetCursorScreenPos().y + ImGui::GetCurrentWindow()->DC.CurrLineTextBaseOffset};
    const float pad = 6 * layer.scale();
    ImGui::GetWindowDrawList()->AddRectFilled(
        {p.x - pad, p.y - pad * 0.5f},
        {p.x + text_w + pad, p.y + ImGui::GetTextLineHeight() + pad * 0.5f},
        to_imgui_color(theme.warning), 4 * layer.scale());
    ImGui::PushStyleColor(ImGuiCol_Text, color4(viz::text_on(theme.warning)));
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopStyleColor();
  } else {
    ImGui::TextUnformatted(text.c_str());
  }
}

void draw_header(UiState& ui, Workbench& labs, const LabInstance& shown,
                 const viz::ImGuiLayer& layer, const viz::Theme& theme, float width, float height) {
  ImGui::SetNextWindowPos({0, 0});
  ImGui::SetNextWindowSize({width, height});
  ImGui::Begin("##header", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus);
  ImGui::PushFont(layer.fonts().bold);
  ImGui::TextUnformatted("WarpLens");
  ImGui::PopFont();
  // One button per lab, the current one highlighted; short titles when the full ones would
  // leave no room for the compare button and the device line.
  const ImGuiStyle& style = ImGui::GetStyle();
  float full_w = 24 * layer.scale() + ImGui::CalcTextSize("A/B compare: on").x +
                 ImGui::CalcTextSize("measured on NVIDIA H100 80GB HBM3").x;
  for (const LabInfo& lab : lab_registry())
    full_w += ImGui::CalcTextSize(lab.title).x + 2 * style.FramePadding.x + 4 * layer.scale();
  const bool short_titles = ImGui::GetCursorPosX() + full_w > width;
  for (const LabInfo& lab : lab_registry()) {
    ImGui::SameLine(0, &lab == &lab_registry().front() ? 24 * layer.scale() : 4 * layer.scale());
    const bool current = ui.lab == lab.id;
    if (current)
      ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    if (ImGui::SmallButton(short_titles ? lab.short_title : lab.title) && ui.interactive &&
        !current) {
      ui.lab = lab.id;
    }
    if (current) ImGui::PopStyleColor();
  }
  if (lab_info(ui.lab).compare_ratio) {
    ImGui::SameLine(0, 24 * layer.scale());
    if (ui.compare)
      ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    const char* compare_label = short_titles ? (ui.compare ? "A/B: on" : "A/B")
                                             : (ui.compare ? "A/B compare: on" : "A/B compare");
    if (ImGui::SmallButton(compare_label) && ui.interactive) {
      if (ui.compare) {
        ui.compare = false;
      } else {
        start_compare(ui, labs);
      }
    }
    if (ui.compare) ImGui::PopStyleColor();
    if (ui.interactive && ImGui::IsItemHovered())
      ImGui::SetTooltip(
          "Two parameter sets side by side, both measured on the GPU (key C). A starts as a "
          "copy of the current parameters; change B (or A) in the panel.");
  }
  ImGui::SameLine();
  draw_device_badge(shown, layer, theme, width - 24 * layer.scale());
  ImGui::End();
}

}  // namespace warplens::app
