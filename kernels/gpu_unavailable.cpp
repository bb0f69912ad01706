// Model-only builds (no CUDA toolkit): every GPU entry point says so, loudly.
#include "cache_lab.h"
#include "flight_lab.h"
#include "gpu.h"
#include "gpu_fault.h"
#include "kernel_lab.h"
#include "shared_lab.h"

namespace warplens::gpu {

namespace {
[[noreturn]] void no_cuda() {
  throw GpuError(
      "this WarpLens was built without the CUDA toolkit (model only): rebuild with "
      "nvcc on PATH to run kernels");
}
}  // namespace

std::optional<DeviceFault> device_fault() {
  return std::nullopt;
}

void reset_device(int) {
  no_cuda();
}

void fault_probe(int, FaultKind) {
  no_cuda();
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
  no_cuda();
}

MemoryHog::MemoryHog(int, std::int64_t) {
  no_cuda();
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

struct CopyLab::Impl {};
CopyLab::CopyLab(const DeviceInfo&, std::int64_t) {
  no_cuda();
}
CopyLab::~CopyLab() = default;
CopyMeasurement CopyLab::measure(const CopyParams&, int, int, const std::atomic<bool>*) {
  no_cuda();
}
void CopyLab::launch_once(const CopyParams&) {
  no_cuda();
}
void CopyLab::trace_to_device(const CopyParams&, int, int, void*) {
  no_cuda();
}
TraceRecords CopyLab::trace_to_host(const CopyParams&, int, int) {
  no_cuda();
}
void* CopyLab::trace_stream() const {
  no_cuda();
}
void CopyLab::heatmap_to_device(const CopyParams&, void*) {
  no_cuda();
}
SectorHeatmap CopyLab::heatmap_to_host(const CopyParams&) {
  no_cuda();
}
MemcpyMeasurement CopyLab::measure_memcpy(int, int) {
  no_cuda();
}
MemcpyMeasurement CopyLab::measure_minimal_copy(int, int) {
  no_cuda();
}
MemcpyMeasurement CopyLab::measure_ideal_copy(int, int) {
  no_cuda();
}

struct SharedLab::Impl {};
SharedLab::SharedLab(const DeviceInfo&) {
  no_cuda();
}
SharedLab::~SharedLab() = default;
void SharedLab::trace_bank_to_device(const BankProbeParams&, int, void*) {
  no_cuda();
}
TraceRecords SharedLab::trace_bank_to_host(const BankProbeParams&, int) {
  no_cuda();
}
void SharedLab::trace_transpose_to_device(const TransposeParams&, int, bool, void*) {
  no_cuda();
}
bool SharedLab::try_trace_transpose_to_device(const TransposeParams&, int, bool, void*) {
  no_cuda();
}
TraceRecords SharedLab::trace_transpose_to_host(const TransposeParams&, int, bool) {
  no_cuda();
}
void* SharedLab::trace_stream() const {
  no_cuda();
}
void SharedLab::launch_transpose_once(const TransposeParams&) {
  no_cuda();
}
void SharedLab::launch_bank_once(const BankProbeParams&, int) {
  no_cuda();
}
BankMeasurement SharedLab::measure_bank(const BankProbeParams&, int, int, int,
                                        const std::atomic<bool>*) {
  no_cuda();
}
TransposeMeasurement SharedLab::measure_transpose(const TransposeParams&, int, int,
                                                  const std::atomic<bool>*) {
  no_cuda();
}
MatmulMeasurement SharedLab::measure_matmul(const MatmulParams&, int, int,
                                            const std::atomic<bool>*) {
  no_cuda();
}
ReductionMeasurement SharedLab::measure_reduction(const ReductionParams&, int, int,
                                                  const std::atomic<bool>*) {
  no_cuda();
}

struct CacheLab::Impl {};
CacheLab::CacheLab(const DeviceInfo&) {
  no_cuda();
}
CacheLab::~CacheLab() = default;
const CacheDeviceLimits& CacheLab::limits() const {
  no_cuda();
}
OccupancyInfo CacheLab::occupancy(int, std::int64_t) {
  no_cuda();
}
L1GatherMeasurement CacheLab::measure_l1_gather(int, std::int64_t, int, int,
                                                const std::atomic<bool>*) {
  no_cuda();
}
SharedHungryMeasurement CacheLab::measure_shared_hungry(int, std::int64_t, int, int,
                                                        const std::atomic<bool>*) {
  no_cuda();
}
ConstantMeasurement CacheLab::measure_constant(int, int, int, const std::atomic<bool>*) {
  no_cuda();
}
ReadPathMeasurement CacheLab::measure_read_path(const ReadPathParams&, int, int,
                                                const std::atomic<bool>*) {
  no_cuda();
}
void CacheLab::launch_l1_gather_once(int, std::int64_t) {
  no_cuda();
}
void CacheLab::launch_read_path_once(const ReadPathParams&) {
  no_cuda();
}
struct FlightLab::Impl {};
FlightLab::FlightLab(const DeviceInfo&, std::int64_t) {
  no_cuda();
}
FlightLab::~FlightLab() = default;
const FlightDeviceLimits& FlightLab::limits() const {
  no_cuda();
}
std::int64_t FlightLab::copy_bytes() const {
  no_cuda();
}
LatencyPoint FlightLab::measure_latency(const ChaseParams&, int, const std::atomic<bool>*) {
  no_cuda();
}
Residency FlightLab::residency(const StreamParams&) {
  no_cuda();
}
StreamMeasurement FlightLab::measure_stream(const StreamParams&, int, int,
                                            const std::atomic<bool>*) {
  no_cuda();
}
AsyncMeasurement FlightLab::measure_async(AsyncKind, int, int, const std::atomic<bool>*) {
  no_cuda();
}
MemcpyMeasurement FlightLab::measure_memcpy(int, int) {
  no_cuda();
}
LoadedLatencyPoint FlightLab::measure_loaded_latency(int, int, int, const std::atomic<bool>*, int) {
  no_cuda();
}

std::string gpu_architecture(int cc_major, int cc_minor) {
  return "sm_" + std::to_string(cc_major) + std::to_string(cc_minor);
}
std::vector<char> compile_kernel_source(const std::string&, const std::string&) {
  no_cuda();
}
std::string nvrtc_version() {
  return "built without the CUDA toolkit";
}
struct KernelLab::Impl {};
KernelLab::KernelLab(const DeviceInfo&, std::size_t) {
  no_cuda();
}
KernelLab::~KernelLab() = default;
const DeviceInfo& KernelLab::device() const {
  no_cuda();
}
KernelRun KernelLab::run(const KernelProgram&, const TracedWarp&, int, int,
                         const std::atomic<bool>*, const KernelSimulation*) {
  no_cuda();
}
bool KernelLab::load(const std::string&) {
  no_cuda();
}
std::size_t KernelLab::cached_modules() const {
  return 0;
}
bool KernelLab::copy_trace_row(std::uint64_t, int, void*) {
  no_cuda();
}
void* KernelLab::trace_stream() const {
  return nullptr;
}
std::function<void()> KernelLab::counter_launch(const KernelProgram&) {
  no_cuda();
}
MemcpyMeasurement KernelLab::reference_copy() {
  no_cuda();
}
}  // namespace warplens::gpu
