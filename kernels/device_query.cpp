// What the CUDA runtime says about this machine: whether WarpLens was built with CUDA, the
// runtime's and driver's versions, the device's memory in use, and the device the labs measure on
// (gpu.h documents each). Host code only (the runtime API, no kernel), so the C++ compiler builds
// it, not nvcc.
#include <cuda_runtime.h>

#include <optional>
#include <string>

#include "gpu.h"

namespace warplens::gpu {

bool built_with_cuda() {
  return true;
}

CudaVersions cuda_versions() {
  CudaVersions v;
  if (cudaRuntimeGetVersion(&v.runtime) != cudaSuccess) v.runtime = 0;
  if (cudaDriverGetVersion(&v.driver) != cudaSuccess) v.driver = 0;
  cudaGetLastError();
  return v;
}

std::optional<DeviceMemory> device_memory(int index) {
  std::size_t free = 0, total = 0;
  if (cudaSetDevice(index) != cudaSuccess || cudaMemGetInfo(&free, &total) != cudaSuccess)
    return std::nullopt;
  return DeviceMemory{static_cast<std::int64_t>(free), static_cast<std::int64_t>(total)};
}

DeviceQuery query_device() {
  DeviceQuery q;
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    cudaGetLastError();
    q.reason = std::string("cudaGetDeviceCount: ") + cudaGetErrorString(status);
    return q;
  }
  if (count == 0) {
    q.reason = "no CUDA device found";
    return q;
  }
  DeviceInfo d;
  d.index = 0;
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, d.index) != cudaSuccess) {
    cudaGetLastError();
    q.reason = "cannot read the properties of CUDA device 0";
    return q;
  }
  d.name = prop.name;
  d.cc_major = prop.major;
  d.cc_minor = prop.minor;
  d.sm_count = prop.multiProcessorCount;
  d.l2_bytes = prop.l2CacheSize;
  d.global_memory_bytes = static_cast<std::int64_t>(prop.totalGlobalMem);
  int clock_khz = 0, bus_bits = 0;
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, d.index);
  cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, d.index);
  d.theoretical_gbps = 2.0 * clock_khz * 1e3 * (bus_bits / 8.0) / 1e9;
  int shared_optin = 0;
  if (cudaDeviceGetAttribute(&shared_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, d.index) ==
      cudaSuccess)
    d.shared_bytes_per_block_optin = shared_optin;
  cudaGetLastError();
  // cudaMallocPitch's row alignment: the pitch it gives a 1-byte row.
  void* probe = nullptr;
  std::size_t pitch = 0;
  if (cudaSetDevice(d.index) == cudaSuccess &&
      cudaMallocPitch(&probe, &pitch, 1, 1) == cudaSuccess) {
    d.pitch_alignment = static_cast<int>(pitch);
    cudaFree(probe);
  } else {
    cudaGetLastError();
  }
  q.device = d;
  return q;
}

}  // namespace warplens::gpu
