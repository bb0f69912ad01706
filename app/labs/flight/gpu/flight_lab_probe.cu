// The bytes-in-flight lab's loaded-latency probe (flight_lab.h): the ladder's warp chase timed
// while a copy in the same launch keeps the memory system busy. Block 0's first warp chases;
// every other block copies 16-byte words (1 or 4 per thread) grid-stride, pass after pass, until
// the chase is done.
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "flight_lab_internal.cuh"

namespace warplens::gpu {

namespace {

using detail::check;
using detail::check_cancel;
using detail::median_of;
using detail::use_device;

constexpr int kWordsPerLine = kChaseLineBytes / 4;
constexpr int kReportEvery = 16;  // chunks a copy block copies between two counter updates
constexpr int kMaxPasses = 400;   // the copy stops by itself after this many passes
// How long the chase waits for the copy to start (ns): past it the point is not verified. Long,
// so that compute-sanitizer's slowed copy still starts in time; a normal ramp takes microseconds.
constexpr unsigned long long kRampTimeoutNs = 2'000'000'000ull;

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ unsigned probe_load(const unsigned* p) {
  unsigned v;
  asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

__device__ __forceinline__ unsigned long long read_counter(const unsigned long long* c) {
  return *static_cast<const volatile unsigned long long*>(c);
}

/// A 16-byte load whose result the caller must use (asm volatile: issued as written).
__device__ __forceinline__ uint4 probe_load16(const unsigned* p) {
  uint4 v;
  asm volatile("ld.global.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(p)
               : "memory");
  return v;
}

/// One hop of the batch chase: the warp reads kBatchBytes / 512 loads of 16 B per lane, the
/// warp's loads contiguous from the start of line `line` (as one copy warp's batch lies), and
/// waits for all of them; the next line is word 0 of the first (lane 0's), broadcast. Lines past
/// the end wrap to the start.
__device__ __forceinline__ unsigned batch_hop(const unsigned* lines, unsigned line, unsigned nodes,
                                              int loads) {
  unsigned first = 0, keep = 0;
  for (int k = 0; k < loads; ++k) {
    // Load k of the warp covers bytes [512 k, 512 (k + 1)) of the batch: 4 lines.
    const unsigned byte = 512u * static_cast<unsigned>(k) + 16u * (threadIdx.x & 31u);
    unsigned at = line + byte / kChaseLineBytes;
    if (at >= nodes) at -= nodes;  // the batch spans at most 16 lines: one wrap at most
    const uint4 v = probe_load16(lines + static_cast<std::size_t>(at) * kWordsPerLine +
                                 byte % kChaseLineBytes / 4);
    if (k == 0) first = v.x;
    keep ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  asm volatile("" ::"r"(keep));  // waits for every load of the batch before the next hop
  return __shfl_sync(0xffffffffu, first, 0) / kWordsPerLine;
}

/// out[0..3]: globaltimer ns of the timed hops, clock64 cycles, copy chunks counted across them,
/// 1 if the copy had started before them (or there is no copy). batch_loads 0: the ladder's
/// warp chase (lane l on its own line); k > 0: the batch chase, k x 512 B per hop.
/// At most 32 registers per thread (8 blocks of 256 on a 64 K-register SM: __maxnreg__, CUDA
/// 12.4+), so that the copy blocks and the chase's block are all resident at once at every load
/// of probe_copy_blocks.
template <int kCopyLoads>
__global__ void __maxnreg__(32)
    loaded_probe(const unsigned* lines, unsigned nodes, const unsigned* starts, int batch_loads,
                 int warm, int hops, unsigned* end, const uint4* in, uint4* out, long long chunks,
                 unsigned long long* counter, unsigned* done, long long ramp,
                 unsigned long long* result) {
  if (blockIdx.x == 0) {
    if (threadIdx.x >= kChaseWarpLanes) return;
    // The warp chase follows word indices; the batch chase line indices (all lanes one line).
    unsigned j = batch_loads > 0 ? starts[0] : starts[threadIdx.x] * kWordsPerLine;
    const auto hop = [&](unsigned at) {
      return batch_loads > 0 ? batch_hop(lines, at, nodes, batch_loads) : probe_load(lines + at);
    };
    for (int i = 0; i < warm; ++i) j = hop(j);
    // The copy has reached its rate: every copy block has reported twice (or it is late).
    bool started = true;
    if (gridDim.x > 1) {
      const unsigned long long t = global_ns();
      while (read_counter(counter) < static_cast<unsigned long long>(ramp)) {
        if (global_ns() - t > kRampTimeoutNs) {
          started = false;
          break;
        }
      }
    }
    __syncwarp();
    const unsigned long long c0 = read_counter(counter);
    const unsigned long long t0 = global_ns();
    const long long k0 = clock64();
    for (int i = 0; i < hops; ++i) j = hop(j);
    end[threadIdx.x] = j;  // needs the last load: the clocks below read after it returned
    const long long k1 = clock64();
    const unsigned long long t1 = global_ns();
    const unsigned long long c1 = read_counter(counter);
    __syncwarp();
    if (threadIdx.x == 0) {
      result[0] = t1 - t0;
      result[1] = static_cast<unsigned long long>(k1 - k0);
      result[2] = c1 - c0;
      result[3] = started ? 1 : 0;
      atomicExch(done, 1u);
    }
    return;
  }
  // The copy: chunk c is kCopyLoads x blockDim.x words of 16 B, each thread's loads all issued
  // before its first store (as the Little's-law copy's); blocks 1.. stride over the chunks.
  const long long copiers = gridDim.x - 1;
  long long c = blockIdx.x - 1;
  int since = 0;
  for (int pass = 0; pass < kMaxPasses; ++pass) {
    for (; c < chunks; c += copiers) {
      if (*static_cast<volatile unsigned*>(done) != 0u) {
        pass = kMaxPasses;
        break;
      }
      const long long at = c * kCopyLoads * blockDim.x + threadIdx.x;
      uint4 v[kCopyLoads];
#pragma unroll
      for (int k = 0; k < kCopyLoads; ++k) v[k] = in[at + k * blockDim.x];
#pragma unroll
      for (int k = 0; k < kCopyLoads; ++k) out[at + k * blockDim.x] = v[k];
      if (++since == kReportEvery) {
        if (threadIdx.x == 0) atomicAdd(counter, static_cast<unsigned long long>(since));
        since = 0;
      }
    }
    c -= chunks;
  }
}

}  // namespace

LoadedLatencyPoint FlightLab::measure_loaded_latency(int copy_blocks_per_sm, int batch_bytes,
                                                     int runs, const std::atomic<bool>* cancel,
                                                     int copy_loads_per_thread) {
  Impl& im = *impl_;
  if (copy_loads_per_thread != 1 && copy_loads_per_thread != kProbeCopyLoadsMany)
    throw std::invalid_argument("the probe's copy loads per thread must be 1 or " +
                                std::to_string(kProbeCopyLoadsMany) + " (got " +
                                std::to_string(copy_loads_per_thread) + ")");
  if (batch_bytes != 0 && batch_bytes != 512 && batch_bytes != 2048)
    throw std::invalid_argument(
        "the probe's batch must be 0 (the warp chase), 512 or 2048 bytes (got " +
        std::to_string(batch_bytes) + ")");
  const int most = im.limits.sm.max_threads_per_sm / kProbeCopyThreads - 1;
  if (copy_blocks_per_sm < 0 || copy_blocks_per_sm > most)
    throw std::invalid_argument("the probe's copy blocks per SM must be 0 .. " +
                                std::to_string(most) + " (got " +
                                std::to_string(copy_blocks_per_sm) + ")");
  use_device(im.device.index);
  // The ladder's largest working set (4 x L2): the warp row's DRAM plateau.
  const std::int64_t bytes = std::max<std::int64_t>(4 * im.device.l2_bytes, 4 << 20);
  im.build_chase(bytes);
  const auto nodes = static_cast<unsigned>(bytes / kChaseLineBytes);
  std::vector<unsigned> starts(kChaseWarpLanes);
  for (int l = 0; l < kChaseWarpLanes; ++l)
    starts[static_cast<std::size_t>(l)] =
        static_cast<unsigned>(std::uint64_t{nodes} * static_cast<unsigned>(l) / kChaseWarpLanes);
  check(cudaMemcpyAsync(im.chase_starts.ptr, starts.data(), starts.size() * 4,
                        cudaMemcpyHostToDevice, im.stream),
        "cudaMemcpy (probe starts)");
  im.probe_state.ensure(4 * sizeof(unsigned long long) + 2 * sizeof(unsigned long long),
                        "the probe's counters");
  auto* result = im.probe_state.as<unsigned long long>();
  auto* counter = result + 4;
  auto* done = reinterpret_cast<unsigned*>(result + 5);
  const long long chunk_bytes =
      std::int64_t{kProbeCopyThreads} * kProbeCopyWordBytes * copy_loads_per_thread;
  const long long chunks = im.copy_bytes / chunk_bytes;
  const long long copy_blocks = static_cast<long long>(im.sms()) * copy_blocks_per_sm;
  const int warm = kProbeHops / 4;
  LoadedLatencyPoint pt;
  pt.copy_blocks_per_sm = copy_blocks_per_sm;
  pt.batch_bytes = batch_bytes;
  pt.copy_loads_per_thread = copy_loads_per_thread;
  pt.copy_blocks = copy_blocks;
  pt.hops = kProbeHops;
  std::vector<double> ns, cycles, gbps;
  bool all_started = true;
  for (int r = 0; r < std::max(runs, 1); ++r) {
    check_cancel(cancel);
    check(cudaMemsetAsync(result, 0, 6 * sizeof(unsigned long long), im.stream),
          "cudaMemset (probe counters)");
    // The chase starts from the L2 the ladder's DRAM points see (every line of the 4 x L2 set
    // read once), not from the lines the previous launch chased: those would still be in L2.
    im.touch_chase(nodes);
    const auto kernel =
        copy_loads_per_thread == 1 ? loaded_probe<1> : loaded_probe<kProbeCopyLoadsMany>;
    kernel<<<static_cast<unsigned>(1 + copy_blocks), kProbeCopyThreads, 0, im.stream>>>(
        im.chase.as<unsigned>(), nodes, im.chase_starts.as<unsigned>(), batch_bytes / 512, warm,
        kProbeHops, im.chase_end.as<unsigned>(), im.in.as<uint4>(), im.out.as<uint4>(), chunks,
        counter, done, copy_blocks * 2 * kReportEvery, result);
    check(cudaGetLastError(), "probe launch");
    unsigned long long host[4] = {};
    check(cudaMemcpyAsync(host, result, sizeof host, cudaMemcpyDeviceToHost, im.stream),
          "cudaMemcpy (probe result)");
    check(cudaStreamSynchronize(im.stream), "loaded-latency probe");
    const double t = static_cast<double>(host[0]);
    ns.push_back(t / kProbeHops);
    cycles.push_back(static_cast<double>(host[1]) / kProbeHops);
    // Chunks of 256 x loads x 16 B, each read and written: bytes per ns = GB/s.
    gbps.push_back(t > 0 ? 2.0 * static_cast<double>(host[2]) * static_cast<double>(chunk_bytes) / t
                         : 0.0);
    all_started = all_started && host[3] == 1;
  }
  pt.ns_per_load = median_of(ns);
  pt.cycles_per_load = median_of(cycles);
  pt.copy_gbps = copy_blocks > 0 ? median_of(gbps) : 0.0;
  // Every lane of the last launch ends where the host's cycle says.
  // (The batch chase: every lane on lane 0's line, as a line index.)
  std::vector<unsigned> end(starts.size());
  check(cudaMemcpy(end.data(), im.chase_end.ptr, end.size() * 4, cudaMemcpyDeviceToHost),
        "cudaMemcpy (probe ends)");
  int wrong = 0;
  for (std::size_t l = 0; l < starts.size(); ++l) {
    unsigned line = starts[batch_bytes > 0 ? 0 : l];
    for (int i = 0; i < warm + kProbeHops; ++i) line = im.chase_next_host[line];
    if (end[l] != (batch_bytes > 0 ? line : line * kWordsPerLine)) ++wrong;
  }
  const bool copy_ran = copy_blocks == 0 || (all_started && pt.copy_gbps > 0);
  pt.verified = wrong == 0 && copy_ran;
  if (wrong != 0)
    pt.check = std::to_string(wrong) + " lanes ended elsewhere";
  else if (!copy_ran)
    pt.check = "the copy did not run during the timed hops (another context on the GPU?)";
  else
    pt.check = copy_blocks == 0 ? "every lane ended on the line the host's cycle predicts"
                                : "every lane ended on the predicted line; the copy ran "
                                  "throughout the timed hops";
  return pt;
}

}  // namespace warplens::gpu
