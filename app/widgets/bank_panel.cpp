#include "bank_panel.h"

#include "bank_legend.h"
#include "bank_paint.h"
#include "bank_tooltips.h"
#include "bank_total.h"

#include "layout_audit.h"
#include "legend_slot.h"
#include "view_step.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "ui_widgets.h"

namespace warplens::app {

namespace {

using bank_detail::bank_tooltip;
using bank_detail::cell_tooltip;
using bank_detail::draw_legend;
using bank_detail::draw_words_row;
using bank_detail::fit_px;
using bank_detail::Labeling;
using bank_detail::labeling;
using bank_detail::lane_tooltip;
using bank_detail::legend_rows;
using bank_detail::Painter;
using bank_detail::RowLabels;
using viz::BankLayout;
using viz::Rgb;
using viz::to_imgui_color;

std::string plural(int n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

struct PhaseSummary {
  int broadcast_words = 0;
  int most_readers = 0;  ///< lanes on the most-shared word
};

PhaseSummary summarize(const BankLayout::Phase& p) {
  PhaseSummary s;
  for (const auto& c : p.cells) {
    if (!c.broadcast()) continue;
    ++s.broadcast_words;
    s.most_readers = std::max(s.most_readers, static_cast<int>(c.lanes.size()));
  }
  return s;
}

}  // namespace

void draw_bank_view(viz::BankView& view, const TraceRecords& trace,
                    const model::SharedAnalysis& analysis, const viz::ImGuiLayer& layer,
                    const viz::Theme& theme, bool interactive, const char* caption,
                    bool with_legend) {
  const float s = layer.scale();
  const viz::Fonts& fonts = layer.fonts();
  const ImFont* regular = fonts.regular ? fonts.regular : ImGui::GetFont();
  const ImFont* bold = fonts.bold ? fonts.bold : regular;
  const ImFont* mono = fonts.mono ? fonts.mono : regular;
  const float base_px = regular->FontSize;

  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // Presenter layout: the legend, the access and the model's wavefronts stand beside the view.
  const bool text_beside = open_legend_slot() != nullptr;
  // Full legend labels unless they would take more than two rows (presenter scales): then the
  // short ones, which the swatches explain.
  const int long_rows = legend_rows(avail.x, s, false);
  const bool short_labels = long_rows > 2 && legend_rows(avail.x, s, true) < long_rows;
  // Beside the view (presenter layout): the picture keeps the height; the legend is set once
  // the cells are drawn (whether they carry their wavefront's number).
  LegendSlot* const slot = with_legend ? open_legend_slot() : nullptr;
  if (slot) with_legend = false;
  const float legend_h =
      with_legend ? ImGui::GetTextLineHeightWithSpacing() *
                        (static_cast<float>(legend_rows(avail.x, s, short_labels)) + 0.3f)
                  : 0.0f;
  const int w = std::max(64, static_cast<int>(avail.x));
  const int h = std::max(64, static_cast<int>(avail.y - legend_h));
  const GLuint texture = view.render(trace, analysis, w, h, s, theme, text_beside, open_step());
  if (ViewStep* step = open_view_step()) step->report(view.layout().wavefronts, "wavefront");
  const bool hide_answer = answer_hidden();
  bool wavefront_numbers = false;  // a cell drawn with its wavefront's number
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(texture)),
               {static_cast<float>(w), static_cast<float>(h)}, {0, 1}, {1, 0});
  const bool hovered = interactive && ImGui::IsItemHovered();

