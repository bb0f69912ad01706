#include "memory_model.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>

namespace warplens::model {

namespace {

std::int64_t distinct_bytes(const WarpAccesses& lanes, int word_bytes, int first, int count) {
  std::set<std::int64_t> bytes;
  for (int l = first; l < first + count; ++l) {
    if (!lanes[l].active) continue;
    for (int b = 0; b < word_bytes; ++b) bytes.insert(lanes[l].address + b);
  }
  return static_cast<std::int64_t>(bytes.size());
}

template <typename Key>
std::vector<std::int64_t> distinct_sorted(const WarpAccesses& lanes, int first, int count,
                                          Key key) {
  std::set<std::int64_t> keys;
  for (int l = first; l < first + count; ++l)
    if (lanes[l].active) keys.insert(key(lanes[l]));
  return {keys.begin(), keys.end()};
}

// CC 1.0/1.1 coalescing for one half-warp; returns {transactions, bytes} and appends the
// transactions' byte ranges.
std::pair<int, std::int64_t> g80_half_warp(const WarpAccesses& lanes, int word_bytes, int first,
                                           std::vector<ByteRange>& ranges) {
  int active = 0;
  bool coalesced = word_bytes >= 4;
  std::int64_t segment = -1;
  const std::int64_t segment_bytes = 16LL * word_bytes;
  for (int k = 0; k < 16; ++k) {
    const LaneAccess& a = lanes[first + k];
    if (!a.active) continue;
    ++active;
    const std::int64_t base = a.address - static_cast<std::int64_t>(k) * word_bytes;
    if (base % segment_bytes != 0 || (segment >= 0 && base != segment)) coalesced = false;
    segment = base;
  }
  if (active == 0) return {0, 0};
  if (coalesced) {
    ranges.push_back({segment, segment + segment_bytes});
    if (word_bytes == 4) return {1, 64};
    if (word_bytes == 8) return {1, 128};
    return {2, 256};
  }
  for (int k = 0; k < 16; ++k) {
    const LaneAccess& a = lanes[first + k];
    if (a.active) ranges.push_back({a.address / 32 * 32, a.address / 32 * 32 + 32});
  }
  return {active, 32LL * active};
}

}  // namespace

// Lanes per global request for the Fermi/Kepler split into 128-byte requests.
int global_request_lanes(int word_bytes, HardwareModel model) {
  if (model == HardwareModel::Modern) return kWarpSize;
  if (model == HardwareModel::G80) return 16;
  return word_bytes <= 4 ? 32 : (word_bytes == 8 ? 16 : 8);
}

HardwareModel parse_hardware_model(std::string_view text) {
  if (text == "modern") return HardwareModel::Modern;
  if (text == "fermi-ca") return HardwareModel::FermiCaching;
  if (text == "fermi-cg") return HardwareModel::FermiL2Only;
  if (text == "kepler") return HardwareModel::Kepler;
  if (text == "g80") return HardwareModel::G80;
  throw PatternError("model must be modern, fermi-ca, fermi-cg, kepler or g80 (got \"" +
                     std::string(text) + "\")");
}

std::string_view to_string(HardwareModel model) {
  switch (model) {
    case HardwareModel::Modern: return "modern";
    case HardwareModel::FermiCaching: return "fermi-ca";
    case HardwareModel::FermiL2Only: return "fermi-cg";
    case HardwareModel::Kepler: return "kepler";
    case HardwareModel::G80: return "g80";
  }
  return "modern";
}

std::string_view describe_short(HardwareModel model) {
  switch (model) {
    case HardwareModel::Modern: return "modern (CC 7.0+)";
    case HardwareModel::FermiCaching: return "Fermi caching (CC 2.x)";
    case HardwareModel::FermiL2Only: return "Fermi L2-only (CC 2.x)";
    case HardwareModel::Kepler: return "Kepler (CC 3.x, 8-byte banks)";
    case HardwareModel::G80: return "G80 (CC 1.0, 16 banks)";
  }
  return "";
}

std::string_view describe(HardwareModel model) {
  switch (model) {
    case HardwareModel::Modern: return "modern (compute capability 7.0 and newer)";
    case HardwareModel::FermiCaching: return "Fermi, caching loads (CC 2.x, 128-byte lines)";
    case HardwareModel::FermiL2Only: return "Fermi, L2-only loads (CC 2.x, 32-byte segments)";
    case HardwareModel::Kepler: return "Kepler (CC 3.x, 8-byte bank mode)";
    case HardwareModel::G80: return "G80 (CC 1.0, half-warp requests, 16 banks)";
  }
  return "";
}

GlobalAnalysis analyze_global(const WarpAccesses& lanes, int word_bytes, Op op,
                              HardwareModel model) {
  GlobalAnalysis r;
  r.model = model;
  r.op = op;
  r.word_bytes = word_bytes;
  for (int l = 0; l < kWarpSize; ++l) {
    r.lanes[l].access = lanes[l];
    r.lanes[l].sector = lanes[l].address / kSectorBytes;
    r.lanes[l].line = lanes[l].address / kLineBytes;
    r.active_lanes += lanes[l].active ? 1 : 0;
  }
  r.sectors = distinct_sorted(lanes, 0, kWarpSize,
                              [](const LaneAccess& a) { return a.address / kSectorBytes; });
  r.lines = distinct_sorted(lanes, 0, kWarpSize,
                            [](const LaneAccess& a) { return a.address / kLineBytes; });
  r.requested_bytes = distinct_bytes(lanes, word_bytes, 0, kWarpSize);

  const int group = global_request_lanes(word_bytes, model);
  r.requests = 0;
  r.transactions = 0;
  r.moved_bytes = 0;
  std::set<int> sizes;
  for (int first = 0; first < kWarpSize; first += group) {
    bool any = false;
    for (int l = first; l < first + group; ++l) any = any || lanes[l].active;
    if (!any) continue;
    ++r.requests;
    if (model == HardwareModel::G80) {
      const auto [n, bytes] = g80_half_warp(lanes, word_bytes, first, r.transaction_ranges);
      r.transactions += n;
      r.moved_bytes += bytes;
      sizes.insert(static_cast<int>(bytes / n));
      continue;
    }
    const bool lines = model == HardwareModel::FermiCaching && op == Op::Load;
    const int unit = lines ? kLineBytes : kSectorBytes;
    const auto units = distinct_sorted(lanes, first, group,
                                       [unit](const LaneAccess& a) { return a.address / unit; });
    r.transactions += static_cast<int>(units.size());
    r.moved_bytes += static_cast<std::int64_t>(units.size()) * unit;
    for (std::int64_t u : units) r.transaction_ranges.push_back({u * unit, (u + 1) * unit});
    sizes.insert(unit);
  }
  if (r.requests == 0) r.requests = 1;  // an instruction with no active lane still issues
  r.transaction_bytes = sizes.size() == 1 ? *sizes.begin() : 0;
  return r;
}

int shared_phase_lanes(int word_bytes, HardwareModel model) {
  // A phase carries (lanes x phase_word_bytes) of lane data. Modern GPUs take up to 256 bytes,
  // as Kepler's 8-byte banks do: the whole warp for 1-8 byte words, half-warps for 16-byte
  // words. Measured with CUPTI on an H100 (warplens verify): all 32 lanes on one 8-byte word
  // take 1 wavefront and on one 16-byte word 2, which the Programming Guide's half-/quarter-warp
  // wording (2 and 4) does not give; every other catalogued pattern counts the same under both.
  const int full = model == HardwareModel::G80 ? 16 : kWarpSize;
  const int phase_word_bytes =
      model == HardwareModel::Kepler || model == HardwareModel::Modern ? 8 : 4;
  return word_bytes <= phase_word_bytes ? full : full * phase_word_bytes / word_bytes;
}

SharedAnalysis analyze_shared(const WarpAccesses& lanes, int word_bytes, Op op,
                              HardwareModel model) {
  SharedAnalysis r;
  r.model = model;
  r.op = op;
  r.word_bytes = word_bytes;
  r.bank_count = model == HardwareModel::G80 ? 16 : 32;
  r.bank_width_bytes = model == HardwareModel::Kepler ? 8 : 4;
  const int phase_lanes = shared_phase_lanes(word_bytes, model);

  for (int l = 0; l < kWarpSize; ++l) {
    SharedLane& s = r.lanes[l];
    s.access = lanes[l];
    s.bank = static_cast<int>((lanes[l].address / r.bank_width_bytes) % r.bank_count);
    s.bank_words = std::max(1, word_bytes / r.bank_width_bytes);
    s.phase = l / phase_lanes;
    r.active_lanes += lanes[l].active ? 1 : 0;
  }
  r.requested_bytes = distinct_bytes(lanes, word_bytes, 0, kWarpSize);

  for (int first = 0; first < kWarpSize; first += phase_lanes) {
    SharedPhase phase;
    phase.first_lane = first;
    phase.lane_count = phase_lanes;
    // bank -> distinct bank-width words; word -> lanes reading it
    std::vector<std::set<std::int64_t>> words(r.bank_count);
    std::map<std::int64_t, int> readers;
    for (int l = first; l < first + phase_lanes; ++l) {
      if (!lanes[l].active) continue;
      const std::int64_t first_word = lanes[l].address / r.bank_width_bytes;
      const std::int64_t last_word = (lanes[l].address + word_bytes - 1) / r.bank_width_bytes;
      for (std::int64_t w = first_word; w <= last_word; ++w) {
        words[w % r.bank_count].insert(w);
        ++readers[w];
      }
    }
    phase.distinct_words_per_bank.resize(r.bank_count);
    const std::size_t distinct = readers.size();
    phase.min_wavefronts =
        static_cast<int>((distinct + static_cast<std::size_t>(r.bank_count) - 1) /
                         static_cast<std::size_t>(r.bank_count));
    r.min_wavefronts += phase.min_wavefronts;
    for (int b = 0; b < r.bank_count; ++b) {
      phase.distinct_words_per_bank[b] = static_cast<int>(words[b].size());
      phase.wavefronts = std::max(phase.wavefronts, phase.distinct_words_per_bank[b]);
    }
    for (const auto& [word, count] : readers) phase.broadcast = phase.broadcast || count > 1;
    r.wavefronts += phase.wavefronts;
    r.broadcast = r.broadcast || phase.broadcast;
    r.phases.push_back(std::move(phase));
  }
  r.moved_bytes = static_cast<std::int64_t>(r.wavefronts) * r.bank_count * r.bank_width_bytes;
  return r;
}

}  // namespace warplens::model
