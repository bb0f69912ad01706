// Internal to the shared-memory lab's translation units (shared_lab*.cu): SharedLab::Impl, the
// state that the bank probe, transpose, matrix-multiply and reduction entry points share
// (streams, trace scratch, device buffers), and the small host helpers several of them use.
// Not part of the public API; include only from those .cu files.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <mutex>

#include "cuda_support.cuh"
#include "shared_lab.h"

namespace warplens::gpu {

namespace detail {

/// Blocks of `threads` threads that cover `count` elements.
inline unsigned grid_for(long long count, int threads) {
  return static_cast<unsigned>((count + threads - 1) / threads);
}

/// Free device memory plus what `held` already occupies (it is freed before a reallocation).
inline std::int64_t free_bytes_with(std::initializer_list<const DeviceBuffer*> held) {
  std::size_t free = 0, total = 0;
  check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  auto bytes = static_cast<std::int64_t>(free);
  for (const DeviceBuffer* b : held) bytes += static_cast<std::int64_t>(b->bytes);
  return bytes;
}

}  // namespace detail

struct SharedLab::Impl {
  DeviceInfo device;
  cudaStream_t stream = nullptr;        // measure*
  cudaStream_t trace_stream = nullptr;  // trace_bank_to_device, trace_transpose_to_device
  detail::DeviceBuffer trace;           // scratch for trace_*_to_host
  detail::DeviceBuffer sink;            // kSinkWords, written only on request
  detail::DeviceBuffer clocks;          // per-block clocks of measure_bank
  detail::DeviceBuffer transpose_in, transpose_out;  // guarded by transpose_mutex
  detail::DeviceBuffer transpose_check;              // measure_transpose's check result
  std::mutex transpose_mutex;  // held by measure_transpose and trace_transpose_to_device
  detail::DeviceBuffer matmul_a, matmul_b, matmul_c;
  detail::DeviceBuffer reduce_in, reduce_partial;

  ~Impl() {
    if (stream) cudaStreamDestroy(stream);
    if (trace_stream) cudaStreamDestroy(trace_stream);
  }

  /// The transpose buffers for `elements` floats each (transpose_mutex held): reallocated when
  /// the size changes, the input then filled with element i = bit pattern i on stream `s` (and
  /// waited for, so that a launch on the other stream sees it). In shared_lab_transpose.cu.
  void ensure_transpose_buffers(long long elements, cudaStream_t s);
};

}  // namespace warplens::gpu
