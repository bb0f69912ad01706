#include "plot.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>

#include "imgui_layer.h"

namespace warplens::viz {

namespace {

void dashed_line(ImDrawList* draw, ImVec2 a, ImVec2 b, ImU32 color, float thickness, float dash) {
  const float dx = b.x - a.x, dy = b.y - a.y;
  const float length = std::sqrt(dx * dx + dy * dy);
  if (length <= 0) return;
  for (float t = 0; t < length; t += 2 * dash) {
    const float t1 = std::min(t + dash, length);
    draw->AddLine({a.x + dx * t / length, a.y + dy * t / length},
                  {a.x + dx * t1 / length, a.y + dy * t1 / length}, color, thickness);
  }
}

struct LegendItem {
  Rgb color;
  const std::string* label;
  bool dashed;
  bool point = false;  ///< a series of points alone (lines false): a dot, ringed if highlighted
  bool ringed = false;
};

std::vector<LegendItem> legend_items(const std::vector<PlotSeries>& series,
                                     const std::vector<ReferenceLine>& references) {
  std::vector<LegendItem> items;
  // A series without points is not drawn: its key would name a line the class cannot find.
  for (const auto& se : series)
    if (!se.x.empty())
      items.push_back({se.color, &se.label, se.dashed, !se.lines, se.highlight >= 0});
  for (const auto& r : references) items.push_back({r.color, &r.label, true});
  return items;
}

float legend_item_width(const LegendItem& item, float s) {
  return 28 * s + ImGui::CalcTextSize(item.label->c_str()).x;
}

// The line (0, 1, ...) each item starts when the items flow into `width` pixels.
std::vector<int> legend_lines(const std::vector<LegendItem>& items, float width, float s) {
  std::vector<float> widths;
  for (const auto& item : items) widths.push_back(legend_item_width(item, s));
  return flow_lines(widths, width, 20 * s);
}

}  // namespace

std::vector<int> flow_lines(const std::vector<float>& widths, float width, float gap) {
  std::vector<int> lines;
  float used = 0;
  int line = 0;
  for (std::size_t i = 0; i < widths.size(); ++i) {
    if (i > 0 && used + gap + widths[i] > width) {
      ++line;
      used = 0;
    }
    used += (used > 0 ? gap : 0.0f) + widths[i];
    lines.push_back(line);
  }
  return lines;
}

std::vector<double> thin_ticks(const std::vector<double>& ticks, double lo, double hi, float length,
                               float label_height, bool log_axis) {
  if (ticks.size() < 2 || !(hi > lo) || (log_axis && !(lo > 0))) return ticks;
  const auto at = [&](double v) {
    const double f = log_axis ? (std::log(v) - std::log(lo)) / (std::log(hi) - std::log(lo))
                              : (v - lo) / (hi - lo);
    return static_cast<float>(f) * length;
  };
  const float apart = 1.2f * label_height;  // a label's height and a fifth of it between two
  std::vector<double> kept = {ticks.front()};
  for (std::size_t i = 1; i < ticks.size(); ++i)
    if (at(ticks[i]) - at(kept.back()) >= apart) kept.push_back(ticks[i]);
  return kept;
}

float plot_legend_height(const std::vector<PlotSeries>& series,
                         const std::vector<ReferenceLine>& references, float width, float s,
                         PlotLayout::Legend legend) {
  const float font = ImGui::GetFontSize();
  if (legend == PlotLayout::Legend::None) return 0;
  const std::vector<LegendItem> items = legend_items(series, references);
  if (legend == PlotLayout::Legend::OneLine || items.empty()) return font * 1.5f;
  const int lines = legend_lines(items, width - 8 * s, s).back() + 1;
  return font * 1.5f + static_cast<float>(lines - 1) * font * 1.25f;
}

void draw_plot(const char* id, const PlotSpec& spec, const std::vector<PlotSeries>& series,
               const std::vector<ReferenceLine>& references, float width, float height,
               const Theme& theme, float s, bool interactive) {
  draw_plot(id, spec, series, references, width, height, theme, s, interactive, PlotLayout{});
}

void draw_plot(const char* id, const PlotSpec& spec, const std::vector<PlotSeries>& series,
               const std::vector<ReferenceLine>& references, float width, float height,
               const Theme& theme, float s, bool interactive, const PlotLayout& layout) {
  ImGui::PushID(id);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("##plot", {width, height});
  const bool hovered = interactive && ImGui::IsItemHovered();
  const float font = ImGui::GetFontSize();

  // Y range from the data and the reference lines.
  double y_lo = std::numeric_limits<double>::max(), y_hi = 0;
  const auto include = [&](double v) {
    if (!(v > 0) && spec.log_y) return;
    y_lo = std::min(y_lo, v);
    y_hi = std::max(y_hi, v);
  };
  for (const auto& se : series) {
    for (double v : se.y) include(v);
    for (double v : se.y_high) include(v);
  }
  for (const auto& r : references) include(r.y);
  // Nothing to read off the y axis (the model's marks alone, before a GPU measured): no ticks.
  const bool values = y_hi > 0;
  if (y_hi <= 0) {
    y_lo = spec.log_y ? 1 : 0;
    y_hi = spec.log_y ? 10 : 1;
  }
  if (spec.log_y) {
    y_lo = std::pow(10.0, std::floor(std::log10(y_lo) * 4) / 4);
    y_hi = std::pow(
        10.0, std::ceil(std::log10(y_hi * 1.05) * 4) / 4);  // a line at the top stays off the frame
  } else {
    y_lo = 0;
    const auto t = nice_ticks(0, y_hi * 1.05, 6);
    y_hi = t.empty() ? y_hi : std::max(t.back(), y_hi * 1.05);
  }
  // The frame's height (see below): the y ticks keep their labels apart in it, with coarser
  // steps where a short frame cannot hold six.
  const float legend_h = plot_legend_height(series, references, width, s, layout.legend);
  const float frame_h = height - font * 2.6f - legend_h - (font + 10 * s);
  // The top reference line keeps a label's height (at 3/4 of the font) over it: its label has
  // that row whatever stands under the line. Two lines closer than a label is high (cudaMemcpy
  // under the theoretical peak in a short frame) need it; so does a peak just under the frame's
  // top whose room below is taken by cudaMemcpy's label and the rings on its line
  // (flight-volkov on an H200 at 3x: 4814 GB/s over 3492).
  std::vector<double> ref_ys;
  for (const auto& r : references)
    if (!(spec.log_y && r.y <= 0)) ref_ys.push_back(r.y);
  std::sort(ref_ys.rbegin(), ref_ys.rend());
  const auto frac = [&](double v) {
    return spec.log_y ? (std::log10(v) - std::log10(y_lo)) / (std::log10(y_hi) - std::log10(y_lo))
                      : (v - y_lo) / (y_hi - y_lo);
  };
  const double headroom = (std::max(0.75f * font, 12.0f) + 6 * s) / std::max(frame_h, 1.0f);
  if (values && !ref_ys.empty() && headroom < 0.5 && 1 - frac(ref_ys[0]) < headroom) {
    y_hi = spec.log_y
               ? std::pow(10.0, std::log10(y_lo) +
                                    (std::log10(ref_ys[0]) - std::log10(y_lo)) / (1 - headroom))
               : std::max(y_hi, ref_ys[0] / (1 - headroom));
  }
  const float tick_h = ImGui::GetTextLineHeight();
  std::vector<double> y_ticks;
  if (spec.log_y) {
    y_ticks = thin_ticks(log_ticks(y_lo, y_hi), y_lo, y_hi, frame_h, tick_h, true);
  } else {
    for (int target = 6; target >= 1; --target) {
      y_ticks = nice_ticks(y_lo, y_hi, target);
      if (thin_ticks(y_ticks, y_lo, y_hi, frame_h, tick_h).size() == y_ticks.size()) break;
    }
    y_ticks = thin_ticks(y_ticks, y_lo, y_hi, frame_h, tick_h);
  }
  if (!values) y_ticks.clear();
  const bool log_x = spec.log_x && spec.x_min > 0 && spec.x_max > spec.x_min;
  const std::vector<double> x_ticks = !spec.x_ticks.empty() ? spec.x_ticks
                                      : log_x               ? log_ticks(spec.x_min, spec.x_max)
                                                            : nice_ticks(spec.x_min, spec.x_max, 8);

  // Frame: room for tick labels and axis labels.
  float y_label_w = 0;
  for (double v : y_ticks)
    y_label_w = std::max(y_label_w, ImGui::CalcTextSize(tick_label(v).c_str()).x);
  const float left = origin.x + font * 1.6f + y_label_w + 8 * s;
  const float right = origin.x + width - 12 * s;
  const float top = origin.y + font + 10 * s;  // the y-axis label sits above the frame
  const float bottom = origin.y + height - font * 2.6f - legend_h;
  const auto px = [&](double x) {
    const double f = log_x ? (std::log(std::max(x, 1e-300)) - std::log(spec.x_min)) /
                                 (std::log(spec.x_max) - std::log(spec.x_min))
                           : (x - spec.x_min) / (spec.x_max - spec.x_min);
    return static_cast<float>(left + f * (right - left));
  };
  const auto py = [&](double y) {
    const double f =
        spec.log_y ? (std::log10(y) - std::log10(y_lo)) / (std::log10(y_hi) - std::log10(y_lo))
                   : (y - y_lo) / (y_hi - y_lo);
    return static_cast<float>(bottom - f * (bottom - top));
  };
  const ImU32 text = to_imgui_color(theme.text);
  const ImU32 muted = to_imgui_color(theme.muted_text);
  const ImU32 grid = to_imgui_color(theme.untouched);

  draw->AddRectFilled({left, top}, {right, bottom}, to_imgui_color(theme.background));
  for (double v : y_ticks) {
    const float y = py(v);
    draw->AddLine({left, y}, {right, y}, grid, 1.0f);
    const std::string label = tick_label(v);
    const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
    draw->AddText({left - ts.x - 6 * s, y - ts.y * 0.5f}, text, label.c_str());
  }
  for (double v : x_ticks) {
    const float x = px(v);
    draw->AddLine({x, top}, {x, bottom}, grid, 1.0f);
    const std::string label = tick_label(v);
    const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
    draw->AddText({x - ts.x * 0.5f, bottom + 4 * s}, text, label.c_str());
  }
  draw->AddRect({left, top}, {right, bottom}, to_imgui_color(theme.rule), 0, 0, 1.0f);
  // Axis labels: x under the ticks; ImGui 1.86 cannot write vertically, so the y label sits
  // above the frame.
  const ImVec2 xs = ImGui::CalcTextSize(spec.x_label.c_str());
  draw->AddText({0.5f * (left + right) - 0.5f * xs.x, bottom + font + 8 * s}, muted,
                spec.x_label.c_str());
  draw->AddText({left - y_label_w - 6 * s, origin.y + 2 * s}, muted, spec.y_label.c_str());

  draw->PushClipRect({left, top}, {right, bottom}, true);
  // The model's vertical marks (one per x: the last of several, as the legend lists them),
  // each labelled inside the frame: right of the line, or left of it where the frame ends
  // first, in the first row where it meets no other label (below).
  std::vector<ImVec4> placed;  // the labels' boxes: x0, y0, x1, y1
  // The rings of the current points: a label keeps off them (the knee's label sat under the
  // ring of the point beside it).
  std::vector<ImVec2> rings;
  for (const auto& se : series) {
    const auto i = static_cast<std::size_t>(se.highlight);
    if (se.highlight < 0 || i >= se.x.size() || (spec.log_y && se.y[i] <= 0)) continue;
    const ImVec2 p{px(se.x[i]), py(se.y[i])};
    if (p.x >= left && p.x <= right && p.y >= top && p.y <= bottom) rings.push_back(p);
  }
  const auto off_rings = [&](float lx, float ly, float w, float h) {
    const float r = 9.0f * s;  // the ring's radius and stroke, and a pixel or two
    return std::none_of(rings.begin(), rings.end(), [&](const ImVec2& p) {
      return p.x + r > lx - 2 * s && p.x - r < lx + w + 2 * s && p.y + r > ly && p.y - r < ly + h;
    });
  };
  // A label keeps off the reference lines too (the knee's label sat on the cudaMemcpy line),
  // and, where a row allows, off the series' lines and points.
  const auto off_references = [&](float ly, float h) {
    return std::none_of(references.begin(), references.end(), [&](const ReferenceLine& r) {
      if (spec.log_y && r.y <= 0) return false;
      const float y = py(r.y);
      return y > ly - 3 * s && y < ly + h + 3 * s;
    });
  };
  const auto off_series = [&](float lx, float ly, float w, float h) {
    const float x0 = lx - 2 * s, x1 = lx + w + 2 * s, y0 = ly - 2 * s, y1 = ly + h + 2 * s;
    const auto inside = [&](ImVec2 p) { return p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1; };
    for (const auto& se : series)
      for (std::size_t i = 0; i < se.x.size(); ++i) {
        if (spec.log_y && se.y[i] <= 0) continue;
        const ImVec2 p{px(se.x[i]), py(se.y[i])};
        if (inside(p)) return false;
        if (!se.lines || i == 0 || (spec.log_y && se.y[i - 1] <= 0)) continue;
        const ImVec2 q{px(se.x[i - 1]), py(se.y[i - 1])};
        for (int k = 1; k < 16; ++k) {  // a segment crossing the box passes one of these
          const float f = static_cast<float>(k) / 16;
          if (inside({q.x + f * (p.x - q.x), q.y + f * (p.y - q.y)})) return false;
        }
      }
    return true;
  };
  // ... and off the other marks' lines.
  const auto off_marks = [&](const XMark& self, float lx, float w) {
    return std::none_of(spec.x_marks.begin(), spec.x_marks.end(), [&](const XMark& o) {
      if (&o == &self || o.x < spec.x_min || o.x > spec.x_max) return false;
      const float x = px(o.x);
      return x > lx - 3 * s && x < lx + w + 3 * s;
    });
  };
  // The reference lines' labels, placed first (each belongs to one height): its name and value
  // ("cudaMemcpy 2890 GB/s") against the frame's right edge, else its left edge, just above its
  // line, else below it, else over it (two lines close together); free of each other, of the
  // marks' lines and of the rings.
  struct RefLabel {
    const ReferenceLine* line;
    std::string text;
    float x, y, size;
    float leader_x = -1;  ///< where a label away from its line hangs from it (-1: beside it)
  };
  std::vector<RefLabel> ref_labels;
  for (const auto& r : references) {
    if (spec.log_y && r.y <= 0) continue;
    const float y = py(r.y);
    if (y < top || y > bottom) continue;
    const std::string label = reference_label(r, spec.value_unit);
    // In a first pass also clear of the marks' lines; in a second across them (the box is
    // drawn over the line, and a label along its own horizontal line reads as that line's); in a
    // third a row further under (then over) its line, off the series, hung from it by a leader
    // in its colour (the current point's ring under cudaMemcpy's line, the theoretical peak just
    // over it); in a fourth such a row over the series. In the first two, beside the line at a
    // smaller size before over it (its box hides the line: carveout-occupancy's 8 blocks/SM).
    bool found = false;
    for (int step = 0; step < 6 && !found; ++step) {
      const int pass = step < 4 ? step / 2 : step - 2;
      const bool over = step < 4 && step % 2 == 1;
      for (const float size : {font, std::max(0.75f * font, 12.0f), std::max(0.6f * font, 12.0f)}) {
        const ImVec2 ts = ImGui::GetFont()->CalcTextSizeA(size, FLT_MAX, 0.0f, label.c_str());
        std::vector<float> rows = {y - ts.y - 2 * s, y + 2 * s};
        if (over) rows = {y - 0.5f * ts.y};
        if (pass >= 2) {
          rows.clear();
          for (float d = 0.5f * ts.y; d < bottom - top; d += 0.5f * ts.y) {
            rows.push_back(y + 2 * s + d);
            rows.push_back(y - ts.y - 2 * s - d);
          }
        }
        for (const float ly : rows) {
          if (ly < top + 1 * s || ly + ts.y > bottom - 1 * s) continue;
          for (const float lx : {right - 6 * s - ts.x, left + 6 * s}) {
            // Within the frame on both sides: a label wider than the plot finds no place here
            // (the next, smaller size may).
            if (lx < left + 2 * s || lx + ts.x > right - 2 * s) continue;
            // The leader at the label's end by the frame's edge; the other lines kept off the
            // label and (with a leader) off the span between it and its line.
            const float lead = pass < 2               ? -1.0f
                               : lx > left + 6.5f * s ? lx + ts.x - 2 * s
                                                      : lx + 2 * s;
            const float y0 = pass < 2 ? ly : std::min(ly, y),
                        y1 = pass < 2 ? ly + ts.y : std::max(ly + ts.y, y);
            const bool free =
                std::none_of(placed.begin(), placed.end(),
                             [&](const ImVec4& b) {
                               return lx < b.z + 8 * s && b.x < lx + ts.x + 8 * s && ly < b.w &&
                                      b.y < ly + ts.y;
                             }) &&
                off_rings(lx, ly, ts.x, ts.y) &&
                (pass < 2 || off_rings(lead - 1 * s, y0, 2 * s, y1 - y0)) &&
                (pass != 2 || off_series(lx, ly, ts.x, ts.y)) &&
                std::none_of(references.begin(), references.end(),
                             [&](const ReferenceLine& o) {
                               if (&o == &r || (spec.log_y && o.y <= 0)) return false;
                               const float oy = py(o.y);
                               return oy > y0 - 2 * s && oy < y1 + 2 * s;
                             }) &&
                (pass > 0 ||
                 std::none_of(spec.x_marks.begin(), spec.x_marks.end(), [&](const XMark& o) {
                   if (o.x < spec.x_min || o.x > spec.x_max) return false;
                   const float x = px(o.x);
                   return x > lx - 3 * s && x < lx + ts.x + 3 * s;
                 }));
            if (!free) continue;
            placed.push_back({lx, ly, lx + ts.x, ly + ts.y});
            ref_labels.push_back({&r, label, lx, ly, size, lead});
            found = true;
            break;
          }
          if (found) break;
        }
        if (found) break;
      }
    }
    // No room: the legend still names it; the caller hears of it with the marks.
    if (!found && layout.unplaced_marks) layout.unplaced_marks->push_back(label);
  }
  struct MarkLabel {
    const XMark* mark;
    std::string text;  // the label, or the label on two lines
    float x, y, size;
    float leader_to = -1;  // away from its line: the line's x, reached by a leader
  };
  std::vector<MarkLabel> mark_labels;  // drawn over the lines, once all of them are drawn
  for (auto at = spec.x_marks.begin(); at != spec.x_marks.end(); ++at) {
    const XMark& m = *at;
    if (m.x < spec.x_min || m.x > spec.x_max) continue;
    if (std::any_of(at + 1, spec.x_marks.end(), [&](const XMark& later) {
          return std::fabs(later.x - m.x) <= 1e-9 * std::fabs(m.x);
        }))
      continue;
    const float x = px(m.x);
    dashed_line(draw, {x, top}, {x, bottom}, to_imgui_color(m.color), 1.5f * s, 5 * s);
    // At the font's size, else (a short or crowded frame) at three quarters of it, then at
    // 0.6 of it, never under 12 px; where one line fits at none of them, on two lines (a
    // projector at 3x: "model: L1 +" over "shared 256 KiB").
    std::vector<std::string> texts;
    for (const std::string& words : {m.label, m.short_label}) {
      if (words.empty()) continue;
      texts.push_back(words);
      if (const auto [first, second] = two_lines(words); !second.empty())
        texts.push_back(first + "\n" + second);
    }
    // The search, in the order a reader needs it: a label beside its own line before one beside
    // a ring away from it (flight-volkov's knee label stood by the current point, three lines
    // from its own); within that, clear of the series (pass 0) at a smaller size or on two lines
    // before over them (pass 2: the box is drawn over the curves, hiding the knee it names);
    // pass 1 keeps off the reference lines only (the knee's label sat on the cudaMemcpy line).
    bool found = false;
    for (const bool far : {false, true})
      for (int pass = 0; pass < 3 && !found; ++pass)
        for (const std::string& words : texts)
          for (const float size :
               {font, std::max(0.75f * font, 12.0f), std::max(0.6f * font, 12.0f)}) {
            if (found) break;
            const ImVec2 ts = ImGui::GetFont()->CalcTextSizeA(size, FLT_MAX, 0.0f, words.c_str());
            const float right_of = x + 4 * s, left_of = std::max(left + 2 * s, x - 4 * s - ts.x);
            const float preferred = right_of + ts.x <= right ? right_of : left_of;
            // The rows a label may take: from the frame's top down, then from its bottom up (a
            // short frame's lines often cross its top rows).
            std::vector<float> rows;
            for (float y = top + 4 * s; y + ts.y <= bottom; y += size * 1.2f) rows.push_back(y);
            for (float y = bottom - 4 * s - ts.y; y >= top; y -= size * 1.2f) rows.push_back(y);
            const auto free_at = [&](float lx, float ly) {
              return std::none_of(placed.begin(), placed.end(), [&](const ImVec4& b) {
                return lx < b.z + 8 * s && b.x < lx + ts.x + 8 * s && ly < b.w && b.y < ly + ts.y;
              });
            };
            // Beside the line on the preferred side, else on the other, else just clear of a
            // ring (a ring next to the line first, one away from it only when nothing nearer
            // fits), free of other labels, of the rings inside the frame and of the other marks'
            // lines (a label across one reads as its).
            std::vector<float> candidates;
            if (!far) candidates = {preferred, preferred == right_of ? left_of : right_of};
            for (const ImVec2& p : rings)
              for (const float c : {p.x - 12.0f * s - ts.x, p.x + 12.0f * s}) {
                const float gap = std::max(c - x, x - (c + ts.x));
                if ((gap > 24.0f * s) == far) candidates.push_back(c);
              }
            for (const float candidate : candidates) {
              // Inside the frame, and never across its own line (left of it, pressed to the
              // frame's left edge).
              if (candidate < left + 2 * s || candidate + ts.x > right ||
                  (candidate < x - 2 * s && candidate + ts.x > x + 2 * s))
                continue;
              for (const float y : rows) {
                if (!free_at(candidate, y) || !off_rings(candidate, y, ts.x, ts.y) ||
                    !off_marks(m, candidate, ts.x) || (pass < 2 && !off_references(y, ts.y)) ||
                    (pass == 0 && !off_series(candidate, y, ts.x, ts.y)))
                  continue;
                placed.push_back({candidate, y, candidate + ts.x, y + ts.y});
                mark_labels.push_back({&m, words, candidate, y, size, far ? x : -1.0f});
                if (far && layout.far_marks) layout.far_marks->push_back(m.label);
                found = true;
                break;
              }
              if (found) break;
            }
          }
    // No room at any size: not drawn over another label or a ring; the caller says so.
    if (!found && layout.unplaced_marks) layout.unplaced_marks->push_back(m.label);
  }
  for (const auto& r : references) {
    if (spec.log_y && r.y <= 0) continue;
    dashed_line(draw, {left, py(r.y)}, {right, py(r.y)}, to_imgui_color(r.color), 1.5f * s, 6 * s);
  }
  for (const auto& se : series) {
    const ImU32 c = to_imgui_color(se.color);
    for (std::size_t i = 0; i < se.x.size(); ++i) {
      if (spec.log_y && se.y[i] <= 0) continue;
      const ImVec2 p{px(se.x[i]), py(se.y[i])};
      if (se.lines && i > 0 && !(spec.log_y && se.y[i - 1] <= 0)) {
        const ImVec2 q{px(se.x[i - 1]), py(se.y[i - 1])};
        if (se.dashed) {
          dashed_line(draw, q, p, c, 2.0f * s, 5 * s);
        } else {
          draw->AddLine(q, p, c, 2.0f * s);
        }
      }
      if (i < se.y_low.size() && i < se.y_high.size()) {
        draw->AddLine({p.x, py(std::max(se.y_low[i], spec.log_y ? 1e-9 : 0.0))},
                      {p.x, py(se.y_high[i])}, c, 1.0f * s);
      }
      if (se.markers) draw->AddCircleFilled(p, 3.0f * s, c);
      if (static_cast<int>(i) == se.highlight)
        draw->AddCircle(p, 7.0f * s, to_imgui_color(theme.text), 0, 2.0f * s);
    }
  }
  for (const RefLabel& l : ref_labels) {
    const ImVec2 ts = ImGui::GetFont()->CalcTextSizeA(l.size, FLT_MAX, 0.0f, l.text.c_str());
    if (l.leader_x >= 0) {
      const float line_y = py(l.line->y);
      draw->AddLine({l.leader_x, line_y}, {l.leader_x, l.y > line_y ? l.y : l.y + ts.y},
                    to_imgui_color(l.line->color), 1.5f * s);
    }
    draw->AddRectFilled({l.x - 2 * s, l.y}, {l.x + ts.x + 2 * s, l.y + ts.y},
                        to_imgui_color(theme.background, 0.85f));
    draw->AddText(ImGui::GetFont(), l.size, {l.x, l.y}, to_imgui_color(l.line->color),
                  l.text.c_str());
  }
  for (const MarkLabel& l : mark_labels) {
    const ImVec2 ts = ImGui::GetFont()->CalcTextSizeA(l.size, FLT_MAX, 0.0f, l.text.c_str());
    // A label away from its line hangs from it: a leader in its colour from the label's near
    // edge across to the line, at the label's first text row, so it names that line and not
    // the one it stands by.
    if (l.leader_to >= 0) {
      const float ly = l.y + 0.5f * l.size, from = l.leader_to < l.x ? l.x - 2 * s : l.x + ts.x;
      draw->AddLine({from, ly}, {l.leader_to, ly}, to_imgui_color(l.mark->color), 1.5f * s);
      draw->AddCircleFilled({l.leader_to, ly}, 2.5f * s, to_imgui_color(l.mark->color));
    }
    draw->AddRectFilled({l.x - 2 * s, l.y}, {l.x + ts.x + 2 * s, l.y + ts.y},
                        to_imgui_color(theme.background, 0.85f));
    draw->AddText(ImGui::GetFont(), l.size, {l.x, l.y}, to_imgui_color(l.mark->color),
                  l.text.c_str());
  }
  draw->PopClipRect();

  // Legend under the x label: one line from the frame's left edge, or flowed into lines.
  if (layout.legend != PlotLayout::Legend::None) {
    const bool wrapped = layout.legend == PlotLayout::Legend::Wrapped;
    const std::vector<LegendItem> items = legend_items(series, references);
    const std::vector<int> lines =
        wrapped ? legend_lines(items, width - 8 * s, s) : std::vector<int>(items.size(), 0);
    const float x_start = wrapped ? origin.x + 4 * s : left;
    float lx = x_start;
    for (std::size_t i = 0; i < items.size(); ++i) {
      const LegendItem& item = items[i];
      if (i > 0 && lines[i] != lines[i - 1]) lx = x_start;
      const float ly =
          origin.y + height - legend_h + 2 * s + static_cast<float>(lines[i]) * font * 1.25f;
      const ImU32 c = to_imgui_color(item.color);
      if (item.point) {  // as the frame draws it: a dot, ringed where it is the current one
        draw->AddCircleFilled({lx + 11 * s, ly + font * 0.5f}, 3.0f * s, c);
        if (item.ringed) draw->AddCircle({lx + 11 * s, ly + font * 0.5f}, 7.0f * s, text, 0, 2 * s);
      } else if (item.dashed) {
        dashed_line(draw, {lx, ly + font * 0.5f}, {lx + 22 * s, ly + font * 0.5f}, c, 2.0f * s,
                    4 * s);
      } else {
        draw->AddLine({lx, ly + font * 0.5f}, {lx + 22 * s, ly + font * 0.5f}, c, 2.5f * s);
      }
      draw->AddText({lx + 28 * s, ly}, text, item.label->c_str());
      lx += legend_item_width(item, s) + 20 * s;
    }
  }

  // Hover: the nearest point of any series.
  if (hovered) {
    const ImVec2 m = ImGui::GetMousePos();
    float best = 24 * s;
    const PlotSeries* best_series = nullptr;
    std::size_t best_index = 0;
    for (const auto& se : series) {
      for (std::size_t i = 0; i < se.x.size(); ++i) {
        if (spec.log_y && se.y[i] <= 0) continue;
        const float d = std::hypot(m.x - px(se.x[i]), m.y - py(se.y[i]));
        if (d < best) {
          best = d;
          best_series = &se;
          best_index = i;
        }
      }
    }
    if (best_series) {
      const auto& se = *best_series;
      const auto value = [&](double v) {
        char buf[32];
        std::snprintf(buf, sizeof buf, spec.value_unit == "GB/s" ? "%.1f" : "%.3g", v);
        return std::string(buf);
      };
      if (best_index < se.y_low.size() && best_index < se.y_high.size()) {
        ImGui::SetTooltip("%s\n%s = %s\n%s %s (min %s, max %s)", se.label.c_str(),
                          spec.x_label.c_str(), tick_label(se.x[best_index]).c_str(),
                          value(se.y[best_index]).c_str(), spec.value_unit.c_str(),
                          value(se.y_low[best_index]).c_str(),
                          value(se.y_high[best_index]).c_str());
      } else {
        ImGui::SetTooltip("%s\n%s = %s\n%s %s", se.label.c_str(), spec.x_label.c_str(),
                          tick_label(se.x[best_index]).c_str(), value(se.y[best_index]).c_str(),
                          spec.value_unit.c_str());
      }
    }
  }
  ImGui::PopID();
}

}  // namespace warplens::viz
