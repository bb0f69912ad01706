#include "bank_legend.h"

#include "bank_view.h"
#include "ui_widgets.h"

namespace warplens::app::bank_detail {

namespace {

using viz::Rgb;
using viz::to_imgui_color;

// --- legend ------------------------------------------------------------------------------------

enum class Swatch { Lanes, Idle, Conflict, Broadcast, Wavefront };
struct BankLegendEntry {
  Swatch swatch;
  const char* label;
  const char* short_label;    ///< when the full labels would take more than two rows
  const char* tip = nullptr;  ///< what the word means, on hover
};
constexpr BankLegendEntry kLegend[] = {
    {Swatch::Lanes, "lane colour (0 \u2192 31)", "lane"},
    {Swatch::Wavefront, "wavefront that serves the word", "wavefront",
     "A wavefront is one pass of shared memory: each of the 32 banks serves at most one "
     "distinct 4-byte word. A request takes as many wavefronts as its busiest bank has "
     "distinct words (1: no conflict)."},
    {Swatch::Conflict, viz::kBankConflictKey, "conflict \u00d7n"},
    {Swatch::Broadcast, "broadcast: lanes sharing one word", "broadcast"},
    {Swatch::Idle, "idle lane", "idle"},
};

float swatch_width() {
  return ImGui::GetFontSize() * 1.8f;
}

const char* legend_label(const BankLegendEntry& e, bool short_labels) {
  return short_labels ? e.short_label : e.label;
}

float legend_item_width(const BankLegendEntry& e, bool short_labels) {
  return swatch_width() + ImGui::GetStyle().ItemSpacing.x +
         ImGui::CalcTextSize(legend_label(e, short_labels)).x;
}

void draw_swatch(ImDrawList* draw, Swatch swatch, ImVec2 p, float w, float h, float s,
                 const viz::Theme& theme, const ImFont* mono) {
  const ImVec2 a = p, b = {p.x + w, p.y + h};
  switch (swatch) {
    case Swatch::Lanes: {
      for (int i = 0; i < 8; ++i) {
        const float x0 = a.x + w * static_cast<float>(i) / 8.0f;
        draw->AddRectFilled({x0, a.y}, {x0 + w / 8.0f + 0.5f, b.y},
                            to_imgui_color(theme.lanes[static_cast<std::size_t>(i * 31 / 7)]));
      }
      break;
    }
    case Swatch::Idle: draw->AddRectFilled(a, b, to_imgui_color(theme.inactive)); break;
    case Swatch::Conflict: {
      Rgb tint{theme.untouched.r + (theme.conflict.r - theme.untouched.r) * 0.16f,
               theme.untouched.g + (theme.conflict.g - theme.untouched.g) * 0.16f,
               theme.untouched.b + (theme.conflict.b - theme.untouched.b) * 0.16f};
      draw->AddRectFilled(a, b, to_imgui_color(tint));
      draw->AddRect(a, b, to_imgui_color(theme.conflict), 0, 0, 2.5f * s);
      break;
    }
    case Swatch::Broadcast: {
      draw->PushClipRect(a, b, true);
      for (int i = -8; i < 16; ++i) {
        const float x = a.x + static_cast<float>(i) * 4.0f * s;
        const Rgb c = theme.lanes[static_cast<std::size_t>(((i + 8) * 9) % 32)];
        draw->AddQuadFilled({x, b.y}, {x + 4 * s, b.y}, {x + 4 * s + h, a.y}, {x + h, a.y},
                            to_imgui_color(c));
      }
      draw->PopClipRect();
      draw->AddRect({a.x + 1.5f * s, a.y + 1.5f * s}, {b.x - 1.5f * s, b.y - 1.5f * s},
                    to_imgui_color(theme.broadcast), 0, 0, 3.0f * s);
      break;
    }
    case Swatch::Wavefront: {
      draw->AddRectFilled(a, b, to_imgui_color(theme.lanes[9]));
      const char* t = "2";
      const ImVec2 ts = mono->CalcTextSizeA(mono->FontSize, FLT_MAX, 0, t);
      draw->AddText(mono, mono->FontSize, {a.x + 0.5f * (w - ts.x), a.y + 0.5f * (h - ts.y)},
                    to_imgui_color(viz::text_on(theme.lanes[9])), t);
      break;
    }
  }
}

}  // namespace

int legend_rows(float width, float scale, bool short_labels) {
  float x = 0;
  int rows = 1;
  for (const BankLegendEntry& e : kLegend) {
    const float item_w = legend_item_width(e, short_labels);
    if (x > 0 && x + 22 * scale + item_w > width) {
      ++rows;
      x = 0;
    }
    x += (x > 0 ? 22 * scale : 0) + item_w;
  }
  return rows;
}

// The legend, flowing left to right; `column`: one entry per line, its text wrapped (the
// presenter's legend slot beside the view). Either way only the entries `shown`.
void draw_legend(const viz::Theme& theme, float s, const ImFont* mono, bool short_labels,
                 bool column, LegendShown shown) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float sh = ImGui::GetFontSize() * 1.05f, sw = swatch_width();
  const float right = ImGui::GetWindowContentRegionMax().x + ImGui::GetWindowPos().x;
  bool first = true;
  for (const BankLegendEntry& e : kLegend) {
    if ((e.swatch == Swatch::Conflict && !shown.conflict) ||
        (e.swatch == Swatch::Broadcast && !shown.broadcast) ||
        (e.swatch == Swatch::Idle && !shown.idle) ||
        (e.swatch == Swatch::Wavefront && !shown.wavefront))
      continue;
    if (column) {
      const ImVec2 p = ImGui::GetCursorScreenPos();
      draw_swatch(draw, e.swatch, {p.x, p.y}, sw, sh, s, theme, mono);
      ImGui::Dummy({sw, sh});
      ImGui::SameLine();
      ImGui::PushTextWrapPos(0);
      ImGui::TextUnformatted(e.label);
      ImGui::PopTextWrapPos();
      if (e.tip && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", e.tip);
      continue;
    }
    // On the same line when it fits (decided before SameLine: a NewLine after it would count
    // the spacing as content past the window's edge).
    if (!first && ImGui::GetItemRectMax().x + 22 * s + legend_item_width(e, short_labels) <= right)
      ImGui::SameLine(0, 22 * s);
    first = false;
    const ImVec2 p = ImGui::GetCursorScreenPos();
    draw_swatch(draw, e.swatch, {p.x, p.y}, sw, sh, s, theme, mono);
    ImGui::Dummy({sw, sh});
    ImGui::SameLine();
    ImGui::TextUnformatted(legend_label(e, short_labels));
    if (e.tip && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", e.tip);
  }
}

}  // namespace warplens::app::bank_detail
