// Kernels whose counters are known by construction, for counters_gpu_test.cpp.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace warplens::test {

namespace {

void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(err));
}

// out[g] = in[g] * 2: per warp one 4-byte load of 32 consecutive words (1 request, 4 sectors
// from a 256-byte aligned base) and one such store. Plain pointers, so the load is ld.global
// (no __restrict__ / const that could turn it into ld.global.nc).
__global__ void coalesced_copy(float* in, float* out) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = in[g] * 2.0f;
}

// Blocks of 1024 threads (32 warps). Each thread stores tile[tid] (one conflict-free store per
// warp: 1 wavefront), then lane l of warp w loads tile[l * 32 + w]: 32 distinct words all in bank
// w, 32 wavefronts for the one load instruction.
__global__ void shared_stride32(float* out) {
  __shared__ float tile[32 * 32];
  const int tid = static_cast<int>(threadIdx.x);
  tile[tid] = static_cast<float>(tid);
  __syncthreads();
  const int lane = tid % 32, warp = tid / 32;
  out[blockIdx.x * blockDim.x + threadIdx.x] = tile[lane * 32 + warp];
}

}  // namespace

void* counters_test_alloc(size_t bytes) {
  void* p = nullptr;
  check(cudaMalloc(&p, bytes), "cudaMalloc");
  check(cudaMemset(p, 0, bytes), "cudaMemset");
  return p;
}

void counters_test_free(void* p) {
  cudaFree(p);
}

void launch_coalesced_copy(float* in, float* out, int blocks, int threads) {
  coalesced_copy<<<blocks, threads>>>(in, out);
  check(cudaGetLastError(), "coalesced_copy");
}

void launch_shared_stride32(float* out, int blocks) {
  shared_stride32<<<blocks, 1024>>>(out);
  check(cudaGetLastError(), "shared_stride32");
}

}  // namespace warplens::test
