// libFuzzer target: the index-expression parser (index_expression.h) and the access-pattern
// model behind `warplens analyze` (access_pattern.h, memory_model.h).
//
// Input: the expression's text up to the first newline; the bytes after it pick the rest of the
// pattern, each missing byte taking analyze's default:
//   byte 0  bit 0 shared (else global), bit 1 store (else load), bits 2-7 the model (mod 5)
//   byte 1  the word size: 1, 2, 4, 8 or 16 (mod 5), or with bit 7 set the byte's value itself
//   byte 2-3  block x: 1 + (little-endian value mod 1024), or with bit 15 set the low 15 bits
//             times 65537 (sides up to 2^31, so that x * y overflows int)
//   byte 4-5  block y: 1 + (value mod (1024 / x)), or with bit 15 set as x's
//   byte 6  the warp: value mod (warps in the block + 1), one past the end included
// so seeds are readable ("tx*33\n" + choices) and most choices make a valid pattern while the
// refusals stay reachable. Each valid pattern is evaluated for its warp's 32 lanes and analysed
// under the chosen model, global and shared alike; the results must be self-consistent (checked
// below), and every refusal must be the documented exception type.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "access_pattern.h"
#include "index_expression.h"
#include "memory_model.h"

namespace {

using namespace warplens::model;

// A broken invariant is a finding: abort() so libFuzzer saves the input.
void require(bool condition) {
  if (!condition) std::abort();
}

struct Choices {
  const std::uint8_t* data;
  std::size_t size;
  [[nodiscard]] unsigned byte(std::size_t i, unsigned fallback) const {
    return i < size ? data[i] : fallback;
  }
  [[nodiscard]] unsigned word(std::size_t i, unsigned fallback) const {
    if (i + 1 >= size) return fallback;
    return static_cast<unsigned>(data[i]) | static_cast<unsigned>(data[i + 1]) << 8;
  }
};

AccessPattern pattern_from(const std::string& text, const Choices& c, HardwareModel& model) {
  AccessPattern p;
  p.index = text;
  const unsigned flags = c.byte(0, 0);
  p.space = (flags & 1) ? Space::Shared : Space::Global;
  p.op = (flags & 2) ? Op::Store : Op::Load;
  model = static_cast<HardwareModel>((flags >> 2) % 5);
  const unsigned w = c.byte(1, 2);
  constexpr int kWords[] = {1, 2, 4, 8, 16};
  p.word_bytes = (w & 0x80) ? static_cast<int>(w & 0x7f) : kWords[w % 5];
  const auto huge = [](unsigned v) { return static_cast<int>((v & 0x7fff) * 65537); };
  const unsigned x = c.word(2, 31);
  p.block.x = (x & 0x8000) ? huge(x) : 1 + static_cast<int>(x % 1024);
  const unsigned y = c.word(4, 0);
  if (y & 0x8000) {
    p.block.y = huge(y);
  } else if (p.block.x >= 1 && p.block.x <= 1024) {
    p.block.y = 1 + static_cast<int>(y % static_cast<unsigned>(1024 / p.block.x));
  } else {
    p.block.y = 1 + static_cast<int>(y);
  }
  const bool cuda_block = p.block.x >= 1 && p.block.y >= 1 && p.block.x <= 1024 &&
                          p.block.y <= 1024 && p.block.threads() <= 1024;
  const int warps = cuda_block ? p.block.warps() : 1;
  p.warp = static_cast<int>(c.byte(6, 0) % static_cast<unsigned>(warps + 1));
  return p;
}

void check_global(const GlobalAnalysis& g) {
  require(g.active_lanes >= 0 && g.active_lanes <= kWarpSize);
  for (std::size_t i = 1; i < g.sectors.size(); ++i) require(g.sectors[i - 1] < g.sectors[i]);
  for (std::size_t i = 1; i < g.lines.size(); ++i) require(g.lines[i - 1] < g.lines[i]);
  require(g.lines.size() <= g.sectors.size());
  require(g.requests >= 1 && g.transactions >= 0);
  require(g.transaction_ranges.size() <= static_cast<std::size_t>(g.transactions) * 2);
  // Every model moves at least the bytes the lanes asked for.
  require(g.requested_bytes <= g.moved_bytes);
  require(g.efficiency() >= 0.0 && g.efficiency() <= 1.0);
  for (const GlobalLane& l : g.lanes) {
    require(l.sector == l.access.address / kSectorBytes);
    if (!l.access.active) continue;
    const bool covered = [&] {
      for (const ByteRange& r : g.transaction_ranges)
        if (r.begin <= l.access.address && l.access.address < r.end) return true;
      return false;
    }();
    require(covered);
  }
}

void check_shared(const SharedAnalysis& s) {
  require(s.bank_count == 16 || s.bank_count == 32);
  require(s.min_wavefronts <= s.wavefronts);
  require((s.active_lanes > 0) == (s.wavefronts > 0));
  require(s.efficiency() >= 0.0 && s.efficiency() <= 1.0);
  int lanes = 0;
  for (const SharedPhase& p : s.phases) {
    require(p.lane_count >= 1 && p.first_lane == lanes);
    lanes += p.lane_count;
    require(static_cast<int>(p.distinct_words_per_bank.size()) == s.bank_count);
  }
  require(lanes == kWarpSize);
  for (const SharedLane& l : s.lanes) require(l.bank >= 0 && l.bank < s.bank_count);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::size_t newline = 0;
  while (newline < size && data[newline] != '\n') ++newline;
  const std::string text(reinterpret_cast<const char*>(data), newline);
  const Choices choices{data + (newline < size ? newline + 1 : size),
                        newline < size ? size - newline - 1 : 0};

  // The parser alone, at analyze's default coordinates and at one lane of a large block.
  try {
    IndexExpression expression(text);
    require(expression.text() == text);
    (void)expression.evaluate({});
    (void)expression.evaluate({.lane = 31, .tx = 1023, .ty = 0, .bdx = 1024, .warp = 31});
  } catch (const IndexExpressionError& e) {
    require(e.what()[0] != '\0');
  }

  // The pattern and the model.
  HardwareModel model = HardwareModel::Modern;
  const AccessPattern pattern = pattern_from(text, choices, model);
  (void)describe(pattern);
  WarpAccesses lanes{};
  try {
    lanes = evaluate_lanes(pattern);
  } catch (const PatternError& e) {
    require(e.what()[0] != '\0');
    return 0;
  }
  for (const LaneAccess& a : lanes) {
    require(a.active || (a.index == 0 && a.address == 0));
    require(a.address == a.index * pattern.word_bytes && a.index >= 0);
  }
  check_global(analyze_global(lanes, pattern.word_bytes, pattern.op, model));
  check_shared(analyze_shared(lanes, pattern.word_bytes, pattern.op, model));
  return 0;
}
