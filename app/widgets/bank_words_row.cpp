// The bank view's words row (bank_paint.h): distinct words per bank, runs said once.
#include "bank_paint.h"

#include <algorithm>
#include <string>
#include <utility>

namespace warplens::app::bank_detail {

using viz::to_imgui_color;

void draw_words_row(const WordsRow& row) {
  const Painter& paint = row.paint;
  const ImFont* regular = row.regular;
  const ImFont* mono = row.mono;
  const viz::BankLayout& layout = row.layout;
  const viz::BankLayout::Phase& p = row.p;
  const viz::Theme& theme = row.theme;
  const Labeling& count_labels = row.count_labels;
  const float s = row.s, font_px = row.font_px;
  const bool hide_answer = row.hide_answer;
  const ImU32 text = row.text, muted = row.muted;
  // Counts: distinct words per bank; "×n" on conflict banks.
  paint.text(regular, p.label_x, 0.5f * (p.counts.y0 + p.counts.y1) - 0.5f * font_px, muted,
             "words");
  // Conflicting banks first: "×n" where it fits the box, else n, smaller where that fits it.
  RowLabels count_row(paint, mono, 2 * s);
  for (const bool conflicting : {true, false}) {
    for (int bank = 0; bank < layout.bank_count; ++bank) {
      const int n = p.served_per_bank[static_cast<std::size_t>(bank)];
      const viz::Rect r{layout.bank_x(p, bank), p.counts.y0, layout.bank_x(p, bank + 1),
                        p.counts.y1};
      const bool conflict = !hide_answer && p.conflict(bank);
      if (conflict != conflicting) continue;
      if (!conflict) {
        // Columns too narrow for every count: a run of banks with the same count says it
        // once across the run, "1 each" under a rule as wide as the run (bank-stride-1 at
        // 3x read "1 1 1 1 1 1 1 1", eight counts for 32 words); a lone bank keeps its count
        // on every `every`th bank, as the bank numbers do.
        const auto same = [&](int b) {
          return b >= 0 && b < layout.bank_count && !(!hide_answer && p.conflict(b)) &&
                 p.served_per_bank[static_cast<std::size_t>(b)] == n;
        };
        const std::string label = hide_answer ? "?" : std::to_string(n);
        const ImU32 color = hide_answer || n == 0 ? muted : text;
        if (count_labels.every == 1) {
          count_row.draw(r, color, label, count_labels.px);
          continue;
        }
        if (same(bank - 1)) continue;  // inside a run drawn from its first bank
        int last = bank;
        while (same(last + 1)) ++last;
        if (last == bank) {
          if (bank % count_labels.every == 0) count_row.draw(r, color, label, count_labels.px);
          continue;
        }
        const viz::Rect run{r.x0, r.y0, layout.bank_x(p, last + 1), r.y1};
        const std::string each = label + " each";
        const float run_w = run.x1 - run.x0;
        // The rule wants room either side of its words: "n each" where that leaves it, else
        // n alone, else n without the rule.
        const float margin = 12 * s;
        const std::string& t =
            Painter::size(mono, each, count_labels.px).x + 2 * margin <= run_w ? each : label;
        const float tw = Painter::size(mono, t, count_labels.px).x;
        // A run of idle banks too narrow for its rule stays blank, as its empty cells are: a bare
        // "0" centred on three banks read as one bank's count, so reduction-divergent at 3x
        // read "1 0 1 0 ..." where every fourth bank is busy.
        if (n == 0 && !hide_answer && tw + 2 * margin > run_w) continue;
        if (!count_row.draw(run, color, t, count_labels.px)) continue;
        if (tw + 2 * margin > run_w) continue;
        const float cy = 0.5f * (run.y0 + run.y1), cx = 0.5f * (run.x0 + run.x1);
        for (const auto& [a, b] : {std::pair{run.x0 + 2 * s, cx - 0.5f * tw - 3 * s},
                                   std::pair{cx + 0.5f * tw + 3 * s, run.x1 - 2 * s}}) {
          if (b - a < 2 * s) continue;
          paint.draw->AddLine(paint.at(a, cy), paint.at(b, cy), muted, 1.0f * s);
        }
        for (const float tick : {run.x0 + 2 * s, run.x1 - 2 * s})
          paint.draw->AddLine(paint.at(tick, cy - 3 * s), paint.at(tick, cy + 3 * s), muted,
                              1.0f * s);
        continue;
      }
      const ImU32 on_conflict = to_imgui_color(viz::text_on(theme.conflict));
      const float box = layout.box_width(true);
      const std::string times = "\u00d7" + std::to_string(n), plain = std::to_string(n);
      // Each bank's own count: "×n" in its box, else n at a size that fits the box, else n
      // wider than the box. It stands alone where it and the row's gap fit the column.
      const float plain_px = fit_px(mono, plain.c_str(), box, count_labels.px,
                                    std::min(count_labels.px, 0.5f * font_px));
      const float times_w = Painter::size(mono, times, count_labels.px).x;
      const float own_w = times_w <= box ? times_w
                          : plain_px > 0 ? Painter::size(mono, plain, plain_px).x
                                         : Painter::size(mono, plain, count_labels.px).x;
      const bool fits_box = own_w + 2 * s <= layout.cell_w;
      // Conflicting banks too narrow for their counts, side by side with the same count
      // (kernel-layout-paste at 3x: four banks of 8 words read "8 8" over two of them): the
      // run says it once, "8 each" (or 8) on a rule as wide as the run, as the run of banks
      // without a conflict beside it says "0 each".
      const auto same_conflict = [&](int b) {
        return b >= 0 && b < layout.bank_count && p.conflict(b) &&
               p.served_per_bank[static_cast<std::size_t>(b)] == n;
      };
      if (!fits_box && (same_conflict(bank - 1) || same_conflict(bank + 1))) {
        if (same_conflict(bank - 1)) continue;  // inside a run drawn from its first bank
        int last = bank;
        while (same_conflict(last + 1)) ++last;
        const viz::Rect run{r.x0, r.y0, layout.bank_x(p, last + 1), r.y1};
        const float run_w = run.x1 - run.x0, margin = 8 * s;
        const std::string each = plain + " each";
        const std::string& t =
            Painter::size(mono, each, count_labels.px).x + 2 * margin <= run_w ? each : plain;
        const float tw = Painter::size(mono, t, count_labels.px).x;
        if (!count_row.draw(run, text, t, count_labels.px, to_imgui_color(theme.background)))
          continue;
        const ImU32 rule = text;  // over the conflict columns' fill
        const float cy = 0.5f * (run.y0 + run.y1), cx = 0.5f * (run.x0 + run.x1);
        for (const auto& [a, b] : {std::pair{run.x0 + 2 * s, cx - 0.5f * tw - 3 * s},
                                   std::pair{cx + 0.5f * tw + 3 * s, run.x1 - 2 * s}})
          if (b - a >= 2 * s) paint.draw->AddLine(paint.at(a, cy), paint.at(b, cy), rule, 2 * s);
        for (const float tick : {run.x0 + 2 * s, run.x1 - 2 * s})
          paint.draw->AddLine(paint.at(tick, cy - 4 * s), paint.at(tick, cy + 4 * s), rule, 2 * s);
        continue;
      }
      if (Painter::size(mono, times, count_labels.px).x <= box) {
        count_row.draw(r, on_conflict, times, count_labels.px);
      } else if (const float px = fit_px(mono, plain.c_str(), box, count_labels.px,
                                         std::min(count_labels.px, 0.5f * font_px));
                 px > 0) {
        count_row.draw(r, on_conflict, plain, px);
      } else {
        // Wider than the box: text colour, on the background.
        count_row.draw(r, text, plain, count_labels.px, to_imgui_color(theme.background));
      }
    }
  }
}

}  // namespace warplens::app::bank_detail
