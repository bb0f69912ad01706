// Model-only builds (no CUDA toolkit): the shared-memory labs' kernels (shared_lab.h: SharedLab)
// say so, loudly (gpu.h: throw_built_without_cuda). Built instead of the lab's CUDA sources by
// warplens_add_lab when WARPLENS_WITH_CUDA is OFF or no CUDA compiler is found.
#include "shared_lab.h"

namespace warplens::gpu {

struct SharedLab::Impl {};
SharedLab::SharedLab(const DeviceInfo&) {
  throw_built_without_cuda();
}
SharedLab::~SharedLab() = default;
void SharedLab::trace_bank_to_device(const BankProbeParams&, int, void*) {
  throw_built_without_cuda();
}
TraceRecords SharedLab::trace_bank_to_host(const BankProbeParams&, int) {
  throw_built_without_cuda();
}
void SharedLab::trace_transpose_to_device(const TransposeParams&, int, bool, void*) {
  throw_built_without_cuda();
}
bool SharedLab::try_trace_transpose_to_device(const TransposeParams&, int, bool, void*) {
  throw_built_without_cuda();
}
TraceRecords SharedLab::trace_transpose_to_host(const TransposeParams&, int, bool) {
  throw_built_without_cuda();
}
void* SharedLab::trace_stream() const {
  throw_built_without_cuda();
}
void SharedLab::launch_transpose_once(const TransposeParams&) {
  throw_built_without_cuda();
}
void SharedLab::launch_bank_once(const BankProbeParams&, int) {
  throw_built_without_cuda();
}
BankMeasurement SharedLab::measure_bank(const BankProbeParams&, int, int, int,
                                        const std::atomic<bool>*) {
  throw_built_without_cuda();
}
TransposeMeasurement SharedLab::measure_transpose(const TransposeParams&, int, int,
                                                  const std::atomic<bool>*) {
  throw_built_without_cuda();
}
MatmulMeasurement SharedLab::measure_matmul(const MatmulParams&, int, int,
                                            const std::atomic<bool>*) {
  throw_built_without_cuda();
}
ReductionMeasurement SharedLab::measure_reduction(const ReductionParams&, int, int,
                                                  const std::atomic<bool>*) {
  throw_built_without_cuda();
}
}  // namespace warplens::gpu
