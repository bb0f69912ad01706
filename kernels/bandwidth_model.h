// Predicted bandwidth of the pattern copy, built from the DRAM bytes the pattern moves rather
// than from sectors alone (design.md, "Below L2 the picture changes").
//
// DRAM traffic rules, measured with Nsight Compute on an H100 (dram__bytes_read.sum,
// dram__bytes_write.sum; copy over 400-512 MiB buffers, 2026-11-22):
//  - A patterned read with B = stride x word bytes between neighbouring threads reads
//    min(B, 64) bytes of DRAM per thread: DRAM is read in 64-byte pieces, so reads sparser than
//    64 bytes still pay 64 (stride 16, 24, 32, 64 of 4-byte words: 419, 280, 210, 105 MB for
//    6.6, 4.4, 3.3, 1.6 M threads).
//  - Coalesced writes write threads x word bytes.
//  - A patterned store that fills only part of a 32-byte sector makes L2 read the sector from
//    DRAM first: min(B, 64) bytes read per thread when B > word bytes, and the whole sector
//    written back: min(B, 32) bytes per thread, at least the word.
//  - Permuted within 32 elements moves what the coalesced copy moves; all lanes of a warp on one
//    word read one sector per warp.
// Time: the larger of
//  - DRAM time: bytes / (dense DRAM rate x sparse efficiency), where the dense rate is the
//    measured cudaMemcpy device-to-device rate and the efficiency for gaps beyond 64 bytes is
//    (64 / B)^exponent (fewer useful bursts per DRAM page; on the H100 the exponent measured
//    0.27 and this form matched gaps of 128 to 1024 bytes within a few per cent), and
//  - issue time: what the same kernel and word size take when perfectly coalesced (stride 1),
//    i.e. how fast this kernel can issue requests at all.
// Both scalings come from measurements on the device the prediction is for (Calibration).
#pragma once

#include <map>

#include "gpu.h"

namespace warplens::gpu {

struct DramTraffic {
  double read_bytes = 0;
  double write_bytes = 0;
  double gap_bytes = 0;  ///< B: bytes between neighbouring threads' patterned accesses
};

/// DRAM bytes the pattern copy with `plan` moves, by the rules above. Scattered patterns depend
/// on L2 reuse that these rules do not model; they get the 64-bytes-per-thread bound.
DramTraffic copy_dram_traffic(const CopyParams& params, const CopyPlan& plan);

/// Measurements on the device that scale the prediction.
struct Calibration {
  double memcpy_gbps = 0;  ///< cudaMemcpy device-to-device, read + write, 10^9 B/s
  /// The pattern copy at stride 1, offset 0 for each word size (its issue ceiling), GB/s.
  std::map<int, double> coalesced_gbps;
  /// Exponent of the sparse DRAM efficiency (64 / gap)^exponent, measured with a sparse probe
  /// (4-byte words at stride 64: a 256-byte gap).
  double sparse_exponent = 0;
};

/// The sparse probe used to measure sparse_exponent.
CopyParams sparse_probe_params();
/// Derives sparse_exponent from the probe's measured GB/s (memcpy_gbps must be filled).
double sparse_exponent_from_probe(const Calibration& c, const CopyPlan& probe_plan,
                                  const CopyParams& probe, double probe_gbps);

/// Predicted GB/s (bytes asked to read + write per second, 10^9 B/s) for the copy; 0 when the
/// calibration lacks this word size.
double predict_copy_gbps(const CopyParams& params, const CopyPlan& plan, const Calibration& c);

}  // namespace warplens::gpu
