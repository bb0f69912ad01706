// Model-only builds (no CUDA toolkit): the bytes-in-flight lab's kernels (flight_lab.h: FlightLab)
// say so, loudly (gpu.h: throw_built_without_cuda). Built instead of the lab's CUDA sources by
// warplens_add_lab when WARPLENS_WITH_CUDA is OFF or no CUDA compiler is found.
#include "flight_lab.h"

namespace warplens::gpu {

struct FlightLab::Impl {};
FlightLab::FlightLab(const DeviceInfo&, std::int64_t) {
  throw_built_without_cuda();
}
FlightLab::~FlightLab() = default;
const FlightDeviceLimits& FlightLab::limits() const {
  throw_built_without_cuda();
}
std::int64_t FlightLab::copy_bytes() const {
  throw_built_without_cuda();
}
LatencyPoint FlightLab::measure_latency(const ChaseParams&, int, const std::atomic<bool>*) {
  throw_built_without_cuda();
}
Residency FlightLab::residency(const StreamParams&) {
  throw_built_without_cuda();
}
StreamMeasurement FlightLab::measure_stream(const StreamParams&, int, int,
                                            const std::atomic<bool>*) {
  throw_built_without_cuda();
}
AsyncMeasurement FlightLab::measure_async(AsyncKind, int, int, const std::atomic<bool>*) {
  throw_built_without_cuda();
}
MemcpyMeasurement FlightLab::measure_memcpy(int, int) {
  throw_built_without_cuda();
}
LoadedLatencyPoint FlightLab::measure_loaded_latency(int, int, int, const std::atomic<bool>*, int) {
  throw_built_without_cuda();
}
BlockTimeline FlightLab::measure_block_timeline(const StreamParams&, int,
                                                const std::atomic<bool>*) {
  throw_built_without_cuda();
}
}  // namespace warplens::gpu
