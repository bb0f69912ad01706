#include "ui_widgets.h"

namespace warplens::app {

std::string with_thousands(std::int64_t v) {
  std::string digits = std::to_string(v), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0 && digits[i - 1] != '-') out += ',';
    out += digits[i];
  }
  return out;
}

std::string bytes_text(std::int64_t bytes) {
  return format("%lld B", static_cast<long long>(bytes));
}

std::string percent_text(double fraction) {
  return format("%.1f %%", 100.0 * fraction);
}

void stat_row(const char* name, const std::string& model, const std::string& traced,
              bool show_traced, const char* tooltip) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(name);
  if (tooltip && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tooltip);
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(model.c_str());
  ImGui::TableNextColumn();
  if (!show_traced) {
    ImGui::TextDisabled("\u2014");
  } else {
    ImGui::TextUnformatted(traced.c_str());
    ImGui::SameLine();
    if (traced == model) {
      ImGui::TextDisabled("\u2713");
    } else {
      ImGui::TextColored({0.85f, 0.2f, 0.1f, 1}, "\u2717 differs");
    }
  }
}

}  // namespace warplens::app
