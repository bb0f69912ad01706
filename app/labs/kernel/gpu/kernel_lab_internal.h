// Internal to "Your kernel" (kernel_lab.cpp): the one kernel compiled by nvcc, which fills `in`
// with its initial contents (kernel_program.h: 4-byte word k holds k). Not a public API.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace warplens::gpu {

/// Writes word k = k (32-bit) over `bytes` bytes of `device_ptr` on `stream` (a trailing partial
/// word gets its low bytes). Throws GpuError when the launch fails.
void fill_word_indices(void* device_ptr, std::int64_t bytes, cudaStream_t stream);

}  // namespace warplens::gpu
