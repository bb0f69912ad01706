// The bytes-in-flight lab (issue 16): how many bytes a GPU must keep in flight to reach its
// memory bandwidth. Four parts:
//  - the latency ladder: a pointer chase (dependent loads, one lane or one warp) over working
//    sets from 4 KiB to 4 x L2, so the L1, L2 and DRAM latencies show as plateaus;
//  - Little's law: a streaming copy whose bytes in flight per SM are set by the knobs that
//    really set them (word size, independent loads per thread, resident warps), against the
//    model min(peak, 2 x SMs x bytes in flight per SM / DRAM latency);
//  - asynchronous copies: the same copy staged through shared memory by cp.async (CC >= 8.0)
//    and by the Tensor Memory Accelerator's bulk copy (cp.async.bulk, CC 9.0);
//  - the loaded-latency probe: the ladder's warp chase and a batch chase timed beside a copy at
//    a set load, from which the line takes its latency near the wall
//    (littles_law_loaded_gbps; nothing fitted to the copies above the knee).
// No CUDA types here, so it compiles without the toolkit; there every FlightLab entry point
// throws GpuError ("built without the CUDA toolkit"). The host side (flight_plan.cpp) is in
// every build.
//
// Units: sizes in bytes unless named *_kib; times in ms unless named *_ns or cycles; GB/s =
// 10^9 bytes per second counting what the copy asks to read PLUS what it asks to write (as
// every lab does). The model counts the same way: the reads in flight set the read rate, and a
// copy writes what it reads, so its read + write rate is twice the read rate.
// Errors: refused parameters throw std::invalid_argument (one line) before anything launches;
// CUDA failures throw GpuError and leave the lab usable; a set cancel flag throws Cancelled.
//
// Sources of the rules:
//  - Little's law (bytes in flight = bandwidth x latency) and "process several elements per
//    thread" / "number of concurrent accesses in flight": the seeds' global-memory slides and
//    V. Volkov, "Better performance at lower occupancy" (GTC 2010), which trades occupancy
//    for independent loads per thread.
//  - A warp instruction's loads are independent until a register they fill is used, so a
//    thread with k loads before its first store keeps k requests in flight (CUDA C++ Best
//    Practices Guide, "Memory Optimizations"; measured in this lab's view 2).
//  - Resident warps per SM: the occupancy API (cudaOccupancyMaxActiveBlocksPerMultiprocessor),
//    limited by threads, blocks, registers and shared memory per SM (Programming Guide,
//    "Compute Capabilities" table); 1 KiB of shared memory is reserved per block on CC 8.0+.
//  - cp.async needs CC 8.0 and cp.async.bulk (TMA) CC 9.0 (PTX ISA, "cp.async",
//    "cp.async.bulk"; Programming Guide, "Asynchronous Data Copies").
//  - The L1 a kernel without shared memory gets: the unified L1 + shared store less the
//    smallest shared capacity (carveout_table, cache_lab.h); the L2 from cudaDeviceProp.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpu.h"

