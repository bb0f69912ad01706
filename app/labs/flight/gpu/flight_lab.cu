// The bytes-in-flight lab's core: FlightLab's construction, the pointer chase of the latency
// ladder and the streaming copy of Little's law, with cudaMemcpy as the reference. The staged
// copies (cp.async, TMA) are in flight_lab_async.cu; the host side in flight_plan.cpp.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "cache_lab.h"
#include "flight_lab_internal.cuh"

namespace warplens::gpu {

namespace {

using detail::check;
using detail::check_cancel;
using detail::flight_word;
using detail::median_of;
using detail::time_launches;
using detail::use_device;

constexpr int kWordsPerLine = kChaseLineBytes / 4;
constexpr int kChaseLoads = 4096;      // timed hops N (and 2N)
constexpr int kFullWarmNodes = 16384;  // working sets up to 2 MiB are warmed hop by hop

// --- the chase ---------------------------------------------------------------------------------

/// One dependent load: a plain ld.global (cached in L1 and L2) or ld.global.cg (__ldcg: L2 only).
template <bool kL2Only>
__device__ __forceinline__ unsigned chase_load(const unsigned* p) {
  unsigned v;
  if constexpr (kL2Only)
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  else
    asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

/// Lane l starts at line starts[l] and follows the cycle (word 0 of each line holds the next
/// line's first word index): `warm` untimed hops, then `steps` timed by clock64().
template <bool kL2Only>
__global__ void chase(const unsigned* lines, const unsigned* starts, int warm, int steps,
                      unsigned* end, long long* clocks) {
  unsigned j = starts[threadIdx.x] * kWordsPerLine;
  for (int i = 0; i < warm; ++i) j = chase_load<kL2Only>(lines + j);
  __syncwarp();
  const long long t0 = clock64();
  for (int i = 0; i < steps; ++i) j = chase_load<kL2Only>(lines + j);
  end[threadIdx.x] = j;  // needs the last load: the clock below reads after it returned
  const long long t1 = clock64();
  if (threadIdx.x == 0) clocks[0] = t1 - t0;
}

/// Lays the cycle out: word 0 of line i gets the first word of line next[i].
__global__ void lay_cycle(const unsigned* next, unsigned nodes, unsigned* lines) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nodes) lines[static_cast<std::size_t>(i) * kWordsPerLine] = next[i] * kWordsPerLine;
}

/// Reads word 0 of every line, so the L2 holds the working set before a chase.
__global__ void touch_lines(const unsigned* lines, unsigned nodes, unsigned* sink) {
  unsigned acc = 0;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < nodes; i += gridDim.x * blockDim.x)
    acc += chase_load<false>(lines + static_cast<std::size_t>(i) * kWordsPerLine);
  if (acc == 0x9e3779b9u) sink[0] = acc;  // practically never: keeps the loads
}

// --- the streaming copy ------------------------------------------------------------------------

template <int kBytes>
struct Word;
template <>
struct Word<4> {
  using type = unsigned;
};
template <>
struct Word<8> {
  using type = uint2;
};
template <>
struct Word<16> {
  using type = uint4;
};

/// Chunk c is block_threads x kLoads words; thread t loads words t, t + block, ... of it, all
/// kLoads before its first store (unrolled: independent loads in flight). One chunk per block,
/// or (kGridStride) chunks blockIdx.x, + gridDim.x, ...
template <int kBytes, int kLoads, bool kGridStride>
__global__ void stream_copy(const void* in_v, void* out_v, long long chunks) {
  using W = typename Word<kBytes>::type;
  const W* in = static_cast<const W*>(in_v);
  W* out = static_cast<W*>(out_v);
  const long long per_chunk = static_cast<long long>(blockDim.x) * kLoads;
  const long long step = kGridStride ? gridDim.x : chunks;
  for (long long c = blockIdx.x; c < chunks; c += step) {
    const long long base = c * per_chunk + threadIdx.x;
    W v[kLoads];
#pragma unroll
    for (int k = 0; k < kLoads; ++k) v[k] = in[base + static_cast<long long>(k) * blockDim.x];
#pragma unroll
    for (int k = 0; k < kLoads; ++k) out[base + static_cast<long long>(k) * blockDim.x] = v[k];
  }
}

