// The bytes-in-flight lab's per-block timeline (flight_lab.h, measure_block_timeline): the
// Little's-law copy itself, one chunk per block, with lane 0 of every warp reading its SM's
// clock64() at four places (entry, loads issued, loaded values in registers, stores issued) and
// thread 0 adding %smid and %globaltimer. Per SM, consecutive blocks give the round's terms
// (docs/flight.md, "A per-block timeline of the copy itself").
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
using detail::use_device;

constexpr int kStampsPerWarp = 4;   // entry, loads issued, values in registers, stores issued
constexpr int kStampsPerBlock = 4;  // thread 0: globaltimer at entry and after its stores,
                                    // clock64 at the same two places
constexpr int kMaxTimelineThreads = 1024;

__device__ __forceinline__ unsigned long long sm_clock() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}
__device__ __forceinline__ unsigned long long timeline_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
  return t;
}
__device__ __forceinline__ unsigned sm_id() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

template <int kBytes>
struct TimelineWord;
template <>
struct TimelineWord<4> {
  using type = unsigned;
  __device__ static unsigned bits(unsigned w) { return w; }
};
template <>
struct TimelineWord<8> {
  using type = uint2;
  __device__ static unsigned bits(uint2 w) { return w.x ^ w.y; }
};
template <>
struct TimelineWord<16> {
  using type = uint4;
  __device__ static unsigned bits(uint4 w) { return w.x ^ w.y ^ w.z ^ w.w; }
};

/// stream_copy (flight_lab.cu) with one chunk per block, stamped. warp_stamps: per block, per
/// warp, kStampsPerWarp clocks; block_stamps: per block, kStampsPerBlock; smids: per block, and
/// one slot past them that the arrival's branch writes when the loaded words' xor is `never`.
template <int kBytes, int kLoads>
__global__ void stream_copy_timeline(const void* in_v, void* out_v, unsigned long long* warp_stamps,
                                     unsigned long long* block_stamps, unsigned* smids,
                                     unsigned never) {
  using Word = TimelineWord<kBytes>;
  using W = typename Word::type;
  const unsigned long long entry = sm_clock();
  const unsigned long long entry_ns = threadIdx.x == 0 ? timeline_ns() : 0ull;
  const W* in = static_cast<const W*>(in_v);
  W* out = static_cast<W*>(out_v);
  const long long per_chunk = static_cast<long long>(blockDim.x) * kLoads;
  const long long base = blockIdx.x * per_chunk + threadIdx.x;
  W v[kLoads];
#pragma unroll
  for (int k = 0; k < kLoads; ++k) v[k] = in[base + static_cast<long long>(k) * blockDim.x];
  const unsigned long long issued = sm_clock();
  unsigned keep = 0;
#pragma unroll
  for (int k = 0; k < kLoads; ++k) keep ^= Word::bits(v[k]);
  // Every loaded value is in its register past this branch: it depends on all of them, and the
  // clock is read after it. (An empty asm taking `keep` left the wait to the first store: the
  // H200's stamps read 1 ns from issue to arrival.)
  if (keep == never) smids[gridDim.x] = keep;  // the slot past the blocks' ids: never read
  const unsigned long long arrived = sm_clock();
#pragma unroll
  for (int k = 0; k < kLoads; ++k) out[base + static_cast<long long>(k) * blockDim.x] = v[k];
  const unsigned long long stored = sm_clock();
  const unsigned warps = blockDim.x / 32u;
  if ((threadIdx.x & 31u) == 0) {
    unsigned long long* w =
        warp_stamps +
        (static_cast<std::size_t>(blockIdx.x) * warps + threadIdx.x / 32u) * kStampsPerWarp;
    w[0] = entry;
    w[1] = issued;
    w[2] = arrived;
    w[3] = stored;
  }
  if (threadIdx.x == 0) {
    unsigned long long* b = block_stamps + static_cast<std::size_t>(blockIdx.x) * kStampsPerBlock;
    b[0] = entry_ns;
    b[1] = timeline_ns();
    b[2] = entry;
    b[3] = stored;
    smids[blockIdx.x] = sm_id();
  }
}

using TimelineKernel = void (*)(const void*, void*, unsigned long long*, unsigned long long*,
                                unsigned*, unsigned);

template <int kBytes>
TimelineKernel timeline_kernel_loads(int loads) {
  switch (loads) {
    case 1: return stream_copy_timeline<kBytes, 1>;
    case 2: return stream_copy_timeline<kBytes, 2>;
    case 4: return stream_copy_timeline<kBytes, 4>;
    default: return stream_copy_timeline<kBytes, 8>;
  }
}
TimelineKernel timeline_kernel(const StreamParams& p) {
  switch (p.word_bytes) {
    case 4: return timeline_kernel_loads<4>(p.loads_per_thread);
    case 8: return timeline_kernel_loads<8>(p.loads_per_thread);
    default: return timeline_kernel_loads<16>(p.loads_per_thread);
  }
}

}  // namespace

