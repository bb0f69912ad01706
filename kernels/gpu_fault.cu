// Sticky faults: detecting them, the device reset, and the test-only kernels that cause them
// (gpu_fault.h).
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

#include "cuda_support.cuh"
#include "gpu.h"
#include "gpu_fault.h"

namespace warplens::gpu {

namespace {

// The errors after which the context cannot be used again (CUDA Runtime API, cudaError: "the
// process must be terminated and relaunched", or the context be reset).
bool sticky(cudaError_t e) {
  switch (e) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchTimeout:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorLaunchFailure:
    case cudaErrorAssert:
    case cudaErrorECCUncorrectable:
    case cudaErrorContextIsDestroyed: return true;
    default: return false;
  }
}

std::string text(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
}

__global__ void trap_kernel(int trap) {
  if (trap) __trap();
}

__global__ void illegal_store_kernel(unsigned* p) {
  *p = 1;  // p points at no allocation
}

__global__ void spin_kernel(long long cycles, unsigned* out) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
  *out = 1;
}

std::atomic<double> limit_s{2.0};

// first_run keys of the probe's kernels (gpu_fault.h: RunsAlone).
constexpr std::uint64_t kTrapKernelKey = 0x7472'6170'0000'0001ull;
constexpr std::uint64_t kIllegalStoreKey = 0x7472'6170'0000'0002ull;

struct Overdue {
  std::mutex mutex;
  cudaEvent_t event = nullptr;  // recorded after the launch that ran past the limit
};
Overdue& overdue() {
  static Overdue o;
  return o;
}

}  // namespace

std::optional<DeviceMemory> current_device_memory() {
  std::size_t free = 0, total = 0;
  if (cudaMemGetInfo(&free, &total) != cudaSuccess) {
    cudaGetLastError();
    return std::nullopt;
  }
  return DeviceMemory{static_cast<std::int64_t>(free), static_cast<std::int64_t>(total)};
}

double launch_time_limit_s() {
  return limit_s.load();
}

void set_launch_time_limit_s(double seconds) {
  limit_s = seconds;
}

bool launch_overdue() {
  Overdue& o = overdue();
  std::lock_guard lock(o.mutex);
  if (!o.event) return false;
  if (cudaEventQuery(o.event) == cudaErrorNotReady) return true;
  cudaGetLastError();
  cudaEventDestroy(o.event);
  o.event = nullptr;
  return false;
}

void forget_overdue_launch() {
  Overdue& o = overdue();
  std::lock_guard lock(o.mutex);
  o.event = nullptr;  // destroyed with the context
}

namespace detail {

void wait_for_launch(cudaStream_t stream, cudaEvent_t done, const std::atomic<bool>* cancel,
                     const char* what, int launches) {
  const auto start = std::chrono::steady_clock::now();
  const auto limit = std::chrono::duration<double>(launch_time_limit_s() * std::max(launches, 1));
  for (int polls = 0;; ++polls) {
    const cudaError_t s = cudaEventQuery(done);
    if (s == cudaSuccess) return;
    if (s != cudaErrorNotReady) check(s, what);
    check_cancel(cancel);
    if (std::chrono::steady_clock::now() - start > limit) {
      {
        // An event of our own after the launch on its stream: done when the launch is.
        Overdue& o = overdue();
        std::lock_guard lock(o.mutex);
        if (o.event) cudaEventDestroy(o.event);
        o.event = nullptr;
        if (cudaEventCreateWithFlags(&o.event, cudaEventDisableTiming) == cudaSuccess)
          cudaEventRecord(o.event, stream);
        cudaGetLastError();
      }
      char text[200];
      std::snprintf(text, sizeof text,
                    "%s: a launch ran longer than the limit of %.1f s; it goes on running on the "
                    "GPU until it ends, and the lab measures again after that",
                    what, launch_time_limit_s());
      throw LaunchTimeout(text);
    }
    // Spin briefly (short kernels), then poll every 0.2 ms.
    if (polls > 200) std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

}  // namespace detail

double slow_probe(int device, double seconds, const std::atomic<bool>* cancel) {
  detail::use_device(device);
  int khz = 0;
  detail::check(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device), "clock rate");
  // The output lives as long as the process: freeing it when the wait gives up (LaunchTimeout,
  // Cancelled) would block in cudaFree until the kernel ends, which is what the limit avoids.
  static unsigned* out = nullptr;
  if (!out) detail::check(cudaMalloc(&out, sizeof(unsigned)), "the probe's output");
  detail::Events events;
  detail::check(cudaEventRecord(events.start, nullptr), "cudaEventRecord");
  spin_kernel<<<1, 1>>>(static_cast<long long>(seconds * khz * 1e3), out);
  detail::check(cudaGetLastError(), "slow probe launch");
  detail::check(cudaEventRecord(events.stop, nullptr), "cudaEventRecord");
  detail::wait_for_launch(nullptr, events.stop, cancel, "slow probe", 1);
  float ms = 0;
  detail::check(cudaEventElapsedTime(&ms, events.start, events.stop), "cudaEventElapsedTime");
  return ms;
}

std::optional<DeviceFault> device_fault() {
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) return std::nullopt;
  cudaEvent_t event = nullptr;
  const cudaError_t s = cudaEventCreateWithFlags(&event, cudaEventDisableTiming);
  if (s == cudaSuccess) {
    cudaEventDestroy(event);
    return std::nullopt;
  }
  if (!sticky(s)) {
    cudaGetLastError();
    return std::nullopt;
  }
  return DeviceFault{device, text(s)};
}

