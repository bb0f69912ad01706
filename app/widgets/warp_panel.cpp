#include "warp_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "layout_audit.h"
#include "legend_slot.h"
#include "strip_scale.h"
#include "ui_widgets.h"
#include "view_step.h"

namespace warplens::app {

namespace {

using viz::Rgb;
using viz::to_imgui_color;

struct WarpLegendEntry {
  Rgb color;
  const char* label;
  bool hatched;
  const char* short_label;  ///< when the full labels would take more than two rows
};

// `overfetch`: whether the view may draw the hatch (bytes moved no lane asked for); false only
// where it cannot, so the legend keys no mark the picture lacks.
std::vector<WarpLegendEntry> legend_entries(const viz::Theme& theme, model::HardwareModel hw,
                                            model::Op op, bool overfetch) {
  const char* moved = hw == model::HardwareModel::Modern         ? "sector moved (32 B)"
                      : hw == model::HardwareModel::FermiCaching ? "transaction moved (128 B line)"
                                                                 : "transaction moved";
  const char* moved_short = hw == model::HardwareModel::Modern ? "sector moved" : "transaction";
  std::vector<WarpLegendEntry> entries;
  if (op == model::Op::Store) {
    // A partly written sector is not over-fetch: L2 reads its other bytes from DRAM to merge.
    entries = {{theme.lanes[0], "written by a lane (lane colour)", false, "written"},
               {theme.overfetch, "in a written sector, not written", true, "not written"},
               {theme.sector, moved, false, moved_short},
               {theme.untouched, "not moved", false, "not moved"}};
  } else {
    entries = {{theme.lanes[0], "requested by a lane (lane colour)", false, "requested"},
               {theme.overfetch, "moved, not requested (over-fetch)", true, "over-fetch"},
               {theme.sector, moved, false, moved_short},
               {theme.untouched, "not moved", false, "not moved"}};
  }
  if (!overfetch) entries.erase(entries.begin() + 1);
  return entries;
}

/// Rows the legend needs at `width` pixels.
int legend_rows(const viz::Theme& theme, model::HardwareModel hw, model::Op op, bool overfetch,
                float width, float scale, bool short_labels, const char* extra) {
  const float sw = ImGui::GetFontSize();
  float x = 0;
  int rows = 1;
  std::vector<float> widths;
  for (const WarpLegendEntry& e : legend_entries(theme, hw, op, overfetch)) {
    widths.push_back(sw * 1.6f + ImGui::GetStyle().ItemSpacing.x +
                     ImGui::CalcTextSize(short_labels ? e.short_label : e.label).x);
  }
  if (extra) widths.push_back(ImGui::CalcTextSize(extra).x);
  for (const float item_w : widths) {
    if (x > 0 && x + 24 * scale + item_w > width) {
      ++rows;
      x = 0;
    }
    x += (x > 0 ? 24 * scale : 0) + item_w;
  }
  return rows;
}

// The legend: flowing left to right, wrapped to the window's width; `column`: one entry per
// line, its text wrapped (the presenter's legend slot beside the view). `rules` (may be null):
// what the strip's rules mean, when the caption row under the strip does not say it.
void draw_legend(const std::vector<WarpLegendEntry>& entries, const viz::Theme& theme, float s,
                 bool short_labels, const char* rules, bool column) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float sw = ImGui::GetFontSize();
  const float right = ImGui::GetWindowContentRegionMax().x + ImGui::GetWindowPos().x;
  bool first = true;
  for (const WarpLegendEntry& e : entries) {
    const char* label = short_labels ? e.short_label : e.label;
    const float item_w = sw * 1.6f + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(label).x;
    // On the same line when it fits (decided before SameLine: a NewLine after it would count
    // the spacing as content past the window's edge).
    if (!first && !column && ImGui::GetItemRectMax().x + 24 * s + item_w <= right)
      ImGui::SameLine(0, 24 * s);
    first = false;
    const ImVec2 p = ImGui::GetCursorScreenPos();
    draw->AddRectFilled({p.x, p.y + 2}, {p.x + sw * 1.6f, p.y + sw}, to_imgui_color(e.color));
    if (e.hatched) {
      draw->PushClipRect({p.x, p.y + 2}, {p.x + sw * 1.6f, p.y + sw}, true);
      for (float x = -sw; x < sw * 1.6f; x += 5 * s) {
        draw->AddLine({p.x + x, p.y + sw}, {p.x + x + sw, p.y + 2},
                      to_imgui_color(theme.background, 0.5f), 1.5f * s);
      }
      draw->PopClipRect();
    }
    ImGui::Dummy({sw * 1.6f, sw});
    ImGui::SameLine();
    if (column) ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(label);
    if (column) ImGui::PopTextWrapPos();
  }
  if (rules) {
    if (!column && ImGui::GetItemRectMax().x + 24 * s + ImGui::CalcTextSize(rules).x <= right)
      ImGui::SameLine(0, 24 * s);
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s", rules);
    ImGui::PopTextWrapPos();
  }
}

}  // namespace

