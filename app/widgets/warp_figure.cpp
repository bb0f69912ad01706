#include "warp_figure.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "figure_parts.h"
#include "ui_widgets.h"
#include "warp_panel.h"
#include "warp_view.h"

namespace warplens::app {

namespace {

using figure_parts::kFigureWidth;
using figure_parts::kFont;
using figure_parts::mix;
using figure_parts::Pen;
using viz::FigureAnchor;
using viz::FigureFont;
using viz::FigureRole;
using viz::Rect;
using viz::Rgb;
using viz::StripLayout;

constexpr int kViewHeight = kWarpFigureViewHeight;
constexpr std::uint64_t kLine = 128, kSector = 32;

// What a byte of the strip shows: the lane that asked for it (the last record covering it, as
// the shader picks), every lane that asked for it (a broadcast's: their colours stacked), or
// whether a transaction moved it.
struct ByteState {
  int owner = -1;
  std::uint32_t askers = 0;  ///< bit `lane` set: that lane's word holds the byte
  bool moved = false;
  friend bool operator==(const ByteState&, const ByteState&) = default;
};

struct Strip {
  const TraceRecords& trace;
  const model::GlobalAnalysis& analysis;
  int warps = 1;
  bool modern = true;

  // Whether warp slot `warp` (-1: any) moves the byte at `address`.
  [[nodiscard]] bool moved(std::uint64_t address, int warp) const {
    if (!modern) {  // the historical model's transactions (warp slot 0's analysis)
      if (warp > 0) return false;
      return std::any_of(analysis.transaction_ranges.begin(), analysis.transaction_ranges.end(),
                         [&](const model::ByteRange& r) {
                           return static_cast<std::int64_t>(address) >= r.begin &&
                                  static_cast<std::int64_t>(address) < r.end;
                         });
    }
    const std::uint64_t sector = address / kSector;
    for (int record = 0; record < kTraceLanes * warps; ++record) {
      const LaneTraceRecord& r = trace[static_cast<std::size_t>(record)];
      if (!r.active || r.word_bytes == 0 || (warp >= 0 && record / kTraceLanes != warp)) continue;
      const std::uint64_t a = trace_address(r);
      if (sector >= a / kSector && sector <= (a + r.word_bytes - 1) / kSector) return true;
    }
    return false;
  }

