#include "array_figure.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

#include "array_panel.h"
#include "figure_parts.h"
#include "ui_widgets.h"

namespace warplens::app {

namespace {

using figure_parts::kFont;
using figure_parts::LegendEntry;
using figure_parts::Page;
using figure_parts::Pen;
using viz::FigureAnchor;
using viz::FigureFont;
using viz::FigureRole;
using viz::Rect;

constexpr float kMaxCell = 30;  // figure units per word, at most

}  // namespace

viz::Figure tile_figure(const FigurePanelData& data, const viz::Theme& theme,
                        const std::string& source, viz::FigureMeasure measure) {
  const ArrayGeometry array =
      tile_geometry(data.tile_index, data.shared.bank_count, data.shared.bank_width_bytes);
  const int pitch = std::max(1, array.pitch_elements);
  // As wide as the grid at its largest cells (a narrow tile makes a narrow figure), 600 at least.
  Page page(theme, std::clamp(2 * figure_parts::kMargin + 40 + static_cast<float>(pitch) * kMaxCell,
                              600.0f, figure_parts::kFigureWidth));
  Pen pen(page.figure, measure);
  const int width = std::clamp(array.width_elements, 1, pitch);
  const int banks = std::max(1, array.banks), bank_width = std::max(1, array.bank_width_bytes);
  const auto bank_of = [&](std::int64_t element) {
    return static_cast<int>((array.base_bytes + element * array.element_bytes) / bank_width %
                            banks);
  };
  // The words the traced lanes touch (every traced warp, lane = record % 32, as the array view).
  std::map<std::int64_t, std::vector<int>> words;
  std::int64_t last_row = 0;
  for (std::size_t i = 0; i < data.trace.size(); ++i) {
    const LaneTraceRecord& r = data.trace[i];
    if (!r.active || r.word_bytes == 0) continue;
    const std::int64_t element =
        (static_cast<std::int64_t>(trace_address(r)) - array.base_bytes) / array.element_bytes;
    if (element < 0) continue;
    words[element].push_back(static_cast<int>(i % kTraceLanes));
    last_row = std::max(last_row, element / pitch);
  }
  std::map<int, int> words_per_bank;
  for (const auto& entry : words) ++words_per_bank[bank_of(entry.first)];
  const int rows = static_cast<int>(std::clamp<std::int64_t>(
      std::max<std::int64_t>(array.min_rows, last_row + 1), 1, kArrayMaxRows));

  float y = figure_parts::add_title(pen, page, theme, data.access);
  const int padding = pitch - width;
  const std::string title =
      (padding > 0 ? format("tile as stored: %d + %d padding per row", width, padding)
                   : format("tile as stored: %d per row", width)) +
      " \u2022 " + array_key_text(true, std::any_of(words.begin(), words.end(), [](const auto& w) {
                                    return w.second.size() > 1;
                                  }));
  y = figure_parts::add_wrapped(pen, title, page.left, y + 0.3f * kFont, page.right,
                                FigureRole::Label, FigureFont::Regular, 0.9f * kFont,
                                theme.muted_text) +
      0.3f * kFont;

  // The grid: column numbers over it, row numbers left of it.
  const float small = 0.7f * kFont;
  const float label_w = pen.width(FigureFont::Mono, small, "31") + 8;
  const float cell =
      std::min(kMaxCell, (page.right - page.left - label_w) / static_cast<float>(pitch));
  const float x0 = page.left + label_w, header_h = small + 6;
  const float y0 = y + header_h;
  const float number_size = std::min(small, 0.62f * cell);
  const int label_every = cell >= pen.width(FigureFont::Mono, small, "00") + 3 ? 1 : 2;
  for (int c = 0; c < pitch; c += label_every)
    pen.text(x0 + (static_cast<float>(c) + 0.5f) * cell, y0 - 0.5f * header_h, std::to_string(c),
             FigureRole::Label, FigureFont::Mono, small, c < width ? theme.muted_text : theme.rule,
             FigureAnchor::Center);
  for (int r = 0; r < rows; ++r)
    pen.text(x0 - 4, y0 + (static_cast<float>(r) + 0.5f) * cell, std::to_string(r),
             FigureRole::Label, FigureFont::Mono, small, theme.muted_text, FigureAnchor::Right);
  const float gap = cell >= 8 ? 1 : 0;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < pitch; ++c) {
      const Rect box{
          x0 + static_cast<float>(c) * cell + gap, y0 + static_cast<float>(r) * cell + gap,
          x0 + static_cast<float>(c + 1) * cell - gap, y0 + static_cast<float>(r + 1) * cell - gap};
      const float cx = 0.5f * (box.x0 + box.x1), cy = 0.5f * (box.y0 + box.y1);
      const std::int64_t element = static_cast<std::int64_t>(r) * pitch + c;
      if (c >= width) {  // padding: never read, it only shifts where the next row starts
        pen.hatch(box, FigureRole::Untouched, {theme.untouched, theme.background}, 2.5f);
        continue;
      }
      const int bank = bank_of(element);
      if (const auto touched = words.find(element); touched != words.end()) {
        const int lane = touched->second.front();
        const viz::Rgb fill = theme.lanes[static_cast<std::size_t>(lane)];
        pen.fill(box, FigureRole::Element, fill);
        if (words_per_bank[bank] > 1) pen.frame(box, FigureRole::ConflictMark, theme.conflict, 2);
        if (touched->second.size() > 1)
          pen.frame({box.x0 + 1.5f, box.y0 + 1.5f, box.x1 - 1.5f, box.y1 - 1.5f},
                    FigureRole::Broadcast, theme.broadcast, 2.5f);
        // One meaning per number: the bank, here too (the lane is the colour).
        pen.text(cx, cy, std::to_string(bank), FigureRole::BankNumber, FigureFont::Mono,
                 number_size, viz::text_on(fill), FigureAnchor::Center);
      } else {
        pen.fill(box, FigureRole::Element, bank_tint(bank, banks, theme));
        pen.text(cx, cy, std::to_string(bank), FigureRole::BankNumber, FigureFont::Mono,
                 number_size, theme.muted_text, FigureAnchor::Center);
      }
    }
  }
  y = y0 + static_cast<float>(rows) * cell + 0.8f * kFont;
  const int worst =
      words_per_bank.empty()
          ? 0
          : std::max_element(words_per_bank.begin(), words_per_bank.end(),
                             [](const auto& a, const auto& b) { return a.second < b.second; })
                ->second;
  // The totals: on one line where it fits, else one line each.
  const std::string wavefronts = format("Wavefronts per request: %d", data.shared.wavefronts);
  const std::string most = format("most distinct words in one bank: %d", worst);
  const std::string both = wavefronts + " \u2022 " + most;
  if (page.left + pen.width(FigureFont::Bold, kFont, both) <= page.right) {
    pen.text(page.left, y + 0.5f * kFont, both, FigureRole::Total, FigureFont::Bold, kFont,
             theme.text);
  } else {
    pen.text(page.left, y + 0.5f * kFont, wavefronts, FigureRole::Total, FigureFont::Bold, kFont,
             theme.text);
    y += 1.35f * kFont;
    pen.text(page.left, y + 0.5f * kFont, most, FigureRole::Total, FigureFont::Bold, kFont,
             theme.text);
  }
  y += 1.6f * kFont;
  y = figure_parts::add_legend(
      pen, theme,
      {{LegendEntry::Swatch::Lanes, {}, "word a lane reads (lane colour, bank number)"},
       {LegendEntry::Swatch::Fill, bank_tint(5, 32, theme), "untouched word (bank number)"},
       {LegendEntry::Swatch::ConflictFrame, theme.conflict, "bank conflict"},
       {LegendEntry::Swatch::Hatch, theme.untouched, "padding"}},
      page.left, y, page.right);
  return page.finish(pen, theme, source, y);
}

}  // namespace warplens::app
