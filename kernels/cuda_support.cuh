// Internal helpers shared by the CUDA translation units (copy_lab.cu, shared_lab.cu,
// cache_lab.cu): error checking, timing summaries, CUDA-event timing of repeated launches and a
// reusable device buffer. Not part of the public API; include only from .cu files.
//
// Errors: every helper that talks to CUDA throws GpuError (gpu.h) on failure, after clearing a
// non-sticky error so the next CUDA call starts clean. Units: times are in milliseconds (what
// cudaEventElapsedTime returns), sizes in bytes.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <string>
#include <thread>
#include <typeinfo>
#include <vector>

#include "gpu.h"
#include "gpu_fault.h"

namespace warplens::gpu::detail {

/// Throws GpuError("<what> failed: <CUDA's message>") unless `status` is cudaSuccess.
inline void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    cudaGetLastError();  // clear a non-sticky error so the next call starts clean
    throw GpuError(std::string(what) + " failed: " + cudaGetErrorString(status));
  }
}

/// Makes CUDA device `device` the calling thread's: cudaSetDevice, skipped when a context of that
/// device is already current (the labs call this before every entry point). Throws GpuError.
inline void use_device(int device) {
  int current = -1;
  if (cudaGetDevice(&current) == cudaSuccess && current == device) return;
  check(cudaSetDevice(device), "cudaSetDevice");
}

/// The median, quartiles, extremes and outliers of per-run times in milliseconds
/// (gpu::summarize_times); `ms` must not be empty.
inline Timing summarize(const std::vector<float>& ms) {
  return summarize_times(std::vector<double>(ms.begin(), ms.end()));
}

using gpu::median_of;  // gpu.h

/// A start and a stop event; throws GpuError when CUDA cannot create them.
struct Events {
  cudaEvent_t start = nullptr, stop = nullptr;
  Events() {
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreate(&stop), "cudaEventCreate");
  }
  ~Events() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  Events(const Events&) = delete;
  Events& operator=(const Events&) = delete;
  /// Waits for `stop`, then the milliseconds from `start` to `stop`. A failed wait throws
  /// GpuError named `what`.
  float elapsed_ms(const char* what = "cudaEventSynchronize") {
    check(cudaEventSynchronize(stop), what);
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    return ms;
  }
};

/// Throws Cancelled when `cancel` is set.
inline void check_cancel(const std::atomic<bool>* cancel) {
  if (cancel && cancel->load()) throw Cancelled();
}

/// Waits until `done` (an event recorded on `stream` after `launches` launches) has happened,
/// polling: throws Cancelled as soon as `cancel` is set (the launch goes on, the worker is free),
/// LaunchTimeout (gpu_fault.h) when the wait passes `launches` x launch_time_limit_s() (the
/// launch goes on; launch_overdue() holds until it ends), GpuError named `what` when CUDA fails.
/// gpu_fault.cu.
void wait_for_launch(cudaStream_t stream, cudaEvent_t done, const std::atomic<bool>* cancel,
                     const char* what, int launches);