using StreamKernel = void (*)(const void*, void*, long long);

template <int kBytes, bool kGridStride>
StreamKernel stream_kernel_loads(int loads) {
  switch (loads) {
    case 1: return stream_copy<kBytes, 1, kGridStride>;
    case 2: return stream_copy<kBytes, 2, kGridStride>;
    case 4: return stream_copy<kBytes, 4, kGridStride>;
    default: return stream_copy<kBytes, 8, kGridStride>;
  }
}
template <int kBytes>
StreamKernel stream_kernel_bytes(int loads, bool grid_stride) {
  return grid_stride ? stream_kernel_loads<kBytes, true>(loads)
                     : stream_kernel_loads<kBytes, false>(loads);
}
StreamKernel stream_kernel(const StreamParams& p) {
  switch (p.word_bytes) {
    case 4: return stream_kernel_bytes<4>(p.loads_per_thread, p.grid_stride);
    case 8: return stream_kernel_bytes<8>(p.loads_per_thread, p.grid_stride);
    default: return stream_kernel_bytes<16>(p.loads_per_thread, p.grid_stride);
  }
}

__global__ void fill_words(unsigned* words, long long n) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    words[i] = flight_word(static_cast<std::uint64_t>(i));
}

}  // namespace

// --- Impl helpers --------------------------------------------------------------------------------

void FlightLab::Impl::clear_out() {
  check(cudaMemsetAsync(out.ptr, 0xff, static_cast<std::size_t>(copy_bytes), stream),
        "cudaMemset (copy output)");
}

std::string FlightLab::Impl::verify_out(std::int64_t bytes) {
  check(cudaStreamSynchronize(stream), "copy (verified launch)");
  const std::int64_t words = bytes / 4;
  constexpr std::int64_t kSlice = std::int64_t{8} << 20;  // words per host copy (32 MiB)
  std::vector<unsigned> host(static_cast<std::size_t>(std::min(words, kSlice)));
  std::int64_t wrong = 0, first = -1;
  for (std::int64_t at = 0; at < words; at += kSlice) {
    const std::int64_t n = std::min(kSlice, words - at);
    check(cudaMemcpy(host.data(), out.as<unsigned>() + at, static_cast<std::size_t>(n) * 4,
                     cudaMemcpyDeviceToHost),
          "cudaMemcpy (copy check)");
    for (std::int64_t i = 0; i < n; ++i) {
      if (host[static_cast<std::size_t>(i)] == flight_word(static_cast<std::uint64_t>(at + i)))
        continue;
      if (first < 0) first = at + i;
      ++wrong;
    }
  }
  if (wrong == 0) return {};
  return std::to_string(wrong) + " of " + std::to_string(words) + " words differ (first at word " +
         std::to_string(first) + ")";
}

void FlightLab::Impl::build_chase(std::int64_t working_set_bytes) {
  if (chase_built_bytes == working_set_bytes) return;
  const std::int64_t max_bytes = std::max<std::int64_t>(4 * device.l2_bytes, 4 << 20);
  const auto nodes = static_cast<unsigned>(working_set_bytes / kChaseLineBytes);
  chase.ensure_at_least(static_cast<std::size_t>(max_bytes), "the chase's lines");
  chase_next_host = chase_cycle(nodes, 0x5eed0000u + nodes);
  chase_next.ensure_at_least(chase_next_host.size() * 4, "the chase's cycle");
  // On the lab's stream: a plain cudaMemcpy from pageable memory may return before its DMA
  // lands, and the non-blocking stream would not wait for it (H200: 32 MiB chases ran on a
  // half-laid cycle, at L1 latency).
  check(cudaMemcpyAsync(chase_next.ptr, chase_next_host.data(), chase_next_host.size() * 4,
                        cudaMemcpyHostToDevice, stream),
        "cudaMemcpy (chase cycle)");
  lay_cycle<<<(nodes + 255) / 256, 256, 0, stream>>>(chase_next.as<unsigned>(), nodes,
                                                     chase.as<unsigned>());
  check(cudaGetLastError(), "cycle launch");
  check(cudaStreamSynchronize(stream), "laying out the cycle");
  chase_built_bytes = working_set_bytes;
}

