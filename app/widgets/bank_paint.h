// The bank view's painting helpers, shared by its panel (bank_panel.cpp) and its words row
// (bank_words_row.cpp): text at view coordinates (audited where it runs past the view), the
// font size that fits a room, a row's label spacing, and labels kept apart along a row.
#pragma once

#include <imgui.h>

#include <cfloat>
#include <string>
#include <utility>
#include <vector>

#include "bank_view.h"
#include "layout_audit.h"
#include "theme.h"

namespace warplens::app::bank_detail {

// Text on the window's draw list at view coordinates.
struct Painter {
  ImDrawList* draw;
  ImVec2 origin;
  float right = FLT_MAX;  ///< the view's right edge: text past it is cut (and audited)
  float text_scale = 1;   ///< text without an explicit size: this fraction of its font's size
  [[nodiscard]] ImVec2 at(float x, float y) const { return {origin.x + x, origin.y + y}; }
  static ImVec2 size(const ImFont* font, const std::string& t, float px) {
    return font->CalcTextSizeA(px, FLT_MAX, 0, t.c_str());
  }
  [[nodiscard]] float px_of(const ImFont* font, float px) const {
    return px > 0 ? px : font->FontSize * text_scale;
  }
  /// Size of `t` as text() draws it.
  [[nodiscard]] ImVec2 measure(const ImFont* font, const std::string& t, float px = 0) const {
    return size(font, t, px_of(font, px));
  }
  void text(const ImFont* font, float x, float y, ImU32 color, const std::string& t,
            float px = 0) const {
    if (x + measure(font, t, px).x > right + 0.5f) audit_finding("clipped", "bank view: " + t);
    draw->AddText(font, px_of(font, px), at(x, y), color, t.c_str());
  }
  /// Centred in `r`; returns false (drawing nothing) when it does not fit its width, unless
  /// `overflow`.
  bool centered(const ImFont* font, const viz::Rect& r, ImU32 color, const std::string& t,
                float px = 0, bool overflow = false) const {
    const ImVec2 ts = size(font, t, px);
    if (ts.x > r.x1 - r.x0 && !overflow) return false;
    text(font, 0.5f * (r.x0 + r.x1 - ts.x), 0.5f * (r.y0 + r.y1 - ts.y), color, t, px);
    return true;
  }
};

/// The largest font size in [min_px, max_px] at which `widest` fits in `room` pixels, or 0.
inline float fit_px(const ImFont* font, const char* widest, float room, float max_px,
                    float min_px) {
  const float w = Painter::size(font, widest, max_px).x;
  if (w <= room) return max_px;
  const float px = max_px * room / w;
  return px >= min_px ? px : 0.0f;
}

/// Labels for a row of `count` boxes `box_w` wide: the font size, and every how many boxes
/// (1 when each fits its box; otherwise every 4th, overflowing its box, at a small size).
struct Labeling {
  float px;
  int every;
};
inline Labeling labeling(const ImFont* font, const char* widest, float box_w, float font_px,
                         float s) {
  const float px = fit_px(font, widest, box_w - 3 * s, font_px, 0.7f * font_px);
  if (px > 0) return {px, 1};
  // Every 4th box, or every 8th or 16th where even that would run labels into each other.
  const float small = 0.75f * font_px, label_w = Painter::size(font, widest, small).x + 4 * s;
  int every = 4;
  while (every < 16 && static_cast<float>(every) * box_w < label_w) every *= 2;
  return {small, every};
}

/// Labels centred over the boxes of one row (bank numbers, counts), kept apart: a label that
/// would run into one already drawn is left out, so the labels drawn first (the conflicting
/// banks') are the ones that stay.
class RowLabels {
 public:
  RowLabels(const Painter& paint, const ImFont* font, float spacing)
      : paint_(paint), font_(font), spacing_(spacing) {}
  /// Draws `t` centred in `r` at `px` unless it would overlap a label drawn before; returns
  /// whether it drew. A non-zero `halo` fills the label's extent first: a label wider than its
  /// column keeps its neighbours' conflict frames out of its digits (bank-stride-2 at 3x).
  bool draw(const viz::Rect& r, ImU32 color, const std::string& t, float px, ImU32 halo = 0) {
    const ImVec2 ts = Painter::size(font_, t, px);
    const float tw = ts.x;
    const float x0 = 0.5f * (r.x0 + r.x1 - tw), x1 = x0 + tw;
    for (const auto& [a, b] : taken_)
      if (x0 < b + spacing_ && a < x1 + spacing_) return false;
    if (halo) {
      const float cy = 0.5f * (r.y0 + r.y1);
      paint_.draw->AddRectFilled(paint_.at(x0 - 1, cy - 0.5f * ts.y),
                                 paint_.at(x1 + 1, cy + 0.5f * ts.y), halo);
    }
    paint_.centered(font_, r, color, t, px, true);
    taken_.emplace_back(x0, x1);
    return true;
  }

 private:
  const Painter& paint_;
  const ImFont* font_;
  float spacing_;
  std::vector<std::pair<float, float>> taken_;
};

/// The words row of one phase: each bank's count of distinct words, "×n" on a conflicting bank
/// (n where that does not fit its box); where the columns are too narrow, a run of banks with
/// one count says it once across the run ("1 each", "├8┤").
struct WordsRow {
  const Painter& paint;
  const ImFont* regular;
  const ImFont* mono;
  const viz::BankLayout& layout;
  const viz::BankLayout::Phase& p;
  const viz::Theme& theme;
  Labeling count_labels;
  float s, font_px;
  bool hide_answer;  ///< predict-then-reveal: the counts are "?" and no bank is marked
  ImU32 text, muted;
};
void draw_words_row(const WordsRow& row);

}  // namespace warplens::app::bank_detail
