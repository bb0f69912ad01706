// The bank view's total line, one text for the window's bank panel (bank_panel.cpp) and the bank
// figure (bank_figure.cpp): the wavefronts per request with each phase's share, or, while the view
// steps, how many have been served; and the fewest the request could take, for the verdict.
#pragma once

#include <algorithm>
#include <string>
#include <utility>

#include "bank_view.h"

namespace warplens::app {

struct BankTotal {
  /// "Wavefronts per request: 3 = 2 + 1" (the sum only with several phases); while stepping
  /// "Wavefront 1 of 3 served".
  std::string text;
  /// The same in fewer words for a narrow view: "Wavefronts: 3" (stepping: as `text`).
  std::string short_text;
  /// The fewest wavefronts the request could take: the sum of its busy phases' minima.
  int fewest = 0;
  /// Whether the request takes no more wavefronts than that (conflict-free).
  bool minimum = true;
  /// What follows the total: "  •  conflict-free: the minimum for 4-byte words" or
  /// "  •  conflict-free would take 1", and in fewer words "  •  the minimum" or
  /// "  •  minimum 1"; empty while stepping.
  std::string verdict, short_verdict;
};

inline BankTotal bank_total(const viz::BankLayout& layout) {
  BankTotal t;
  std::string sum;
  const bool several = layout.phases.size() > 1;
  for (const auto& p : layout.phases) {
    t.fewest += p.active_lanes > 0 ? std::max(1, p.min_wavefronts) : 0;
    if (several) sum += (sum.empty() ? "" : " + ") + std::to_string(p.wavefronts);
  }
  t.minimum = layout.wavefronts <= t.fewest;
  if (layout.stepping()) {
    t.text = t.short_text = "Wavefront " + std::to_string(layout.step) + " of " +
                            std::to_string(layout.wavefronts) + " served";
    return t;
  }
  t.text = "Wavefronts per request: " + std::to_string(layout.wavefronts) +
           (several ? " = " + sum : std::string());
  t.short_text = "Wavefronts: " + std::to_string(layout.wavefronts);
  const std::string bullet = "  \u2022  ";
  t.verdict = t.minimum ? bullet + "conflict-free: the minimum for " +
                              std::to_string(layout.word_bytes) + "-byte words"
                        : bullet + "conflict-free would take " + std::to_string(t.fewest);
  t.short_verdict =
      t.minimum ? bullet + "the minimum" : bullet + "minimum " + std::to_string(t.fewest);
  return t;
}

/// The total and its verdict for a line `room` pixels wide, `bold(text)` and `regular(text)` their
/// widths: the long total with the long verdict, else with the short verdict, else the short
/// total with either; where no pair fits, the total alone (the short one if the long runs past).
/// While stepping, the total alone.
template <class Bold, class Regular>
std::pair<std::string, std::string> fit_total(const BankTotal& t, float room, Bold bold,
                                              Regular regular) {
  if (t.verdict.empty()) return {t.text, {}};
  for (const std::string* total : {&t.text, &t.short_text})
    for (const std::string* verdict : {&t.verdict, &t.short_verdict})
      if (bold(*total) + regular(*verdict) <= room) return {*total, *verdict};
  return {bold(t.text) <= room ? t.text : t.short_text, {}};
}

}  // namespace warplens::app
