// The carveout labs: cudaFuncAttributePreferredSharedMemoryCarveout set on an L1-sensitive
// gather kernel and on a shared-hungry kernel, the occupancy API's view of the latter, and the
// CacheLab entry points that measure both and verify every thread's result.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cache_lab_internal.cuh"

namespace warplens::gpu {

namespace {

using detail::check;
using detail::kSmSlots;
using detail::sm_id;
using detail::time_launches;
using detail::to_host;
using detail::use_device;

// --- L1 gather ---------------------------------------------------------------------------------

constexpr int kGatherThreads = 1024;
constexpr int kGatherAccesses = 2048;  // per thread, a multiple of 8

/// Region b of the gather buffer holds the word b + 1 everywhere.
__global__ void fill_regions(unsigned* buf, long long region_words, int regions) {
  const long long total = region_words * regions;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    buf[i] = static_cast<unsigned>(i / region_words) + 1u;
}

/// Each thread gathers `accesses` 4-byte words at pseudo-random places (an LCG's high bits
/// scaled to the working set) of its block's region; independent loads, so the loop is bound by
/// how fast L1 (or, past the knee, L2) serves them.
__global__ void l1_gather(const unsigned* buf, long long region_words, unsigned working_words,
                          int accesses, unsigned* out) {
  const unsigned* base = buf + blockIdx.x * region_words;
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned state = gid * 0x9e3779b9u + 0x7f4a7c15u;
  unsigned acc = 0;
  for (int a = 0; a < accesses; a += 8) {
#pragma unroll
    for (int u = 0; u < 8; ++u) {
      state = state * 1664525u + 1013904223u;
      acc += base[__umulhi(state, working_words)];
    }
  }
  out[gid] = acc;
}

// --- shared-hungry kernel ----------------------------------------------------------------------

constexpr int kHungryThreads = CacheLab::shared_hungry_threads();
constexpr int kHungryBlocksPerSm = 32;
constexpr int kHungrySteps = 2048;
constexpr unsigned kHungryStride = 33;

extern __shared__ unsigned hungry_shared[];

/// Fills its dynamic shared array with s[i] = (i + 33) mod n, then every thread chases
/// `steps` dependent loads from tid mod n: a latency-bound loop, so the time depends on how many
/// blocks (warps) an SM holds at once. Block start/end adjust a per-SM counter whose peak says
/// how many blocks were really resident together.
__global__ void shared_hungry(unsigned n, int steps, unsigned* out, int* current, int* peak) {
  const unsigned tid = threadIdx.x;
  for (unsigned i = tid; i < n; i += blockDim.x) hungry_shared[i] = (i + kHungryStride) % n;
  __syncthreads();
  const unsigned sm = sm_id() % kSmSlots;
  if (tid == 0) {
    const int before = atomicAdd(current + sm, 1);
    atomicMax(peak + sm, before + 1);
  }
  unsigned idx = n ? tid % n : tid;
  if (n)
    for (int s = 0; s < steps; ++s) idx = hungry_shared[idx];
  out[blockIdx.x * blockDim.x + tid] = idx;
  __syncthreads();
  if (tid == 0) {
    atomicSub(current + sm, 1);
    // Without the fence the decrement can still be in flight when the block retires and the
    // next block on this SM counts itself in (seen on an H100: 9 "resident" 256-thread blocks
    // on an SM that holds 8).
    __threadfence();
  }
}

}  // namespace

void CacheLab::Impl::ensure_gather() {
  const long long region_words = kGatherRegionBytes / 4;
  if (gather.ensure(static_cast<std::size_t>(kGatherRegionBytes) * sms(), "the gather buffer")) {
    try {
      fill_regions<<<1024, 256, 0, stream>>>(gather.as<unsigned>(), region_words, sms());
      check(cudaGetLastError(), "fill launch");
      check(cudaStreamSynchronize(stream), "fill");
    } catch (...) {
      gather.release();
      throw;
    }
  }
  gather_out.ensure(sizeof(unsigned) * kGatherThreads * sms(), "the gather sums");
}

void CacheLab::Impl::launch_gather(std::int64_t working_set_bytes) {
  const long long region_words = kGatherRegionBytes / 4;
  const auto words = static_cast<unsigned>(working_set_bytes / 4);
  l1_gather<<<static_cast<unsigned>(sms()), kGatherThreads, 0, stream>>>(
      gather.as<unsigned>(), region_words, words, kGatherAccesses, gather_out.as<unsigned>());
  check(cudaGetLastError(), "L1 gather launch");
}

// --- occupancy ---------------------------------------------------------------------------------

OccupancyInfo CacheLab::occupancy(int carveout, std::int64_t dynamic_shared_bytes) {
  Impl& im = *impl_;
  const CacheDeviceLimits& l = im.limits;
  check_carveout(carveout);
  check_dynamic_shared(dynamic_shared_bytes, l.shared_bytes_per_block_optin);
  use_device(im.device.index);
  OccupancyInfo o;
  o.carveout = carveout;
  o.dynamic_shared_bytes = dynamic_shared_bytes;
  o.threads_per_block = kHungryThreads;
  o.reserved_shared_bytes = l.reserved_shared_bytes_per_block;
  o.opt_in = needs_shared_optin(dynamic_shared_bytes);
  o.opt_in_note = shared_optin_note(dynamic_shared_bytes, l.shared_bytes_per_block_optin);
  const auto dyn = static_cast<int>(dynamic_shared_bytes);
  // The attribute is per function and sticks: set both every time, so the previous call's
  // request does not leak into this one (48 KiB is the limit without an opt-in).
  check(
      cudaFuncSetAttribute(shared_hungry, cudaFuncAttributePreferredSharedMemoryCarveout, carveout),
      "cudaFuncSetAttribute (carveout)");
  check(cudaFuncSetAttribute(shared_hungry, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             std::max(dyn, 48 * 1024)),
        "cudaFuncSetAttribute (dynamic shared memory opt-in)");
  cudaFuncAttributes fa{};
  check(cudaFuncGetAttributes(&fa, shared_hungry), "cudaFuncGetAttributes");
  o.static_shared_bytes = static_cast<int>(fa.sharedSizeBytes);
  o.max_dynamic_shared_bytes = fa.maxDynamicSharedSizeBytes;
  o.preferred_carveout = fa.preferredShmemCarveout;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &o.blocks_per_sm, shared_hungry, kHungryThreads, static_cast<std::size_t>(dyn)),
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  const int warps_per_block = kHungryThreads / 32;
  const int max_warps = std::max(l.max_threads_per_sm / 32, 1);
  o.occupancy_percent = 100.0 * o.blocks_per_sm * warps_per_block / max_warps;
  const int by_threads = l.max_threads_per_sm / kHungryThreads;
  const int other_limit = std::min(by_threads, l.max_blocks_per_sm);
  o.limiter = o.blocks_per_sm < other_limit       ? "shared memory"
              : by_threads <= l.max_blocks_per_sm ? "threads"
                                                  : "blocks per SM";
  if (o.blocks_per_sm > 0) {
    std::size_t avail = 0;
    check(cudaOccupancyAvailableDynamicSMemPerBlock(&avail, shared_hungry, o.blocks_per_sm,
                                                    kHungryThreads),
          "cudaOccupancyAvailableDynamicSMemPerBlock");
    o.available_dynamic_bytes = static_cast<std::int64_t>(avail);
    const std::int64_t implied =
        std::int64_t{o.blocks_per_sm} *
        (o.available_dynamic_bytes + o.static_shared_bytes + o.reserved_shared_bytes);
    o.implied_capacity_kib = static_cast<int>((implied + 1023) / 1024);
    if (l.table)
      o.implied_capacity_kib =
          l.table->smallest_holding_kib(implied).value_or(o.implied_capacity_kib);
  }
  if (l.table) {
    const std::int64_t block_bytes =
        dynamic_shared_bytes + o.static_shared_bytes + o.reserved_shared_bytes;
    o.model = carveout_capacity(*l.table, carveout, block_bytes, other_limit);
    o.model_blocks_per_sm =
        std::min(other_limit, blocks_by_shared(o.model.shared_kib, block_bytes));
  }
  return o;
}