  const BankLayout& layout = view.layout();
  const Painter paint{ImGui::GetWindowDrawList(), origin, static_cast<float>(w), layout.text_scale};
  // The tight tier draws its labels smaller (layout.text_scale) so every touched row fits.
  const float font_px = base_px * layout.text_scale;
  const float bold_px = bold->FontSize * layout.text_scale;
  const ImU32 text = to_imgui_color(theme.text);
  const ImU32 muted = to_imgui_color(theme.muted_text);
  const ImU32 conflict_text = to_imgui_color(theme.conflict);
  // The broadcast hue is light; pulled towards the text colour it reads as text too.
  const ImU32 broadcast_text = to_imgui_color(
      theme.name == viz::ThemeName::Light
          ? Rgb{0.7f * theme.broadcast.r, 0.7f * theme.broadcast.g, 0.7f * theme.broadcast.b}
          : theme.broadcast);
  paint.draw->PushClipRect(
      origin, {origin.x + static_cast<float>(w), origin.y + static_cast<float>(h)}, true);

  // Caption line: which warp and pattern, and the bank geometry of the model.
  // The geometry sits at the right end; where the caption leaves too little room (A/B compare's
  // half-width views) it shortens, then gives way.
  // Left out in the tight tier; beside the presenter's numbers (which say the access) shortened
  // by whole parts, and left out only where even its last part would need an ellipsis.
  const std::string full_caption =
      caption && *caption ? caption : "one warp \u2022 one shared-memory instruction";
  const float caption_room = layout.lanes.x1 - layout.label_x;
  if (layout.caption_shown &&
      (!text_beside || fits_by_parts(full_caption, caption_room, layout.text_scale))) {
    const std::string caption_text = fit_parts(full_caption, caption_room, layout.text_scale);
    const float geometry_room = caption_room - paint.measure(regular, caption_text).x - 16 * s;
    for (const std::string& geometry :
         {format("%d banks \u00d7 %d B \u2022 %d-byte words", layout.bank_count, layout.bank_width,
                 layout.word_bytes),
          format("%d banks \u00d7 %d B", layout.bank_count, layout.bank_width)}) {
      const float geometry_w = paint.measure(regular, geometry).x;
      if (geometry_w > geometry_room) continue;
      paint.text(regular, layout.lanes.x1 - geometry_w, layout.caption_y, muted, geometry);
      break;
    }
    paint.text(regular, layout.label_x, layout.caption_y, muted, caption_text);
  }

  // Lane row: numbers in the boxes where they fit, a "lane" label on its left.
  const Labeling lane_labels =
      labeling(mono, "31", layout.lane_box(0).x1 - layout.lane_box(0).x0, font_px, s);
  paint.text(regular, layout.label_x, 0.5f * (layout.lanes.y0 + layout.lanes.y1) - 0.5f * font_px,
             muted, "lane");
  for (int lane = 0; lane < kTraceLanes; lane += lane_labels.every) {
    const Rgb fill = trace[static_cast<std::size_t>(lane)].active
                         ? theme.lanes[static_cast<std::size_t>(lane)]
                         : theme.inactive;
    const viz::Rect box = layout.lane_box(lane);
    const std::string label = std::to_string(lane);
    if (lane_labels.every > 1) {  // wider than its box: on a pill of the background, in text colour
      const ImVec2 ts = Painter::size(mono, label, lane_labels.px);
      const float cx = 0.5f * (box.x0 + box.x1), cy = 0.5f * (box.y0 + box.y1);
      const float pad = 2 * s;
      paint.draw->AddRectFilled(paint.at(cx - 0.5f * ts.x - pad, cy - 0.5f * ts.y),
                                paint.at(cx + 0.5f * ts.x + pad, cy + 0.5f * ts.y),
                                to_imgui_color(theme.background, 0.85f), 3 * s);
      paint.centered(mono, box, text, label, lane_labels.px, true);
      continue;
    }
    paint.centered(mono, box, to_imgui_color(viz::text_on(fill)), label, lane_labels.px, true);
  }
  // Phases under the lane row: a bracket over each phase's lanes.
  if (layout.phases.size() > 1) {
    const float y = layout.lanes.y1 + 5 * s;
    for (const auto& p : layout.phases) {
      const float x0 = layout.lane_box(p.first_lane).x0 + 1 * s;
      const float x1 = layout.lane_box(p.first_lane + p.lane_count - 1).x1 - 1 * s;
      paint.draw->AddLine(paint.at(x0, y), paint.at(x1, y), muted, 1.5f * s);
      paint.draw->AddLine(paint.at(x0, y - 4 * s), paint.at(x0, y + 0.75f * s), muted, 1.5f * s);
      paint.draw->AddLine(paint.at(x1, y - 4 * s), paint.at(x1, y + 0.75f * s), muted, 1.5f * s);
      const std::string label = format("phase %d", p.index + 1);
      const float lw = paint.measure(regular, label).x;
      if (lw < x1 - x0) paint.text(regular, 0.5f * (x0 + x1 - lw), y + 2 * s, muted, label);
    }
  }

