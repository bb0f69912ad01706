// The bank view's tooltips (bank_panel.cpp draws the view; these say what is under the mouse).
#pragma once

#include <cstdint>
#include <string>

#include "bank_view.h"
#include "index_math.h"

namespace warplens::app::bank_detail {

/// A word of phase `p` at bank `bank`: its bytes, row, wavefront, lanes, broadcast and the
/// words it conflicts with.
std::string cell_tooltip(const viz::BankLayout& layout, const viz::BankLayout::Phase& p,
                         std::int64_t word, int bank);
/// A lane box: its bytes, word(s), bank(s), and the lanes it shares a word or a bank with.
std::string lane_tooltip(const viz::BankLayout& layout, const TraceRecords& trace, int lane);
/// A bank's header or count: the distinct words it serves in phase `p`.
std::string bank_tooltip(const viz::BankLayout::Phase& p, int bank);

}  // namespace warplens::app::bank_detail