  [[nodiscard]] ByteState at(std::uint64_t address) const {
    ByteState s;
    for (int record = 0; record < kTraceLanes * warps; ++record) {
      const LaneTraceRecord& r = trace[static_cast<std::size_t>(record)];
      if (!r.active || r.word_bytes == 0) continue;
      const std::uint64_t a = trace_address(r);
      if (address >= a && address < a + r.word_bytes) {
        s.owner = record % kTraceLanes;
        s.askers |= std::uint32_t{1} << (record % kTraceLanes);
      }
    }
    s.moved = moved(address, -1);
    return s;
  }
};

}  // namespace

viz::Figure warp_figure(const FigurePanelData& data, const viz::Theme& theme,
                        const std::string& source, viz::FigureMeasure measure) {
  const TraceRecords& trace = data.trace;
  const StripLayout layout =
      viz::layout_warp_view(trace, static_cast<int>(kFigureWidth), kViewHeight, 1.0f, 2);
  viz::Figure figure;
  figure.width = kFigureWidth;
  figure.background = theme.background;
  Pen pen(figure, measure);
  const Rgb muted = theme.muted_text;
  const bool store = data.global.op == model::Op::Store;
  const Strip strip{trace, data.global, layout.warps,
                    data.global.model == model::HardwareModel::Modern};
  // One box of the sector row per 32-byte sector, or per transaction where the model moves
  // whole aligned 64- or 128-byte blocks (as the window's shader draws it).
  const std::uint64_t box =
      strip.modern
          ? kSector
          : static_cast<std::uint64_t>(transaction_box_bytes(data.global.transaction_ranges));

  // Captions over the lanes: the access (one warp) or "warp N" per slot.
  for (int slot = 0; slot < layout.warps; ++slot) {
    const std::string caption =
        layout.warps == 1 ? data.access : "warp " + std::to_string(data.first_warp + slot);
    pen.text(layout.lane_box(32 * slot).x0, layout.lanes.y0 - 4 - 0.5f * kFont, caption,
             FigureRole::Title, FigureFont::Regular, kFont, muted);
  }

  // Connectors first, lane boxes over them.
  for (int record = 0; record < 32 * layout.warps; ++record) {
    const LaneTraceRecord& r = trace[static_cast<std::size_t>(record)];
    if (!r.active || r.word_bytes == 0) continue;
    const std::uint64_t a = trace_address(r);
    const float x = layout.x_of(a);
    if (x < 0) continue;
    const Rect b = layout.lane_box(record);
    pen.line(0.5f * (b.x0 + b.x1), b.y1,
             x + 0.5f * static_cast<float>(r.word_bytes) * layout.px_per_byte, layout.strip.y0,
             FigureRole::Connector, theme.lanes[static_cast<std::size_t>(record % 32)], 2);
  }
  const Rect box0 = layout.lane_box(0);
  const float box_w = box0.x1 - box0.x0;
  const float lane_size = pen.fit(FigureFont::Mono, "31", box_w - 2, kFont, 0.55f * kFont);
  for (int record = 0; record < 32 * layout.warps; ++record) {
    const Rect b = layout.lane_box(record);
    const Rgb fill = trace[static_cast<std::size_t>(record)].active
                         ? theme.lanes[static_cast<std::size_t>(record % 32)]
                         : theme.inactive;
    pen.fill(b, FigureRole::LaneBox, fill);
    if (lane_size > 0)
      pen.text(0.5f * (b.x0 + b.x1), 0.5f * (b.y0 + b.y1), std::to_string(record % 32),
               FigureRole::LaneNumber, FigureFont::Mono, lane_size, viz::text_on(fill),
               FigureAnchor::Center);
  }

  // The strip: runs of bytes alike, then the sector row (one band per warp), then the rules.
  const Rect& s = layout.strip;
  const float bytes_bottom = layout.sector_row_top;
  const float band_h = (s.y1 - layout.sector_row_top) / static_cast<float>(layout.warps);
  const Rgb overfetch_tint = mix(theme.overfetch, theme.untouched, 0.55f);
  for (std::size_t i = 0; i < layout.lines.size(); ++i) {
    const StripLayout::Line& line = layout.lines[i];
    const auto x_at = [&](std::uint64_t offset) {
      return line.x + static_cast<float>(offset) * layout.px_per_byte;
    };
    for (std::uint64_t b = 0; b < kLine;) {
      const ByteState state = strip.at(line.address + b);
      std::uint64_t e = b + 1;
      while (e < kLine && strip.at(line.address + e) == state) ++e;
      const Rect run{x_at(b), s.y0, x_at(e), bytes_bottom};
      if (const int n = std::popcount(state.askers); n > 1) {
        // Several lanes' word: their colours stacked in lane order, top to bottom (the shader's).
        int k = 0;
        for (int lane = 0; lane < kTraceLanes; ++lane) {
          if (!(state.askers & (std::uint32_t{1} << lane))) continue;
          const float h = (bytes_bottom - s.y0) / static_cast<float>(n);
          pen.fill({run.x0, s.y0 + h * static_cast<float>(k), run.x1,
                    s.y0 + h * static_cast<float>(k + 1)},
                   FigureRole::Requested, theme.lanes[static_cast<std::size_t>(lane)]);
          ++k;
        }
      } else if (state.owner >= 0) {
        pen.fill(run, FigureRole::Requested, theme.lanes[static_cast<std::size_t>(state.owner)]);
      } else if (state.moved) {
        pen.hatch(run, FigureRole::Overfetch, {theme.overfetch, overfetch_tint, overfetch_tint},
                  2.4f);
      } else {
        pen.fill(run, FigureRole::Untouched, theme.untouched);
      }
      b = e;
    }
    for (int warp = 0; warp < layout.warps; ++warp) {
      const float y0 = layout.sector_row_top + band_h * static_cast<float>(warp);
      for (std::uint64_t unit = 0; unit < kLine / box; ++unit) {
        const bool moved = strip.moved(line.address + unit * box, warp);
        const Rect r{x_at(unit * box) + 1.5f, y0 + (warp == 0 ? 2.0f : 0.6f),
                     x_at((unit + 1) * box) - 1.5f,
                     y0 + band_h - (warp + 1 == layout.warps ? 0 : 0.6f)};
        pen.fill(r, moved ? FigureRole::SectorMoved : FigureRole::Untouched,
                 moved ? theme.sector : theme.untouched);
      }
    }
    for (std::uint64_t unit = 1; unit < kLine / box; ++unit)
      pen.line(x_at(unit * box), s.y0, x_at(unit * box), bytes_bottom, FigureRole::Rule,
               mix(theme.untouched, theme.rule, 0.55f), 1.2f);
    for (const float x : {line.x + 0.875f, x_at(kLine) - 0.875f})
      pen.line(x, s.y0, x, s.y1, FigureRole::Rule, theme.rule, 1.75f);
    pen.line(line.x, s.y0 + 0.75f, x_at(kLine), s.y0 + 0.75f, FigureRole::Rule, theme.rule, 1.5f);
    pen.line(line.x, s.y1 - 0.75f, x_at(kLine), s.y1 - 0.75f, FigureRole::Rule, theme.rule, 1.5f);
    if (line.gap_before) {  // lines skipped: a dotted mark in the gap
      const float mid = 0.5f * (s.y0 + s.y1);
      pen.line(line.x - layout.gap_px, mid, line.x, mid, FigureRole::Rule, theme.rule, 2, 2.5f);
    }
  }

  // Byte offsets under the strip: line starts in text colour, sector starts muted where they
  // fit, never overlapping.
  const float label_mid = s.y1 + 4 + 0.5f * kFont;
  const bool sector_labels =
      32 * layout.px_per_byte > pen.width(FigureFont::Regular, kFont, "00000") + 8;
  float last_right = -1e9f;
  for (const auto& line : layout.lines) {
    for (std::uint64_t sector = 0; sector < 4; ++sector) {
      if (sector > 0 && !sector_labels) continue;
      const std::string label = std::to_string(line.address + sector * kSector);
      const float w = pen.width(FigureFont::Regular, kFont, label);
      const float x = std::min(
          line.x + static_cast<float>(sector * kSector) * layout.px_per_byte + 2, kFigureWidth - w);
      if (x < last_right + 8) continue;
      pen.text(x, label_mid, label, FigureRole::ByteOffset, FigureFont::Regular, kFont,
               sector == 0 ? theme.text : muted);
      last_right = x + w;
    }
  }
  pen.text(s.x1, label_mid + kFont + 2,
           strip_rules_caption("bytes from the buffer base \u2022 thin rules: 32 B sectors "
                               "\u2022 thick rules: 128 B lines",
                               static_cast<int>(box)),
           FigureRole::Label, FigureFont::Regular, kFont, muted, FigureAnchor::Right);

  // The model's verdict for warp slot 0.
  const model::GlobalAnalysis& g = data.global;
  const float total_mid = static_cast<float>(kViewHeight) + 14 + 0.5f * kFont * 1.15f;
  std::string total = strip.modern ? format("Sectors per request: %zu", g.sectors.size())
                                   : format("Transactions per request: %d \u00d7 %d B",
                                            g.transactions, g.transaction_bytes);
  if (layout.warps > 1) total += format(" (warp %d)", data.first_warp);
  const float tx = layout.strip.x0 + pen.text(layout.strip.x0, total_mid, total, FigureRole::Total,
                                              FigureFont::Bold, kFont * 1.15f, theme.text);
  pen.text(tx, total_mid,
           format("  \u2022  %lld B %s of %lld B moved: %s used",
                  static_cast<long long>(g.requested_bytes), store ? "written" : "requested",
                  static_cast<long long>(g.moved_bytes), percent_text(g.efficiency()).c_str()),
           FigureRole::Total, FigureFont::Regular, kFont, muted);

  const float right = kFigureWidth - figure_parts::kMargin;
  const char* moved_label = strip.modern ? "sector moved (32 B)" : "transaction moved";
  const float legend_bottom = figure_parts::add_legend(
      pen, theme,
      {{figure_parts::LegendEntry::Swatch::Lanes,
        {},
        store ? "written by a lane (lane colour)" : "requested by a lane (lane colour)"},
       {figure_parts::LegendEntry::Swatch::Hatch, theme.overfetch,
        store ? "in a written sector, not written" : "moved, not requested (over-fetch)"},
       {figure_parts::LegendEntry::Swatch::Fill, theme.sector, moved_label},
       {figure_parts::LegendEntry::Swatch::Fill, theme.untouched, "not moved"}},
      layout.strip.x0, total_mid + kFont, right);
  const float bottom =
      figure_parts::add_source_line(pen, theme, source, layout.strip.x0, legend_bottom + 10, right);
  figure.height = std::ceil(bottom + figure_parts::kMargin);
  return figure;
}

}  // namespace warplens::app