// --- L1 gather ---------------------------------------------------------------------------------

L1GatherMeasurement CacheLab::measure_l1_gather(int carveout, std::int64_t working_set_bytes,
                                                int runs, int warmup,
                                                const std::atomic<bool>* cancel) {
  Impl& im = *impl_;
  check_carveout(carveout);
  check_working_set(working_set_bytes);
  use_device(im.device.index);
  im.ensure_gather();
  L1GatherMeasurement m;
  m.carveout = carveout;
  m.working_set_bytes = working_set_bytes;
  m.blocks = im.sms();
  m.threads_per_block = kGatherThreads;
  m.accesses_per_thread = kGatherAccesses;
  if (im.limits.table) {
    m.expected =
        carveout_capacity(*im.limits.table, carveout, im.limits.reserved_shared_bytes_per_block, 1);
    m.fits_l1 = working_set_bytes <= std::int64_t{m.expected.l1_kib} * 1024;
  }
  check(cudaFuncSetAttribute(l1_gather, cudaFuncAttributePreferredSharedMemoryCarveout, carveout),
        "cudaFuncSetAttribute (carveout)");
  auto launch = [&] { im.launch_gather(working_set_bytes); };
  m.timing = time_launches(im.stream, runs, warmup, cancel, {"L1 gather", "L1 gather"}, launch);
  const double accesses = static_cast<double>(m.blocks) * kGatherThreads * kGatherAccesses;
  m.ns_per_access = m.timing.median_ms * 1e6 / (accesses / m.blocks);
  m.gbps = accesses * 4 / (m.timing.median_ms * 1e-3) / 1e9;
  // Every word of region b is b + 1: a thread's sum is accesses x (b + 1) mod 2^32.
  const auto sums =
      to_host<unsigned>(im.gather_out, static_cast<std::size_t>(m.blocks) * kGatherThreads,
                        "cudaMemcpy (gather sums)");
  int wrong = 0;
  for (std::size_t i = 0; i < sums.size(); ++i) {
    const auto b = static_cast<unsigned>(i / kGatherThreads);
    if (sums[i] != static_cast<unsigned>(kGatherAccesses) * (b + 1u)) ++wrong;
  }
  m.verified = wrong == 0;
  m.check = m.verified ? "every thread's sum matched (all reads inside its block's region)"
                       : std::to_string(wrong) + " thread sums differ from accesses x (block + 1)";
  return m;
}

