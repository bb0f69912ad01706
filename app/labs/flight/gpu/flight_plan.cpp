// The bytes-in-flight lab's host side, compiled in every build: parameter checks, the ladder's
// working sets and cycle, plateau detection, residency, the Little's-law model and the SM
// picture (flight_lab.h).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <numeric>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "flight_lab.h"

namespace warplens::gpu {

namespace {

std::string kib_text(std::int64_t bytes) {
  if (bytes % 1024 == 0) return std::to_string(bytes / 1024) + " KiB";
  return std::to_string(bytes) + " bytes";
}

template <typename T>
bool one_of(T v, std::initializer_list<T> set) {
  return std::find(set.begin(), set.end(), v) != set.end();
}

double median(std::vector<double> v) {
  return median_of(std::move(v));
}

}  // namespace

// --- ladder ----------------------------------------------------------------------------------

void check_chase(const ChaseParams& p, std::int64_t max_bytes) {
  if (p.working_set_bytes < kChaseMinBytes)
    throw std::invalid_argument("working set " + kib_text(p.working_set_bytes) +
                                " is under the ladder's 4 KiB");
  if (p.working_set_bytes % kChaseLineBytes != 0)
    throw std::invalid_argument("working set " + std::to_string(p.working_set_bytes) +
                                " bytes is not a multiple of the 128-byte line");
  if (p.working_set_bytes > max_bytes)
    throw std::invalid_argument("working set " + kib_text(p.working_set_bytes) +
                                " is larger than the chase buffer (" + kib_text(max_bytes) + ")");
  if (p.path != LoadPath::Default && p.path != LoadPath::L2Only)
    throw std::invalid_argument("the chase's load path must be default or ldcg");
  if (p.lanes != 1 && p.lanes != kChaseWarpLanes)
    throw std::invalid_argument("the chase runs 1 lane or a warp of 32 (got " +
                                std::to_string(p.lanes) + ")");
}

std::vector<std::int64_t> ladder_working_sets(std::int64_t l2_bytes) {
  const std::int64_t top = std::max<std::int64_t>(4 * l2_bytes, std::int64_t{4} << 20) /
                           kChaseLineBytes * kChaseLineBytes;
  std::vector<std::int64_t> v;
  for (int k = 0;; ++k) {
    const double b = static_cast<double>(kChaseMinBytes) * std::pow(2.0, k / 2.0);
    auto bytes = static_cast<std::int64_t>(b / kChaseLineBytes) * kChaseLineBytes;
    if (bytes >= top) break;
    v.push_back(bytes);
  }
  v.push_back(top);
  return v;
}

std::vector<std::uint32_t> chase_cycle(std::uint32_t nodes, std::uint32_t seed) {
  std::vector<std::uint32_t> order(nodes);
  std::iota(order.begin(), order.end(), 0u);
  std::mt19937 rng(seed);
  // Sattolo: a uniformly random permutation with a single cycle.
  for (std::uint32_t i = nodes; i > 1; --i) {
    std::uniform_int_distribution<std::uint32_t> pick(0, i - 2);
    std::swap(order[i - 1], order[pick(rng)]);
  }
  std::vector<std::uint32_t> next(nodes);
  // order is the cycle's permutation itself: line i goes to order[i].
  for (std::uint32_t i = 0; i < nodes; ++i) next[i] = order[i];
  return next;
}

Plateaus find_plateaus(const std::vector<LatencyPoint>& row, const LadderLevels& lv) {
  Plateaus p;
  std::vector<double> l1n, l1c, l2n, l2c, dn, dc;
  const LatencyPoint* first_dram = nullptr;
  for (const auto& pt : row) {
    const std::int64_t ws = pt.params.working_set_bytes;
    if (lv.l1_bytes > 0 && 2 * ws <= lv.l1_bytes) {
      l1n.push_back(pt.ns_per_load);
      l1c.push_back(pt.cycles_per_load);
    } else if (ws >= 2 * lv.l1_bytes && 2 * ws <= lv.l2_bytes) {
      l2n.push_back(pt.ns_per_load);
      l2c.push_back(pt.cycles_per_load);
    } else if (ws >= 2 * lv.l2_bytes) {
      if (!first_dram) first_dram = &pt;
      if (!p.tlb_step_bytes && pt.ns_per_load > 1.12 * first_dram->ns_per_load)
        p.tlb_step_bytes = ws;
      if (p.tlb_step_bytes) continue;
      dn.push_back(pt.ns_per_load);
      dc.push_back(pt.cycles_per_load);
    }
  }
  if (!l1n.empty()) p.l1_ns = median(l1n), p.l1_cycles = median(l1c);
  if (!l2n.empty()) p.l2_ns = median(l2n), p.l2_cycles = median(l2c);
  if (!dn.empty()) p.dram_ns = median(dn), p.dram_cycles = median(dc);
  return p;
}

// --- Little's law ------------------------------------------------------------------------------

void check_stream(const StreamParams& p, std::int64_t optin_limit_bytes) {
  if (!one_of(p.word_bytes, {4, 8, 16}))
    throw std::invalid_argument("word size must be 4, 8 or 16 bytes (got " +
                                std::to_string(p.word_bytes) + ")");
  if (!one_of(p.loads_per_thread, {1, 2, 4, 8}))
    throw std::invalid_argument("loads per thread must be 1, 2, 4 or 8 (got " +
                                std::to_string(p.loads_per_thread) + ")");
  if (!one_of(p.block_threads, {32, 64, 128, 256, 512, 1024}))
    throw std::invalid_argument("threads per block must be 32, 64, 128, 256, 512 or 1024 (got " +
                                std::to_string(p.block_threads) + ")");
  if (p.dynamic_shared_bytes < 0)
    throw std::invalid_argument("dynamic shared memory cannot be negative");
  if (p.dynamic_shared_bytes > optin_limit_bytes)
    throw std::invalid_argument("dynamic shared memory " + kib_text(p.dynamic_shared_bytes) +
                                " is over this GPU's limit of " + kib_text(optin_limit_bytes) +
                                " per block");
}

SmLimits model_sm_limits() {
  return SmLimits{};
}

int estimated_stream_registers(const StreamParams& p) {
  return 16 + p.loads_per_thread * p.word_bytes / 4;
}

Residency predict_residency(const StreamParams& p, const SmLimits& l, int regs_per_thread) {
  Residency r;
  r.regs_per_thread = regs_per_thread;
  const int warps = p.block_threads / 32;
  const int by_threads = l.max_threads_per_sm / p.block_threads;
  const int by_blocks = l.max_blocks_per_sm;
  // Registers are allocated per warp in units of 256.
  const int per_warp = (std::max(regs_per_thread, 1) * 32 + 255) / 256 * 256;
  const int by_regs = l.regs_per_sm / (per_warp * warps);
  const std::int64_t block_shared = p.dynamic_shared_bytes + l.reserved_shared_per_block;
  const int by_shared =
      p.dynamic_shared_bytes == 0
          ? by_blocks
          : static_cast<int>(l.shared_bytes_per_sm / std::max<std::int64_t>(block_shared, 1));
  const std::pair<int, const char*> limits[] = {{by_threads, "threads"},
                                                {by_blocks, "blocks per SM"},
                                                {by_regs, "registers"},
                                                {by_shared, "shared memory"}};
  const auto* least =
      std::min_element(std::begin(limits), std::end(limits),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
  r.blocks_per_sm = std::max(least->first, 0);
  r.limiter = least->second;
  r.warps_per_sm = r.blocks_per_sm * warps;
  return r;
}

std::int64_t bytes_in_flight_per_sm(int warps_per_sm, int loads_per_thread, int word_bytes) {
  return std::int64_t{warps_per_sm} * 32 * loads_per_thread * word_bytes;
}

double littles_law_gbps(double bif, int sms, double latency_ns, double peak_gbps) {
  return littles_law_gbps(bif, sms, latency_ns, peak_gbps, 0, 0);
}

double batch_latency_ns(double latency_ns, double warp_batch_bytes, double batch_ns_per_byte) {
  return latency_ns + batch_ns_per_byte * std::max(warp_batch_bytes, 0.0);
}

double littles_law_gbps(double bif, int sms, double latency_ns, double peak_gbps,
                        double warp_batch_bytes, double batch_ns_per_byte) {
  if (latency_ns <= 0 || peak_gbps <= 0) return 0;
  // X x (L0 (1 + X / peak) + tau b) = D: a X^2 + c X - D = 0 with a = L0 / peak, c = L0 + tau b;
  // the positive root written as 2 D / (c + sqrt(c^2 + 4 a D)), which keeps its digits.
  const double demand = 2.0 * sms * std::max(bif, 0.0);
  const double a = latency_ns / peak_gbps;
  const double c = batch_latency_ns(latency_ns, warp_batch_bytes, batch_ns_per_byte);
  return std::min(peak_gbps, 2 * demand / (c + std::sqrt(c * c + 4 * a * demand)));
}

std::optional<double> batch_ns_per_byte(const std::vector<StreamMeasurement>& copies, int sms,
                                        double latency_ns, double peak_gbps) {
  if (sms <= 0 || latency_ns <= 0 || peak_gbps <= 0) return std::nullopt;
  const double knee = knee_bytes_per_sm(sms, latency_ns, peak_gbps);
  double xy = 0, xx = 0, first = -1;
  bool two = false;
  for (const auto& c : copies) {
    const auto bif = static_cast<double>(c.bytes_in_flight_per_sm);
    if (c.residency.blocks_per_sm != 1 || c.residency.warps_per_sm <= 0 || c.gbps <= 0 ||
        !c.verified || bif >= knee)
      continue;
    const double warp_bytes = bif / c.residency.warps_per_sm;
    // Little's law backwards: the round time the copy saw, less the loaded latency the model
    // gives it (L0 (1 + X / peak)): what its batch added.
    const double round = 2.0 * sms * bif / c.gbps;
    xy += warp_bytes * (round - latency_ns * (1 + c.gbps / peak_gbps));
    xx += warp_bytes * warp_bytes;
    if (first < 0) first = warp_bytes;
    two = two || warp_bytes != first;
  }
  if (!two || xx <= 0) return std::nullopt;
  return std::max(xy / xx, 0.0);
}

std::vector<int> probe_copy_blocks(const SmLimits& limits) {
  const int most = limits.max_threads_per_sm / kProbeCopyThreads - 1;
  std::vector<int> loads = {0};
  for (int k : {1, 2, 4})
    if (k < most) loads.push_back(k);
  if (most >= 1) loads.push_back(most);
  return loads;
}

namespace {

// A curve through (x, y) points: ascending x (ties: the first), never falling.
LoadedCurve make_curve(std::vector<std::pair<double, double>> points) {
  std::stable_sort(points.begin(), points.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  LoadedCurve c;
  for (const auto& [x, y] : points) {
    if (!c.gbps.empty() && x <= c.gbps.back()) continue;
    c.gbps.push_back(x);
    c.value.push_back(c.value.empty() ? y : std::max(y, c.value.back()));
  }
  return c;
}

}  // namespace

double LoadedCurve::at(double x) const {
  const std::size_t n = gbps.size();
  if (n == 0) return 0;
  if (n == 1) return value[0];
  // The segment that holds x, or the nearest one (first or last) for an x outside.
  std::size_t i = 1;
  while (i + 1 < n && x > gbps[i]) ++i;
  const double x0 = gbps[i - 1], x1 = gbps[i];
  const double slope = (value[i] - value[i - 1]) / (x1 - x0);  // >= 0: never falling
  return std::max(value[i - 1] + slope * (x - x0), 0.0);
}

std::optional<LoadedLatencyModel> loaded_latency_model(
    const std::vector<LoadedLatencyPoint>& points, double ladder_l0_ns) {
  LoadedLatencyModel m;
  std::vector<std::pair<double, double>> chase;  // the small batch chase: (GB/s, ns)
  bool idle = false, loaded = false, warp_idle = false;
  for (const auto& p : points) {
    if (!p.verified) continue;
    if (p.copy_blocks_per_sm > 0) m.top_gbps = std::max(m.top_gbps, p.copy_gbps);
    if (p.ns_per_load <= 0) continue;
    if (p.batch_bytes == 0 && p.copy_blocks_per_sm == 0 && !warp_idle) {
      m.idle_warp_ns = p.ns_per_load;
      warp_idle = true;
    }
    if (p.batch_bytes != kProbeBatchSmall) continue;
    if (p.copy_blocks_per_sm == 0) {
      if (!idle) chase.emplace_back(0.0, p.ns_per_load);
      idle = true;
    } else if (p.copy_gbps > 0) {
      loaded = true;
      chase.emplace_back(p.copy_gbps, p.ns_per_load);
    }
  }
  if (!idle || !loaded) return std::nullopt;
  if (ladder_l0_ns > 0 &&
      (!warp_idle || std::abs(m.idle_warp_ns - ladder_l0_ns) > kProbeIdleTolerance * ladder_l0_ns))
    return std::nullopt;
  // The lower envelope: from the fastest point down, each takes the least latency at its rate or
  // above (ties in rate: the first, which then holds the least).
  std::stable_sort(chase.begin(), chase.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (std::size_t i = chase.size() - 1; i-- > 0;)
    chase[i].second = std::min(chase[i].second, chase[i + 1].second);
  for (const auto& [x, y] : chase) {
    if (!m.latency.gbps.empty() && x <= m.latency.gbps.back()) continue;
    m.latency.gbps.push_back(x);
    m.latency.value.push_back(y);
  }
  // tau at each load: the two batches' latencies at the same copy blocks per SM.
  std::vector<std::pair<double, double>> tau;
  for (const auto& small : points) {
    if (!small.verified || small.batch_bytes != kProbeBatchSmall) continue;
    for (const auto& large : points) {
      if (!large.verified || large.batch_bytes != kProbeBatchLarge ||
          large.copy_blocks_per_sm != small.copy_blocks_per_sm ||
          large.copy_loads_per_thread != small.copy_loads_per_thread)
        continue;
      if (small.copy_blocks_per_sm > 0 && (small.copy_gbps <= 0 || large.copy_gbps <= 0)) continue;
      const double x =
          small.copy_blocks_per_sm == 0 ? 0 : 0.5 * (small.copy_gbps + large.copy_gbps);
      tau.emplace_back(x, std::max(large.ns_per_load - small.ns_per_load, 0.0) /
                              (kProbeBatchLarge - kProbeBatchSmall));
      break;
    }
  }
  m.batch = make_curve(tau);
  return m;
}

double littles_law_loaded_gbps(double bif, int sms, double latency_ns, double peak_gbps,
                               double warp_batch_bytes, double batch_ns_per_byte,
                               const LoadedLatencyModel& model) {
  const double probe_idle = model.latency.gbps.empty() ? 0 : model.latency.at(0);
  if (probe_idle <= 0)
    return littles_law_gbps(bif, sms, latency_ns, peak_gbps, warp_batch_bytes, batch_ns_per_byte);
  if (latency_ns <= 0 || peak_gbps <= 0) return 0;
  const double demand = 2.0 * sms * std::max(bif, 0.0);
  const double batch = batch_ns_per_byte * std::max(warp_batch_bytes, 0.0);
  const auto round_ns = [&](double x) {
    return std::max(latency_ns * (1 + x / peak_gbps),
                    latency_ns * model.latency.at(x) / probe_idle) +
           batch;
  };
  // X x T(X) grows with X: bisection for X x T(X) = demand.
  const auto excess = [&](double x) { return x * round_ns(x) - demand; };
  if (excess(peak_gbps) <= 0) return peak_gbps;
  double lo = 0, hi = peak_gbps;
  for (int i = 0; i < 200; ++i) {  // to the last bit: about 60 halvings
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    (excess(mid) < 0 ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

double knee_bytes_per_sm(int sms, double latency_ns, double peak_gbps) {
  return sms > 0 ? peak_gbps * latency_ns / (2.0 * sms) : 0;
}

SmPicture sm_picture(const StreamParams& p, const Residency& r) {
  SmPicture s;
  s.warps = r.warps_per_sm;
  s.loads_per_warp = p.loads_per_thread;
  s.bytes_per_load = 32 * p.word_bytes;
  s.bytes_in_flight = bytes_in_flight_per_sm(r.warps_per_sm, p.loads_per_thread, p.word_bytes);
  s.blocks = r.blocks_per_sm;
  s.warps_per_block = p.block_threads / 32;
  return s;
}

std::int64_t shared_for_blocks(const SmLimits& l, int block_threads, int blocks) {
  if (blocks <= 0 || blocks >= l.max_threads_per_sm / std::max(block_threads, 1)) return 0;
  std::int64_t b = l.shared_bytes_per_sm / blocks - l.reserved_shared_per_block;
  b = b / 1024 * 1024;
  return std::clamp<std::int64_t>(b, 0, l.shared_optin_per_block);
}

// --- async -----------------------------------------------------------------------------------

const char* to_string(AsyncKind kind) {
  return kind == AsyncKind::CpAsync ? "cp-async" : "tma";
}

std::int64_t async_block_bytes_in_flight(AsyncKind kind) {
  if (kind == AsyncKind::CpAsync)
    return std::int64_t{kCpAsyncStages - 1} * kCpAsyncThreads * kCpAsyncVectors * 16;
  return std::int64_t{kTmaStages} * kTmaStageBytes;
}

std::int64_t async_block_shared_bytes(AsyncKind kind) {
  if (kind == AsyncKind::CpAsync)
    return std::int64_t{kCpAsyncStages} * kCpAsyncThreads * kCpAsyncVectors * 16;
  return std::int64_t{kTmaStages} * kTmaStageBytes + 128;  // the barriers, 128-byte aligned
}

std::optional<std::string> async_unsupported(AsyncKind kind, int major, int minor) {
  const int need = kind == AsyncKind::CpAsync ? 8 : 9;
  if (major >= need) return std::nullopt;
  return "needs CC " + std::to_string(need) + ".0 (this GPU is " + std::to_string(major) + "." +
         std::to_string(minor) + ")";
}

std::vector<StreamParams> timeline_copies(const SmLimits& limits, int max_blocks_per_sm) {
  std::vector<StreamParams> v;
  for (int loads : {1, 2, 4, 8})
    for (int blocks = 1; blocks <= max_blocks_per_sm; ++blocks) {
      StreamParams p;
      p.word_bytes = 16;
      p.loads_per_thread = loads;
      p.block_threads = 256;
      p.dynamic_shared_bytes = shared_for_blocks(limits, 256, blocks);
      v.push_back(p);
    }
  return v;
}

double LittlesLawLine::linear_gbps(double bif, double warp_batch_bytes) const {
  return littles_law_gbps(bif, sms, latency_ns, peak_gbps, warp_batch_bytes, batch_ns_per_byte);
}

double LittlesLawLine::gbps(double bif, double warp_batch_bytes, int blocks_per_sm,
                            double thread_bytes) const {
  const double line = loaded ? littles_law_loaded_gbps(bif, sms, latency_ns, peak_gbps,
                                                       warp_batch_bytes, batch_ns_per_byte, *loaded)
                             : linear_gbps(bif, warp_batch_bytes);
  if (blocks_per_sm != 1 || thread_bytes <= 0 || gaps.empty()) return line;
  return std::min(line, one_block_wall_gbps(bif, sms, peak_gbps, gaps.at(thread_bytes)));
}

}  // namespace warplens::gpu
