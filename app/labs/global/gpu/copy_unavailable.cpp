// Model-only builds (no CUDA toolkit): the global lab's copy kernels (gpu.h: CopyLab) say so,
// loudly (gpu.h: throw_built_without_cuda). Built instead of the lab's CUDA sources by
// warplens_add_lab when WARPLENS_WITH_CUDA is OFF or no CUDA compiler is found.
#include "gpu.h"

namespace warplens::gpu {

struct CopyLab::Impl {};
CopyLab::CopyLab(const DeviceInfo&, std::int64_t) {
  throw_built_without_cuda();
}
CopyLab::~CopyLab() = default;
CopyMeasurement CopyLab::measure(const CopyParams&, int, int, const std::atomic<bool>*) {
  throw_built_without_cuda();
}
void CopyLab::launch_once(const CopyParams&) {
  throw_built_without_cuda();
}
void CopyLab::trace_to_device(const CopyParams&, int, int, void*) {
  throw_built_without_cuda();
}
TraceRecords CopyLab::trace_to_host(const CopyParams&, int, int) {
  throw_built_without_cuda();
}
void* CopyLab::trace_stream() const {
  throw_built_without_cuda();
}
void CopyLab::heatmap_to_device(const CopyParams&, void*) {
  throw_built_without_cuda();
}
SectorHeatmap CopyLab::heatmap_to_host(const CopyParams&) {
  throw_built_without_cuda();
}
MemcpyMeasurement CopyLab::measure_memcpy(int, int) {
  throw_built_without_cuda();
}
MemcpyMeasurement CopyLab::measure_minimal_copy(int, int) {
  throw_built_without_cuda();
}
MemcpyMeasurement CopyLab::measure_ideal_copy(int, int) {
  throw_built_without_cuda();
}
}  // namespace warplens::gpu
