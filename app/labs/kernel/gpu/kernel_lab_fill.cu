// The fill kernel of "Your kernel" (kernel_lab_internal.h).
#include "cuda_support.cuh"
#include "kernel_lab_internal.h"

namespace warplens::gpu {

namespace {

__global__ void fill_kernel(unsigned char* p, std::int64_t bytes) {
  const std::int64_t words = (bytes + 3) / 4;
  for (std::int64_t k = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; k < words;
       k += std::int64_t{gridDim.x} * blockDim.x) {
    const auto value = static_cast<std::uint32_t>(k);
    if (4 * k + 4 <= bytes) {
      reinterpret_cast<std::uint32_t*>(p)[k] = value;
    } else {
      for (std::int64_t b = 4 * k; b < bytes; ++b)
        p[b] = static_cast<unsigned char>(value >> (8 * (b - 4 * k)));
    }
  }
}

}  // namespace

void fill_word_indices(void* device_ptr, std::int64_t bytes, cudaStream_t stream) {
  if (bytes <= 0) return;
  fill_kernel<<<1024, 256, 0, stream>>>(static_cast<unsigned char*>(device_ptr), bytes);
  detail::check(cudaGetLastError(), "the fill kernel's launch");
}

}  // namespace warplens::gpu
