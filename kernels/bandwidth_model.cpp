#include "bandwidth_model.h"

#include <algorithm>
#include <cmath>

namespace warplens::gpu {

namespace {
constexpr double kDramPiece = 64;  // bytes DRAM reads at least, per touched piece (H100, ncu)
constexpr double kSector = 32;

double efficiency(double gap_bytes, double exponent) {
  if (gap_bytes <= kDramPiece) return 1.0;
  return std::pow(kDramPiece / gap_bytes, exponent);
}

double dram_seconds(const DramTraffic& t, const Calibration& c) {
  return (t.read_bytes + t.write_bytes) /
         (c.memcpy_gbps * 1e9 * efficiency(t.gap_bytes, c.sparse_exponent));
}
}  // namespace

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
  } else {
    const bool partial = gap > w || p.kind == IndexKind::SameWord;
    t.read_bytes = n * w + (partial ? patterned_read : 0);
    t.write_bytes =
        p.kind == IndexKind::SameWord ? n / 32 * kSector : n * std::max(w, std::min(gap, kSector));
  }
  return t;
}

CopyParams sparse_probe_params() {
  CopyParams p;
  p.word_bytes = 4;
  p.stride = 64;
  return p;
}

double sparse_exponent_from_probe(const Calibration& c, const CopyPlan& plan,
                                  const CopyParams& probe, double probe_gbps) {
  const DramTraffic t = copy_dram_traffic(probe, plan);
  const double seconds = static_cast<double>(plan.requested_bytes) / (probe_gbps * 1e9);
  const double achieved = (t.read_bytes + t.write_bytes) / seconds / 1e9;  // DRAM GB/s
  const double eff = std::clamp(achieved / c.memcpy_gbps, 0.01, 1.0);
  return t.gap_bytes > kDramPiece ? std::log(eff) / std::log(kDramPiece / t.gap_bytes) : 0.0;
}

double predict_copy_gbps(const CopyParams& p, const CopyPlan& plan, const Calibration& c) {
  const auto base = c.coalesced_gbps.find(p.word_bytes);
  if (base == c.coalesced_gbps.end() || c.memcpy_gbps <= 0) return 0;
  const double requested = static_cast<double>(plan.requested_bytes);
  const double issue_seconds = requested / (base->second * 1e9);
  const double seconds = std::max(issue_seconds, dram_seconds(copy_dram_traffic(p, plan), c));
  return requested / seconds / 1e9;
}

}  // namespace warplens::gpu
