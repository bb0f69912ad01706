#include "bank_figure.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "bank_total.h"
#include "bank_view.h"
#include "figure_parts.h"
#include "ui_widgets.h"

namespace warplens::app {

namespace {

using figure_parts::kFigureWidth;
using figure_parts::kFont;
using figure_parts::LegendEntry;
using figure_parts::mix;
using figure_parts::Pen;
using viz::BankLayout;
using viz::FigureAnchor;
using viz::FigureFont;
using viz::FigureRole;
using viz::Rect;
using viz::Rgb;

constexpr float kRowHeight = 24;  // the window's readable row height (bank_view.cpp)
constexpr float kBold = kFont * 1.15f;

bool shows_everything(const BankLayout& l) {
  if (l.text_scale < 1.0f || l.row_h < kRowHeight - 0.01f) return false;
  return std::all_of(l.phases.begin(), l.phases.end(),
                     [](const BankLayout::Phase& p) { return p.hidden_rows == 0; });
}

BankLayout lay_out(const TraceRecords& trace, const model::SharedAnalysis& analysis, int step) {
  return viz::layout_bank_view(trace, analysis, static_cast<int>(kFigureWidth),
                               bank_figure_view_height(trace, analysis), 1.0f, false, step);
}

std::string plural(int n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// The lanes of `p` that touch each byte of `word`, byte by byte.
std::vector<std::vector<int>> byte_readers(const TraceRecords& trace, const BankLayout& layout,
                                           const BankLayout::Phase& p, std::int64_t word) {
  std::vector<std::vector<int>> bytes(static_cast<std::size_t>(layout.bank_width));
  const std::int64_t base = word * layout.bank_width;
  for (int lane = p.first_lane; lane < std::min(p.first_lane + p.lane_count, kTraceLanes); ++lane) {
    const LaneTraceRecord& r = trace[static_cast<std::size_t>(lane)];
    if (!r.active || r.word_bytes == 0) continue;
    const auto a = static_cast<std::int64_t>(trace_address(r));
    for (int b = 0; b < layout.bank_width; ++b)
      if (base + b >= a && base + b < a + r.word_bytes)
        bytes[static_cast<std::size_t>(b)].push_back(lane);
  }
  return bytes;
}

struct Grid {
  Pen& pen;
  const viz::Theme& theme;
  const TraceRecords& trace;
  const BankLayout& layout;
  float number_size_;  ///< lane and bank numbers: one size, "31" fitting both kinds of box

  // A touched word: its bytes in the colours of the lanes reading them (stripes where several
  // do), a broadcast ring when several lanes read it, the wavefront on top.
  void cell(const BankLayout::Phase& p, const BankLayout::Cell& c, const Rect& box) {
    if (!c.served) {  // stepping: not served yet, its first lane's colour, faint (bank_grid.frag)
      const Rgb lane = theme.lanes[static_cast<std::size_t>(c.lanes.front())];
      pen.fill(box, FigureRole::Cell, mix(lane, theme.background, 0.78f));
      pen.frame(box, FigureRole::Rule, mix(lane, theme.background, 0.2f), 1.2f);
      return;
    }
    const auto bytes = byte_readers(trace, layout, p, c.word);
    const float byte_w = (box.x1 - box.x0) / static_cast<float>(layout.bank_width);
    for (std::size_t b = 0; b < bytes.size();) {
      std::size_t e = b + 1;
      while (e < bytes.size() && bytes[e] == bytes[b]) ++e;
      const Rect piece{box.x0 + static_cast<float>(b) * byte_w, box.y0,
                       box.x0 + static_cast<float>(e) * byte_w, box.y1};
      if (bytes[b].empty()) {
        pen.fill(piece, FigureRole::Cell, mix(theme.untouched, theme.background, 0.5f));
      } else if (bytes[b].size() == 1) {
        pen.fill(piece, FigureRole::Cell, theme.lanes[static_cast<std::size_t>(bytes[b][0])]);
      } else {
        std::vector<Rgb> colors;
        for (const int lane : bytes[b])
          colors.push_back(theme.lanes[static_cast<std::size_t>(lane)]);
        pen.hatch(piece, FigureRole::Cell, colors, 5);
      }
      if (b > 0)
        pen.line(piece.x0, box.y0, piece.x0, box.y1, FigureRole::Rule, theme.background, 1);
      b = e;
    }
    if (c.broadcast()) pen.frame(box, FigureRole::Broadcast, theme.broadcast, 3.5f);
    const std::string label = std::to_string(c.wavefront);
    const bool pill = c.broadcast() || layout.word_bytes < layout.bank_width;
    // One size for the phase's wavefront numbers: its widest fits the narrowest (framed) box.
    const std::string widest = std::to_string(std::max(1, p.wavefronts));
    const float narrowest = layout.cell_w - 2 * (2.5f + 1);
    const float size = pen.fit(FigureFont::Mono, widest, narrowest - (pill ? 8 : 3),
                               std::min(kFont, layout.row_h - 2) * (pill ? 0.9f : 1.0f), 8);
    if (size <= 0) return;
    const float w = pen.width(FigureFont::Mono, size, label);
    const float cx = 0.5f * (box.x0 + box.x1), cy = 0.5f * (box.y0 + box.y1);
    Rgb color = viz::text_on(theme.lanes[static_cast<std::size_t>(c.lanes.front())]);
    if (pill) {
      const float pw = std::max(w + 6, 1.2f * size), ph = 1.2f * size;
      pen.fill({cx - 0.5f * pw, cy - 0.5f * ph, cx + 0.5f * pw, cy + 0.5f * ph}, FigureRole::Cell,
               theme.background);
      color = theme.text;
    }
    pen.text(cx, cy, label, FigureRole::Wavefront, FigureFont::Mono, size, color,
             FigureAnchor::Center);
  }

  void phase(const BankLayout::Phase& p, bool several) {
    const Rgb muted = theme.muted_text;
    const float right = layout.bank_x(p, layout.bank_count);
    // Caption: the phase's lanes, its wavefronts, conflict or broadcast in words.
    const int last_lane = p.first_lane + p.lane_count - 1;
    std::vector<std::pair<std::string, Rgb>> parts;
    if (p.active_lanes == 0) {
      parts.push_back({"  \u2022  all lanes idle: 0 wavefronts", muted});
    } else {
      parts.push_back(
          {"  \u2022  " + (layout.stepping()
                               ? format("%d of %d wavefronts", p.served_wavefronts, p.wavefronts)
                               : plural(p.wavefronts, "wavefront", "wavefronts")),
           theme.text});
      const int conflicted = p.conflict_banks();
      const int min = std::max(1, p.min_wavefronts);
      if (conflicted > 0) {
        parts.push_back(
            {format("  \u2022  %d-way bank conflict", (p.served_wavefronts + min - 1) / min),
             theme.conflict});
        parts.push_back({" (" + plural(conflicted, "bank", "banks") + ")", theme.text});
      } else {
        parts.push_back({"  \u2022  no bank conflict", muted});
      }
    }
    const float title_y = p.caption_y + 0.5f * kBold;
    float x = p.label_x;
    x += pen.text(x, title_y,
                  several
                      ? format("Phase %d: lanes %d\u2013%d", p.index + 1, p.first_lane, last_lane)
                      : format("Lanes %d\u2013%d, one phase", p.first_lane, last_lane),
                  FigureRole::PhaseTitle, FigureFont::Bold, kBold, theme.text);
    for (const auto& [t, color] : parts) {
      if (x + pen.width(FigureFont::Regular, kFont, t) > right) break;
      x += pen.text(x, title_y, t, FigureRole::PhaseTitle, FigureFont::Regular, kFont, color);
    }
    if (p.rows.empty()) return;

    // Header: bank numbers; conflicting banks filled in the conflict colour.
    const Rgb plain = mix(theme.untouched, theme.background, 0.45f);
    const float inset = 1;
    pen.text(p.label_x, 0.5f * (p.header.y0 + p.header.y1), "bank", FigureRole::Label,
             FigureFont::Regular, kFont, muted);
    const float number_size = number_size_;
    for (int bank = 0; bank < layout.bank_count; ++bank) {
      const float x0 = layout.bank_x(p, bank), x1 = layout.bank_x(p, bank + 1);
      const bool conflict = p.conflict(bank);
      const float frame = conflict ? 2.5f : 0.0f;
      const Rect box{x0 + frame + inset, p.header.y0 + frame, x1 - frame - inset, p.header.y1};
      const Rgb fill = conflict ? theme.conflict : plain;
      pen.fill(box, FigureRole::BankHeader, fill);
      if (number_size > 0)
        pen.text(0.5f * (x0 + x1), 0.5f * (box.y0 + box.y1), std::to_string(bank),
                 FigureRole::BankNumber, FigureFont::Mono, number_size, viz::text_on(fill),
                 FigureAnchor::Center);
    }

    // Rows: every bank's word, touched or not; the row's byte offset on the left.
    const float tile = std::min(1.0f, std::floor(0.25f * layout.row_h));
    const bool two_lines = layout.row_h >= 2.0f * kFont + 2;
    for (std::size_t slot = 0; slot < p.rows.size(); ++slot) {
      const auto& row = p.rows[slot];
      const long long byte = layout.row_byte(row.row);
      const float mid = row.y + 0.5f * layout.row_h;
      if (row.gap_before) {  // rows skipped: a dotted rule across the grid
        const float gy = 0.5f * (p.rows[slot - 1].y + layout.row_h + row.y);
        pen.line(p.grid_x0, gy, right, gy, FigureRole::Rule, theme.rule, 1.5f, 3);
      }
      if (row.elided_before)
        pen.text(p.label_x, row.y - 10, format("+%d rows elided", row.elided_before),
                 FigureRole::Label, FigureFont::Regular, 0.8f * kFont, muted);
      const float label_size = std::min(kFont, layout.row_h - 2);
      if (two_lines) {
        pen.text(p.label_x, mid - 0.5f * kFont, format("byte %lld", byte), FigureRole::Label,
                 FigureFont::Mono, kFont, theme.text);
        pen.text(p.label_x, mid + 0.5f * kFont,
                 format("word %lld", static_cast<long long>(layout.row_word(row.row))),
                 FigureRole::Label, FigureFont::Mono, kFont, muted);
      } else {
        pen.text(p.label_x, mid, format("byte %lld", byte), FigureRole::Label, FigureFont::Mono,
                 label_size, theme.text);
      }
    }
    // The words no lane touches: per bank, one box down each run of adjacent rows, cut into rows
    // by background rules (a few primitives instead of one per word: a 32-row grid stays small).
    const auto edge_of = [&](int bank) { return (p.conflict(bank) ? 2.5f : 0.0f) + inset; };
    for (std::size_t first = 0; first < p.rows.size();) {
      std::size_t last = first;
      while (last + 1 < p.rows.size() && !p.rows[last + 1].gap_before) ++last;
      const float y0 = p.rows[first].y + tile, y1 = p.rows[last].y + layout.row_h - tile;
      for (int bank = 0; bank < layout.bank_count; ++bank) {
        const float x0 = layout.bank_x(p, bank) + edge_of(bank);
        const float x1 = layout.bank_x(p, bank + 1) - edge_of(bank);
        pen.fill({x0, y0, x1, y1}, FigureRole::Cell,
                 p.conflict(bank) ? mix(theme.untouched, theme.conflict, 0.16f) : theme.untouched);
      }
      for (std::size_t slot = first + 1; slot <= last; ++slot)
        pen.line(p.grid_x0, p.rows[slot].y, right, p.rows[slot].y, FigureRole::Rule,
                 theme.background, 2 * tile);
      first = last + 1;
    }
    // The touched words over them.
    for (const auto& c : p.cells) {
      if (c.row_slot < 0) continue;
      const Rect r = layout.cell_rect(p, c.row_slot, c.bank);
      cell(p, c, {r.x0 + edge_of(c.bank), r.y0 + tile, r.x1 - edge_of(c.bank), r.y1 - tile});
    }

    // Counts: distinct words per bank; "×n" on conflicting banks.
    pen.text(p.label_x, 0.5f * (p.counts.y0 + p.counts.y1), "words", FigureRole::Label,
             FigureFont::Regular, kFont, muted);
    const float count_size =
        pen.fit(FigureFont::Mono, "\u00d732", layout.cell_w - 3, kFont, 0.55f * kFont);
    for (int bank = 0; bank < layout.bank_count; ++bank) {
      const int n = p.served_per_bank[static_cast<std::size_t>(bank)];
      const bool conflict = p.conflict(bank);
      const float frame = conflict ? 2.5f : 0.0f;
      const float x0 = layout.bank_x(p, bank), x1 = layout.bank_x(p, bank + 1);
      const Rect box{x0 + frame + inset, p.counts.y0, x1 - frame - inset, p.counts.y1 - frame};
      if (conflict) {
        pen.fill(box, FigureRole::Count, theme.conflict);
      } else if (n > 0) {
        pen.fill(box, FigureRole::Count, plain);
      } else {
        pen.frame(box, FigureRole::Count, mix(theme.untouched, theme.background, 0.2f), 1);
      }
      if (count_size <= 0) continue;
      const float cx = 0.5f * (x0 + x1), cy = 0.5f * (box.y0 + box.y1);
      if (conflict) {
        pen.text(cx, cy, "\u00d7" + std::to_string(n), FigureRole::ConflictCount, FigureFont::Mono,
                 count_size, viz::text_on(theme.conflict), FigureAnchor::Center);
      } else {
        pen.text(cx, cy, std::to_string(n), FigureRole::Count, FigureFont::Mono, count_size,
                 n ? theme.text : muted, FigureAnchor::Center);
      }
    }
    // The conflict frame: down the column from the header's top to the count row's bottom.
    for (int bank = 0; bank < layout.bank_count; ++bank) {
      if (!p.conflict(bank)) continue;
      pen.frame({layout.bank_x(p, bank), p.header.y0, layout.bank_x(p, bank + 1), p.counts.y1},
                FigureRole::ConflictMark, theme.conflict, 2.5f);
    }
  }
};

}  // namespace

int bank_figure_view_height(const TraceRecords& trace, const model::SharedAnalysis& analysis) {
  const int width = static_cast<int>(kFigureWidth);
  int lo = 200, hi = 6000;
  if (!shows_everything(viz::layout_bank_view(trace, analysis, width, hi, 1.0f))) return hi;
  while (hi - lo > 2) {
    const int mid = (lo + hi) / 2;
    if (shows_everything(viz::layout_bank_view(trace, analysis, width, mid, 1.0f))) {
      hi = mid;
    } else {
      lo = mid;
    }
  }
  return hi;
}

viz::Figure bank_figure(const FigurePanelData& data, const viz::Theme& theme,
                        const std::string& source, viz::FigureMeasure measure) {
  const TraceRecords& trace = data.trace;
  const BankLayout layout = lay_out(trace, data.shared, data.step);
  viz::Figure figure;
  figure.width = kFigureWidth;
  figure.background = theme.background;
  Pen pen(figure, measure);
  const Rgb muted = theme.muted_text;
  const float right = kFigureWidth - figure_parts::kMargin;

  // Caption line: what is shown, and the banks' geometry at the right end where it fits.
  const float caption_mid = layout.caption_y + 0.5f * kFont;
  const float caption_w = pen.text(layout.label_x, caption_mid, data.access, FigureRole::Title,
                                   FigureFont::Regular, kFont, muted);
  const std::string geometry = format("%d banks \u00d7 %d B \u2022 %d-byte words",
                                      layout.bank_count, layout.bank_width, layout.word_bytes);
  if (layout.label_x + caption_w + 16 + pen.width(FigureFont::Regular, kFont, geometry) <= right)
    pen.text(layout.lanes.x1, caption_mid, geometry, FigureRole::Title, FigureFont::Regular, kFont,
             muted, FigureAnchor::Right);

  // Lane row.
  pen.text(layout.label_x, 0.5f * (layout.lanes.y0 + layout.lanes.y1), "lane", FigureRole::Label,
           FigureFont::Regular, kFont, muted);
  const Rect first_box = layout.lane_box(0);
  const float lane_size =
      pen.fit(FigureFont::Mono, "31", std::min(first_box.x1 - first_box.x0, layout.cell_w) - 3,
              kFont, 0.55f * kFont);
  for (int lane = 0; lane < kTraceLanes; ++lane) {
    const Rect box = layout.lane_box(lane);
    const Rgb fill = trace[static_cast<std::size_t>(lane)].active
                         ? theme.lanes[static_cast<std::size_t>(lane)]
                         : theme.inactive;
    pen.fill(box, FigureRole::LaneBox, fill);
    if (lane_size > 0)
      pen.text(0.5f * (box.x0 + box.x1), 0.5f * (box.y0 + box.y1), std::to_string(lane),
               FigureRole::LaneNumber, FigureFont::Mono, lane_size, viz::text_on(fill),
               FigureAnchor::Center);
  }
  const bool several = layout.phases.size() > 1;
  if (several) {  // a bracket over each phase's lanes
    const float y = layout.lanes.y1 + 5;
    for (const auto& p : layout.phases) {
      const float x0 = layout.lane_box(p.first_lane).x0 + 1;
      const float x1 = layout.lane_box(p.first_lane + p.lane_count - 1).x1 - 1;
      pen.line(x0, y, x1, y, FigureRole::PhaseBracket, muted, 1.5f);
      pen.line(x0, y - 4, x0, y + 0.75f, FigureRole::PhaseBracket, muted, 1.5f);
      pen.line(x1, y - 4, x1, y + 0.75f, FigureRole::PhaseBracket, muted, 1.5f);
      pen.text(0.5f * (x0 + x1), y + 2 + 0.5f * kFont, format("phase %d", p.index + 1),
               FigureRole::PhaseBracket, FigureFont::Regular, kFont, muted, FigureAnchor::Center);
    }
  }

  Grid grid{pen, theme, trace, layout, lane_size};
  for (const auto& p : layout.phases) grid.phase(p, several);

  // Total and verdict.
  const BankTotal t = bank_total(layout);
  const float total_mid = layout.total_y + 0.5f * kBold;
  const float tx = layout.label_x + pen.text(layout.label_x, total_mid, t.text, FigureRole::Total,
                                             FigureFont::Bold, kBold, theme.text);
  if (!layout.stepping())
    pen.text(tx, total_mid, t.verdict, FigureRole::Total, FigureFont::Regular, kFont,
             t.minimum ? muted : theme.conflict);

  const float legend_top = layout.total_y + kBold + 14;
  const float legend_bottom = figure_parts::add_legend(
      pen, theme,
      {{LegendEntry::Swatch::Lanes, {}, "lane colour (0 \u2192 31)"},
       {LegendEntry::Swatch::Number, theme.lanes[9], "wavefront"},
       {LegendEntry::Swatch::ConflictFrame, theme.conflict, viz::kBankConflictKey},
       {LegendEntry::Swatch::BroadcastRing, theme.broadcast, "broadcast: lanes sharing one word"},
       {LegendEntry::Swatch::Fill, theme.inactive, "idle lane"}},
      layout.label_x, legend_top, right);
  const float bottom =
      figure_parts::add_source_line(pen, theme, source, layout.label_x, legend_bottom + 10, right);
  figure.height = std::ceil(bottom + figure_parts::kMargin);
  return figure;
}

}  // namespace warplens::app
