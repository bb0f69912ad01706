// The shared-memory lab's reductions (Harris's kernels 1-3): the kernels, their launcher, the
// input with a closed-form sum, and SharedLab::measure_reduction, which checks the block sums
// against the CPU's.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "shared_lab_internal.cuh"

namespace warplens::gpu {

namespace {

using namespace detail;  // shared_lab_internal.cuh: check, grid_for, time_launches, ...

// --- reduction kernels -----------------------------------------------------------------------

__host__ __device__ constexpr int log2_of(int v) {
  return v <= 1 ? 0 : 1 + log2_of(v / 2);
}

// Harris's kernels 1-3: each block sums T elements in shared memory, step by step; the step's
// two operands come from shared_fixed_element_index() with reduction_index(), the parameters
// reduction_step gives the bank view. The step loop stays a loop (as in Harris's kernels), so
// the divergent kernel keeps its modulo by a run-time 2s.
template <int T, ReductionVariant V>
__global__ void __launch_bounds__(T)
    harris_reduce(const unsigned* __restrict__ in, unsigned* __restrict__ partial, long long n) {
  __shared__ unsigned sdata[T];
  const int tid = static_cast<int>(threadIdx.x);
  const long long i = blockIdx.x * static_cast<long long>(T) + tid;
  sdata[tid] = i < n ? in[i] : 0u;
  __syncthreads();
  constexpr int kSteps = log2_of(T);
#pragma unroll 1
  for (int step = 0; step < kSteps; ++step) {
    const SharedFixedIndex first = reduction_index(V, T, step, false);
    if (shared_thread_active(tid, first)) {
      const SharedFixedIndex second = reduction_index(V, T, step, true);
      sdata[shared_fixed_element_index(tid, 0, T, 1, first)] +=
          sdata[shared_fixed_element_index(tid, 0, T, 1, second)];
    }
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = sdata[0];
}

template <int T>
void launch_reduce_threads(ReductionVariant v, unsigned blocks, const unsigned* in,
                           unsigned* partial, long long n, cudaStream_t s) {
  switch (v) {
    case ReductionVariant::InterleavedDivergent:
      harris_reduce<T, ReductionVariant::InterleavedDivergent><<<blocks, T, 0, s>>>(in, partial, n);
      break;
    case ReductionVariant::InterleavedStrided:
      harris_reduce<T, ReductionVariant::InterleavedStrided><<<blocks, T, 0, s>>>(in, partial, n);
      break;
    case ReductionVariant::Sequential:
      harris_reduce<T, ReductionVariant::Sequential><<<blocks, T, 0, s>>>(in, partial, n);
      break;
  }
}

void launch_reduce(const ReductionParams& p, const unsigned* in, unsigned* partial,
                   cudaStream_t s) {
  const auto blocks = static_cast<unsigned>((p.elements + p.block_threads - 1) / p.block_threads);
  switch (p.block_threads) {
    case 64: launch_reduce_threads<64>(p.variant, blocks, in, partial, p.elements, s); break;
    case 128: launch_reduce_threads<128>(p.variant, blocks, in, partial, p.elements, s); break;
    case 256: launch_reduce_threads<256>(p.variant, blocks, in, partial, p.elements, s); break;
    case 512: launch_reduce_threads<512>(p.variant, blocks, in, partial, p.elements, s); break;
    case 1024: launch_reduce_threads<1024>(p.variant, blocks, in, partial, p.elements, s); break;
    default: throw GpuError("unsupported reduction block " + std::to_string(p.block_threads));
  }
  check(cudaGetLastError(), "reduction kernel launch");
}

/// The reduction input: element i = i x 2654435761 + 12345 (mod 2^32), whose sum has a closed
/// form the host checks against.
constexpr std::uint32_t kReduceMultiplier = 2654435761u, kReduceAddend = 12345u;

__host__ __device__ inline std::uint32_t reduction_input(std::uint64_t i) {
  return static_cast<std::uint32_t>(i) * kReduceMultiplier + kReduceAddend;
}

__global__ void fill_reduction_input(unsigned* p, long long count) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < count) p[i] = reduction_input(static_cast<std::uint64_t>(i));
}

/// Sum of reduction_input(i) for i < n, mod 2^32.
std::uint32_t reduction_sum(std::uint64_t n) {
  const std::uint64_t pairs = n % 2 == 0 ? (n / 2) * (n - 1) : n * ((n - 1) / 2);  // n(n-1)/2
  return static_cast<std::uint32_t>(pairs) * kReduceMultiplier +
         static_cast<std::uint32_t>(n) * kReduceAddend;
}

}  // namespace

// --- reduction ---------------------------------------------------------------------------------

ReductionMeasurement SharedLab::measure_reduction(const ReductionParams& params, int runs,
                                                  int warmup, const std::atomic<bool>* cancel) {
  Impl& im = *impl_;
  use_device(im.device.index);
  check_reduction(params, free_bytes_with({&im.reduce_in, &im.reduce_partial}));
  ReductionMeasurement m;
  m.params = params;
  const long long n = params.elements;
  const long long blocks = (n + params.block_threads - 1) / params.block_threads;
  if (im.reduce_in.ensure(static_cast<std::size_t>(n) * 4, "the reduction input")) {
    fill_reduction_input<<<grid_for(n, 256), 256, 0, im.stream>>>(im.reduce_in.as<unsigned>(), n);
    check(cudaGetLastError(), "fill launch");
  }
  const auto partial_bytes = static_cast<std::size_t>(blocks) * 4;
  im.reduce_partial.ensure(partial_bytes, "the reduction's block sums");
  check(cudaMemsetAsync(im.reduce_partial.ptr, 0xff, partial_bytes, im.stream), "cudaMemset");
  m.timing = time_launches(im.stream, runs, warmup, cancel, {"reduction (warm-up)"}, [&] {
    launch_reduce(params, im.reduce_in.as<const unsigned>(), im.reduce_partial.as<unsigned>(),
                  im.stream);
  });
  m.gbps = static_cast<double>(n) * 4 / (m.timing.median_ms * 1e-3) / 1e9;

  std::vector<std::uint32_t> partial(static_cast<std::size_t>(blocks));
  check(cudaMemcpyAsync(partial.data(), im.reduce_partial.ptr, partial_bytes,
                        cudaMemcpyDeviceToHost, im.stream),
        "cudaMemcpy (block sums)");
  check(cudaStreamSynchronize(im.stream), "reduction");
  std::uint32_t total = 0;
  for (std::uint32_t p : partial) total += p;
  const std::uint32_t expected = reduction_sum(static_cast<std::uint64_t>(n));
  // The first block's sum on its own too: a right total from wrong block sums is unlikely, but
  // this names the failing part when there is one.
  std::uint32_t first = 0;
  for (long long i = 0; i < std::min<long long>(n, params.block_threads); ++i)
    first += reduction_input(static_cast<std::uint64_t>(i));
  m.verified = total == expected && partial.front() == first;
  m.check = m.verified ? std::to_string(blocks) + " block sums add up to the CPU's sum " +
                             std::to_string(expected) + " (mod 2^32)"
            : total != expected
                ? "the block sums add up to " + std::to_string(total) + ", the CPU's sum is " +
                      std::to_string(expected) + " (mod 2^32)"
                : "block 0 summed to " + std::to_string(partial.front()) + ", expected " +
                      std::to_string(first);
  return m;
}

}  // namespace warplens::gpu
