// Index functions shared by the device kernels and their host twins (__host__ __device__), so
// the kernel, the model and the picture can never disagree about which element a thread reads.
#pragma once

#include <array>
#include <cstdint>

#if defined(__CUDACC__)
#define WARPLENS_HOST_DEVICE __host__ __device__
#else
#define WARPLENS_HOST_DEVICE
#endif

namespace warplens {

/// Element read by global thread `thread` of the strided copy: offset + thread * stride
/// (all in elements of the copy's word size).
WARPLENS_HOST_DEVICE inline std::int64_t copy_read_index(std::int64_t thread, std::int64_t offset,
                                                         std::int64_t stride) {
  return offset + thread * stride;
}

/// One lane's record in a warp trace: the layout of the GL buffer the warp view draws from
/// (one GL_RGBA32UI texel per lane) and of what the instrumented kernels write through interop.
struct LaneTraceRecord {
  std::uint32_t address_lo;  ///< byte offset from the 256-byte aligned buffer base, low 32 bits
  std::uint32_t address_hi;  ///< high 32 bits
  std::uint32_t word_bytes;  ///< bytes the lane accessed
  std::uint32_t active;      ///< 1 if the lane executed the access, 0 otherwise
};
static_assert(sizeof(LaneTraceRecord) == 16, "one RGBA32UI texel per lane");

inline constexpr int kTraceLanes = 32;
inline constexpr std::int64_t kTraceBufferBytes = kTraceLanes * sizeof(LaneTraceRecord);

/// One warp's trace: lane l at index l.
using TraceRecords = std::array<LaneTraceRecord, kTraceLanes>;

}  // namespace warplens
