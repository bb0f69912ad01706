// Model-only builds (no CUDA toolkit): "Your kernel": NVRTC and its launches (kernel_lab.h:
// KernelLab) say so, loudly (gpu.h: throw_built_without_cuda). Built instead of the lab's CUDA
// sources by warplens_add_lab when WARPLENS_WITH_CUDA is OFF or no CUDA compiler is found.
#include "kernel_lab.h"

namespace warplens::gpu {

std::string gpu_architecture(int cc_major, int cc_minor) {
  return "sm_" + std::to_string(cc_major) + std::to_string(cc_minor);
}
std::vector<char> compile_kernel_source(const std::string&, const std::string&) {
  throw_built_without_cuda();
}
std::string nvrtc_version() {
  return "built without the CUDA toolkit";
}
struct KernelLab::Impl {};
KernelLab::KernelLab(const DeviceInfo&, std::size_t) {
  throw_built_without_cuda();
}
KernelLab::~KernelLab() = default;
const DeviceInfo& KernelLab::device() const {
  throw_built_without_cuda();
}
KernelRun KernelLab::run(const KernelProgram&, const TracedWarp&, int, int,
                         const std::atomic<bool>*, const KernelSimulation*) {
  throw_built_without_cuda();
}
bool KernelLab::load(const std::string&) {
  throw_built_without_cuda();
}
std::size_t KernelLab::cached_modules() const {
  return 0;
}
bool KernelLab::copy_trace_row(std::uint64_t, int, void*) {
  throw_built_without_cuda();
}
void* KernelLab::trace_stream() const {
  return nullptr;
}
std::function<void()> KernelLab::counter_launch(const KernelProgram&) {
  throw_built_without_cuda();
}
MemcpyMeasurement KernelLab::reference_copy() {
  throw_built_without_cuda();
}
}  // namespace warplens::gpu
