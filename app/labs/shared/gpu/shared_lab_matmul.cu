// The shared-memory lab's matrix multiply: the naive kernel and the seeds' tiled MatrixMul,
// their launcher, the hashed inputs the host can recompute, and SharedLab::measure_matmul,
// which checks a grid of entries of C in double precision.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "shared_lab_internal.cuh"

namespace warplens::gpu {

namespace {

using namespace detail;  // shared_lab_internal.cuh: check, grid_for, time_launches, ...

// --- matrix-multiply kernels -----------------------------------------------------------------

constexpr int kNaiveMatmulBlock = 16;

__global__ void matmul_naive(const float* __restrict__ a, const float* __restrict__ b,
                             float* __restrict__ c, int n) {
  const int row = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  const int col = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  float sum = 0.0f;
  for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
  c[row * n + col] = sum;
}

// The seeds' MatrixMul ("Example: Matrix Multiplication (4)"), BLOCK_SIZE as a template
// argument. The inner loop's blockA[ty][k] and blockB[k][tx] come from shared_fixed_element_index()
// with matmul_read_index(), which the bank view's matmul_read_a/b use; with k unrolled they fold
// to ty * BS + k and k * BS + tx.
template <int BS>
__global__ void matmul_tiled(const float* __restrict__ matA, const float* __restrict__ matB,
                             float* __restrict__ matC, int w) {
  __shared__ float blockA[BS * BS];
  __shared__ float blockB[BS * BS];
  const int bx = static_cast<int>(blockIdx.x), tx = static_cast<int>(threadIdx.x);
  const int by = static_cast<int>(blockIdx.y), ty = static_cast<int>(threadIdx.y);
  const int col = bx * BS + tx;
  const int row = by * BS + ty;
  float out = 0.0f;
  for (int m = 0; m < w / BS; m++) {
    blockA[ty * BS + tx] = matA[row * w + m * BS + tx];
    blockB[ty * BS + tx] = matB[col + (m * BS + ty) * w];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BS; k++) {
      out += blockA[shared_fixed_element_index(tx, ty, BS, BS, matmul_read_index(BS, k, false))] *
             blockB[shared_fixed_element_index(tx, ty, BS, BS, matmul_read_index(BS, k, true))];
    }
    __syncthreads();
  }
  matC[row * w + col] = out;
}

void launch_matmul(const MatmulParams& p, const float* a, const float* b, float* c,
                   cudaStream_t s) {
  const int bs = p.block_size == 0 ? kNaiveMatmulBlock : p.block_size;
  const auto blocks = static_cast<unsigned>(p.n / bs);
  const dim3 grid(blocks, blocks);
  const dim3 block(static_cast<unsigned>(bs), static_cast<unsigned>(bs));
  switch (p.block_size) {
    case 0: matmul_naive<<<grid, block, 0, s>>>(a, b, c, p.n); break;
    case 8: matmul_tiled<8><<<grid, block, 0, s>>>(a, b, c, p.n); break;
    case 16: matmul_tiled<16><<<grid, block, 0, s>>>(a, b, c, p.n); break;
    case 32: matmul_tiled<32><<<grid, block, 0, s>>>(a, b, c, p.n); break;
    default: throw GpuError("unsupported matrix-multiply block " + std::to_string(p.block_size));
  }
  check(cudaGetLastError(), "matrix-multiply kernel launch");
}

/// The matrix-multiply inputs: element i of the matrix with seed `seed`, uniform in [-1, 1) on a
/// 2^-23 grid (exact in float), from a counter-based hash (SplitMix64's finalizer), so the host
/// can recompute any element without a copy of the matrix.
__host__ __device__ inline float matmul_input(std::uint64_t i, std::uint32_t seed) {
  std::uint64_t z = i + 0x9E3779B97F4A7C15ull * (seed + 1ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<float>(static_cast<std::uint32_t>(z >> 40)) * (1.0f / 8388608.0f) - 1.0f;
}
constexpr std::uint32_t kSeedA = 1, kSeedB = 2;

__global__ void fill_matmul_input(float* p, long long count, std::uint32_t seed) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < count) p[i] = matmul_input(static_cast<std::uint64_t>(i), seed);
}

std::string format_number(double v, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*g", digits, v);
  return text;
}

}  // namespace