namespace {
std::atomic<bool (*)()> yield_wanted{nullptr};
std::atomic<void (*)()> yield_lend{nullptr};
}  // namespace

void set_phase_yield(bool (*wanted)(), void (*lend)()) {
  yield_lend = lend;
  yield_wanted = wanted;
}

void between_gpu_phases() {
  const auto wanted = yield_wanted.load();
  const auto lend = yield_lend.load();
  if (!wanted || !lend || !wanted()) return;
  const cudaError_t s = cudaDeviceSynchronize();
  if (s != cudaSuccess) throw GpuError("cudaDeviceSynchronize (before a frame) failed: " + text(s));
  lend();
}

void reset_device(int device) {
  cudaError_t s = cudaSetDevice(device);
  if (s == cudaSuccess || sticky(s)) s = cudaDeviceReset();
  if (s != cudaSuccess) throw GpuError("cudaDeviceReset failed: " + text(s));
  cudaGetLastError();
}

MemoryHog::MemoryHog(int device, std::int64_t leave_free_bytes) {
  detail::use_device(device);
  for (;;) {
    std::size_t free = 0, total = 0;
    detail::check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
    const std::int64_t want = static_cast<std::int64_t>(free) - leave_free_bytes;
    if (want < (1 << 20)) break;
    const std::int64_t block = std::min<std::int64_t>(want, std::int64_t{1} << 30);
    void* p = nullptr;
    if (cudaMalloc(&p, static_cast<std::size_t>(block)) != cudaSuccess) {
      cudaGetLastError();
      break;  // what is left is fragmented: hold what we have
    }
    blocks_.push_back(p);
    held_ += block;
  }
}

MemoryHog::~MemoryHog() {
  for (void* p : blocks_) cudaFree(p);
}

void fault_probe(int device, FaultKind kind) {
  cudaSetDevice(device);
  if (kind == FaultKind::TrapAfterCleanRun) {
    // The same kernel first runs clean (alone, being new here): the fault then meets code that
    // runs beside the frames, as a fault of a kernel that ran clean before would.
    RunsAlone alone(first_run(kTrapKernelKey));
    trap_kernel<<<1, 1>>>(0);
    if (cudaDeviceSynchronize() != cudaSuccess) throw GpuError("fault probe: the clean run failed");
    alone.done();
  }
  // Code that has not run clean in this process runs alone (gpu_fault.h: RunsAlone).
  RunsAlone alone(first_run(kind == FaultKind::IllegalAddress ? kIllegalStoreKey : kTrapKernelKey));
  if (kind != FaultKind::IllegalAddress) {
    trap_kernel<<<1, 1>>>(1);
  } else {
    // Far past anything cudaMalloc hands out, and aligned, so the fault is the address alone.
    illegal_store_kernel<<<1, 1>>>(reinterpret_cast<unsigned*>(0x7f0000000000ull));
  }
  cudaError_t s = cudaGetLastError();
  if (s == cudaSuccess) s = cudaDeviceSynchronize();
  if (s == cudaSuccess) {
    alone.done();
    throw GpuError("fault probe: the kernel did not fault");
  }
  throw DeviceFaultError(DeviceFault{device, text(s)});
}

}  // namespace warplens::gpu
