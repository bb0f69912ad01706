// The cache labs' core and the constant-cache lab: CacheLab's construction (device limits
// checked against the carveout table, the __constant__ table uploaded), the constant-reads
// kernel with k distinct addresses per warp, and CacheLab::measure_constant. The carveout labs
// are in cache_lab_carveout.cu, the read path in cache_lab_read_path.cu; the tables and checks
// in cache_plan.cpp.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "cache_lab_internal.cuh"

namespace warplens::gpu {

namespace {

using detail::check;
using detail::kSmSlots;
using detail::median_of;
using detail::sm_id;
using detail::time_launches;
using detail::to_host;
using detail::use_device;

/// An integer the compiler cannot see through (keeps loop-invariant-looking loads in the loop).
__device__ __forceinline__ int opaque(int v) {
  int r;
  asm volatile("mov.b32 %0, %1;" : "=r"(r) : "r"(v));
  return r;
}

// --- constant memory ---------------------------------------------------------------------------

__constant__ unsigned constant_table[kConstantWords];

constexpr int kConstantThreads = 256;
constexpr int kConstantBlocksPerSm = 4;
constexpr int kConstantRepeats = 4096;  // a multiple of 8

/// Each warp request reads constant_word(lane, k, step): k distinct words, lanes l, l + k, ...
/// on one word. The row (step & 7) goes through opaque() so the compiler keeps every load.
__global__ void constant_reads(int k, int repeats, unsigned* out, unsigned long long* clocks) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  unsigned acc = 0;
  __syncthreads();
  const long long start = clock64();
  for (int r = 0; r < repeats; r += 8) {
#pragma unroll
    for (int u = 0; u < 8; ++u) acc += constant_table[constant_word(lane, k, opaque(r + u))];
  }
  __syncthreads();
  const long long end = clock64();
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
  if (threadIdx.x == 0) {
    unsigned long long* c = clocks + 3ull * blockIdx.x;
    c[0] = static_cast<unsigned long long>(start);
    c[1] = static_cast<unsigned long long>(end);
    c[2] = sm_id();
  }
}

}  // namespace

// --- CacheLab ----------------------------------------------------------------------------------

CacheLab::CacheLab(const DeviceInfo& device) : impl_(new Impl) {
  Impl& im = *impl_;
  im.device = device;
  use_device(device.index);
  check(cudaStreamCreateWithFlags(&im.stream, cudaStreamNonBlocking), "cudaStreamCreate");
  CacheDeviceLimits& l = im.limits;
  auto attr = [&](cudaDeviceAttr a, const char* what) {
    int v = 0;
    check(cudaDeviceGetAttribute(&v, a, device.index), what);
    return v;
  };
  l.shared_bytes_per_sm =
      attr(cudaDevAttrMaxSharedMemoryPerMultiprocessor, "cudaDeviceGetAttribute (shared/SM)");
  l.shared_bytes_per_block_optin = device.shared_bytes_per_block_optin;  // query_device's
  l.reserved_shared_bytes_per_block =
      attr(cudaDevAttrReservedSharedMemoryPerBlock, "cudaDeviceGetAttribute (reserved)");
  l.max_threads_per_sm =
      attr(cudaDevAttrMaxThreadsPerMultiProcessor, "cudaDeviceGetAttribute (threads/SM)");
  l.max_blocks_per_sm =
      attr(cudaDevAttrMaxBlocksPerMultiprocessor, "cudaDeviceGetAttribute (blocks/SM)");
  l.table = carveout_table(device.cc_major, device.cc_minor);
  if (!l.table) {
    l.table_check = "no table for CC " + std::to_string(device.cc_major) + "." +
                    std::to_string(device.cc_minor) + ": only what the device reports";
  } else {
    const int table_sm = l.table->max_capacity_kib() * 1024;
    const int table_block = l.table->max_shared_per_block_kib * 1024;
    const int table_reserved = l.table->reserved_per_block_kib * 1024;
    l.table_matches = table_sm == l.shared_bytes_per_sm &&
                      table_block == l.shared_bytes_per_block_optin &&
                      table_reserved == l.reserved_shared_bytes_per_block;
    l.table_check = "largest capacity " + std::to_string(l.table->max_capacity_kib()) +
                    " KiB vs device " + std::to_string(l.shared_bytes_per_sm / 1024.0) +
                    " KiB; per-block opt-in " + std::to_string(l.table->max_shared_per_block_kib) +
                    " KiB vs " + std::to_string(l.shared_bytes_per_block_optin / 1024.0) +
                    " KiB; reserved " + std::to_string(l.table->reserved_per_block_kib) +
                    " KiB vs " + std::to_string(l.reserved_shared_bytes_per_block) + " bytes" +
                    (l.table_matches ? ": match" : ": DIFFERENT");
  }
  std::vector<unsigned> table(kConstantWords);
  for (int i = 0; i < kConstantWords; ++i) table[static_cast<std::size_t>(i)] = constant_value(i);
  check(cudaMemcpyToSymbol(constant_table, table.data(), table.size() * sizeof(unsigned)),
        "cudaMemcpyToSymbol (constant table)");
  im.hungry_current.ensure(kSmSlots * sizeof(int), "the residency counters");
  im.hungry_peak.ensure(kSmSlots * sizeof(int), "the residency peaks");
  check(cudaMemset(im.hungry_current.ptr, 0, kSmSlots * sizeof(int)), "cudaMemset");
}

