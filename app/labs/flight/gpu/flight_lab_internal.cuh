// Internal to the bytes-in-flight lab's translation units (flight_lab*.cu): FlightLab::Impl and
// the word values the copies move. Not part of the public API; include only from those files.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cuda_support.cuh"
#include "flight_lab.h"

namespace warplens::gpu {

namespace detail {

/// The 32-bit word at word index i of the copy's source buffer (what the host checks against).
__host__ __device__ inline std::uint32_t flight_word(std::uint64_t i) {
  auto h = static_cast<std::uint32_t>(i * 0x9e3779b97f4a7c15ull >> 32);
  h ^= static_cast<std::uint32_t>(i) * 0x85ebca6bu;
  return h ^ (h >> 13);
}

}  // namespace detail

struct FlightLab::Impl {
  DeviceInfo device;
  FlightDeviceLimits limits;
  cudaStream_t stream = nullptr;
  detail::DeviceBuffer in, out;            // the copy buffers, copy_bytes each
  detail::DeviceBuffer chase, chase_next;  // the chase's lines and the uploaded cycle
  detail::DeviceBuffer chase_end, chase_starts, chase_clocks;
  detail::DeviceBuffer probe_state;  // the loaded-latency probe's result, counter and flag
  std::int64_t copy_bytes = 0;
  std::int64_t chase_built_bytes = 0;  ///< the working set whose cycle `chase` holds
  std::vector<std::uint32_t> chase_next_host;

  ~Impl() {
    if (stream) cudaStreamDestroy(stream);
  }
  [[nodiscard]] int sms() const { return device.sm_count > 0 ? device.sm_count : 1; }
  /// Sets out to 0xff bytes, so a word the copy did not write shows.
  void clear_out();
  /// Compares every word of `out` with flight_word; "" when all match, else what differs.
  std::string verify_out(std::int64_t bytes);
  /// Lays the chase's random cycle over `working_set_bytes` into `chase` (once per working set:
  /// kept until another is asked for), its host copy in chase_next_host.
  void build_chase(std::int64_t working_set_bytes);
  /// Reads word 0 of every line of the chase's `nodes` lines (the ladder does it before each
  /// chase of a set over 2 MiB), so a chase meets the L2 the ladder's points met.
  void touch_chase(unsigned nodes);
  /// The carveout and the dynamic-shared opt-in on a kernel (max shared, the device's limit).
  void prepare_kernel(const void* kernel);
};

}  // namespace warplens::gpu
