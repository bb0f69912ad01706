// Sticky GPU faults and the device reset that ends them; launches that run past the time limit.
//
// Sticky GPU faults and the device reset that ends them. An illegal address, a trap or an
// assertion in a kernel leaves the CUDA context unusable: every later call of the process on that
// device returns the same error until cudaDeviceReset destroys the primary context, which every
// lab of the process shares. The app coordinates that reset (app/core/gpu_recovery.h); this header
// only detects the state and performs the reset. No CUDA types, so it compiles without CUDA.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

#include "gpu.h"  // GpuError

namespace warplens::gpu {

/// The calling thread's device is in a sticky error state.
struct DeviceFault {
  int device = 0;
  std::string what;  ///< CUDA's name and message of the error, e.g. "cudaErrorIllegalAddress: ..."
};

/// A call met a sticky fault (the fault probe throws it; so may a caller that has asked
/// device_fault()). LabWorker takes it, or any GpuError after which device_fault() answers, as a
/// fault of the whole device.
class DeviceFaultError : public GpuError {
 public:
  explicit DeviceFaultError(DeviceFault f)
      : GpuError("GPU fault on device " + std::to_string(f.device) + ": " + f.what),
        fault(std::move(f)) {}
  DeviceFault fault;
};

/// Whether the calling thread's current device has a sticky error (asks with a call that cannot
/// block: creating and destroying an event). std::nullopt when it has none, when no context was
/// made yet, or without CUDA. Never throws.
std::optional<DeviceFault> device_fault();

/// cudaDeviceReset on `device`: destroys its primary context and everything in it, for every
/// thread of the process; the next CUDA call makes a fresh one. Every object made in the old
/// context (buffers, streams, events, registered GL buffers, modules) must be released first.
/// Throws GpuError (gpu.h) when the reset fails.
void reset_device(int device);

/// The views' traces go through host memory, not CUDA-GL interop: the sessions run the traced
/// kernel into device memory, copy it back and upload it to the view's GL buffer, so no CUDA-GL
/// synchronisation runs. Serialized frames set it (app/core/gpu_turn.h, set_serial_gl). Why: on
/// the H100s and H200s we measure on (driver 580.159.04, 2026-11-27), once any process of the
/// machine had met a sticky fault, the first interop trace of the global lab in each later
/// process left that frame's glFinish waiting 19.04 s, after which the process's CUDA context
/// was lost ("unspecified launch failure", Xid 38), even with GL idle before the map
/// (glFinish) and the stream idle before the unmap.
inline std::atomic<bool>& traces_through_host() {
  static std::atomic<bool> on{false};
  return on;
}

/// Where a job may pause between its GPU phases so that a frame can draw (serialized frames,
/// app/core/gpu_turn.h): time_launches calls between_gpu_phases() before its warm-up and after
/// its last timed launch, CounterSession::profile before and after a read-out. When `wanted`
/// (set by the app) says a frame waits, it waits for every stream of the device
/// (cudaDeviceSynchronize: no kernel of the job runs while the frame's GL work does) and calls
/// `lend`, which returns once the frame has drawn. Never inside a timed run or a profiled range.
/// Without a hook set, or when no frame waits, it costs two atomic loads. Throws GpuError when
/// the synchronisation reports an error of the job's earlier work.
void set_phase_yield(bool (*wanted)(), void (*lend)());
void between_gpu_phases();

/// Held exclusively by CounterSession::profile_group from before its first pass to after its
/// last, and shared by GPU work that may run beside a job (a trace on the GL thread that waited
/// too long for the turn: app/core/gpu_turn.h, TraceWait), which tries for it and skips its frame
/// when a read-out holds it. Why: CUPTI's range profiler counts every kernel of the context while
/// a range is open, not only the profiled launch. A trace launched beside a read-out was counted
/// as the profiled copy's (the window read 8.00 sectors per request, model 4.00, for the aligned
/// __ldg copy on an H200, 2026-11-29: the trace and heat map fell into the pass that counted
/// sectors, not the one that counted requests).
inline std::shared_mutex& profiled_range_mutex() {
  static std::shared_mutex m;
  return m;
}

/// GPU work that runs alone: while it runs, no GL work of this process is on the GPU (the app's
/// frames wait; app/core/gpu_turn.h installs the hooks). Code that has not yet run clean in this
/// process runs so: the first launch of each timed launch site (time_launches), the first launch
/// of a student's kernel in each shape (the own-kernel lab) and the test-only fault probe. Why: a
/// process whose CUDA context faulted while its own GL work was on the GPU took 4.4 s to end (the
/// driver's context-switch timeout for the GL channel, Xid 109; H100 80GB HBM3, driver
/// 580.159.04, 2026-11-27, docs/hardening.md), and the restarted process's CUDA waited for that;
/// with no GL work on the GPU at the fault it ended in about 0.1 s. Serializing every frame
/// against every job would avoid it too, but cost the soak's frame p99 (317 ms): code that ran
/// clean once runs beside the frames.
///
/// `begin` asks for the GPU alone and returns once the frames' GL work is finished (or after the
/// app's bound); `end(faulted)` lets the frames go on, or, when the work met a sticky fault,
/// keeps them stopped for the end of the process. Without hooks (the command line tools, no GL),
/// RunsAlone costs nothing.
void set_alone_hooks(void (*begin)(), void (*end)(bool faulted));
/// The installed hooks (nullptr until set_alone_hooks).
std::pair<void (*)(), void (*)(bool)> alone_hooks();

/// Whether `key` (a launch site, or a kernel and its shape) runs here for the first time in this
/// process; records it. Thread-safe.
bool first_run(std::uint64_t key);

/// How long GPU work runs alone at most (ms): a launch still running then goes on beside the
/// frames (a kernel that spins for seconds must not freeze the window).
inline constexpr int kAloneBoundMs = 250;

/// Scope of GPU work that runs alone when `alone` (see set_alone_hooks). The owner ends it with
/// done() once the work has finished clean, or finished its bound; when the scope ends without
/// done() (an exception), the frames stay stopped if the device met a sticky fault.
class RunsAlone {
 public:
  explicit RunsAlone(bool alone);
  ~RunsAlone();
  void done();
  [[nodiscard]] bool active() const { return active_; }
  RunsAlone(const RunsAlone&) = delete;
  RunsAlone& operator=(const RunsAlone&) = delete;