CacheLab::~CacheLab() = default;

const CacheDeviceLimits& CacheLab::limits() const {
  return impl_->limits;
}

// --- constant ----------------------------------------------------------------------------------

ConstantMeasurement CacheLab::measure_constant(int k, int runs, int warmup,
                                               const std::atomic<bool>* cancel) {
  Impl& im = *impl_;
  check_constant_k(k);
  use_device(im.device.index);
  ConstantMeasurement m;
  m.k = k;
  m.blocks = im.sms() * kConstantBlocksPerSm;
  m.threads_per_block = kConstantThreads;
  m.repeats = kConstantRepeats;
  m.lane_groups = constant_lane_groups(k);
  const auto threads = static_cast<std::size_t>(m.blocks) * kConstantThreads;
  im.constant_out.ensure(threads * sizeof(unsigned), "the constant sums");
  im.constant_clocks.ensure(static_cast<std::size_t>(m.blocks) * 3 * sizeof(unsigned long long),
                            "the constant clocks");
  auto launch = [&] {
    constant_reads<<<static_cast<unsigned>(m.blocks), kConstantThreads, 0, im.stream>>>(
        k, kConstantRepeats, im.constant_out.as<unsigned>(),
        im.constant_clocks.as<unsigned long long>());
    check(cudaGetLastError(), "constant launch");
  };
  m.timing =
      time_launches(im.stream, runs, warmup, cancel, {"constant reads", "constant reads"}, launch);
  const double warp_requests = static_cast<double>(m.blocks) * (kConstantThreads / 32) * m.repeats;
  m.ns_per_request = m.timing.median_ms * 1e6 / (warp_requests / im.sms());
  // Cycles: per SM, from the earliest block start to the latest block end, over its requests.
  const auto clocks = to_host<unsigned long long>(
      im.constant_clocks, static_cast<std::size_t>(m.blocks) * 3, "cudaMemcpy (constant clocks)");
  std::map<unsigned long long, std::tuple<unsigned long long, unsigned long long, int>> per_sm;
  for (int b = 0; b < m.blocks; ++b) {
    const auto i = static_cast<std::size_t>(b) * 3;
    auto [it, fresh] = per_sm.try_emplace(clocks[i + 2], clocks[i], clocks[i + 1], 0);
    auto& [lo, hi, count] = it->second;
    if (!fresh) {
      lo = std::min(lo, clocks[i]);
      hi = std::max(hi, clocks[i + 1]);
    }
    ++count;
  }
  std::vector<double> cycles;
  for (const auto& [sm, span] : per_sm) {
    const auto& [lo, hi, count] = span;
    cycles.push_back(static_cast<double>(hi - lo) /
                     (static_cast<double>(count) * (kConstantThreads / 32) * m.repeats));
  }
  m.cycles_per_request = median_of(cycles);
  // Verify: lane l sums constant_value(l % k + 32 j) over j < 8, repeats / 8 times.
  const auto out = to_host<unsigned>(im.constant_out, threads, "cudaMemcpy (constant sums)");
  int wrong = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const int lane = static_cast<int>(i % 32);
    unsigned row = 0;
    for (int j = 0; j < 8; ++j) row += constant_value(constant_word(lane, k, j));
    if (out[i] != row * static_cast<unsigned>(kConstantRepeats / 8)) ++wrong;
  }
  m.verified = wrong == 0;
  m.check = m.verified ? "every thread's sum of the __constant__ words matched"
                       : std::to_string(wrong) + " thread sums differ";
  return m;
}

}  // namespace warplens::gpu
