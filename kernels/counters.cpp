// Hardware counters through CUPTI's range profiler (CUDA 12.6+ API: cupti_range_profiler.h with
// the profiler host API for metric configuration and evaluation). This file sets a
// CounterSession up and tears it down; profile() is in counters_profile.cpp, and the CUPTI and
// driver plumbing both use is in counters_cupti.cpp.
//
// The sequence, per CounterSession:
//   construction: cuInit -> primary context -> cuptiProfilerInitialize -> device support check
//     -> chip name + counter availability image -> profiler host object -> metrics this chip
//     knows -> config image (and the number of passes it needs) -> enable/disable once, so a
//     refusal (privileges, MIG, another profiler) shows up here and not at the first profile().
//   profile(): enable on the context -> counter data image -> SetConfig (user range, user
//     replay) -> per pass: start, push range, launch, synchronize, pop, stop, until CUPTI says
//     every pass was submitted -> decode -> disable -> evaluate the one range.
#include "counters.h"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>

#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "counters_internal.h"

namespace warplens::gpu {

namespace {

using counters_detail::check;
using counters_detail::check_setup;
using counters_detail::cupti_result_name;
using counters_detail::CurrentContext;
using counters_detail::driver;
using counters_detail::DriverApi;
using counters_detail::EnabledProfiler;
using counters_detail::params_of;
using counters_detail::profiler_mutex;
using counters_detail::unavailable;

/// Sessions alive that called cuptiProfilerInitialize (guarded by profiler_mutex): the process
/// initializes CUPTI's profiler once and deinitializes it with the last session.
int profiler_users = 0;

/// The first reason cuptiProfilerDeviceSupported gives, as a failure kind.
void check_device_supported(CUdevice device) {
  auto params = params_of<CUpti_Profiler_DeviceSupported_Params>(
      CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE);
  params.cuDevice = device;
  params.api = CUPTI_PROFILER_RANGE_PROFILING;
  check(cuptiProfilerDeviceSupported(&params), "cuptiProfilerDeviceSupported");
  if (params.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED) return;
  if (params.architecture == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED) {
    unavailable(CounterFailure::OldArchitecture);
  }
  if (params.vGpu == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED ||
      params.vGpu == CUPTI_PROFILER_CONFIGURATION_DISABLED) {
    unavailable(CounterFailure::VirtualGpu);
  }
  if (params.confidentialCompute == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED) {
    unavailable(CounterFailure::ConfidentialComputing);
  }
  if (params.cmp == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED) {
    unavailable(CounterFailure::MiningProcessor);
  }
  if (params.wsl == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED) unavailable(CounterFailure::Wsl);
  if (params.sli == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED) unavailable(CounterFailure::Sli);
  unavailable(CounterFailure::Other, "CUPTI reports this device as unsupported");
}

}  // namespace

// --- session ---------------------------------------------------------------------------------

CounterSession::Impl::Impl(int device_index, const std::vector<std::vector<std::string>>& wanted,
                           bool keep_enabled) {
  try {
    const DriverApi& api = driver();
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || device_index < 0 || device_index >= count) {
      unavailable(CounterFailure::NoDevice,
                  "no device " + std::to_string(device_index) + " among " + std::to_string(count));
    }
    int major = 0, minor = 0;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device_index) !=
            cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device_index) !=
            cudaSuccess) {
      unavailable(CounterFailure::NoDevice, "cudaDeviceGetAttribute failed");
    }
    if (major < 7) {
      unavailable(CounterFailure::OldArchitecture,
                  "this GPU is " + std::to_string(major) + "." + std::to_string(minor));
    }
    check_setup(api.device_get(&device, device_index), "cuDeviceGet");
    check_setup(api.primary_retain(&context, device), "cuDevicePrimaryCtxRetain");

    if (profiler_users == 0) {
      auto init =
          params_of<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
      check(cuptiProfilerInitialize(&init), "cuptiProfilerInitialize");
    }
    ++profiler_users;
    profiler_initialized = true;
    check_device_supported(device);

    auto chip =
        params_of<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
    chip.deviceIndex = static_cast<size_t>(device_index);
    check(cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName");
    const std::string chip_name = chip.pChipName != nullptr ? chip.pChipName : "";

    std::vector<uint8_t> availability;
    {
      CurrentContext current(context);
      auto avail = params_of<CUpti_Profiler_GetCounterAvailability_Params>(
          CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
      avail.ctx = context;
      check(cuptiProfilerGetCounterAvailability(&avail), "cuptiProfilerGetCounterAvailability");
      availability.resize(avail.counterAvailabilityImageSize);
      avail.pCounterAvailabilityImage = availability.data();
      check(cuptiProfilerGetCounterAvailability(&avail), "cuptiProfilerGetCounterAvailability");
    }

    groups.resize(wanted.size());
    for (std::size_t gi = 0; gi < wanted.size(); ++gi) {
      Group& g = groups[gi];
      auto host_init = params_of<CUpti_Profiler_Host_Initialize_Params>(
          CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
      host_init.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
      host_init.pChipName = chip_name.c_str();
      host_init.pCounterAvailabilityImage = availability.data();
      const CUptiResult host_result = cuptiProfilerHostInitialize(&host_init);
      if (host_result == CUPTI_ERROR_NOT_INITIALIZED || host_result == CUPTI_ERROR_UNKNOWN) {
        // What CUPTI answers when it cannot load libnvperf_host.so.
        unavailable(CounterFailure::CuptiMissing,
                    "cuptiProfilerHostInitialize: " + cupti_result_name(host_result));
      }
      check(host_result, "cuptiProfilerHostInitialize");
      g.host = host_init.pHostObject;

      // Keep the metrics this chip knows; the others stay std::nullopt in every CounterSet.
      std::vector<std::string> names = wanted[gi];
      if (names.empty()) {
        for (const CounterMetric& metric : kCounterMetrics) names.emplace_back(metric.name);
      }
      for (const std::string& name : names) {
        auto props = params_of<CUpti_Profiler_Host_GetMetricProperties_Params>(
            CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE);
        props.pHostObject = g.host;
        props.pMetricName = name.c_str();
        if (cuptiProfilerHostGetMetricProperties(&props) == CUPTI_SUCCESS) {
          g.metrics.push_back(name);
        }
      }
      if (g.metrics.empty()) {
        unavailable(CounterFailure::Other,
                    "CUPTI knows none of WarpLens's metrics on " + chip_name);
      }
      for (const std::string& name : g.metrics) g.metric_ptrs.push_back(name.c_str());

      auto add = params_of<CUpti_Profiler_Host_ConfigAddMetrics_Params>(
          CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
      add.pHostObject = g.host;
      add.ppMetricNames = g.metric_ptrs.data();
      add.numMetrics = g.metric_ptrs.size();
      check(cuptiProfilerHostConfigAddMetrics(&add), "cuptiProfilerHostConfigAddMetrics");

      auto size = params_of<CUpti_Profiler_Host_GetConfigImageSize_Params>(
          CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
      size.pHostObject = g.host;
      check(cuptiProfilerHostGetConfigImageSize(&size), "cuptiProfilerHostGetConfigImageSize");
      g.config_image.resize(size.configImageSize);
      auto image = params_of<CUpti_Profiler_Host_GetConfigImage_Params>(
          CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
      image.pHostObject = g.host;
      image.configImageSize = g.config_image.size();
      image.pConfigImage = g.config_image.data();
      check(cuptiProfilerHostGetConfigImage(&image), "cuptiProfilerHostGetConfigImage");

      auto num = params_of<CUpti_Profiler_Host_GetNumOfPasses_Params>(
          CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE);
      num.configImageSize = g.config_image.size();
      num.pConfigImage = g.config_image.data();
      check(cuptiProfilerHostGetNumOfPasses(&num), "cuptiProfilerHostGetNumOfPasses");
      g.passes = static_cast<int>(num.numOfPasses);
    }

    // Refusals that only come when the profiler is switched on (admin-only counters, MIG, a
    // second profiler) show here rather than at the first profile().
    if (keep_enabled) {
      kept = std::make_unique<EnabledProfiler>(context);
    } else {
      EnabledProfiler probe(context);
    }
  } catch (...) {
    release();
    throw;
  }
}

void CounterSession::Impl::release() noexcept {
  kept.reset();
  for (Group& g : groups) {
    if (g.host != nullptr) {
      auto params = params_of<CUpti_Profiler_Host_Deinitialize_Params>(
          CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
      params.pHostObject = g.host;
      cuptiProfilerHostDeinitialize(&params);
      g.host = nullptr;
    }
  }
  if (profiler_initialized) {
    if (--profiler_users == 0) {
      auto params = params_of<CUpti_Profiler_DeInitialize_Params>(
          CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE);
      cuptiProfilerDeInitialize(&params);
    }
    profiler_initialized = false;
  }
  if (context != nullptr) {
    driver().primary_release(device);
    context = nullptr;
  }
}

CounterSession::Impl::~Impl() {
  release();
}

CounterSession::CounterSession(int device) {
  std::lock_guard<std::mutex> lock(profiler_mutex());
  impl_ = std::make_unique<Impl>(device, std::vector<std::vector<std::string>>{{}}, false);
}

CounterSession::CounterSession(int device, const std::vector<std::vector<std::string>>& groups,
                               KeepEnabled) {
  if (groups.empty()) throw std::invalid_argument("CounterSession: no metric groups asked for");
  for (const auto& group : groups) {
    if (group.empty()) throw std::invalid_argument("CounterSession: an empty metric group");
  }
  std::lock_guard<std::mutex> lock(profiler_mutex());
  impl_ = std::make_unique<Impl>(device, groups, true);
}

CounterSession::~CounterSession() {
  std::lock_guard<std::mutex> lock(profiler_mutex());
  impl_.reset();
}

int CounterSession::passes() const {
  return impl_->groups.front().passes;
}

int CounterSession::passes(std::size_t group) const {
  return impl_->groups.at(group).passes;
}

const std::vector<std::string>& CounterSession::collected_metrics() const {
  return impl_->groups.front().metrics;
}

const std::vector<std::string>& CounterSession::collected_metrics(std::size_t group) const {
  return impl_->groups.at(group).metrics;
}

std::optional<std::string> counters_available(int device) {
  try {
    CounterSession session(device);
    return std::nullopt;
  } catch (const std::exception& e) {
    return std::string(e.what());
  }
}

}  // namespace warplens::gpu
