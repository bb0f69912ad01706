// Hardware counters through CUPTI's range profiler (CUDA 12.6+ API: cupti_range_profiler.h with
// the profiler host API for metric configuration and evaluation).
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

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

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

namespace {

// --- errors ----------------------------------------------------------------------------------

/// CUPTI's profiler state is per process: one profile() (and one session setup) at a time.
std::mutex& profiler_mutex() {
  static std::mutex mutex;
  return mutex;
}

/// Sessions alive that called cuptiProfilerInitialize (guarded by profiler_mutex): the process
/// initializes CUPTI's profiler once and deinitializes it with the last session.
int profiler_users = 0;

std::string cupti_result_name(CUptiResult result) {
  const char* text = nullptr;
  if (cuptiGetResultString(result, &text) == CUPTI_SUCCESS && text != nullptr) return text;
  return "CUPTI error " + std::to_string(static_cast<int>(result));
}

/// A CUPTI parameter struct, zeroed, with its size set (what every CUPTI call expects).
template <typename Params>
Params params_of(size_t struct_size) {
  Params p{};
  p.structSize = struct_size;
  return p;
}

[[noreturn]] void unavailable(CounterFailure failure, const std::string& detail = {}) {
  throw CountersUnavailable(counters_failure_text(failure, detail));
}

/// Throws CountersUnavailable naming `call` when `result` is not success.
void check(CUptiResult result, const char* call) {
  if (result == CUPTI_SUCCESS) return;
  const CounterFailure failure = counters_failure_for_cupti(static_cast<int>(result));
  unavailable(failure, std::string(call) + ": " + cupti_result_name(result));
}

// --- driver API through the runtime ----------------------------------------------------------
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

/// The driver entry points; throws CountersUnavailable(NoDevice) without a driver or device.
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

std::string driver_error(CUresult result) {
  const char* name = nullptr;
  if (driver().error_name(result, &name) != CUDA_SUCCESS || name == nullptr) {
    return "CUDA driver error " + std::to_string(static_cast<int>(result));
  }
  return name;
}

/// Driver failures during setup mean "no usable device"; during profile() they are GpuError.
void check_setup(CUresult result, const char* call) {
  if (result == CUDA_SUCCESS) return;
  unavailable(CounterFailure::NoDevice, std::string(call) + ": " + driver_error(result));
}

void check_run(CUresult result, const char* call) {
  if (result == CUDA_SUCCESS) return;
  throw GpuError(std::string(call) + " failed: " + driver_error(result));
}

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

// --- range profiler object -------------------------------------------------------------------

/// The range profiler enabled on a context, disabled again on every way out.
class EnabledProfiler {
 public:
  explicit EnabledProfiler(CUcontext context) {
    auto params =
        params_of<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
    params.ctx = context;
    check(cuptiRangeProfilerEnable(&params), "cuptiRangeProfilerEnable");
    object_ = params.pRangeProfilerObject;
  }
  ~EnabledProfiler() {
    auto params = params_of<CUpti_RangeProfiler_Disable_Params>(
        CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
    params.pRangeProfilerObject = object_;
    cuptiRangeProfilerDisable(&params);  // nothing useful to do with a failure here
  }
  EnabledProfiler(const EnabledProfiler&) = delete;
  EnabledProfiler& operator=(const EnabledProfiler&) = delete;
  [[nodiscard]] CUpti_RangeProfiler_Object* get() const { return object_; }

 private:
  CUpti_RangeProfiler_Object* object_ = nullptr;
};

/// Makes a context current for a scope.
class CurrentContext {
 public:
  explicit CurrentContext(CUcontext context) {
    check_run(driver().push_current(context), "cuCtxPushCurrent");
  }
  ~CurrentContext() {
    CUcontext popped = nullptr;
    driver().pop_current(&popped);
  }
  CurrentContext(const CurrentContext&) = delete;
  CurrentContext& operator=(const CurrentContext&) = delete;
};

}  // namespace

// --- session ---------------------------------------------------------------------------------

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
  std::unique_ptr<EnabledProfiler> kept;
  /// The group whose configuration the kept profiler last ran: on an H100 a kept profiler
  /// reconfigured for another group reads NaN for every metric (it keeps the first
  /// configuration's passes), so a change of group enables it afresh.
  std::size_t kept_group = 0;
  /// WARPLENS_COUNTER_TIMING set: profile() prints where its time goes to stderr.
  bool timing = std::getenv("WARPLENS_COUNTER_TIMING") != nullptr;

