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
// The bytes that follow the pattern (the patterned reads, or on the write side the read-before-
// write and the written sectors) are "sparse"; the other side's bytes are coalesced.
//
// Time rules, each scaled by measurements on the device the prediction is for (Calibration):
//  - Dense DRAM time: every byte at the measured cudaMemcpy device-to-device rate M.
//  - Sparse DRAM time: the sparse bytes at M x eff(B), eff(B) = min(1, (K / B)^e). Sparse reads
//    use fewer of the bursts of each DRAM page they open. The stride sweeps of
//    docs/h100-bench.txt and docs/h200-bench.txt, with the coalesced writes charged at M, show
//    no loss up to B of about 80 bytes, then a power law that is the same at equal B for 4-, 8-
//    and 16-byte words (B = 256: 0.71-0.73 H100, 0.64-0.66 H200; B = 512: 0.60-0.62, 0.54). The
//    earlier single exponent of (64 / B)^e, measured at B = 256, under-predicted the H200's
//    16-byte strides 5-64 (B = 80-1024) by 8-14 %. K and e come from two sparse probes, 16-byte
//    words at strides 8 and 64 (B = 128 and 1024 bytes), each taken as DRAM-bound: from the tables'
//    rows K = 86 B, e = 0.29 (H100); K = 83 B, e = 0.35 (H200). K is kept >= 64, so full 64-byte
//    pieces are never charged as sparse.
//  - DRAM time = dense time + sparse time (the bytes share one DRAM).
//  - Issue time: the copy keeps one load per thread in flight, so (by Little's law, our reading
//    of it) its request rate is bound by resident threads / latency; the coalesced copy of each
//    word size (stride 1) measures it. 4-byte words run well below memcpy at stride 1 (H100 80 %,
//    H200 64 %); 16-byte words reach memcpy.
//  - Time = (issue^k + DRAM^k)^(1/k): neither limit is a wall, since latency grows as DRAM fills
//    (queueing), so a pattern near both limits runs slower than either alone. The stride-1
//    measurement already holds this overlap: the issue time is recovered from it as
//    (T1^k - D1^k)^(1/k), with D1 the coalesced copy's DRAM time. k comes from a probe at
//    stride 2 of 4-byte words, where the two times are nearly equal (12 B of DRAM per 8 asked):
//    from the tables' rows k = 3.8 (H100), 4.2 (H200). The plain max (k -> infinity)
//    over-predicted that point by 7 % (H100) and 13 % (H200). k is kept within [2, 8].
// Offsets are not modelled beyond the coalesced rate: misaligned 4-byte copies run about 3 %
// below it on both GPUs. The probes and the tables are read-side patterns: patterned stores use
// the same eff and k, not yet checked against a measured table.
#pragma once

#include <cstdint>
#include <map>

#include "gpu.h"

namespace warplens::gpu {

struct DramTraffic {
  double read_bytes = 0;
  double write_bytes = 0;
  double gap_bytes = 0;     ///< B: bytes between neighbouring threads' patterned accesses
  double sparse_bytes = 0;  ///< the part of read + write that follows the pattern (at gap B)
};

/// DRAM bytes the pattern copy with `plan` moves, by the rules above. Scattered patterns depend
/// on L2 reuse that these rules do not model; they get the 64-bytes-per-thread bound.
DramTraffic copy_dram_traffic(const CopyParams& params, const CopyPlan& plan);

/// Measurements on the device that scale the prediction, and the terms fitted to them.
struct Calibration {
  // Measured (calibrate() in app/labs/global/sweeps.cpp), GB/s = 10^9 B/s of read + write:
  double memcpy_gbps = 0;  ///< cudaMemcpy device-to-device
  /// The pattern copy at stride 1, offset 0 for each word size (its issue ceiling).
  std::map<int, double> coalesced_gbps;
  double sparse_near_gbps = 0;  ///< sparse_near_probe()
  double sparse_far_gbps = 0;   ///< sparse_far_probe()
  double overlap_gbps = 0;      ///< overlap_probe(); needs coalesced_gbps[4]
  // Fitted by fit_calibration():
  double sparse_knee_bytes = 64;  ///< K of eff(B) = min(1, (K / B)^e)
  double sparse_exponent = 0;     ///< e
  double overlap_exponent = 0;    ///< k of (issue^k + DRAM^k)^(1/k); 0: the plain max
};

/// The probes calibrate() times besides memcpy and the coalesced copies; each is a point of the
/// bench's stride sweeps (docs/h100-bench.txt), so the tables hold their values too.
CopyParams sparse_near_probe();  ///< 16-byte words at stride 8: B = 128 bytes
CopyParams sparse_far_probe();   ///< 16-byte words at stride 64: B = 1024 bytes
CopyParams overlap_probe();      ///< 4-byte words at stride 2

/// Fits sparse_knee_bytes, sparse_exponent and overlap_exponent from the measured fields, for
/// probes timed over buffers of `buffer_bytes`. A missing probe (0) leaves its terms at the
/// defaults above.
void fit_calibration(Calibration& c, std::int64_t buffer_bytes);

/// eff(B) of the rules above.
double sparse_efficiency(double gap_bytes, const Calibration& c);

/// Predicted GB/s (bytes asked to read + write per second, 10^9 B/s) for the copy; 0 when the
/// calibration lacks this word size.
double predict_copy_gbps(const CopyParams& params, const CopyPlan& plan, const Calibration& c);

}  // namespace warplens::gpu