namespace warplens::gpu {

// --- the latency ladder ----------------------------------------------------------------------

/// One hop per 128-byte line: the chase never reads two words of one line in a row.
inline constexpr int kChaseLineBytes = 128;
inline constexpr std::int64_t kChaseMinBytes = 4 * 1024;
/// Lanes of the two chase variants: one lane alone, or a whole warp whose 32 lanes follow 32
/// different places of the same cycle (one warp load touches 32 lines).
inline constexpr int kChaseWarpLanes = 32;

struct ChaseParams {
  std::int64_t working_set_bytes = 64 * 1024;  ///< a multiple of 128, >= 4 KiB
  LoadPath path = LoadPath::Default;           ///< Default or L2Only (__ldcg)
  int lanes = 1;                               ///< 1 or kChaseWarpLanes
  friend bool operator==(const ChaseParams& a, const ChaseParams& b) {
    return a.working_set_bytes == b.working_set_bytes && a.path == b.path && a.lanes == b.lanes;
  }
};
/// Throws std::invalid_argument for a working set under 4 KiB, not a multiple of 128 bytes or
/// over `max_bytes`, a path other than default/ldcg, or lanes other than 1 or 32.
void check_chase(const ChaseParams& params, std::int64_t max_bytes);

/// The ladder's working sets: 4 KiB x 2^(k/2), rounded to 128 bytes, up to 4 x `l2_bytes`
/// (at least 4 MiB), the last one 4 x L2 exactly.
std::vector<std::int64_t> ladder_working_sets(std::int64_t l2_bytes);

/// A random cyclic permutation of `nodes` lines (Sattolo's algorithm, seeded): next[i] is the
/// line after line i, and following next from any line visits every line once before it
/// returns. Random order, so no prefetcher can guess the next line.
std::vector<std::uint32_t> chase_cycle(std::uint32_t nodes, std::uint32_t seed);

struct LatencyPoint {
  ChaseParams params;
  int loads = 0;               ///< timed dependent loads per lane
  double cycles_per_load = 0;  ///< clock64() around the timed loop / loads (SM cycles)
  double ns_per_load = 0;      ///< (event time of 2N loads - event time of N loads) / N
  bool verified = false;       ///< the chase ended on the line the host cycle predicts
  std::string check;
};

/// The levels a ladder shows, from the device's own sizes.
struct LadderLevels {
  std::int64_t l1_bytes = 0;  ///< what a kernel without shared memory gets (see the header)
  std::int64_t l2_bytes = 0;  ///< cudaDeviceProp::l2CacheSize
};
/// The plateaus of one ladder row (points in ascending working set): the median latency of the
/// points inside each level, in ns and cycles. L1: working sets <= L1 / 2; L2: 2 x L1 .. L2 / 2;
/// DRAM: 2 x L2 .. 4 x L2 before a TLB step. A level no point falls in stays empty. The TLB
/// step is a heuristic: the first working set past 2 x L2 whose latency is over 12 % above the
/// first DRAM point's (a page walk added to the DRAM latency), if any.
struct Plateaus {
  std::optional<double> l1_ns, l2_ns, dram_ns;
  std::optional<double> l1_cycles, l2_cycles, dram_cycles;
  std::optional<std::int64_t> tlb_step_bytes;
};
Plateaus find_plateaus(const std::vector<LatencyPoint>& row, const LadderLevels& levels);

// --- Little's law ----------------------------------------------------------------------------

/// The streaming copy: out[i] = in[i] over buffers of words of `word_bytes`, each thread loading
/// `loads_per_thread` words (unrolled, all before its first store) of one chunk of block_threads
/// x loads words; a grid of one block per chunk, or (grid_stride) as many blocks as are resident
/// at once, each looping over chunks. Dynamic shared memory (unused by the copy) sets how many
/// blocks fit an SM.
struct StreamParams {
  int word_bytes = 4;                     ///< 4, 8 or 16
  int loads_per_thread = 1;               ///< 1, 2, 4 or 8
  int block_threads = 256;                ///< 32, 64, 128, 256, 512 or 1024
  std::int64_t dynamic_shared_bytes = 0;  ///< per block, 0 .. the opt-in limit
  bool grid_stride = false;
  friend bool operator==(const StreamParams& a, const StreamParams& b) {
    return a.word_bytes == b.word_bytes && a.loads_per_thread == b.loads_per_thread &&
           a.block_threads == b.block_threads && a.dynamic_shared_bytes == b.dynamic_shared_bytes &&
           a.grid_stride == b.grid_stride;
  }
};
/// Throws std::invalid_argument for a value outside the sets above, or dynamic shared memory
/// over `optin_limit_bytes` ("dynamic shared memory 230 KiB is over this GPU's limit of 227 KiB
/// per block").
void check_stream(const StreamParams& params, std::int64_t optin_limit_bytes);

/// What bounds residency on one SM.
struct SmLimits {
  int sm_count = 132;
  int max_threads_per_sm = 2048, max_blocks_per_sm = 32;
  int regs_per_sm = 65536;
  std::int64_t shared_bytes_per_sm = 228 * 1024;     ///< the largest carveout capacity
  std::int64_t reserved_shared_per_block = 1024;     ///< CC 8.0+
  std::int64_t shared_optin_per_block = 227 * 1024;  ///< cudaDevAttrMaxSharedMemoryPerBlockOptin
};
/// An H100 SXM's limits (CC 9.0: 132 SMs, 2048 threads, 32 blocks, 64 K registers and 228 KiB
/// of shared memory per SM): the model's device without a GPU.
SmLimits model_sm_limits();

/// Registers per thread the model assumes for the copy without a GPU: 16 for addresses and
/// the loop plus loads x word / 4 for the words in flight. An estimate; the GPU's occupancy
/// API answers with the compiled kernel's count.
int estimated_stream_registers(const StreamParams& params);

/// Resident blocks and warps per SM for the copy, and what limits them.
struct Residency {
  int blocks_per_sm = 0;
  int warps_per_sm = 0;
  int regs_per_thread = 0;
  std::string limiter;  ///< "threads" | "blocks per SM" | "registers" | "shared memory"
};
/// The smallest of the four limits (registers rounded as the hardware allocates them: per warp,
/// in units of 256).
Residency predict_residency(const StreamParams& params, const SmLimits& limits,
                            int regs_per_thread);

/// Bytes a copy keeps in flight per SM: resident warps x 32 lanes x loads per thread x word
/// bytes (the reads issued before the first store; stores leave and need no answer).
std::int64_t bytes_in_flight_per_sm(int warps_per_sm, int loads_per_thread, int word_bytes);

/// The Little's-law prediction of the copy's read + write GB/s, with the latency the load
/// itself adds: X = N / (1 + X / peak), N = 2 x SMs x bytes in flight per SM / latency_ns,
/// i.e. X = peak / 2 x (sqrt(1 + 4 N / peak) - 1), capped at `peak_gbps` (reached at N = 2 x
/// peak). The loaded latency L0 x (1 + X / peak) grows with the bandwidth in use, to twice the
/// idle latency L0 at the reference copy's rate: measured, not from a datasheet (H100 and H200,
/// 2026-11-26, docs/flight.md: the one-float copies' latency from GB/s sits within 4 % of it
/// below the knee). bytes/ns = GB/s (10^9 B/s); the 2 counts the write of every byte read.
/// `latency_ns` is the idle DRAM latency (the ladder's warp chase), `peak_gbps` the reference
/// copy (cudaMemcpy) the device reaches. 0 for latency <= 0 or peak <= 0.
double littles_law_gbps(double bytes_in_flight_per_sm, int sms, double latency_ns,
                        double peak_gbps);
/// The linear model with the warp's batch (issue 31): Little's law with the round time
///   T(X) = L0 x (1 + X / peak) + tau x b,
/// i.e. X solves X x T(X) = 2 x SMs x bytes in flight per SM, capped at `peak_gbps`. A warp
/// issues its loads (b = 32 lanes x loads x word bytes) before its first store and waits for the
/// last of them: every byte it asks for at once adds tau ns to the time it holds its bytes in
/// flight, so at the same bytes in flight per SM fewer, fatter warps get less (H100, 16 KiB per
/// SM: 64 warps x 2 x 4 B 2739 GB/s, 8 warps x 4 x 16 B 2522 GB/s). The batch's cost is paid on
/// the SM's side (its bytes pass the SM's path one after another, docs/flight.md), so it does
/// not grow with the DRAM's load: only L0 does. (Until 2026-11-27 the line was (L0 + tau x b) x
/// (1 + X / peak); on the H100's runs this form is 0.2-0.3 points closer below the knee and at
/// 8 KiB per SM, tests/flight_model_data_test.cpp.) tau is measured: batch_ns_per_byte() on the
/// copies that hold one block per SM below the knee. tau = 0 is the model above.
double littles_law_gbps(double bytes_in_flight_per_sm, int sms, double latency_ns, double peak_gbps,
                        double warp_batch_bytes, double batch_ns_per_byte);
/// The latency of one warp's batch of `warp_batch_bytes` at idle: latency_ns + tau x bytes.
double batch_latency_ns(double latency_ns, double warp_batch_bytes, double batch_ns_per_byte);
/// The knee: the bytes in flight per SM that would reach `peak_gbps` at the idle latency,
/// peak x latency / (2 x SMs) (Little's law's "bandwidth x latency"). The model reaches
/// (sqrt(5) - 1) / 2 = 62 % of the peak there and the peak at twice it.
double knee_bytes_per_sm(int sms, double latency_ns, double peak_gbps);

/// The SM picture: warps as rows, each with its outstanding loads as boxes.
struct SmPicture {
  int warps = 0;           ///< resident warps per SM
  int loads_per_warp = 0;  ///< boxes per row: the loads each lane has in flight
  int bytes_per_load = 0;  ///< one warp load: 32 lanes x word bytes
  std::int64_t bytes_in_flight = 0;
  int blocks = 0, warps_per_block = 0;
};
SmPicture sm_picture(const StreamParams& params, const Residency& residency);

/// Dynamic shared memory per block that leaves `blocks` blocks of the copy on one SM by shared
/// memory alone (largest capacity / blocks - the reserved KiB, rounded down to 1 KiB, capped at
/// the opt-in limit); 0 when `blocks` >= what the threads already allow.
std::int64_t shared_for_blocks(const SmLimits& limits, int block_threads, int blocks);

struct StreamMeasurement {
  StreamParams params;
  Residency residency;  ///< the occupancy API's answer (compiled registers)
  std::int64_t bytes_in_flight_per_sm = 0;
  std::int64_t elements = 0;  ///< words copied
  long long blocks = 0;       ///< the grid
  Timing timing;
  double gbps = 0;  ///< 2 x elements x word bytes / median time
  bool verified = false;
  std::string check;
};

/// tau, ns per byte of a warp's batch, from the copies of one block per SM (8 warps of 256
/// threads, shared memory limiting) below the knee: each one's effective latency 2 x SMs x bytes
/// in flight / GB/s, less the loaded latency `latency_ns` x (1 + GB/s / peak) the model gives it,
/// against the bytes per warp, a least-squares line through 0. One block per SM, so blocks
/// never overlap their launch and drain; below the knee, so the peak does not bound them. nullopt
/// with fewer than two such copies of different warp bytes (the sweep has four: 128 .. 512 B).
std::optional<double> batch_ns_per_byte(const std::vector<StreamMeasurement>& copies, int sms,
                                        double latency_ns, double peak_gbps);

// --- the loaded-latency probe ------------------------------------------------------------------
//
// The model above assumes how the DRAM latency grows with the bandwidth in use: linearly, to
// twice the idle latency at cudaMemcpy's rate. The one-float copies confirm it up to about 80 %
// of the peak, and no copy of the sweep says what happens above (where the copies between two
// and three knees bend toward the peak while that model is already capped). The probe measures
// it instead: the ladder's warp chase (32 lanes on 32 lines of the 4 x L2 cycle, default loads:
// the row whose DRAM plateau is L0), timed while a copy in the same launch keeps the memory
// system busy at a set load, from idle to over 95 % of cudaMemcpy. Each point is a latency (ns
// per dependent load, from %globaltimer) and the bandwidth the copy moved during exactly those
// hops (read + write GB/s, from a progress counter the chase reads at both ends). The line reads
// the batch chase's curve near the wall (littles_law_loaded_gbps below). Sources: the
// loaded-latency curve is how memory systems are characterised (Intel Memory Latency Checker's
// "loaded latency"; the latency-bandwidth curves of DRAM systems, e.g. Jacob, Ng and Wang,
// "Memory Systems: Cache, DRAM, Disk", 2008); %globaltimer is the PTX ISA's global nanosecond
// timer ("Special Registers: %globaltimer").

/// The probe's copy: 256 threads, 16-byte words, one load per thread (4 KiB per block in
/// flight), grid-stride over the copy buffers pass after pass until the chase is done.
inline constexpr int kProbeCopyThreads = 256;
inline constexpr int kProbeCopyWordBytes = 16;
/// The probe's heavier copy: 4 loads of 16 B per thread, all before the first store (16 KiB per
/// block in flight). With one load per thread the probe's copy tops out near 0.79 of cudaMemcpy
/// on the H100 (2293 of 2879 GB/s, tests/data/h100-flight-run3.json), below the 0.87-0.95 where
/// the Little's-law copies between two and three knees run; 4 loads should take it close to the
/// wall (the async section's 16 B x 4 grid-stride copy, 8 blocks per SM: 0.97 of cudaMemcpy on
/// the same run).
inline constexpr int kProbeCopyLoadsMany = 4;
/// Timed hops of the chase (after as many untimed ones: the copy has reached its rate by then).
inline constexpr int kProbeHops = 1024;

/// The loads the probe measures: copy blocks per SM 0 (idle), 1, 2, 4 and the most that leave
/// room for the chase's block on one SM (threads per SM / 256 - 1; 7 on CC 9.0).
std::vector<int> probe_copy_blocks(const SmLimits& limits);
/// The probe's chases: 0, the ladder's warp chase (32 lanes on 32 far-apart lines; its idle
/// latency is L0); 512 and 2048, the batch chase: one warp that asks, per hop, for 512 or 2048
/// contiguous bytes (1 or 4 loads of 16 B per lane, as a copy warp's batch lies) and waits for
/// the last of them. The two batches give the cost of a warp's batch per byte,
/// tau = (L(2048) - L(512)) / 1536, at each load: measured, not taken from the copies.
inline constexpr int kProbeBatchSmall = 512, kProbeBatchLarge = 2048;

struct LoadedLatencyPoint {
  int copy_blocks_per_sm = 0;     ///< the load asked for (0: idle)
  int copy_loads_per_thread = 1;  ///< the copy's: 1 or kProbeCopyLoadsMany
  int batch_bytes = 0;            ///< 0: the warp chase; 512 or 2048: the batch chase
  long long copy_blocks = 0;      ///< the copy's blocks in the launch (besides the chase's one)
  int hops = 0;                   ///< timed dependent loads per lane
  double ns_per_load = 0;         ///< %globaltimer across the timed hops / hops
  double cycles_per_load = 0;     ///< clock64() across the same hops / hops
  double copy_gbps = 0;   ///< read + write GB/s the copy moved during the timed hops (0 idle)
  bool verified = false;  ///< every lane ended where the host's cycle says, and (loaded) the
                          ///< copy ran during every timed hop
  std::string check;
};

/// A quantity measured at several loads, as a function of the bandwidth X in use (read + write
/// GB/s): piecewise linear through the points in order of X (never falling: each curve below says
/// how its points are made so); below the first point and past the last, the nearest segment's
/// line continues.
struct LoadedCurve {
  std::vector<double> gbps, value;  ///< ascending gbps
  [[nodiscard]] double at(double x) const;
};
/// The probe's curves, on the probe copy's own GB/s axis (read + write during the hops):
///  - `latency`: the small batch chase's ns per hop (kProbeBatchSmall: one warp, 512 contiguous
///    bytes per hop, laid out as a copy warp's batch), the idle point at X = 0 and every verified
///    loaded point of either probe copy, as their lower envelope: the value at a rate is the least
///    latency of any point at that rate or above, so the curve never falls. A point above the
///    envelope is a copy at its own wall (H100, run 5: the one-load copy with 7 blocks per SM
///    moves 2260 GB/s, no more than with 4, and its chase waits 1063 ns against 852): in a closed
///    loop past saturation more customers add waiting, not rate (E. D. Lazowska et al.,
///    "Quantitative System Performance", 1984, ch. 5, asymptotic bounds), so that latency is set
///    by what that copy keeps in flight, not by the rate, and a copy that just reaches the rate
///    does not see it;
///  - `batch`: ns per byte of a warp's batch, (L(2048) - L(512)) / 1536, the two batch chases
///    paired by load (the same copy blocks per SM and copy loads per thread; their X: the mean of
///    the two copies' rates), never falling; reported, not used by the line.
/// `idle_warp_ns`: the probe's idle warp chase; `top_gbps`: the highest rate a verified point's
/// copy moved (the probe copy's top; run 5: 3234 GB/s, 112 % of cudaMemcpy, not explained).
/// nullopt without an idle and a loaded verified point of the small batch chase, or, when
/// `ladder_l0_ns` > 0, when the idle warp chase is missing or more than kProbeIdleTolerance off
/// the ladder's L0: the probe then did not chase lines in DRAM (tests/data/h100-flight-run3.json
/// chased lines still in L2 from the launch before: idle 190 ns against L0 534).
struct LoadedLatencyModel {
  LoadedCurve latency, batch;
  double idle_warp_ns = 0;
  double top_gbps = 0;
};
inline constexpr double kProbeIdleTolerance = 0.10;
std::optional<LoadedLatencyModel> loaded_latency_model(
    const std::vector<LoadedLatencyPoint>& points, double ladder_l0_ns = 0);

/// The line with the probe's wall (issue 31; derivation and its check on the H100's runs in
/// docs/flight.md, "The line near the wall"). The linear model's round time, its latency the
/// larger of the copies' linear growth and the probe's measured curve scaled to L0:
///   T(X) = max(L0 x (1 + X / peak), L0 x Lp(X) / Lp(0)) + tau x b,
/// X x T(X) = 2 x SMs x bytes in flight per SM, capped at `peak_gbps`; Lp = model.latency read at
/// X on the probe's own axis (rescaling it by cudaMemcpy / top, as the model before did, misses
/// by 10-12 % above the knee), b the warp's batch, tau as in the linear model. Why the larger
/// of the two: below about 0.75 of cudaMemcpy the copies' own latency grows as L0 x (1 + X /
/// peak) (the one-float copies, within 4 %) and the batch chase's relative rise is smaller (run
/// 5: x 1.37 at 1358 GB/s against x 1.47); above it the batch chase rises faster, toward the
/// wall, which the linear growth reaches only at its hard cap (X = peak at twice the knee).
/// Solved by bisection (T never falls, so X x T(X) grows with X). Inputs: the ladder's L0,
/// cudaMemcpy, the probe's batch chase and tau from the one-block copies below the knee; nothing
/// is fitted to the copies above the knee. The linear model's value without a latency curve (or
/// a curve with Lp(0) <= 0); 0 for latency <= 0 or peak <= 0. On the H100 (run 1's inputs, run
/// 5's probe; flight_model_wall_test.cpp): 1.7 % below the knee and 6.3 % above on run 2, 1.4 and
/// 5.9 % on run 5 (the linear model: 11.1 and 11.5 % above); the miss above is one copy, one block
/// per SM of 32 KiB (0.94 of cudaMemcpy measured, the line at the cap), every other within 4.2 %.
double littles_law_loaded_gbps(double bytes_in_flight_per_sm, int sms, double latency_ns,
                               double peak_gbps, double warp_batch_bytes, double batch_ns_per_byte,
                               const LoadedLatencyModel& model);

// --- asynchronous copies ---------------------------------------------------------------------

enum class AsyncKind {
  CpAsync,  ///< cp.async (__pipeline_memcpy_async) into a ring of shared stages, CC >= 8.0
  Tma,      ///< one thread per block: cp.async.bulk global -> shared -> global, CC 9.0
};
const char* to_string(AsyncKind kind);  ///< cp-async | tma
/// Stages in the shared ring, threads per block and bytes per stage of each kind.
inline constexpr int kCpAsyncStages = 8, kCpAsyncThreads = 128, kCpAsyncVectors = 4;  // x 16 B
inline constexpr int kTmaStages = 4, kTmaThreads = 32;
inline constexpr int kTmaStageBytes = 16 * 1024;
/// Bytes one block keeps in flight: cp.async, (stages - 1) x threads x vectors x 16 B (one stage
/// is being written out); TMA, stages x stage bytes.
std::int64_t async_block_bytes_in_flight(AsyncKind kind);
/// Shared memory one block of `kind` needs (its stages; TMA adds its barriers).
std::int64_t async_block_shared_bytes(AsyncKind kind);
/// Why `kind` cannot run on CC major.minor ("needs CC 9.0 (this GPU is 8.6)"), or nullopt.
std::optional<std::string> async_unsupported(AsyncKind kind, int cc_major, int cc_minor);

struct AsyncMeasurement {
  AsyncKind kind = AsyncKind::CpAsync;
  std::optional<std::string> unsupported;  ///< set: nothing launched, the bar says why
  int blocks_per_sm = 0, threads_per_block = 0;
  std::int64_t bytes_in_flight_per_sm = 0;
  long long blocks = 0;
  Timing timing;
  double gbps = 0;
  bool verified = false;
  std::string check;
};

// --- the per-block timeline ------------------------------------------------------------------
// What one block of a Little's-law copy does between its start and the start of the block that
// takes its place on the SM (issue 31: the one-block-per-SM copy near the wall runs 6 % under the
// line, docs/flight.md "A per-block timeline of the copy itself"). The copy's own kernel, one
// chunk per block, with lane 0 of every warp reading clock64() at entry, after its loads are
// issued, once every loaded value is in a register (a use of each) and after its stores are
// issued; thread 0 adds %smid and %globaltimer at entry and after its stores (PTX ISA, "Special
// Registers").

/// One block's stamps (SM clock cycles): `entry` its first warp's, `issued`, `arrived` and
/// `stored` its last warp's; thread 0's global-timer ns and clocks at entry and after its stores
/// set the SM's clock rate.
struct BlockStamps {
  unsigned smid = 0;
  unsigned long long entry = 0, issued = 0, arrived = 0, stored = 0;
  unsigned long long thread0_entry_ns = 0, thread0_stored_ns = 0;
  unsigned long long thread0_entry_clock = 0, thread0_stored_clock = 0;
};

/// A copy's rounds, medians over every block that has a successor on its SM (ns, at the SM
/// clock the stamps give): issue = issued - entry; wait = arrived - issued (the last byte of the
/// block's batch); store = stored - arrived; tail = the next block's entry - stored (the block's
/// last warps leaving, its place freed, the next block dispatched: the SM has none of this
/// block's loads in flight); round = the next block's entry - entry. The next block is the first
/// on the same SM to start after this one's last store.
struct BlockTimeline {
  StreamParams params;
  Residency residency;
  std::int64_t bytes_in_flight_per_sm = 0;
  long long blocks = 0;
  int sms = 0;              ///< SMs that ran a block
  long long rounds = 0;     ///< blocks with a successor (the medians' count)
  double gbps = 0;          ///< the stamped copy, read + write / median time (1e9 B/s)
  double plain_gbps = 0;    ///< the same copy without stamps (measure_stream)
  double sm_clock_ghz = 0;  ///< cycles per ns, the SMs' median against %globaltimer
  double issue_ns = 0, wait_ns = 0, store_ns = 0, tail_ns = 0, round_ns = 0;
  double tail_p10_ns = 0, tail_p90_ns = 0;
  bool verified = false;  ///< both copies matched word by word, and rounds and a clock were read
  std::string check;
};
/// The timeline's figures from `blocks`' stamps (params, residency, blocks, gbps and verified
/// left to the caller).
BlockTimeline block_timeline_from_stamps(const std::vector<BlockStamps>& blocks);

// --- one block per SM near the wall ----------------------------------------------------------
// With one block per SM, from the block's last loaded word to the next block's first load the SM
// has no load in flight: the block issues its stores (`store`) and its place passes to the next
// block (`tail`). With two or more blocks the others' loads cover that time. Below the knee the
// line already holds it (its L0, the last of 32 random lines, is about that much longer than a
// copy warp's contiguous batch waits: docs/flight.md); near the wall, where the SM's share of the
// bandwidth sets the round, it is time on top: the round is the bytes' time at the wall, R = 2 x
// SMs x bytes in flight per SM / peak, plus the gap g, so the copy moves peak x R / (R + g). On the
// H100 (docs/flight.md, "One block per SM near the wall"): g = store + tail = 214-260 ns, from the
// timeline of the copy itself; 16 KiB per SM, peak 2889: 2504 GB/s predicted, 2498-2522 measured
// in four runs; 32 KiB: 2683, measured 2670-2724.

/// The timeline's copies: 16-byte words, 256 threads, 1, 2, 4 and 8 loads per thread, at one
/// block per SM and up to `max_blocks_per_sm` (shared memory limiting): the Little's-law copies of
/// 4 to 64 KiB per SM whose one-block rounds the line missed near the wall (docs/flight.md).
std::vector<StreamParams> timeline_copies(const SmLimits& limits, int max_blocks_per_sm);

/// The gap, ns, of one block per SM against the bytes each thread loads (loads x word bytes),
/// from the verified one-block timelines: store + tail (medians). Between two measured thread
/// bytes the gap is read on the straight line between them; outside, the nearest one's.
struct BlockGaps {
  std::vector<double> thread_bytes, gap_ns;  ///< ascending thread bytes
  [[nodiscard]] bool empty() const { return gap_ns.empty(); }
  [[nodiscard]] double at(double thread_bytes) const;  ///< 0 when empty
};
/// The gaps of `timelines`' verified rows with one block per SM (of equal thread bytes, the
/// later row's).
BlockGaps block_gaps(const std::vector<BlockTimeline>& timelines);
/// peak x R / (R + gap_ns), R = 2 x SMs x bytes in flight per SM / peak (ns; GB/s = B/ns): the
/// most a copy of one block per SM moves. `peak_gbps` for gap <= 0; 0 for peak or bytes <= 0.
double one_block_wall_gbps(double bytes_in_flight_per_sm, int sms, double peak_gbps, double gap_ns);

/// The window's and measure's line for one copy, all its inputs in one place (issue 31):
/// littles_law_loaded_gbps with the probe's curve when there is one (else littles_law_gbps), and
/// for a copy of one block per SM no more than one_block_wall_gbps with its thread bytes' gap
/// when the timeline measured one.
struct LittlesLawLine {
  int sms = 0;
  double latency_ns = 0;         ///< L0, the ladder's warp chase in DRAM
  double peak_gbps = 0;          ///< cudaMemcpy
  double batch_ns_per_byte = 0;  ///< tau
  std::optional<LoadedLatencyModel> loaded;
  BlockGaps gaps;
  /// `blocks_per_sm` 1 with `thread_bytes` (loads x word bytes) > 0 takes the gap's cap.
  [[nodiscard]] double gbps(double bytes_in_flight_per_sm, double warp_batch_bytes,
                            int blocks_per_sm = 0, double thread_bytes = 0) const;
  /// The linear model alone (littles_law_gbps), reported beside the line.
  [[nodiscard]] double linear_gbps(double bytes_in_flight_per_sm, double warp_batch_bytes) const;
};

// --- the lab -----------------------------------------------------------------------------------

struct FlightDeviceLimits {
  SmLimits sm;
  LadderLevels levels;
  int cc_major = 0, cc_minor = 0;
  double theoretical_gbps = 0;  ///< DeviceInfo::theoretical_gbps
  double sm_clock_ghz = 0;      ///< cudaDevAttrClockRate (the boost clock the device reports)
};

/// Owns the chase buffer (4 x L2, allocated on first use) and the copy buffers (4 x L2 each, at
/// least 256 MiB, so a copy streams from DRAM). One thread at a time.
class FlightLab {
 public:
  /// Queries the limits and allocates the copy buffers; throws GpuError. `copy_bytes` sets the
  /// size of each copy buffer, rounded up to a whole MiB (0: the default above; a smaller one,
  /// e.g. for kernels-once under compute-sanitizer, no longer streams from DRAM).
  explicit FlightLab(const DeviceInfo& device, std::int64_t copy_bytes = 0);
  ~FlightLab();
  FlightLab(const FlightLab&) = delete;
  FlightLab& operator=(const FlightLab&) = delete;