/// Ends `alone` (gpu_fault.h: RunsAlone) once the work queued on `stream` so far has finished,
/// or after kAloneBoundMs (the work then goes on beside the frames); nothing when it is not
/// active. Throws Cancelled when `cancel` is set meanwhile, GpuError named `what` when CUDA
/// reports an error of that work (`alone` then ends with the exception: a sticky fault keeps
/// the frames stopped).
inline void finish_alone(RunsAlone& alone, cudaStream_t stream, const std::atomic<bool>* cancel,
                         const char* what) {
  if (!alone.active()) return;
  cudaEvent_t queued = nullptr;
  check(cudaEventCreateWithFlags(&queued, cudaEventDisableTiming), "cudaEventCreate");
  struct Destroy {
    cudaEvent_t e;
    ~Destroy() { cudaEventDestroy(e); }
  } destroy{queued};
  check(cudaEventRecord(queued, stream), "cudaEventRecord");
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(kAloneBoundMs);
  for (;;) {
    const cudaError_t s = cudaEventQuery(queued);
    if (s == cudaSuccess) break;
    if (s != cudaErrorNotReady) check(s, what);
    check_cancel(cancel);
    if (std::chrono::steady_clock::now() > until) break;  // still running: beside the frames
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  alone.done();
}

/// What time_launches calls its failures: `warmup` names the stream synchronisation after the
/// warm-up launches, `run` the wait for each timed launch.
struct LaunchLabels {
  const char* warmup;
  const char* run = "cudaEventSynchronize";
};

/// The default after_run of time_launches: nothing.
struct NoAfterRun {
  void operator()(float) const {}
};

/// `warmup` untimed launches on `stream`, a synchronisation, then max(runs, 1) timed with events;
/// after_run(ms) after each timed one. Checks `cancel` before every launch (throws
/// Cancelled); other failures throw GpuError named as in `labels`. Returns the median and the
/// range in milliseconds.
template <typename Launch, typename AfterRun = NoAfterRun>
Timing time_launches(cudaStream_t stream, int runs, int warmup, const std::atomic<bool>* cancel,
                     LaunchLabels labels, Launch launch, AfterRun after_run = {}) {
  between_gpu_phases();  // a frame may draw here (gpu_fault.h), never inside the timed runs
  Events events;
  // The first launch of this launch site in the process runs alone (gpu_fault.h: RunsAlone).
  RunsAlone alone(first_run(typeid(Launch).hash_code()));
  for (int i = 0; i < warmup; ++i) {
    check_cancel(cancel);
    launch();
    finish_alone(alone, stream, cancel, labels.warmup);
  }
  if (warmup > 0) {
    check(cudaEventRecord(events.stop, stream), "cudaEventRecord");
    wait_for_launch(stream, events.stop, cancel, labels.warmup, warmup);
  }
  check(cudaStreamSynchronize(stream), labels.warmup);
  std::vector<float> ms;
  for (int i = 0; i < std::max(runs, 1); ++i) {
    check_cancel(cancel);
    check(cudaEventRecord(events.start, stream), "cudaEventRecord");
    launch();
    check(cudaEventRecord(events.stop, stream), "cudaEventRecord");
    finish_alone(alone, stream, cancel, labels.run);  // without warm-up launches
    wait_for_launch(stream, events.stop, cancel, labels.run, 1);
    ms.push_back(events.elapsed_ms(labels.run));
    after_run(ms.back());
  }
  between_gpu_phases();
  return summarize(ms);
}

/// A cudaMalloc'ed buffer that is reallocated only when a different size is asked for.
struct DeviceBuffer {
  void* ptr = nullptr;
  std::size_t bytes = 0;
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { release(); }
  void release() {
    if (ptr) cudaFree(ptr);
    ptr = nullptr;
    bytes = 0;
  }
  /// `size` bytes; true when it (re)allocated, i.e. the contents are new. Throws GpuError
  /// ("cannot allocate <what> (N MiB): ...") when cudaMalloc fails.
  bool ensure(std::size_t size, const char* what) {
    if (ptr && bytes == size) return false;
    release();
    const cudaError_t s = cudaMalloc(&ptr, size);
    if (s != cudaSuccess) {
      cudaGetLastError();
      ptr = nullptr;
      throw GpuError(std::string("cannot allocate ") + what + " (" + std::to_string(size >> 20) +
                     " MiB): " + cudaGetErrorString(s));
    }
    bytes = size;
    return true;
  }
  /// At least `size` bytes, keeping a larger buffer as it is (its contents stay too); for
  /// scratch space whose size moves with the parameters. Returns and throws as ensure().
  bool ensure_at_least(std::size_t size, const char* what) {
    if (ptr && bytes >= size) return false;
    return ensure(size, what);
  }
  template <typename T>
  T* as() const {
    return static_cast<T*>(ptr);
  }
};

}  // namespace warplens::gpu::detail