 private:
  bool active_ = false;
};

/// What a timed launch throws when it has run longer than launch_time_limit_s() (the kernel cannot
/// be stopped: it goes on running on the GPU until it ends; launch_overdue() says so meanwhile).
class LaunchTimeout : public GpuError {
 public:
  using GpuError::GpuError;
};

/// The longest one timed launch may run before its wait gives up (LaunchTimeout), seconds.
/// 2 s unless set.
double launch_time_limit_s();
void set_launch_time_limit_s(double seconds);

/// A launch that ran past the limit is still running on the GPU (asks its event, never
/// blocks). Work that would queue behind it on the GL thread (a trace) waits for the next frame
/// while this holds. False without CUDA.
bool launch_overdue();
/// Forgets the overdue launch (its event) without waiting: before a device reset.
void forget_overdue_launch();

/// Test only: one kernel that spins for `seconds`, timed as the labs time their launches (the
/// same wait, the limit and `cancel` honoured): returns its time in ms, or throws LaunchTimeout
/// past the limit (Cancelled when `cancel` is set meanwhile).
double slow_probe(int device, double seconds, const std::atomic<bool>* cancel);

/// Free and total memory of the calling thread's current device (cudaMemGetInfo), for the line
/// a failed allocation shows; std::nullopt without a device or CUDA. Never throws.
std::optional<DeviceMemory> current_device_memory();

/// The line a lab shows when an allocation failed for want of memory (`what` holds CUDA's "out of
/// memory"): `what`, then how much of the device is free (`memory`; unknown: said so) and that
/// another process may hold the rest. Other messages come back unchanged.
std::string out_of_memory_text(const std::string& what, const std::optional<DeviceMemory>& memory);

/// Test only: holds the device's memory, all but `leave_free_bytes` of what is free (in blocks of
/// at most 1 GiB), until destroyed, so a test meets a real allocation failure. Throws GpuError
/// without CUDA.
class MemoryHog {
 public:
  MemoryHog(int device, std::int64_t leave_free_bytes);
  ~MemoryHog();
  MemoryHog(const MemoryHog&) = delete;
  MemoryHog& operator=(const MemoryHog&) = delete;
  [[nodiscard]] std::int64_t held_bytes() const { return held_; }

 private:
  std::vector<void*> blocks_;
  std::int64_t held_ = 0;
};

/// Test only: what a test's fault probe does to the GPU.
enum class FaultKind {
  Trap,            ///< the kernel executes __trap()
  IllegalAddress,  ///< the kernel stores to an address no allocation holds
  /// the kernel first runs once without trapping, then traps: a fault in code that ran clean
  /// before, which runs beside the frames (RunsAlone)
  TrapAfterCleanRun,
};

/// Test only: launches one thread of a kernel that faults as `kind` says on `device` and waits
/// for it, leaving the device in a sticky error state; then throws DeviceFaultError (GpuError when
/// the kernel did not fault). Never returns normally. Without CUDA, throws GpuError.
[[noreturn]] void fault_probe(int device, FaultKind kind);

}  // namespace warplens::gpu
