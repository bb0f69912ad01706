// Model-only builds (no CUDA toolkit): the shared GPU entry points (device query, faults,
// limits) say so, loudly; each lab's own stubs are in app/labs/<lab>/gpu/<lab>_unavailable.cpp.
#include "gpu.h"
#include "gpu_fault.h"

namespace warplens::gpu {

void throw_built_without_cuda() {
  throw GpuError(
      "this WarpLens was built without the CUDA toolkit (model only): rebuild with "
      "nvcc on PATH to run kernels");
}

std::optional<DeviceFault> device_fault() {
  return std::nullopt;
}

void reset_device(int) {
  throw_built_without_cuda();
}

void fault_probe(int, FaultKind) {
  throw_built_without_cuda();
}

namespace {
std::atomic<double> limit_s{2.0};
}  // namespace

double launch_time_limit_s() {
  return limit_s.load();
}

void set_launch_time_limit_s(double seconds) {
  limit_s = seconds;
}

std::optional<DeviceMemory> current_device_memory() {
  return std::nullopt;
}

bool launch_overdue() {
  return false;
}

void forget_overdue_launch() {}

double slow_probe(int, double, const std::atomic<bool>*) {
  throw_built_without_cuda();
}

MemoryHog::MemoryHog(int, std::int64_t) {
  throw_built_without_cuda();
}

MemoryHog::~MemoryHog() = default;

bool built_with_cuda() {
  return false;
}

CudaVersions cuda_versions() {
  return {};
}

std::optional<DeviceMemory> device_memory(int) {
  return std::nullopt;
}

DeviceQuery query_device() {
  return {std::nullopt, "built without the CUDA toolkit (model only)"};
}

}  // namespace warplens::gpu