  // Phase grids.
  const Labeling bank_labels = labeling(mono, "31", layout.cell_w, font_px, s);
  const Labeling count_labels = labeling(mono, "\u00d72", layout.cell_w, font_px, s);
  const bool several = layout.phases.size() > 1;
  for (const auto& p : layout.phases) {
    // Caption: phase, lanes, wavefronts, conflict or broadcast in words.
    const int last_lane = p.first_lane + p.lane_count - 1;
    // Parts of the caption that would run past the phase's grid (into the next column) are left
    // out, whole: the title (shortened first), then each "  \u2022  ..." part while it fits.
    const float right = layout.bank_x(p, layout.bank_count);
    std::string title =
        several ? format("Phase %d: lanes %d\u2013%d", p.index + 1, p.first_lane, last_lane)
                : format("Lanes %d\u2013%d, one phase", p.first_lane, last_lane);
    if (p.label_x + paint.measure(bold, title).x > right)
      title = several ? format("Phase %d", p.index + 1)
                      : format("Lanes %d\u2013%d", p.first_lane, last_lane);
    float x = p.label_x;
    // Left out when the numbers beside the view say it, or when even the short title would run
    // past a narrow column beside them (the lane brackets and the counts row still tell).
    bool room = layout.phase_caption_shown &&
                (p.label_x + paint.measure(bold, title).x <= right || !text_beside);
    if (room) paint.text(bold, x, p.caption_y, text, title);
    const bool title_drawn = room;
    x += paint.measure(bold, title).x;
    using Piece = std::pair<std::string, ImU32>;
    const auto fits = [&](std::initializer_list<Piece> pieces) {
      float pw = 0;
      for (const auto& piece : pieces) pw += paint.measure(regular, piece.first).x;
      return x + pw <= right;
    };
    const auto part = [&](std::initializer_list<Piece> pieces) {
      room = room && fits(pieces);
      if (!room) return;
      for (const auto& [t, color] : pieces) {
        paint.text(regular, x, p.caption_y + 0.5f * (bold_px - font_px), color, t);
        x += paint.measure(regular, t).x;
      }
    };
    if (p.active_lanes == 0) {
      part({{"  \u2022  all lanes idle: 0 wavefronts", muted}});
      continue;
    }
    if (hide_answer) part({{"  \u2022  ? wavefronts", text}});
    if (!hide_answer)
      part({{"  \u2022  " + (layout.stepping()
                                 ? format("%d of %d wavefronts", p.served_wavefronts, p.wavefronts)
                                 : plural(p.wavefronts, "wavefront", "wavefronts")),
             text}});
    const int conflicted = hide_answer ? 0 : p.conflict_banks();
    if (hide_answer) {
      // The caption's verdict waits for the reveal.
    } else if (conflicted > 0) {
      const int ways = (p.served_wavefronts + std::max(1, p.min_wavefronts) - 1) /
                       std::max(1, p.min_wavefronts);  // wavefronts over the phase's minimum
      const Piece conflict{format("  \u2022  %d-way bank conflict", ways), conflict_text};
      const Piece banks{format(" (%s)", plural(conflicted, "bank", "banks").c_str()), text};
      if (fits({conflict, banks})) {
        part({conflict, banks});
      } else {  // a narrow column: the short form
        part({{format("  \u2022  %d-way conflict", ways), conflict_text}});
      }
    } else {
      part({{"  \u2022  no bank conflict", muted}});
    }
    const PhaseSummary sum = summarize(p);
    if (sum.broadcast_words > 0 && !hide_answer) {
      part({{"  \u2022  ", text},
            {"broadcast", broadcast_text},
            {sum.broadcast_words == 1 ? format(": 1 word read by %d lanes", sum.most_readers)
                                      : format(": %d words shared by up to %d lanes",
                                               sum.broadcast_words, sum.most_readers),
             text}});
    }
    if (p.rows.empty()) continue;

    // A conflicting bank's words must show in its column, inside the conflict frame: where the
    // column is too narrow for them the lesson is gone (an empty frame), and the audit says so.
    if (p.conflict_banks() > 0 && layout.box_width(true) < std::max(3.0f, 1.5f * s))
      audit_finding(
          "hidden",
          format("bank grid: the words of phase %d's %s not drawn (%.0f px "
                 "columns)",
                 p.index + 1,
                 plural(p.conflict_banks(), "conflicting bank", "conflicting banks").c_str(),
                 layout.cell_w));

    // Header: bank numbers, conflict banks in the conflict colour's text. Where the numbers are
    // wider than the columns, the conflicting banks' are drawn first and none runs into another.
    // Where several phases' grids stand without their captions (a projector at 3x), the
    // header row's label names the phase, as the lanes' brackets above do ("phase 2" over
    // bank numbers); "bank" where that does not fit the label column.
    const std::string phase_label = format("phase %d", p.index + 1);
    const bool phase_in_label =
        several && !title_drawn &&
        p.label_x + paint.measure(regular, phase_label).x + 4 * s <= p.grid_x0;
    paint.text(regular, p.label_x, 0.5f * (p.header.y0 + p.header.y1) - 0.5f * font_px,
               phase_in_label ? text : muted, phase_in_label ? phase_label : "bank");
    // Where the conflicting banks' own numbers would run into each other (stride 2 at 3x: every
    // even bank), every `every`-th bank's number instead: ticks read 0, 4, 8, ..., not 0, 2, 4,
    // 6, 8, 10, 14, 18 where the greedy pass had room.
    bool conflicts_crowd = false;
    {
      float last_x1 = -1e9f;
      for (int bank = 0; bank < layout.bank_count && !conflicts_crowd; ++bank) {
        if (!p.conflict(bank)) continue;
        const float tw = Painter::size(mono, std::to_string(bank), bank_labels.px).x;
        const float mid = 0.5f * (layout.bank_x(p, bank) + layout.bank_x(p, bank + 1));
        conflicts_crowd = mid - 0.5f * tw < last_x1 + 2 * s;
        last_x1 = mid + 0.5f * tw;
      }
    }
    RowLabels header_labels(paint, mono, 2 * s);
    for (const bool conflicting : {true, false}) {
      for (int bank = 0; bank < layout.bank_count; ++bank) {
        if (p.conflict(bank) != conflicting ||
            ((!conflicting || conflicts_crowd) && bank % bank_labels.every))
          continue;
        const viz::Rect r{layout.bank_x(p, bank), p.header.y0, layout.bank_x(p, bank + 1),
                          p.header.y1};
        const Rgb fill = p.conflict(bank)
                             ? theme.conflict
                             : Rgb{theme.untouched.r * 0.55f + theme.background.r * 0.45f,
                                   theme.untouched.g * 0.55f + theme.background.g * 0.45f,
                                   theme.untouched.b * 0.55f + theme.background.b * 0.45f};
        // A label wider than its column spills onto the background beside the boxes: a
        // conflicting bank's label keeps its conflict fill under it (a halo of that colour, so
        // "10" to "30" read as conflicting as "0" to "8" do at 2x), another's sits on the
        // background in the text colour.
        const bool inside = Painter::size(mono, std::to_string(bank), bank_labels.px).x <=
                            layout.cell_w - 2 * layout.conflict_frame;
        const bool on_fill = inside || conflicting;
        header_labels.draw(r, on_fill ? to_imgui_color(viz::text_on(fill)) : text,
                           std::to_string(bank), bank_labels.px,
                           inside ? 0 : to_imgui_color(conflicting ? fill : theme.background));
      }
    }

    // Rows: byte offset and word index on the left, on every `every`-th row when rows are
    // shorter than a label (the rows themselves are all drawn); where touched rows are elided
    // for lack of height, the gap says how many.
    const bool two_lines = layout.row_h >= 2.0f * font_px + 2 * s;
    const float label_px = std::min(font_px, std::max(layout.row_h - 2 * s, 0.75f * base_px));
    const int every = std::max(1, static_cast<int>(std::ceil((label_px + 2 * s) / layout.row_h)));
    float last_label_bottom = -1e9f;
    const auto elided_label = [&](float gap_top, int count) {
      const std::string more = format("+%d %s elided", count, count == 1 ? "row" : "rows");
      const float px = std::min(font_px, 17.0f * s);
      const ImVec2 ts = Painter::size(regular, more, px);
      const float y = gap_top + 0.5f * (20 * s - ts.y);
      paint.draw->AddRectFilled(paint.at(p.label_x, y),
                                paint.at(p.label_x + ts.x + 8 * s, y + ts.y),
                                to_imgui_color(theme.background), 3 * s);
      paint.text(regular, p.label_x + 4 * s, y, muted, more, px);
      last_label_bottom = y + ts.y;
      audit_finding("hidden", format("bank grid: %d touched %s of phase %d elided", count,
                                     count == 1 ? "row" : "rows", p.index + 1));
    };
    for (std::size_t i = 0; i < p.rows.size(); ++i) {
      const auto& row = p.rows[i];
      const long long byte = layout.row_byte(row.row);
      const long long word = layout.row_word(row.row);
      const float mid = row.y + 0.5f * layout.row_h;
      if (row.elided_before) {
        elided_label(row.y - 20 * s, row.elided_before);
      } else if (row.gap_before && layout.row_h >= font_px) {
        paint.text(regular, p.label_x, row.y - 0.5f * (12 * s) - 0.5f * font_px - 2 * s, muted,
                   "\u2026");
      }
      if (two_lines) {
        paint.text(mono, p.label_x, mid - font_px, text, format("byte %lld", byte));
        paint.text(mono, p.label_x, mid, muted, format("word %lld", word));
      } else if (i % static_cast<std::size_t>(every) == 0 || i + 1 == p.rows.size()) {
        const float top = mid - 0.5f * label_px;
        if (top < last_label_bottom) continue;  // the last row's label would overlap the one above
        paint.text(mono, p.label_x, top, text, format("byte %lld", byte),
                   label_px < font_px ? label_px : 0);
        last_label_bottom = top + label_px;
      }
      if (row.elided_after) elided_label(row.y + layout.row_h, row.elided_after);
    }

    // Cells: the wavefront that serves each touched word; a pill behind it on broadcast words.
    // Where no cell has room for its number, the legend leaves the number's key out.
    const float cell_px = std::min(font_px, layout.row_h - 2 * s);
    const float pill_px = std::min(0.9f * font_px, layout.row_h - 8 * s);
    for (const auto& c : p.cells) {
      if (c.row_slot < 0 || !c.served) continue;
      const viz::Rect r = layout.cell_rect(p, c.row_slot, c.bank);
      const std::string label = std::to_string(c.wavefront);
      const bool pill = c.broadcast() || layout.word_bytes < layout.bank_width;
      const float px = pill ? pill_px : cell_px;
      const ImVec2 ts = Painter::size(mono, label, px);
      if (ts.x > r.x1 - r.x0 - 4 * s || px < 8 * s) continue;
      const Rgb lane_fill = theme.lanes[static_cast<std::size_t>(c.lanes.front())];
      ImU32 color = to_imgui_color(viz::text_on(lane_fill));
      if (pill) {  // stripes or byte bands under it: a small background pill keeps it legible
        const ImVec2 mid = paint.at(0.5f * (r.x0 + r.x1), 0.5f * (r.y0 + r.y1));
        const float pw = std::max(ts.x + 6 * s, ts.y), ph = ts.y;
        paint.draw->AddRectFilled({mid.x - 0.5f * pw, mid.y - 0.5f * ph},
                                  {mid.x + 0.5f * pw, mid.y + 0.5f * ph},
                                  to_imgui_color(theme.background, 0.92f), 0.5f * ph);
        color = text;
      }
      paint.centered(mono, r, color, label, px);
      wavefront_numbers = true;
    }

    draw_words_row({paint, regular, mono, layout, p, theme, count_labels, s, font_px, hide_answer,
                    text, muted});
  }

