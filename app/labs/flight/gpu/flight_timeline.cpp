// The per-block timeline's analysis (flight_lab.h, block_timeline_from_stamps): host code, built
// in every build, so that it is tested on made-up stamps without a GPU.
#include <algorithm>
#include <cstddef>
#include <map>
#include <vector>

#include "flight_lab.h"

namespace warplens::gpu {

namespace {

/// The p-quantile (0..1) of `v` (nearest rank), 0 for none.
double quantile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const auto i = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(i, v.size() - 1)];
}

}  // namespace

BlockTimeline block_timeline_from_stamps(const std::vector<BlockStamps>& blocks) {
  BlockTimeline t;
  std::map<unsigned, std::vector<const BlockStamps*>> by_sm;
  for (const BlockStamps& b : blocks) by_sm[b.smid].push_back(&b);
  std::vector<double> issue, wait, store, tail, round, ns_per_cycle;
  for (auto& [sm, list] : by_sm) {
    std::sort(list.begin(), list.end(),
              [](const BlockStamps* a, const BlockStamps* b) { return a->entry < b->entry; });
    // The SM's clock against the global timer, over its first block's entry to its last
    // block's stores (thread 0's stamps).
    const BlockStamps& first = *list.front();
    const BlockStamps* last = list.front();
    for (const BlockStamps* b : list)
      if (b->thread0_stored_clock > last->thread0_stored_clock) last = b;
    if (last->thread0_stored_clock > first.thread0_entry_clock &&
        last->thread0_stored_ns > first.thread0_entry_ns)
      ns_per_cycle.push_back(
          static_cast<double>(last->thread0_stored_ns - first.thread0_entry_ns) /
          static_cast<double>(last->thread0_stored_clock - first.thread0_entry_clock));
    ++t.sms;
    // A block's round ends when the first block to start after its last store starts (the one
    // that took its place); the SM's last blocks have none and do not count.
    for (std::size_t i = 0; i < list.size(); ++i) {
      const BlockStamps& b = *list[i];
      const BlockStamps* next = nullptr;  // the first block to start after b's last store
      for (std::size_t j = i + 1; j < list.size(); ++j)
        if (list[j]->entry >= b.stored) {
          next = list[j];
          break;
        }
      if (!next) continue;
      issue.push_back(static_cast<double>(b.issued - b.entry));
      wait.push_back(static_cast<double>(b.arrived - b.issued));
      store.push_back(static_cast<double>(b.stored - b.arrived));
      tail.push_back(static_cast<double>(next->entry - b.stored));
      round.push_back(static_cast<double>(next->entry - b.entry));
    }
  }
  t.rounds = static_cast<long long>(round.size());
  t.sm_clock_ghz = ns_per_cycle.empty() ? 0 : 1.0 / quantile(ns_per_cycle, 0.5);
  const double ns = t.sm_clock_ghz > 0 ? 1.0 / t.sm_clock_ghz : 0;
  t.issue_ns = ns * quantile(issue, 0.5);
  t.wait_ns = ns * quantile(wait, 0.5);
  t.store_ns = ns * quantile(store, 0.5);
  t.tail_ns = ns * quantile(tail, 0.5);
  t.tail_p10_ns = ns * quantile(tail, 0.1);
  t.tail_p90_ns = ns * quantile(tail, 0.9);
  t.round_ns = ns * quantile(round, 0.5);
  return t;
}

double BlockGaps::at(double bytes) const {
  if (gap_ns.empty()) return 0;
  if (bytes <= thread_bytes.front()) return gap_ns.front();
  if (bytes >= thread_bytes.back()) return gap_ns.back();
  std::size_t i = 1;
  while (bytes > thread_bytes[i]) ++i;
  const double f = (bytes - thread_bytes[i - 1]) / (thread_bytes[i] - thread_bytes[i - 1]);
  return gap_ns[i - 1] + f * (gap_ns[i] - gap_ns[i - 1]);
}

BlockGaps block_gaps(const std::vector<BlockTimeline>& timelines) {
  std::map<double, double> by_bytes;  // thread bytes -> store + tail
  for (const BlockTimeline& t : timelines)
    if (t.verified && t.residency.blocks_per_sm == 1 && t.rounds > 0)
      by_bytes[static_cast<double>(t.params.loads_per_thread) * t.params.word_bytes] =
          t.store_ns + t.tail_ns;
  BlockGaps g;
  for (const auto& [bytes, gap] : by_bytes) {
    g.thread_bytes.push_back(bytes);
    g.gap_ns.push_back(gap);
  }
  return g;
}

double one_block_wall_gbps(double bytes_in_flight_per_sm, int sms, double peak_gbps,
                           double gap_ns) {
  if (peak_gbps <= 0 || bytes_in_flight_per_sm <= 0 || sms <= 0) return 0;
  if (gap_ns <= 0) return peak_gbps;
  const double round_at_wall = 2.0 * sms * bytes_in_flight_per_sm / peak_gbps;  // ns
  return peak_gbps * round_at_wall / (round_at_wall + gap_ns);
}

}  // namespace warplens::gpu
