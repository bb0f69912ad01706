#include "bandwidth_model.h"

#include <algorithm>
#include <cmath>

namespace warplens::gpu {

namespace {
constexpr double kDramPiece = 64;  // bytes DRAM reads at least, per touched piece (H100, ncu)
constexpr double kSector = 32;
constexpr double kMinOverlap = 2, kMaxOverlap = 8;

double dram_seconds(const DramTraffic& t, const Calibration& c) {
  const double rate = c.memcpy_gbps * 1e9;
  const double dense = t.read_bytes + t.write_bytes - t.sparse_bytes;
  return dense / rate + t.sparse_bytes / (rate * sparse_efficiency(t.gap_bytes, c));
}

// (a^k + b^k)^(1/k), or max(a, b) for k <= 0.
double smooth_max(double a, double b, double k) {
  if (k <= 0) return std::max(a, b);
  const double m = std::max(a, b);
  if (m <= 0) return 0;
  return m * std::pow(std::pow(a / m, k) + std::pow(b / m, k), 1 / k);
}

// Issue seconds per requested byte: the coalesced copy's time less its DRAM time (2 x word
// bytes per thread, dense), undone through the smooth max.
double issue_seconds_per_byte(double coalesced_gbps, const Calibration& c) {
  const double t1 = 1 / (coalesced_gbps * 1e9);
  const double d1 = 1 / (c.memcpy_gbps * 1e9);
  const double k = c.overlap_exponent;
  if (k <= 0) return t1;
  const double rest = 1 - std::pow(d1 / t1, k);
  return rest > 0 ? t1 * std::pow(rest, 1 / k) : 0;
}

// eff of the sparse bytes of `probe`, from its measured GB/s, taking it as DRAM-bound.
double probe_efficiency(const CopyParams& probe, std::int64_t buffer_bytes, double gbps,
                        const Calibration& c) {
  const CopyPlan plan = plan_copy(probe, buffer_bytes);
  const DramTraffic t = copy_dram_traffic(probe, plan);
  const double rate = c.memcpy_gbps * 1e9;
  const double seconds = static_cast<double>(plan.requested_bytes) / (gbps * 1e9);
  const double sparse_seconds = seconds - (t.read_bytes + t.write_bytes - t.sparse_bytes) / rate;
  if (sparse_seconds <= 0) return 1;
  return std::clamp(t.sparse_bytes / (rate * sparse_seconds), 0.01, 1.0);
}

void fit_sparse(Calibration& c, std::int64_t buffer_bytes) {
  const CopyParams near_probe = sparse_near_probe(), far_probe = sparse_far_probe();
  const double b_near = static_cast<double>(near_probe.stride) * near_probe.word_bytes;
  const double b_far = static_cast<double>(far_probe.stride) * far_probe.word_bytes;
  const double e_near = probe_efficiency(near_probe, buffer_bytes, c.sparse_near_gbps, c);
  const double e_far = probe_efficiency(far_probe, buffer_bytes, c.sparse_far_gbps, c);
  if (e_far >= e_near) {  // no loss with sparsity measured: dense everywhere
    c.sparse_exponent = 0;
    c.sparse_knee_bytes = kDramPiece;
    return;
  }
  c.sparse_exponent = std::log(e_near / e_far) / std::log(b_far / b_near);
  c.sparse_knee_bytes =
      std::clamp(b_near * std::pow(e_near, 1 / c.sparse_exponent), kDramPiece, b_near);
}

void fit_overlap(Calibration& c, std::int64_t buffer_bytes) {
  const CopyParams probe = overlap_probe();
  const CopyPlan plan = plan_copy(probe, buffer_bytes);
  // The prediction rises with k (from the sum of the times towards their max): bisect.
  const auto predicted = [&](double k) {
    Calibration trial = c;
    trial.overlap_exponent = k;
    return predict_copy_gbps(probe, plan, trial);
  };
  double lo = kMinOverlap, hi = kMaxOverlap;
  if (predicted(hi) <= c.overlap_gbps) {
    c.overlap_exponent = hi;
    return;
  }
  if (predicted(lo) >= c.overlap_gbps) {
    c.overlap_exponent = lo;
    return;
  }
  for (int i = 0; i < 50; ++i) {
    const double mid = (lo + hi) / 2;
    (predicted(mid) < c.overlap_gbps ? lo : hi) = mid;
  }
  c.overlap_exponent = (lo + hi) / 2;
}
}  // namespace

double sparse_efficiency(double gap_bytes, const Calibration& c) {
  const double knee = std::max(c.sparse_knee_bytes, kDramPiece);
  if (gap_bytes <= knee || c.sparse_exponent <= 0) return 1.0;
  return std::pow(knee / gap_bytes, c.sparse_exponent);
}

DramTraffic copy_dram_traffic(const CopyParams& p, const CopyPlan& plan) {
  const double n = static_cast<double>(plan.threads);
  const double w = p.word_bytes;
  DramTraffic t;
  double gap = w;  // bytes between neighbouring threads' patterned elements
  switch (p.kind) {
    case IndexKind::Strided: gap = static_cast<double>(p.stride) * w; break;
    case IndexKind::Permuted: gap = w; break;
    case IndexKind::SameWord: gap = 0; break;
    case IndexKind::Scattered: gap = kDramPiece * 4; break;  // no neighbour shares a piece
  }
  t.gap_bytes = gap;
  const double patterned_read =
      p.kind == IndexKind::SameWord ? n / 32 * kSector : n * std::min(gap, kDramPiece);
  if (p.side == PatternSide::Read) {
    t.read_bytes = patterned_read;
    t.write_bytes = n * w;
    t.sparse_bytes = patterned_read;
  } else {
    const bool partial = gap > w || p.kind == IndexKind::SameWord;
    t.read_bytes = n * w + (partial ? patterned_read : 0);
    t.write_bytes =
        p.kind == IndexKind::SameWord ? n / 32 * kSector : n * std::max(w, std::min(gap, kSector));
    t.sparse_bytes = t.read_bytes - n * w + t.write_bytes;
  }
  return t;
}

CopyParams sparse_near_probe() {
  CopyParams p;
  p.word_bytes = 16;
  p.stride = 8;
  return p;
}

CopyParams sparse_far_probe() {
  CopyParams p;
  p.word_bytes = 16;
  p.stride = 64;
  return p;
}

CopyParams overlap_probe() {
  CopyParams p;
  p.word_bytes = 4;
  p.stride = 2;
  return p;
}

void fit_calibration(Calibration& c, std::int64_t buffer_bytes) {
  if (c.memcpy_gbps <= 0) return;
  if (c.sparse_near_gbps > 0 && c.sparse_far_gbps > 0) fit_sparse(c, buffer_bytes);
  if (c.overlap_gbps > 0 && c.coalesced_gbps.count(4) != 0) fit_overlap(c, buffer_bytes);
}

double predict_copy_gbps(const CopyParams& p, const CopyPlan& plan, const Calibration& c) {
  const auto base = c.coalesced_gbps.find(p.word_bytes);
  if (base == c.coalesced_gbps.end() || base->second <= 0 || c.memcpy_gbps <= 0) return 0;
  const double requested = static_cast<double>(plan.requested_bytes);
  const double issue = requested * issue_seconds_per_byte(base->second, c);
  const double dram = dram_seconds(copy_dram_traffic(p, plan), c);
  return requested / smooth_max(issue, dram, c.overlap_exponent) / 1e9;
}

}  // namespace warplens::gpu