void FlightLab::Impl::touch_chase(unsigned nodes) {
  touch_lines<<<sms() * 4, 256, 0, stream>>>(chase.as<unsigned>(), nodes, chase_end.as<unsigned>());
  check(cudaGetLastError(), "touch launch");
}

void FlightLab::Impl::prepare_kernel(const void* kernel) {
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                             cudaSharedmemCarveoutMaxShared),
        "cudaFuncSetAttribute (carveout)");
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             static_cast<int>(limits.sm.shared_optin_per_block)),
        "cudaFuncSetAttribute (dynamic shared memory)");
}

// --- FlightLab ---------------------------------------------------------------------------------

FlightLab::FlightLab(const DeviceInfo& device, std::int64_t copy_bytes) : impl_(new Impl) {
  if (copy_bytes < 0) throw std::invalid_argument("copy buffer bytes must be >= 0");
  Impl& im = *impl_;
  im.device = device;
  use_device(device.index);
  check(cudaStreamCreateWithFlags(&im.stream, cudaStreamNonBlocking), "cudaStreamCreate");
  const auto attr = [&](cudaDeviceAttr a, const char* what) {
    int v = 0;
    check(cudaDeviceGetAttribute(&v, a, device.index), what);
    return v;
  };
  FlightDeviceLimits& l = im.limits;
  l.cc_major = device.cc_major;
  l.cc_minor = device.cc_minor;
  l.theoretical_gbps = device.theoretical_gbps;
  l.sm.sm_count = device.sm_count;
  l.sm.max_threads_per_sm = attr(cudaDevAttrMaxThreadsPerMultiProcessor, "threads per SM");
  l.sm.max_blocks_per_sm = attr(cudaDevAttrMaxBlocksPerMultiprocessor, "blocks per SM");
  l.sm.regs_per_sm = attr(cudaDevAttrMaxRegistersPerMultiprocessor, "registers per SM");
  l.sm.shared_bytes_per_sm =
      attr(cudaDevAttrMaxSharedMemoryPerMultiprocessor, "shared memory per SM");
  l.sm.reserved_shared_per_block =
      attr(cudaDevAttrReservedSharedMemoryPerBlock, "reserved shared memory");
  l.sm.shared_optin_per_block = device.shared_bytes_per_block_optin;
  l.sm_clock_ghz = attr(cudaDevAttrClockRate, "SM clock") / 1e6;
  l.levels.l2_bytes = device.l2_bytes;
  // A kernel without shared memory, carveout max L1: the unified store less the smallest
  // shared capacity; without a table, the unified size the device implies is unknown, so the
  // shared capacity per SM stands in (a lower bound on CC 7.x-9.0).
  if (const auto table = carveout_table(device.cc_major, device.cc_minor))
    l.levels.l1_bytes = std::int64_t{table->unified_kib - table->capacities_kib.front()} * 1024;
  else
    l.levels.l1_bytes = l.sm.shared_bytes_per_sm;
  const std::int64_t wanted =
      copy_bytes ? copy_bytes
                 : std::max<std::int64_t>(4 * device.l2_bytes, std::int64_t{256} << 20);
  im.copy_bytes = (wanted + (std::int64_t{1} << 20) - 1) >> 20 << 20;
  im.in.ensure(static_cast<std::size_t>(im.copy_bytes), "the copy's source");
  im.out.ensure(static_cast<std::size_t>(im.copy_bytes), "the copy's destination");
  fill_words<<<std::max(im.sms(), 1) * 8, 256, 0, im.stream>>>(im.in.as<unsigned>(),
                                                               im.copy_bytes / 4);
  check(cudaGetLastError(), "fill launch");
  check(cudaStreamSynchronize(im.stream), "fill");
  im.chase_end.ensure(kChaseWarpLanes * sizeof(unsigned), "the chase's ends");
  im.chase_starts.ensure(kChaseWarpLanes * sizeof(unsigned), "the chase's starts");
  im.chase_clocks.ensure(sizeof(long long), "the chase's clocks");
  check(cudaFuncSetAttribute(chase<false>, cudaFuncAttributePreferredSharedMemoryCarveout,
                             cudaSharedmemCarveoutMaxL1),
        "cudaFuncSetAttribute (chase carveout)");
  check(cudaFuncSetAttribute(chase<true>, cudaFuncAttributePreferredSharedMemoryCarveout,
                             cudaSharedmemCarveoutMaxL1),
        "cudaFuncSetAttribute (chase carveout)");
}