  // Total. Left out (tight tier) when the shell shows the model's number beside the view.
  if (layout.total_shown) {
    const BankTotal t = bank_total(layout);
    // The total and its verdict in as many words as the line has room for (fit_total).
    auto [total, verdict] = fit_total(
        t, static_cast<float>(w) - layout.label_x,
        [&](const std::string& x) { return paint.measure(bold, x).x; },
        [&](const std::string& x) { return paint.measure(regular, x).x; });
    if (hide_answer) total = "Wavefronts per request: ?", verdict.clear();
    paint.text(bold, layout.label_x, layout.total_y, text, total);
    if (!verdict.empty())
      paint.text(regular, layout.label_x + paint.measure(bold, total).x,
                 layout.total_y + 0.5f * (bold_px - font_px), t.minimum ? muted : conflict_text,
                 verdict);
  }
  paint.draw->PopClipRect();

  // Tooltips.
  if (hovered) {
    const ImVec2 m = ImGui::GetMousePos();
    const BankLayout::Hit hit = layout.hit(m.x - origin.x, m.y - origin.y);
    if (hit.lane >= 0) {
      ImGui::SetTooltip("%s", lane_tooltip(layout, trace, hit.lane).c_str());
    } else if (hit.phase >= 0) {
      const auto& p = layout.phases[static_cast<std::size_t>(hit.phase)];
      if (hit.slot >= 0) {
        const std::int64_t word =
            p.rows[static_cast<std::size_t>(hit.slot)].row * layout.bank_count + hit.bank;
        ImGui::SetTooltip("%s", cell_tooltip(layout, p, word, hit.bank).c_str());
      } else {
        ImGui::SetTooltip("%s", bank_tooltip(p, hit.bank).c_str());
      }
    }
  }

  const bank_detail::LegendShown shown{analysis.wavefronts > analysis.min_wavefronts,
                                       analysis.broadcast, analysis.active_lanes < 32,
                                       wavefront_numbers};
  if (slot) {
    // A/B's two grids: one legend with the entries of both (LegendSlot::set_union).
    const viz::Theme* t = &theme;
    const unsigned bits = (shown.conflict ? 1u : 0u) | (shown.broadcast ? 2u : 0u) |
                          (shown.idle ? 4u : 0u) | (shown.wavefront ? 8u : 0u);
    slot->set_union("banks", bits, [t, s, mono](unsigned b, bool flow) {
      draw_legend(
          *t, s, mono, false, !flow,
          bank_detail::LegendShown{(b & 1u) != 0, (b & 2u) != 0, (b & 4u) != 0, (b & 8u) != 0});
    });
  }
  if (with_legend)
    draw_legend(theme, s, mono, short_labels, false,
                bank_detail::LegendShown{true, true, true, wavefront_numbers});
}

}  // namespace warplens::app
