// The CUPTI and driver plumbing the counter sessions stand on: CUPTI and driver error checks
// (as CountersUnavailable or GpuError), the driver entry points looked up through the runtime
// (nothing links libcuda), and the enabled-profiler and current-context scope guards.
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>

#include <mutex>
#include <string>

#include "counters_internal.h"
#include "gpu.h"

namespace warplens::gpu {

// counters_failure_for_cupti() spells the codes as numbers so the header stays CUPTI-free.
static_assert(CUPTI_ERROR_HARDWARE_BUSY == 26);
static_assert(CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED == 33);
static_assert(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES == 35);
static_assert(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED == 39);
static_assert(CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES == 40);
static_assert(CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED == 41);
static_assert(CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED == 42);
static_assert(CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED == 43);
static_assert(CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED == 44);
static_assert(CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED == 45);

namespace counters_detail {

namespace {

template <typename Fn>
void lookup(const char* symbol, Fn& fn) {
  void* address = nullptr;
  cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
  const cudaError_t err =
      cudaGetDriverEntryPointByVersion(symbol, &address, 12000, cudaEnableDefault, &status);
  if (err != cudaSuccess || status != cudaDriverEntryPointSuccess || address == nullptr) {
    unavailable(CounterFailure::NoDevice,
                std::string("the CUDA driver has no ") + symbol + " (driver too old?)");
  }
  fn = reinterpret_cast<Fn>(address);
}

std::string driver_error(CUresult result) {
  const char* name = nullptr;
  if (driver().error_name(result, &name) != CUDA_SUCCESS || name == nullptr) {
    return "CUDA driver error " + std::to_string(static_cast<int>(result));
  }
  return name;
}

}  // namespace

// --- errors ----------------------------------------------------------------------------------

std::mutex& profiler_mutex() {
  static std::mutex mutex;
  return mutex;
}

std::string cupti_result_name(CUptiResult result) {
  const char* text = nullptr;
  if (cuptiGetResultString(result, &text) == CUPTI_SUCCESS && text != nullptr) return text;
  return "CUPTI error " + std::to_string(static_cast<int>(result));
}

void unavailable(CounterFailure failure, const std::string& detail) {
  throw CountersUnavailable(counters_failure_text(failure, detail), failure);
}

void check(CUptiResult result, const char* call) {
  if (result == CUPTI_SUCCESS) return;
  const CounterFailure failure = counters_failure_for_cupti(static_cast<int>(result));
  unavailable(failure, std::string(call) + ": " + cupti_result_name(result));
}

// --- driver API through the runtime ----------------------------------------------------------

const DriverApi& driver() {
  static std::mutex mutex;
  static DriverApi api;
  static bool loaded = false;
  std::lock_guard<std::mutex> lock(mutex);
  if (loaded) return api;
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    cudaGetLastError();  // clear it, so later runtime calls start clean
    unavailable(CounterFailure::NoDevice,
                std::string("cudaGetDeviceCount: ") + cudaGetErrorString(err));
  }
  lookup("cuDeviceGet", api.device_get);
  lookup("cuDevicePrimaryCtxRetain", api.primary_retain);
  lookup("cuDevicePrimaryCtxRelease", api.primary_release);
  lookup("cuCtxPushCurrent", api.push_current);
  lookup("cuCtxPopCurrent", api.pop_current);
  lookup("cuCtxSynchronize", api.synchronize);
  lookup("cuGetErrorName", api.error_name);
  loaded = true;
  return api;
}

void check_setup(CUresult result, const char* call) {
  if (result == CUDA_SUCCESS) return;
  unavailable(CounterFailure::NoDevice, std::string(call) + ": " + driver_error(result));
}

void check_run(CUresult result, const char* call) {
  if (result == CUDA_SUCCESS) return;
  throw GpuError(std::string(call) + " failed: " + driver_error(result));
}

// --- range profiler object -------------------------------------------------------------------

EnabledProfiler::EnabledProfiler(CUcontext context) {
  auto params =
      params_of<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
  params.ctx = context;
  check(cuptiRangeProfilerEnable(&params), "cuptiRangeProfilerEnable");
  object_ = params.pRangeProfilerObject;
}

EnabledProfiler::~EnabledProfiler() {
  auto params =
      params_of<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
  params.pRangeProfilerObject = object_;
  cuptiRangeProfilerDisable(&params);  // nothing useful to do with a failure here
}

CurrentContext::CurrentContext(CUcontext context) {
  check_run(driver().push_current(context), "cuCtxPushCurrent");
}

CurrentContext::~CurrentContext() {
  CUcontext popped = nullptr;
  driver().pop_current(&popped);
}

}  // namespace counters_detail

}  // namespace warplens::gpu
