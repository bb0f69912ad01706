// The bank view's tooltips: what a cell, a lane box and a bank's header or count say on hover.
#include "bank_tooltips.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "ui_widgets.h"

namespace warplens::app::bank_detail {

using viz::BankLayout;

namespace {

/// "0\u20133, 8, 10\u201312": ascending lanes as ranges, at most `max_items` items.
std::string lane_list(const std::vector<int>& lanes, std::size_t max_items = 6) {
  std::string out;
  std::size_t items = 0;
  for (std::size_t i = 0; i < lanes.size();) {
    std::size_t j = i;
    while (j + 1 < lanes.size() && lanes[j + 1] == lanes[j] + 1) ++j;
    if (items == max_items) return out + ", \u2026";
    if (!out.empty()) out += ", ";
    out += std::to_string(lanes[i]);
    if (j > i) out += "\u2013" + std::to_string(lanes[j]);
    ++items;
    i = j + 1;
  }
  return out;
}

}  // namespace

std::string cell_tooltip(const BankLayout& layout, const BankLayout::Phase& p, std::int64_t word,
                         int bank) {
  const std::int64_t width = layout.bank_width;
  std::string t = format("bank %d \u2022 word %lld (bytes %lld\u2013%lld) \u2022 row %lld", bank,
                         static_cast<long long>(word), static_cast<long long>(word * width),
                         static_cast<long long>(word * width + width - 1),
                         static_cast<long long>(word / layout.bank_count));
  const BankLayout::Cell* cell = p.cell_of_word(word);
  if (!cell) {
    return t + format("\nno lane of phase %d touches this word", p.index + 1);
  }
  t += format("\nphase %d, wavefront %d of %d", p.index + 1, cell->wavefront, p.wavefronts);
  t += "\n" + std::string(cell->lanes.size() == 1 ? "lane " : "lanes ") + lane_list(cell->lanes);
  if (cell->broadcast()) {
    t +=
        format("\nbroadcast: one read serves these %d lanes", static_cast<int>(cell->lanes.size()));
  }
  if (p.conflict(bank)) {
    t += format("\nconflicts with (bank %d serves %d distinct words):", bank,
                p.words_per_bank[static_cast<std::size_t>(bank)]);
    int listed = 0;
    for (const auto& other : p.cells) {
      if (other.bank != bank || other.word == word) continue;
      if (++listed > 6) {
        t += "\n  \u2026";
        break;
      }
      t += format("\n  word %lld (wavefront %d): ", static_cast<long long>(other.word),
                  other.wavefront) +
           (other.lanes.size() == 1 ? "lane " : "lanes ") + lane_list(other.lanes);
    }
  }
  return t;
}

std::string lane_tooltip(const BankLayout& layout, const TraceRecords& trace, int lane) {
  const LaneTraceRecord& r = trace[static_cast<std::size_t>(lane)];
  if (!r.active) return format("lane %d: idle (does not access shared memory)", lane);
  const auto a = static_cast<std::int64_t>(trace_address(r));
  const std::int64_t width = layout.bank_width;
  const std::int64_t first = a / width, last = (a + r.word_bytes - 1) / width;
  std::string t = format("lane %d \u2022 bytes %lld\u2013%lld", lane, static_cast<long long>(a),
                         static_cast<long long>(a + r.word_bytes - 1));
  t += first == last
           ? format("\nword %lld, bank %d", static_cast<long long>(first),
                    static_cast<int>(first % layout.bank_count))
           : format("\nwords %lld\u2013%lld, banks %d\u2013%d", static_cast<long long>(first),
                    static_cast<long long>(last), static_cast<int>(first % layout.bank_count),
                    static_cast<int>(last % layout.bank_count));
  for (const auto& p : layout.phases) {
    if (lane < p.first_lane || lane >= p.first_lane + p.lane_count) continue;
    std::vector<int> shared, conflicting;
    int wavefront = 0;
    for (std::int64_t w = first; w <= last; ++w) {
      const BankLayout::Cell* c = p.cell_of_word(w);
      if (!c) continue;
      wavefront = std::max(wavefront, c->wavefront);
      for (int other : c->lanes)
        if (other != lane) shared.push_back(other);
      for (const auto& o : p.cells) {
        if (o.bank == c->bank && o.word != w)
          conflicting.insert(conflicting.end(), o.lanes.begin(), o.lanes.end());
      }
    }
    for (auto* v : {&shared, &conflicting}) {
      std::sort(v->begin(), v->end());
      v->erase(std::unique(v->begin(), v->end()), v->end());
    }
    t += format("\nphase %d (lanes %d\u2013%d), wavefront %d", p.index + 1, p.first_lane,
                p.first_lane + p.lane_count - 1, wavefront);
    if (!shared.empty()) t += "\nbroadcast with lanes " + lane_list(shared);
    if (!conflicting.empty()) t += "\nconflicts with lanes " + lane_list(conflicting);
  }
  return t;
}

std::string bank_tooltip(const BankLayout::Phase& p, int bank) {
  const int n = p.words_per_bank[static_cast<std::size_t>(bank)];
  if (n == 0) return format("bank %d: idle in phase %d", bank, p.index + 1);
  if (n == 1)
    return format("bank %d: one word in phase %d \u2192 one wavefront", bank, p.index + 1);
  return format(
      "bank %d: %d distinct words in phase %d \u2192 %d-way bank conflict\nthe bank serves one "
      "word per wavefront, so the phase needs at least %d wavefronts",
      bank, n, p.index + 1, n, n);
}

}  // namespace warplens::app::bank_detail