FlightLab::~FlightLab() = default;

const FlightDeviceLimits& FlightLab::limits() const {
  return impl_->limits;
}
std::int64_t FlightLab::copy_bytes() const {
  return impl_->copy_bytes;
}

LatencyPoint FlightLab::measure_latency(const ChaseParams& params, int runs,
                                        const std::atomic<bool>* cancel) {
  Impl& im = *impl_;
  const std::int64_t max_bytes = std::max<std::int64_t>(4 * im.device.l2_bytes, 4 << 20);
  check_chase(params, max_bytes);
  use_device(im.device.index);
  const auto nodes = static_cast<unsigned>(params.working_set_bytes / kChaseLineBytes);
  im.build_chase(params.working_set_bytes);
  // Lane l starts at line l x nodes / lanes: a warp's 32 lanes are 32 lines far apart.
  std::vector<unsigned> starts(static_cast<std::size_t>(params.lanes));
  for (int l = 0; l < params.lanes; ++l)
    starts[static_cast<std::size_t>(l)] = static_cast<unsigned>(
        std::uint64_t{nodes} * static_cast<unsigned>(l) / static_cast<unsigned>(params.lanes));
  detail::DeviceBuffer& starts_d = im.chase_starts;
  check(cudaMemcpyAsync(starts_d.ptr, starts.data(), starts.size() * 4, cudaMemcpyHostToDevice,
                        im.stream),
        "cudaMemcpy (chase starts)");
  const int warm = nodes <= kFullWarmNodes ? static_cast<int>(nodes) : 256;
  const bool l2_only = params.path == LoadPath::L2Only;
  LatencyPoint pt;
  pt.params = params;
  pt.loads = kChaseLoads;
  std::vector<double> ms_n, ms_2n, cycles;
  detail::Events events;
  for (int r = 0; r < std::max(runs, 1); ++r) {
    for (int steps : {kChaseLoads, 2 * kChaseLoads}) {
      check_cancel(cancel);
      if (nodes > kFullWarmNodes) im.touch_chase(nodes);
      check(cudaEventRecord(events.start, im.stream), "cudaEventRecord");
      if (l2_only)
        chase<true><<<1, params.lanes, 0, im.stream>>>(
            im.chase.as<unsigned>(), starts_d.as<unsigned>(), warm, steps,
            im.chase_end.as<unsigned>(), im.chase_clocks.as<long long>());
      else
        chase<false><<<1, params.lanes, 0, im.stream>>>(
            im.chase.as<unsigned>(), starts_d.as<unsigned>(), warm, steps,
            im.chase_end.as<unsigned>(), im.chase_clocks.as<long long>());
      check(cudaGetLastError(), "chase launch");
      check(cudaEventRecord(events.stop, im.stream), "cudaEventRecord");
      const float ms = events.elapsed_ms("chase");
      (steps == kChaseLoads ? ms_n : ms_2n).push_back(ms);
      long long c = 0;
      check(cudaMemcpy(&c, im.chase_clocks.ptr, sizeof c, cudaMemcpyDeviceToHost),
            "cudaMemcpy (chase clocks)");
      cycles.push_back(static_cast<double>(c) / steps);
    }
  }
  pt.ns_per_load = (median_of(ms_2n) - median_of(ms_n)) * 1e6 / kChaseLoads;
  pt.cycles_per_load = median_of(cycles);
  // Verify the last (2N) launch: every lane ends where the host's cycle says.
  std::vector<unsigned> end(starts.size());
  check(cudaMemcpy(end.data(), im.chase_end.ptr, end.size() * 4, cudaMemcpyDeviceToHost),
        "cudaMemcpy (chase ends)");
  int wrong = 0;
  for (std::size_t l = 0; l < starts.size(); ++l) {
    unsigned line = starts[l];
    for (int i = 0; i < warm + 2 * kChaseLoads; ++i) line = im.chase_next_host[line];
    if (end[l] != line * kWordsPerLine) ++wrong;
  }
  pt.verified = wrong == 0;
  pt.check = pt.verified ? "every lane ended on the line the host's cycle predicts"
                         : std::to_string(wrong) + " lanes ended elsewhere";
  return pt;
}

