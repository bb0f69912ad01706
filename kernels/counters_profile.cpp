// CounterSession's read-out: profile() and profile_group() run the launch once per pass inside
// one CUPTI user range, decode the counter data and evaluate the group's metrics; the session's
// setup is in counters.cpp, the CUPTI and driver plumbing in counters_cupti.cpp.
#include <cuda.h>
#include <cupti_profiler_host.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

#include "counters.h"
#include "counters_internal.h"
#include "gpu.h"
#include "gpu_fault.h"

namespace warplens::gpu {

namespace {

using counters_detail::check;
using counters_detail::check_run;
using counters_detail::CurrentContext;
using counters_detail::driver;
using counters_detail::EnabledProfiler;
using counters_detail::params_of;
using counters_detail::profiler_mutex;

}  // namespace

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
  between_gpu_phases();  // a frame may draw before the read-out (gpu_fault.h), not inside it
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
    // Work queued before the range must not land in it, nor work another thread launches during
    // it (a trace beside the job: profiled_range_mutex, gpu_fault.h).
    std::unique_lock<std::shared_mutex> range_open(profiled_range_mutex());
    check_run(driver().synchronize(), "cuCtxSynchronize");

    std::vector<uint8_t> counter_data;
    int passes_run = 0;
    double enable_ms = 0, setup_ms = 0, passes_ms = 0, decode_ms = 0;
    {
      auto t = clock::now();
      std::unique_ptr<EnabledProfiler> local;
      if (s.suspended) {
        s.kept = std::make_unique<EnabledProfiler>(s.context);
        s.kept_group = group;
        s.suspended = false;
      }
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
  if (!s.kept && !s.suspended) return once();
  try {
    return once();
  } catch (const CountersUnavailable& e) {
    if (s.timing)
      std::fprintf(stderr, "counters: kept profiler refused (%s); retrying\n", e.what());
    s.kept.reset();
    return once();
  }
}

void CounterSession::suspend() {
  std::lock_guard<std::mutex> lock(profiler_mutex());
  Impl& s = *impl_;
  if (!s.kept) return;
  CurrentContext current(s.context);
  s.kept.reset();
  s.suspended = true;
}

bool CounterSession::profiler_enabled() const {
  std::lock_guard<std::mutex> lock(profiler_mutex());
  return impl_->kept != nullptr;
}

}  // namespace warplens::gpu
