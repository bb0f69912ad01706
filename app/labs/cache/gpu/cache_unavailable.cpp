// Model-only builds (no CUDA toolkit): the cache labs' kernels (cache_lab.h: CacheLab) say so,
// loudly (gpu.h: throw_built_without_cuda). Built instead of the lab's CUDA sources by
// warplens_add_lab when WARPLENS_WITH_CUDA is OFF or no CUDA compiler is found.
#include "cache_lab.h"

namespace warplens::gpu {

struct CacheLab::Impl {};
CacheLab::CacheLab(const DeviceInfo&) {
  throw_built_without_cuda();
}
CacheLab::~CacheLab() = default;
const CacheDeviceLimits& CacheLab::limits() const {
  throw_built_without_cuda();
}
OccupancyInfo CacheLab::occupancy(int, std::int64_t) {
  throw_built_without_cuda();
}
L1GatherMeasurement CacheLab::measure_l1_gather(int, std::int64_t, int, int,
                                                const std::atomic<bool>*) {
  throw_built_without_cuda();
}
SharedHungryMeasurement CacheLab::measure_shared_hungry(int, std::int64_t, int, int,
                                                        const std::atomic<bool>*) {
  throw_built_without_cuda();
}
ConstantMeasurement CacheLab::measure_constant(int, int, int, const std::atomic<bool>*) {
  throw_built_without_cuda();
}
ReadPathMeasurement CacheLab::measure_read_path(const ReadPathParams&, int, int,
                                                const std::atomic<bool>*) {
  throw_built_without_cuda();
}
void CacheLab::launch_l1_gather_once(int, std::int64_t) {
  throw_built_without_cuda();
}
void CacheLab::launch_read_path_once(const ReadPathParams&) {
  throw_built_without_cuda();
}
}  // namespace warplens::gpu