BlockTimeline FlightLab::measure_block_timeline(const StreamParams& params, int runs,
                                                const std::atomic<bool>* cancel) {
  Impl& im = *impl_;
  if (params.grid_stride)
    throw std::invalid_argument("the timeline stamps one chunk per block: no grid-stride copy");
  if (params.block_threads > kMaxTimelineThreads)
    throw std::invalid_argument("the timeline's blocks have at most 1024 threads");
  const StreamMeasurement plain = measure_stream(params, runs, 2, cancel);  // checks, prepares
  const TimelineKernel k = timeline_kernel(params);
  im.prepare_kernel(reinterpret_cast<const void*>(k));
  const long long chunks = plain.blocks;
  const int warps = params.block_threads / 32;
  const auto n = static_cast<std::size_t>(chunks);
  detail::DeviceBuffer warp_stamps, block_stamps, smids;
  warp_stamps.ensure(n * warps * kStampsPerWarp * sizeof(unsigned long long), "timeline stamps");
  block_stamps.ensure(n * kStampsPerBlock * sizeof(unsigned long long), "timeline stamps");
  smids.ensure((n + 1) * sizeof(unsigned), "timeline SM ids");
  const auto launch = [&] {
    k<<<static_cast<unsigned>(chunks), static_cast<unsigned>(params.block_threads),
        static_cast<std::size_t>(params.dynamic_shared_bytes), im.stream>>>(
        im.in.ptr, im.out.ptr, warp_stamps.as<unsigned long long>(),
        block_stamps.as<unsigned long long>(), smids.as<unsigned>(), 0x9e3779b9u);
    check(cudaGetLastError(), "timeline copy launch");
  };
  im.clear_out();
  const Timing timing =
      detail::time_launches(im.stream, runs, 2, cancel, {"timeline copy", "timeline copy"}, launch);
  // The stamps of the last timed launch; its output checked word by word.
  std::string wrong = im.verify_out(im.copy_bytes);
  std::vector<unsigned long long> w(n * warps * kStampsPerWarp), b(n * kStampsPerBlock);
  std::vector<unsigned> sm(n);
  check(cudaMemcpy(w.data(), warp_stamps.ptr, w.size() * sizeof w[0], cudaMemcpyDeviceToHost),
        "cudaMemcpy (timeline stamps)");
  check(cudaMemcpy(b.data(), block_stamps.ptr, b.size() * sizeof b[0], cudaMemcpyDeviceToHost),
        "cudaMemcpy (timeline stamps)");
  check(cudaMemcpy(sm.data(), smids.ptr, sm.size() * sizeof sm[0], cudaMemcpyDeviceToHost),
        "cudaMemcpy (timeline SM ids)");
  std::vector<BlockStamps> blocks(n);
  for (std::size_t i = 0; i < n; ++i) {
    BlockStamps& s = blocks[i];
    s.smid = sm[i];
    const unsigned long long* ws = &w[i * warps * kStampsPerWarp];
    s.entry = ws[0];
    for (int x = 0; x < warps; ++x) {
      const unsigned long long* one = ws + x * kStampsPerWarp;
      s.entry = std::min(s.entry, one[0]);
      s.issued = std::max(s.issued, one[1]);
      s.arrived = std::max(s.arrived, one[2]);
      s.stored = std::max(s.stored, one[3]);
    }
    s.thread0_entry_ns = b[i * kStampsPerBlock];
    s.thread0_stored_ns = b[i * kStampsPerBlock + 1];
    s.thread0_entry_clock = b[i * kStampsPerBlock + 2];
    s.thread0_stored_clock = b[i * kStampsPerBlock + 3];
  }
  BlockTimeline t = block_timeline_from_stamps(blocks);
  t.params = params;
  t.residency = plain.residency;
  t.bytes_in_flight_per_sm = plain.bytes_in_flight_per_sm;
  t.blocks = chunks;
  t.plain_gbps = plain.gbps;
  t.gbps = 2.0 * static_cast<double>(im.copy_bytes) / (timing.median_ms * 1e6);
  t.verified = plain.verified && wrong.empty() && t.sm_clock_ghz > 0 && t.rounds > 0;
  t.check = !plain.verified  ? plain.check
            : !wrong.empty() ? "the stamped copy: " + wrong
            : t.rounds == 0  ? std::string("no SM ran two blocks one after the other")
            : t.sm_clock_ghz <= 0
                ? std::string("no SM's clock could be read against the global timer")
                : "every word of both copies matched its source; " + std::to_string(t.rounds) +
                      " rounds on " + std::to_string(t.sms) + " SMs";
  return t;
}

}  // namespace warplens::gpu
