// Internal to the cache labs' translation units (cache_lab*.cu): CacheLab::Impl, the state their
// entry points share (stream, device limits, buffers, the image and its texture), and the small
// helpers several of them use. Not part of the public API; include only from those .cu files.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "cache_lab.h"
#include "cuda_support.cuh"

namespace warplens::gpu {

namespace detail {

/// The first `count` elements of device buffer `b`, copied to the host (cudaMemcpy named `what`).
template <typename T>
std::vector<T> to_host(const DeviceBuffer& b, std::size_t count, const char* what) {
  std::vector<T> host(count);
  check(cudaMemcpy(host.data(), b.ptr, count * sizeof(T), cudaMemcpyDeviceToHost), what);
  return host;
}

/// The SM this thread runs on (%smid).
__device__ __forceinline__ unsigned sm_id() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

constexpr int kSmSlots = 1024;  // per-SM residency counters, indexed by %smid

}  // namespace detail

struct CacheLab::Impl {
  DeviceInfo device;
  CacheDeviceLimits limits;
  cudaStream_t stream = nullptr;
  detail::DeviceBuffer gather, gather_out;
  detail::DeviceBuffer hungry_out, hungry_current, hungry_peak;
  detail::DeviceBuffer constant_out, constant_clocks;
  detail::DeviceBuffer image_row_major, image_morton, warp_sums;
  cudaArray_t image_array = nullptr;
  cudaTextureObject_t image_texture = 0;
  int image_side = 0;
  std::map<std::tuple<int, int, int, int>, std::uint32_t> expected_sums;

  ~Impl() {
    release_image();
    if (stream) cudaStreamDestroy(stream);
  }
  void release_image() {
    if (image_texture) cudaDestroyTextureObject(image_texture);
    if (image_array) cudaFreeArray(image_array);
    image_texture = 0;
    image_array = nullptr;
    image_side = 0;
  }

  [[nodiscard]] int sms() const { return std::max(device.sm_count, 1); }

  // The L1 gather (cache_lab_carveout.cu).
  void ensure_gather();
  /// One L1 gather launch over `working_set_bytes` per block (gather buffer ready).
  void launch_gather(std::int64_t working_set_bytes);

  // The read path (cache_lab_read_path.cu).
  /// One read-path launch for `params` (image of params.side ready).
  void launch_read_path(const ReadPathParams& params);
  /// The image in row-major and Morton order and as a cudaArray behind a texture object.
  void ensure_image(int side);
};

}  // namespace warplens::gpu
