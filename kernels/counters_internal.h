// Internal to the hardware-counter translation units (counters*.cpp): the CUPTI and driver
// plumbing they share (error checks, the driver entry points, the profiler lock, the enabled-
// profiler and current-context guards) and CounterSession::Impl. Not part of the public API;
// built only with CUPTI (counters_unavailable.cpp stands in without it).
#pragma once

#include <cuda.h>
#include <cupti_profiler_host.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "counters.h"

namespace warplens::gpu {

namespace counters_detail {

// --- errors (counters_cupti.cpp) -------------------------------------------------------------

/// CUPTI's profiler state is per process: one profile() (and one session setup) at a time.
std::mutex& profiler_mutex();

std::string cupti_result_name(CUptiResult result);

/// A CUPTI parameter struct, zeroed, with its size set (what every CUPTI call expects).
template <typename Params>
Params params_of(size_t struct_size) {
  Params p{};
  p.structSize = struct_size;
  return p;
}

[[noreturn]] void unavailable(CounterFailure failure, const std::string& detail = {});

/// Throws CountersUnavailable naming `call` when `result` is not success.
void check(CUptiResult result, const char* call);

// --- driver API through the runtime (counters_cupti.cpp) -------------------------------------
// WarpLens binaries must start on machines without the NVIDIA driver (model only), so nothing
// links libcuda: the few driver calls CUPTI's context needs come from the runtime's entry-point
// lookup, after the runtime has found a device.

struct DriverApi {
  decltype(&::cuDeviceGet) device_get = nullptr;
  decltype(&::cuDevicePrimaryCtxRetain) primary_retain = nullptr;
  decltype(&::cuDevicePrimaryCtxRelease) primary_release = nullptr;
  decltype(&::cuCtxPushCurrent) push_current = nullptr;
  decltype(&::cuCtxPopCurrent) pop_current = nullptr;
  decltype(&::cuCtxSynchronize) synchronize = nullptr;
  decltype(&::cuGetErrorName) error_name = nullptr;
};

/// The driver entry points; throws CountersUnavailable(NoDevice) without a driver or device.
const DriverApi& driver();

/// Driver failures during setup mean "no usable device"; during profile() they are GpuError.
void check_setup(CUresult result, const char* call);
void check_run(CUresult result, const char* call);

// --- range profiler object (counters_cupti.cpp) ----------------------------------------------

/// The range profiler enabled on a context, disabled again on every way out.
class EnabledProfiler {
 public:
  explicit EnabledProfiler(CUcontext context);
  ~EnabledProfiler();
  EnabledProfiler(const EnabledProfiler&) = delete;
  EnabledProfiler& operator=(const EnabledProfiler&) = delete;
  [[nodiscard]] CUpti_RangeProfiler_Object* get() const { return object_; }

 private:
  CUpti_RangeProfiler_Object* object_ = nullptr;
};

/// Makes a context current for a scope.
class CurrentContext {
 public:
  explicit CurrentContext(CUcontext context);
  ~CurrentContext();
  CurrentContext(const CurrentContext&) = delete;
  CurrentContext& operator=(const CurrentContext&) = delete;
};

}  // namespace counters_detail

// --- session (set up in counters.cpp, profiled in counters_profile.cpp) ----------------------

struct CounterSession::Impl {
  /// One set of metrics collected together: its own host object and config image.
  struct Group {
    CUpti_Profiler_Host_Object* host = nullptr;
    std::vector<std::string> metrics;      ///< the names this chip knows, in the asked order
    std::vector<const char*> metric_ptrs;  ///< the same, for CUPTI
    std::vector<uint8_t> config_image;
    int passes = 0;
  };

  CUdevice device = 0;
  CUcontext context = nullptr;  ///< the device's primary context, retained
  bool profiler_initialized = false;
  std::vector<Group> groups;
  /// The range profiler, enabled for the session's life (keep_enabled sessions), else null.
  std::unique_ptr<counters_detail::EnabledProfiler> kept;
  /// The group whose configuration the kept profiler last ran: on an H100 a kept profiler
  /// reconfigured for another group reads NaN for every metric (it keeps the first
  /// configuration's passes), so a change of group enables it afresh.
  std::size_t kept_group = 0;
  /// A KeepEnabled session whose profiler suspend() switched off: the next read-out switches it
  /// on again.
  bool suspended = false;
  /// WARPLENS_COUNTER_TIMING set: profile() prints where its time goes to stderr.
  bool timing = std::getenv("WARPLENS_COUNTER_TIMING") != nullptr;

  /// `wanted`: one list of metric names per group (an empty list: all of kCounterMetrics).
  Impl(int device_index, const std::vector<std::vector<std::string>>& wanted, bool keep_enabled);
  ~Impl();
  void release() noexcept;
};

}  // namespace warplens::gpu