void CacheLab::launch_l1_gather_once(int carveout, std::int64_t working_set_bytes) {
  Impl& im = *impl_;
  check_carveout(carveout);
  check_working_set(working_set_bytes);
  use_device(im.device.index);
  im.ensure_gather();
  check(cudaFuncSetAttribute(l1_gather, cudaFuncAttributePreferredSharedMemoryCarveout, carveout),
        "cudaFuncSetAttribute (carveout)");
  im.launch_gather(working_set_bytes);
  check(cudaStreamSynchronize(im.stream), "L1 gather (single launch)");
}

// --- shared-hungry -----------------------------------------------------------------------------

SharedHungryMeasurement CacheLab::measure_shared_hungry(int carveout,
                                                        std::int64_t dynamic_shared_bytes, int runs,
                                                        int warmup,
                                                        const std::atomic<bool>* cancel) {
  Impl& im = *impl_;
  SharedHungryMeasurement m;
  m.occupancy = occupancy(carveout, dynamic_shared_bytes);  // checks, sets both attributes
  m.blocks = im.sms() * kHungryBlocksPerSm;
  m.chase_steps = kHungrySteps;
  const auto n = static_cast<unsigned>(dynamic_shared_bytes / 4);
  const auto dyn = static_cast<std::size_t>(dynamic_shared_bytes);
  im.hungry_out.ensure(sizeof(unsigned) * kHungryThreads * static_cast<std::size_t>(m.blocks),
                       "the shared-hungry output");
  auto launch = [&] {
    shared_hungry<<<static_cast<unsigned>(m.blocks), kHungryThreads, dyn, im.stream>>>(
        n, kHungrySteps, im.hungry_out.as<unsigned>(), im.hungry_current.as<int>(),
        im.hungry_peak.as<int>());
    check(cudaGetLastError(), "shared-hungry launch");
  };
  // One observed launch first: residency peaks from zero, and the results to verify.
  check(cudaMemsetAsync(im.hungry_peak.ptr, 0, kSmSlots * sizeof(int), im.stream), "cudaMemset");
  check(cudaMemsetAsync(im.hungry_current.ptr, 0, kSmSlots * sizeof(int), im.stream), "cudaMemset");
  launch();
  check(cudaStreamSynchronize(im.stream), "shared-hungry");
  const auto peaks = to_host<int>(im.hungry_peak, kSmSlots, "cudaMemcpy (residency)");
  m.observed_blocks_per_sm = *std::max_element(peaks.begin(), peaks.end());
  const auto out =
      to_host<unsigned>(im.hungry_out, static_cast<std::size_t>(m.blocks) * kHungryThreads,
                        "cudaMemcpy (shared-hungry output)");
  int wrong = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const auto tid = static_cast<unsigned>(i % kHungryThreads);
    const unsigned expect =
        n ? static_cast<unsigned>((static_cast<std::uint64_t>(tid % n) +
                                   static_cast<std::uint64_t>(kHungrySteps) * kHungryStride) %
                                  n)
          : tid;
    if (out[i] != expect) ++wrong;
  }
  m.verified = wrong == 0;
  m.check = m.verified ? "every thread ended its chase on (tid + steps x 33) mod n"
                       : std::to_string(wrong) + " threads ended their chase elsewhere";
  m.timing =
      time_launches(im.stream, runs, warmup, cancel, {"shared-hungry", "shared-hungry"}, launch);
  return m;
}

}  // namespace warplens::gpu