bool thin_rules_drawn(int box_bytes, float px_per_byte, float scale) {
  return static_cast<float>(box_bytes) * px_per_byte >= std::max(8.0f, 4.0f * scale);
}

std::string strip_rules_caption(const std::string& caption, int box_bytes, bool thin_rules) {
  const std::string thin = "thin rules: 32 B sectors";
  const std::string thick = "thick rules: 128 B lines";
  std::string out = caption;
  const auto replace = [&out](const std::string& from, const std::string& to) {
    const std::size_t at = out.find(from);
    if (at != std::string::npos) out.replace(at, from.size(), to);
  };
  if (box_bytes == 128 || !thin_rules) replace(" \u2022 " + thin, "");
  if (box_bytes == 64) replace(thin, "thin rules: 64 B transactions");
  if (box_bytes == 128) replace(thick, "thick rules: 128 B lines, one transaction each");
  return out;
}

void draw_warp_panel(viz::WarpView& view, const TraceRecords& trace, const WarpPanelInfo& info,
                     const viz::ImGuiLayer& layer, const viz::Theme& theme, bool interactive) {
  const float s = layer.scale();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // No hatch where one warp's access moves only bytes its lanes use (the model's count): its
  // legend leaves the over-fetch out.
  const bool overfetch =
      !info.analysis || traced_warps(trace) != 1 || info.analysis->efficiency() < 1.0;
  // Full legend labels unless they would take more than two rows (presenter scales).
  const int long_rows =
      legend_rows(theme, info.model, info.op, overfetch, avail.x, s, false, nullptr);
  const bool short_labels = long_rows > 2 && legend_rows(theme, info.model, info.op, overfetch,
                                                         avail.x, s, true, nullptr) < long_rows;
  const int w = std::max(64, static_cast<int>(avail.x));
  // The strip's caption (what the rules mean) under the byte offsets, when it fits the width
  // and the legend is the full one; else the legend says it in a few words.
  // ... and when the view is tall enough for it at the regular sizes (viz::layout_warp_view).
  // Several warps: the sector row has a band per warp, named w0, w1... in the margin.
  const int warps_shown = traced_warps(trace);
  const std::string bands =
      warps_shown > 1 ? format("sector row: a band per warp, w0\u2013w%d", warps_shown - 1) : "";
  // A broken axis (touched lines far apart): the dotted gaps leave out what no lane touched.
  // A/B compare: at least the lines the other side's view shows, so a byte is as wide in both.
  StripScale* same_bytes = open_strip_scale();
  const int least_lines = same_bytes ? same_bytes->least_lines() : 0;
  const viz::StripLayout probe = viz::layout_warp_view(trace, w, 400, s, 2, least_lines);
  const bool axis_break = std::any_of(probe.lines.begin(), probe.lines.end(),
                                      [](const auto& line) { return line.gap_before; });
  const std::string gaps = axis_break ? "dotted gap: lines no lane touched, left out" : "";
  std::string extra = bands;
  if (!gaps.empty()) extra += (extra.empty() ? "" : "; ") + gaps;
  // The sector row's boxes: 32-byte sectors, or the model's transactions where each is one
  // aligned 64- or 128-byte block (as the view's shader draws them).
  const int box_bytes = info.model != model::HardwareModel::Modern && info.analysis
                            ? transaction_box_bytes(info.analysis->transaction_ranges)
                            : 32;
  const bool thin_rules = thin_rules_drawn(box_bytes, probe.px_per_byte, s);
  const std::string strip_caption = strip_rules_caption(info.strip_caption, box_bytes, thin_rules) +
                                    (extra.empty() ? "" : " \u2022 " + extra);
  const std::string rules_words = box_bytes == 128  ? "rules: 128 B line, one transaction each"
                                  : !thin_rules     ? "rules: 128 B line"
                                  : box_bytes == 64 ? "rules: 64 B transaction, 128 B line"
                                                    : "rules: 32 B sector, 128 B line";
  const bool caption_row =
      !short_labels &&
      ImGui::CalcTextSize(strip_caption.c_str()).x <= static_cast<float>(w) - 28 * s &&
      avail.y - 3 * ImGui::GetTextLineHeightWithSpacing() >= viz::kWarpViewRegular.min_height(s, 2);
  const std::string rules_text =
      caption_row ? std::string() : rules_words + (extra.empty() ? "" : "; " + extra);
  const char* rules = caption_row ? nullptr : rules_text.c_str();
  const bool legend_beside = open_legend_slot() != nullptr;
  if (legend_beside) {  // presenter layout: beside the view, the picture keeps the height
    // A/B's two views: one legend with the over-fetch key where either side draws it
    // (LegendSlot::set_union).
    const viz::Theme* t = &theme;
    const model::HardwareModel hw = info.model;
    const model::Op op = info.op;
    open_legend_slot()->set_union(
        "warp", overfetch ? 1u : 0u, [t, s, hw, op, rules_text](unsigned bits, bool flow) {
          draw_legend(legend_entries(*t, hw, op, (bits & 1u) != 0), *t, s, false,
                      rules_text.empty() ? nullptr : rules_text.c_str(), !flow);
        });
  }
  const float legend_h =
      legend_beside ? 0.0f
                    : ImGui::GetTextLineHeightWithSpacing() *
                          (static_cast<float>(legend_rows(theme, info.model, info.op, overfetch,
                                                          avail.x, s, short_labels, rules)) +
                           0.4f);
  const int h = std::max(64, static_cast<int>(avail.y - legend_h));
  const GLuint texture = view.render(trace, w, h, s, theme, caption_row ? 2 : 1, open_step(),
                                     !answer_hidden(), least_lines);
  if (same_bytes) same_bytes->report(view.layout().own_lines);
  if (ViewStep* step = open_view_step()) step->report(view.steps(), "sector");
  if (!view.layout().fits) {
    audit_finding("hidden", format("warp view: %d px high, needs %d px; the strip and its labels "
                                   "run off the bottom",
                                   h, static_cast<int>(view.layout().min_height)));
  }
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(texture)),
               {static_cast<float>(w), static_cast<float>(h)}, {0, 1}, {1, 0});

  ImDrawList* draw = ImGui::GetWindowDrawList();
  const viz::StripLayout& layout = view.layout();
  // Labels at the layout's text size (smaller in its tight tier).
  ImFont* font = ImGui::GetFont();
  const float px = ImGui::GetFontSize() * layout.text_scale;
  const auto measure = [&](const std::string& t) {
    return font->CalcTextSizeA(px, FLT_MAX, 0, t.c_str());
  };
  const auto put = [&](ImVec2 p, ImU32 color, const std::string& t) {
    draw->AddText(font, px, p, color, t.c_str());
  };
  const auto at = [&](float x, float y) { return ImVec2(origin.x + x, origin.y + y); };
  const ImU32 text = to_imgui_color(theme.text);
  const ImU32 muted = to_imgui_color(theme.muted_text);

  // Lane labels: a caption per warp, lane numbers where the boxes are wide enough.
  const int first_warp = info.first_warp;
  for (int slot = 0; slot < layout.warps; ++slot) {
    const float room = (layout.warps == 1 ? layout.lanes.x1 : layout.lane_box(32 * slot + 31).x1) -
                       layout.lane_box(32 * slot).x0;
    std::string caption =
        slot < static_cast<int>(info.slot_captions.size()) ? info.slot_captions[slot]
        : layout.warps == 1
            ? "lanes 0\u201331 of warp " + std::to_string(first_warp) + " (one memory instruction)"
            : "warp " + std::to_string(first_warp + slot);
    if (measure(caption).x > room && layout.warps == 1 &&
        slot >= static_cast<int>(info.slot_captions.size()))
      caption = "warp " + std::to_string(first_warp) + ", lanes 0\u201331";
    if (measure(caption).x > room && slot < static_cast<int>(info.short_slot_captions.size()))
      caption = info.short_slot_captions[static_cast<std::size_t>(slot)];
    caption = fit_parts(caption, room, layout.text_scale);
    put(at(layout.lane_box(32 * slot).x0, layout.lanes.y0 - px - 4 * s), muted, caption);
  }
  // Stepping: the count of sectors arrived, at the right end of the caption line.
  if (const int step = open_step(); step >= 0 && step < view.steps()) {
    const std::string count = answer_hidden()
                                  ? std::string("sectors: ?")
                                  : format("sector %d of %d arrived", step, view.steps());
    put(at(layout.lanes.x1 - measure(count).x, layout.lanes.y0 - px - 4 * s), text, count);
  }
  const float box_w = layout.lane_box(0).x1 - layout.lane_box(0).x0;
  const float digits_w = measure("31").x;
  const int label_every =
      box_w > digits_w + 4 * s
          ? 1
          : (box_w * 4 > digits_w + 4 * s ? 4 : (box_w * 8 > digits_w ? 8 : 32));
  for (int record = 0; record < 32 * layout.warps; ++record) {
    const int lane = record % 32;
    if (lane % label_every) continue;
    const viz::Rect b = layout.lane_box(record);
    const std::string label = std::to_string(lane);
    const ImVec2 ts = measure(label);
    const Rgb fill = trace[record].active ? theme.lanes[lane] : theme.inactive;
    // Centred on its box; lane 0's kept from running off the strip's left end (a projector at
    // 3x cut its "0" in half).
    float x = 0.5f * (b.x0 + b.x1) - 0.5f * ts.x;
    if (lane == 0) x = std::max(x, b.x0 + 2 * s);
    const ImVec2 p = at(x, 0.5f * (b.y0 + b.y1) - 0.5f * ts.y);
    if (ts.x > b.x1 - b.x0) {  // wider than its box: on a pill of the background, in text colour
      draw->AddRectFilled({p.x - 2 * s, p.y}, {p.x + ts.x + 2 * s, p.y + ts.y},
                          to_imgui_color(theme.background, 0.85f), 3 * s);
      put(p, text, label);
      continue;
    }
    put(p, to_imgui_color(viz::text_on(fill)), label);
  }
  // A historical model splits the warp's instruction into several requests (Kepler's 8-byte
  // words: one per half-warp): each lane group is bracketed and numbered under the lanes, else
  // the picture is the modern model's one request while the numbers say several.
  const int requests =
      info.model != model::HardwareModel::Modern && info.analysis ? info.analysis->requests : 1;
  int request_marks = 0;
  if (requests > 1 && info.analysis) {
    const int group = model::global_request_lanes(info.analysis->word_bytes, info.model);
    const float top = layout.lanes.y1 + 3 * s;
    const float room_y = layout.strip.y0 - top - 2 * s;  // the connectors' height under it
    const ImU32 rule = to_imgui_color(theme.text);
    for (int slot = 0; slot < layout.warps; ++slot) {
      int number = 0;
      for (int first = 0; first < 32; first += group) {
        bool any = false;
        for (int l = first; l < first + group; ++l) any = any || trace[32 * slot + l].active;
        if (!any) continue;  // as the model counts: a group without an active lane is no request
        ++number;
        const float x0 = layout.lane_box(32 * slot + first).x0 + 2 * s;
        const float x1 = layout.lane_box(32 * slot + first + group - 1).x1 - 2 * s;
        const float y = top + 3 * s;
        draw->AddLine(at(x0, top), at(x0, y), rule, 1.5f * s);
        draw->AddLine(at(x0, y), at(x1, y), rule, 1.5f * s);
        draw->AddLine(at(x1, top), at(x1, y), rule, 1.5f * s);
        ++request_marks;
        std::string label =
            format("request %d: lanes %d\u2013%d", number, first, first + group - 1);
        if (measure(label).x > x1 - x0 - 4 * s) label = format("request %d", number);
        if (measure(label).x > x1 - x0 - 4 * s) label = format("r%d", number);
        const ImVec2 ts = measure(label);
        if (ts.y + 4 * s > room_y || ts.x > x1 - x0) {
          audit_finding("hidden", "warp view: label \"" + label + "\" (no room under the lanes)");
          continue;
        }
        const ImVec2 p = at(0.5f * (x0 + x1) - 0.5f * ts.x, y + 2 * s);
        draw->AddRectFilled({p.x - 3 * s, p.y}, {p.x + ts.x + 3 * s, p.y + ts.y},
                            to_imgui_color(theme.background, 0.9f), 3 * s);
        put(p, text, label);
      }
    }
  }
  if (requests > 1 && request_marks == 0) {
    audit_finding("missing",
                  format("warp view: the model splits the warp into %d requests; their lane "
                         "groups are not marked",
                         requests));
  }
  // Memory labels under the strip: byte offsets at the starts of every `every`-th line (bold), the
  // smallest power-of-two step at which none overlaps, so the ticks step evenly; and, where there
  // is room between them, at sector boundaries (muted).
  const float label_y = layout.strip.y1 + 4 * s;
  const bool sector_labels = 32 * layout.px_per_byte > measure("00000").x + 8 * s;
  // Byte offsets in bytes, or KiB or MiB where the largest shown would take more digits.
  const std::uint64_t largest = layout.lines.empty() ? 0 : layout.lines.back().address;
  const auto tick_text = [largest](std::uint64_t address) {
    const double a = static_cast<double>(address);
    if (largest < 100000) return format("%llu", static_cast<unsigned long long>(address));
    if (largest < 10 * 1048576ull)
      return format(address % 1024 ? "%.1f KiB" : "%.0f KiB", a / 1024.0);
    return format("%.2f MiB", a / 1048576.0);
  };
  const auto label_span = [&](std::uint64_t address, float x) {
    const float label_w = measure(tick_text(address)).x;
    // A label that would run past the view ends at its edge instead.
    const float lx = std::min(x + 2 * s, static_cast<float>(w) - label_w);
    return std::pair<float, float>{lx, lx + label_w};
  };
  const std::size_t line_count = layout.lines.size();
  std::size_t every = 1;
  for (; every < line_count; every *= 2) {
    float right = -1e9f;
    bool apart = true;
    for (std::size_t i = 0; i < line_count && apart; i += every) {
      const auto [lx, rx] = label_span(layout.lines[i].address, layout.lines[i].x);
      apart = lx >= right + 8 * s;
      right = rx;
    }
    if (apart) break;
  }
  std::vector<int> labelled_lines;  // indexes of the lines whose start is labelled
  float last_right = -1e9f;
  for (std::size_t index = 0; index < line_count; index += every) {
    const auto& line = layout.lines[index];
    const float next_left =
        index + every < line_count
            ? label_span(layout.lines[index + every].address, layout.lines[index + every].x).first
            : 1e9f;
    for (int sector = 0; sector < (every == 1 && sector_labels ? 4 : 1); ++sector) {
      const std::uint64_t address = line.address + 32ull * static_cast<unsigned>(sector);
      const auto [lx, rx] =
          label_span(address, line.x + 32.0f * static_cast<float>(sector) * layout.px_per_byte);
      if (sector > 0 && (lx < last_right + 8 * s || rx + 8 * s > next_left)) continue;
      put(at(lx, label_y), sector == 0 ? text : muted, tick_text(address));
      last_right = rx;
      if (sector == 0) labelled_lines.push_back(static_cast<int>(index));
    }
  }
  // A tick a reader can read out loud: at most six characters of digits.
  for (const int index : labelled_lines) {
    const std::string tick = tick_text(layout.lines[index].address);
    if (std::count_if(tick.begin(), tick.end(), [](char c) { return c >= '0' && c <= '9'; }) > 6) {
      audit_finding("hidden", "warp view: byte offset " + tick + " labelled in more than 6 digits");
      break;
    }
  }
  // A broken axis (lines not adjacent, a dotted gap between them) says what the gap leaves out.
  if (std::any_of(layout.lines.begin(), layout.lines.end(),
                  [](const auto& line) { return line.gap_before; }) &&
      gaps.empty())
    audit_finding("missing", "warp view: the axis break is not explained");
  // Ticks a reader can step along: the labelled lines evenly spaced (stride-32's 32 lines read
  // 0, 128, 384, 640 when labels were merely thinned where they would overlap).
  for (std::size_t k = 2; k < labelled_lines.size(); ++k) {
    if (labelled_lines[k] - labelled_lines[k - 1] != labelled_lines[1] - labelled_lines[0]) {
      audit_finding("hidden", "warp view: byte offsets labelled at uneven steps of lines");
      break;
    }
  }
  // Several warps: the sector row has a band per warp, each named in the margin left of it.
  int band_labels = 0;
  if (layout.warps > 1) {
    const float band_h =
        (layout.strip.y1 - layout.sector_row_top) / static_cast<float>(layout.warps);
    // As large as the band (a glyph is shorter than its font size) and the room left of the
    // strip allow, at most the labels'.
    const float widest = measure(format("w%d", layout.warps - 1)).x;
    const float band_px =
        std::min({px, 1.25f * band_h, px * (layout.strip.x0 - 4 * s) / std::max(1.0f, widest)});
    if (band_px >= 0.5f * px) {
      for (int slot = 0; slot < layout.warps; ++slot) {
        const std::string label = format("w%d", slot);
        const ImVec2 ts = font->CalcTextSizeA(band_px, FLT_MAX, 0, label.c_str());
        const float x = layout.strip.x0 - 3 * s - ts.x;
        if (x < 0) break;
        draw->AddText(
            font, band_px,
            at(x, layout.sector_row_top + (static_cast<float>(slot) + 0.5f) * band_h - 0.5f * ts.y),
            muted, label.c_str());
        ++band_labels;
      }
    }
  }
  if (layout.warps > 1 && band_labels < layout.warps) {
    audit_finding("missing", format("warp view: the sector row's %d bands (one per warp) are not "
                                    "labelled",
                                    layout.warps));
  }
  // Historical models can fetch one range several times (one transaction per thread, or per
  // sub-request): say how often, over the transaction row of the first warp.
  if (info.model != model::HardwareModel::Modern && info.analysis) {
    const auto& analysis = *info.analysis;
    std::map<std::int64_t, int> fetches;  // box (32 B, or a whole transaction) -> fetches
    for (const auto& r : analysis.transaction_ranges) {
      for (std::int64_t a = r.begin; a < r.end; a += box_bytes) ++fetches[a];
    }
    const float band_h =
        (layout.strip.y1 - layout.sector_row_top) / static_cast<float>(layout.warps);
    for (const auto& [address, count] : fetches) {
      if (count < 2) continue;
      const float x = layout.x_of(static_cast<std::uint64_t>(address));
      if (x < 0) continue;
      const std::string label = "\u00d7" + std::to_string(count);
      const ImVec2 ts = measure(label);
      const float box_px = static_cast<float>(box_bytes) * layout.px_per_byte;
      if (ts.x > box_px) continue;
      put(at(x + 0.5f * box_px - 0.5f * ts.x, layout.sector_row_top + 0.5f * band_h - 0.5f * ts.y),
          to_imgui_color(viz::text_on(theme.sector)), label);
    }
  }
  if (caption_row) {
    const char* caption = strip_caption.c_str();
    const ImVec2 caption_size = measure(caption);
    put(at(layout.strip.x1 - caption_size.x, label_y + px + 2 * s), muted, caption);
  }
  // Hover read-out.
  if (interactive && ImGui::IsItemHovered()) {
    const ImVec2 m = ImGui::GetMousePos();
    for (int record = 0; record < 32 * layout.warps; ++record) {
      const viz::Rect b = layout.lane_box(record);
      if (m.x >= origin.x + b.x0 && m.x < origin.x + b.x1 && m.y >= origin.y + b.y0 &&
          m.y < origin.y + b.y1) {
        const auto& r = trace[record];
        const int lane = record % 32, warp = first_warp + record / 32;
        const auto a = static_cast<unsigned long long>(trace_address(r));
        if (r.active) {
          ImGui::SetTooltip("warp %d, lane %d\nbytes %llu\u2013%llu\nsector %llu, line %llu", warp,
                            lane, a, a + r.word_bytes - 1, a / 32, a / 128);
        } else {
          ImGui::SetTooltip("warp %d, lane %d: inactive", warp, lane);
        }
      }
    }
  }
  if (!legend_beside)
    draw_legend(legend_entries(theme, info.model, info.op, overfetch), theme, s, short_labels,
                rules, false);
}

}  // namespace warplens::app