// --- matrix multiply ---------------------------------------------------------------------------

MatmulMeasurement SharedLab::measure_matmul(const MatmulParams& params, int runs, int warmup,
                                            const std::atomic<bool>* cancel) {
  Impl& im = *impl_;
  use_device(im.device.index);
  check_matmul(params, free_bytes_with({&im.matmul_a, &im.matmul_b, &im.matmul_c}));
  MatmulMeasurement m;
  m.params = params;
  const long long n = params.n;
  const long long elements = n * n;
  const auto bytes = static_cast<std::size_t>(elements) * 4;
  if (im.matmul_a.ensure(bytes, "matrix A")) {
    fill_matmul_input<<<grid_for(elements, 256), 256, 0, im.stream>>>(im.matmul_a.as<float>(),
                                                                      elements, kSeedA);
    check(cudaGetLastError(), "fill launch");
  }
  if (im.matmul_b.ensure(bytes, "matrix B")) {
    fill_matmul_input<<<grid_for(elements, 256), 256, 0, im.stream>>>(im.matmul_b.as<float>(),
                                                                      elements, kSeedB);
    check(cudaGetLastError(), "fill launch");
  }
  im.matmul_c.ensure(bytes, "matrix C");
  check(cudaMemsetAsync(im.matmul_c.ptr, 0xff, bytes, im.stream), "cudaMemset");  // NaNs
  m.timing = time_launches(im.stream, runs, warmup, cancel, {"matrix multiply (warm-up)"}, [&] {
    launch_matmul(params, im.matmul_a.as<const float>(), im.matmul_b.as<const float>(),
                  im.matmul_c.as<float>(), im.stream);
  });
  m.gflops = 2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n) /
             (m.timing.median_ms * 1e-3) / 1e9;

  // 16 rows x 16 columns spread over C, corners included, recomputed in double precision.
  constexpr int kPicks = 16;
  std::vector<long long> picks(kPicks);
  for (int i = 0; i < kPicks; ++i) picks[i] = i * (n - 1) / (kPicks - 1);
  std::vector<float> rows(static_cast<std::size_t>(kPicks * n));
  for (int i = 0; i < kPicks; ++i) {
    check(cudaMemcpyAsync(rows.data() + i * n, im.matmul_c.as<float>() + picks[i] * n,
                          static_cast<std::size_t>(n) * 4, cudaMemcpyDeviceToHost, im.stream),
          "cudaMemcpy (C)");
  }
  check(cudaStreamSynchronize(im.stream), "matrix multiply");
  std::vector<float> a_rows(static_cast<std::size_t>(kPicks * n)),
      b_cols(static_cast<std::size_t>(kPicks * n));
  for (int i = 0; i < kPicks; ++i) {
    for (long long k = 0; k < n; ++k) {
      a_rows[i * n + k] = matmul_input(static_cast<std::uint64_t>(picks[i] * n + k), kSeedA);
      b_cols[i * n + k] = matmul_input(static_cast<std::uint64_t>(k * n + picks[i]), kSeedB);
    }
  }
  double worst = 0;
  long long worst_r = 0, worst_c = 0;
  for (int i = 0; i < kPicks; ++i) {
    for (int j = 0; j < kPicks; ++j) {
      double sum = 0, magnitude = 0;
      for (long long k = 0; k < n; ++k) {
        const double p = static_cast<double>(a_rows[i * n + k]) * b_cols[j * n + k];
        sum += p;
        magnitude += std::fabs(p);
      }
      const double got = rows[i * n + picks[j]];
      const double error = std::isfinite(got) ? std::fabs(got - sum) / std::max(magnitude, 1e-30)
                                              : std::numeric_limits<double>::infinity();
      if (!(error <= worst)) {
        worst = error;
        worst_r = picks[i];
        worst_c = picks[j];
      }
    }
  }
  m.checked_entries = kPicks * kPicks;
  m.max_relative_error = worst;
  m.verified = worst < 1e-4;
  m.check = std::to_string(m.checked_entries) +
            " entries of C recomputed in double precision: largest error " +
            format_number(worst, 3) + " of sum |a||b| (at row " + std::to_string(worst_r) +
            ", column " + std::to_string(worst_c) + ")" + (m.verified ? "" : ", above 1e-4");
  return m;
}

}  // namespace warplens::gpu