  /// `wanted`: one list of metric names per group (an empty list: all of kCounterMetrics).
  Impl(int device_index, const std::vector<std::vector<std::string>>& wanted, bool keep_enabled);
  ~Impl();
  void release() noexcept;
};

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

CounterSet CounterSession::profile(const std::function<void()>& launch) {
  const MetricValues read = profile_group(launch, 0);
  const Impl::Group& g = impl_->groups.front();
  CounterSet result;
  result.passes = read.passes;
  for (size_t i = 0; i < g.metrics.size(); ++i) {
    for (const CounterMetric& metric : kCounterMetrics) {
      if (g.metrics[i] == metric.name) result.*metric.field = read.values[i];
    }
  }
  return result;
}

CounterSession::MetricValues CounterSession::profile_group(const std::function<void()>& launch,
                                                           std::size_t group) {
  std::lock_guard<std::mutex> lock(profiler_mutex());
  Impl& s = *impl_;
  // A kept-enabled profiler that CUPTI refuses to reconfigure is switched off, and the read-out
  // is tried once more the ordinary way (enabled for this profile only).
  const auto once = [&]() -> MetricValues {
    Impl::Group& g = s.groups.at(group);
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    auto ms_since = [&](clock::time_point t) {
      return std::chrono::duration<double, std::milli>(clock::now() - t).count();
    };
    CurrentContext current(s.context);
    // Work queued before the range must not land in it.
    check_run(driver().synchronize(), "cuCtxSynchronize");

    std::vector<uint8_t> counter_data;
    int passes_run = 0;
    double enable_ms = 0, setup_ms = 0, passes_ms = 0, decode_ms = 0;
    {
      auto t = clock::now();
      std::unique_ptr<EnabledProfiler> local;
      if (s.kept && s.kept_group != group) {
        s.kept.reset();
        s.kept = std::make_unique<EnabledProfiler>(s.context);
        s.kept_group = group;
      }
      if (!s.kept) local = std::make_unique<EnabledProfiler>(s.context);
      CUpti_RangeProfiler_Object* object = s.kept ? s.kept->get() : local->get();
      enable_ms = ms_since(t);
      t = clock::now();

      auto size = params_of<CUpti_RangeProfiler_GetCounterDataSize_Params>(
          CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
      size.pRangeProfilerObject = object;
      size.pMetricNames = g.metric_ptrs.data();
      size.numMetrics = g.metric_ptrs.size();
      size.maxNumOfRanges = 1;
      size.maxNumRangeTreeNodes = 1;
      check(cuptiRangeProfilerGetCounterDataSize(&size), "cuptiRangeProfilerGetCounterDataSize");
      counter_data.assign(size.counterDataSize, 0);
      auto init = params_of<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
          CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
      init.pRangeProfilerObject = object;
      init.counterDataSize = counter_data.size();
      init.pCounterData = counter_data.data();
      check(cuptiRangeProfilerCounterDataImageInitialize(&init),
            "cuptiRangeProfilerCounterDataImageInitialize");

      auto config = params_of<CUpti_RangeProfiler_SetConfig_Params>(
          CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
      config.pRangeProfilerObject = object;
      config.configSize = g.config_image.size();
      config.pConfig = g.config_image.data();
      config.counterDataImageSize = counter_data.size();
      config.pCounterDataImage = counter_data.data();
      config.range = CUPTI_UserRange;
      config.replayMode = CUPTI_UserReplay;
      config.maxRangesPerPass = 1;
      config.numNestingLevels = 1;
      config.minNestingLevel = 1;
      config.passIndex = 0;
      config.targetNestingLevel = 1;
      check(cuptiRangeProfilerSetConfig(&config), "cuptiRangeProfilerSetConfig");
      setup_ms = ms_since(t);
      t = clock::now();

      // One pass per iteration; bounded, so a CUPTI that never reports "all submitted" cannot
      // hang the caller.
      const int max_passes = g.passes + 2;
      bool all_submitted = false;
      while (!all_submitted) {
        if (passes_run >= max_passes) {
          throw GpuError("CUPTI asked for more than " + std::to_string(max_passes) +
                         " passes of one launch");
        }
        auto start = params_of<CUpti_RangeProfiler_Start_Params>(
            CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
        start.pRangeProfilerObject = object;
        check(cuptiRangeProfilerStart(&start), "cuptiRangeProfilerStart");
        auto push = params_of<CUpti_RangeProfiler_PushRange_Params>(
            CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE);
        push.pRangeProfilerObject = object;
        push.pRangeName = "warplens";
        check(cuptiRangeProfilerPushRange(&push), "cuptiRangeProfilerPushRange");

        // Close the range and the pass whatever the launch does, then let its error through.
        auto close_pass = [&]() {
          auto pop = params_of<CUpti_RangeProfiler_PopRange_Params>(
              CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE);
          pop.pRangeProfilerObject = object;
          const CUptiResult popped = cuptiRangeProfilerPopRange(&pop);
          auto stop = params_of<CUpti_RangeProfiler_Stop_Params>(
              CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
          stop.pRangeProfilerObject = object;
          const CUptiResult stopped = cuptiRangeProfilerStop(&stop);
          all_submitted = stop.isAllPassSubmitted != 0;
          check(popped, "cuptiRangeProfilerPopRange");
          check(stopped, "cuptiRangeProfilerStop");
        };
        try {
          launch();
          check_run(driver().synchronize(), "the profiled launch (cuCtxSynchronize)");
        } catch (...) {
          try {
            close_pass();
          } catch (...) {
            // the launch's own error is the one worth reporting
          }
          throw;
        }
        close_pass();
        ++passes_run;
      }
      passes_ms = ms_since(t);
      t = clock::now();

      auto decode = params_of<CUpti_RangeProfiler_DecodeData_Params>(
          CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
      decode.pRangeProfilerObject = object;
      check(cuptiRangeProfilerDecodeData(&decode), "cuptiRangeProfilerDecodeData");
      decode_ms = ms_since(t);
    }
    const auto t_eval = clock::now();

    auto info = params_of<CUpti_RangeProfiler_GetCounterDataInfo_Params>(
        CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
    info.pCounterDataImage = counter_data.data();
    info.counterDataImageSize = counter_data.size();
    check(cuptiRangeProfilerGetCounterDataInfo(&info), "cuptiRangeProfilerGetCounterDataInfo");
    if (info.numTotalRanges < 1) {
      throw GpuError("the profiled range holds no data (did the callable launch a kernel?)");
    }

    MetricValues result;
    result.values.assign(g.metric_ptrs.size(), 0.0);
    auto eval = params_of<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
        CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
    eval.pHostObject = g.host;
    eval.pCounterDataImage = counter_data.data();
    eval.counterDataImageSize = counter_data.size();
    eval.rangeIndex = 0;
    eval.ppMetricNames = g.metric_ptrs.data();
    eval.numMetrics = g.metric_ptrs.size();
    eval.pMetricValues = result.values.data();
    check(cuptiProfilerHostEvaluateToGpuValues(&eval), "cuptiProfilerHostEvaluateToGpuValues");
    result.passes = passes_run;
    if (s.timing) {
      std::fprintf(stderr,
                   "counters: enable %.2f ms, setup %.2f ms, %d passes %.2f ms, decode %.2f ms, "
                   "evaluate %.2f ms, total %.2f ms%s\n",
                   enable_ms, setup_ms, passes_run, passes_ms, decode_ms, ms_since(t_eval),
                   ms_since(t0), s.kept ? " (profiler kept enabled)" : "");
    }
    return result;
  };
  if (!s.kept) return once();
  try {
    return once();
  } catch (const CountersUnavailable& e) {
    if (s.timing)
      std::fprintf(stderr, "counters: kept profiler refused (%s); retrying\n", e.what());
    s.kept.reset();
    return once();
  }
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