Residency FlightLab::residency(const StreamParams& params) {
  Impl& im = *impl_;
  check_stream(params, im.limits.sm.shared_optin_per_block);
  use_device(im.device.index);
  const StreamKernel k = stream_kernel(params);
  im.prepare_kernel(reinterpret_cast<const void*>(k));
  cudaFuncAttributes fa{};
  check(cudaFuncGetAttributes(&fa, reinterpret_cast<const void*>(k)), "cudaFuncGetAttributes");
  int blocks = 0;
  check(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(
          &blocks, k, params.block_threads, static_cast<std::size_t>(params.dynamic_shared_bytes)),
      "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  // The limiter as the host model names it, with the compiled registers; the count is the API's.
  Residency r = predict_residency(params, im.limits.sm, fa.numRegs);
  if (r.blocks_per_sm != blocks) r.limiter += " (model " + std::to_string(r.blocks_per_sm) + ")";
  r.blocks_per_sm = blocks;
  r.warps_per_sm = blocks * params.block_threads / 32;
  return r;
}

StreamMeasurement FlightLab::measure_stream(const StreamParams& params, int runs, int warmup,
                                            const std::atomic<bool>* cancel) {
  Impl& im = *impl_;
  StreamMeasurement m;
  m.params = params;
  m.residency = residency(params);  // checks the parameters, prepares the kernel
  if (m.residency.blocks_per_sm < 1)
    throw std::invalid_argument("no block of this copy fits an SM");
  m.bytes_in_flight_per_sm =
      bytes_in_flight_per_sm(m.residency.warps_per_sm, params.loads_per_thread, params.word_bytes);
  m.elements = im.copy_bytes / params.word_bytes;
  const long long chunks =
      m.elements / (static_cast<long long>(params.block_threads) * params.loads_per_thread);
  m.blocks = params.grid_stride ? std::min<long long>(chunks, static_cast<long long>(im.sms()) *
                                                                  m.residency.blocks_per_sm)
                                : chunks;
  const StreamKernel k = stream_kernel(params);
  const auto launch = [&] {
    k<<<static_cast<unsigned>(m.blocks), static_cast<unsigned>(params.block_threads),
        static_cast<std::size_t>(params.dynamic_shared_bytes), im.stream>>>(im.in.ptr, im.out.ptr,
                                                                            chunks);
    check(cudaGetLastError(), "copy launch");
  };
  im.clear_out();
  launch();
  m.check = im.verify_out(im.copy_bytes);
  m.verified = m.check.empty();
  if (m.verified) m.check = "every word of the copy matched its source";
  m.timing = time_launches(im.stream, runs, warmup, cancel, {"copy", "copy"}, launch);
  m.gbps = 2.0 * static_cast<double>(im.copy_bytes) / (m.timing.median_ms * 1e6);
  return m;
}

MemcpyMeasurement FlightLab::measure_memcpy(int runs, int warmup) {
  Impl& im = *impl_;
  use_device(im.device.index);
  MemcpyMeasurement m;
  m.bytes = im.copy_bytes;
  m.timing = time_launches(im.stream, runs, warmup, nullptr, {"cudaMemcpy", "cudaMemcpy"}, [&] {
    check(cudaMemcpyAsync(im.out.ptr, im.in.ptr, static_cast<std::size_t>(im.copy_bytes),
                          cudaMemcpyDeviceToDevice, im.stream),
          "cudaMemcpy device-to-device");
  });
  m.gbps = 2.0 * static_cast<double>(m.bytes) / (m.timing.median_ms * 1e6);
  return m;
}

}  // namespace warplens::gpu