  [[nodiscard]] const FlightDeviceLimits& limits() const;
  /// Bytes of each copy buffer.
  [[nodiscard]] std::int64_t copy_bytes() const;

  /// One chase: one block of `lanes` threads, the cycle of the working set built on the host,
  /// a warm-up pass, then N and 2N timed hops (`runs` times each, medians). The chase kernel
  /// has the carveout set to max L1.
  LatencyPoint measure_latency(const ChaseParams& params, int runs = 3,
                               const std::atomic<bool>* cancel = nullptr);

  /// The occupancy API's answer for the copy with `params` (nothing launched).
  Residency residency(const StreamParams& params);
  /// Timed copies (median of `runs`), the first launch verified word by word on the host.
  StreamMeasurement measure_stream(const StreamParams& params, int runs = 7, int warmup = 2,
                                   const std::atomic<bool>* cancel = nullptr);
  /// The staged copy of `kind`; on a GPU without the feature, returns with `unsupported` set.
  AsyncMeasurement measure_async(AsyncKind kind, int runs = 7, int warmup = 2,
                                 const std::atomic<bool>* cancel = nullptr);
  /// cudaMemcpy device-to-device over the copy buffers (GB/s: read + write).
  MemcpyMeasurement measure_memcpy(int runs = 7, int warmup = 2);
  /// The loaded-latency probe at `copy_blocks_per_sm` (0 .. threads per SM / 256 - 1): one
  /// launch of SMs x copy_blocks_per_sm copy blocks and one chase block, all resident at once;
  /// the chase's timed hops start once the copy has moved a few passes' worth of chunks. Median
  /// of `runs` launches. `batch_bytes`: 0, kProbeBatchSmall or kProbeBatchLarge (the chase, see
  /// above); `copy_loads_per_thread`: 1 or kProbeCopyLoadsMany (the copy's loads before its
  /// store). Before each launch every line of the chase's set is read once, as the ladder does
  /// before its DRAM points, so the idle point is the ladder's L0 and not an L2 hit on the lines
  /// the previous launch chased. Throws std::invalid_argument for a load, batch or copy loads
  /// outside those.
  LoadedLatencyPoint measure_loaded_latency(int copy_blocks_per_sm, int batch_bytes, int runs = 3,
                                            const std::atomic<bool>* cancel = nullptr,
                                            int copy_loads_per_thread = 1);
  /// The copy with `params` (one chunk per block) timed as measure_stream does (`runs`, median;
  /// its GB/s is plain_gbps), then stamped (BlockTimeline above), the last stamped launch's
  /// output checked word by word. Throws std::invalid_argument for a grid-stride copy or
  /// parameters check_stream refuses.
  BlockTimeline measure_block_timeline(const StreamParams& params, int runs = 7,
                                       const std::atomic<bool>* cancel = nullptr);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace warplens::gpu
