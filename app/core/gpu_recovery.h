// Recovery from a sticky GPU fault (an illegal address, a trap), process-wide. After such a fault
// every CUDA call of the process on that device fails; one lab's fault is every lab's.
//
// The parts:
//   - whoever meets the fault (a lab's worker, LabWorker; a trace on the GL thread) reports it
//     with request_gpu_reset(), in one line. When the process registered a restart
//     (gpu_restart.h: the window, the bench's fault drill) it runs at once on that thread: a new
//     process takes over with the same state. That is the way back on current drivers;
//   - without a registered restart (or when it could not happen) the request stays for the old
//     in-process reset: each lab's session registers itself as a GPU user
//     (GpuUserRegistration): `release` lets go of its GPU objects (its gpu::XLab through
//     LabWorker::release_lab: buffers, streams, events, modules; its CUDA-GL registrations),
//     `restart` measures again afterwards; the thread that owns the GL context (the window's loop
//     through Workbench::update, a test) calls recover_gpu_if_requested(): with the GPU turn held
//     (gpu_turn.h: no job runs) it releases every user and the counter checker (CUPTI), resets
//     the device, counts a new GPU generation, and restarts every user. On an H100 (driver
//     580.159.04) the reset "succeeds" but the device stays unavailable to the process: see
//     docs/hardening.md.
#pragma once

#include <functional>
#include <memory>
#include <string>

namespace warplens::app {

/// What a lab keeps on the GPU. Both are called on the thread that calls
/// recover_gpu_if_requested (the GL thread in the window), `release` with the GPU turn held.
struct GpuUser {
  std::function<void()> release;  ///< let go of every object of the old context
  std::function<void()> restart;  ///< after the reset: measure (and trace) again
};

/// A registered user; unregisters when destroyed (a session holds one as a member).
class GpuUserRegistration {
 public:
  GpuUserRegistration() = default;
  explicit GpuUserRegistration(GpuUser user);
  ~GpuUserRegistration();
  GpuUserRegistration(const GpuUserRegistration&) = delete;
  GpuUserRegistration& operator=(const GpuUserRegistration&) = delete;

 private:
  std::shared_ptr<GpuUser> user_;
};

/// A sticky fault on `device` was met (`what`: one line, CUDA's error): runs the registered
/// restart now (gpu_restart.h; it does not return when it succeeds), else leaves the request for
/// recover_gpu_if_requested. Any thread; never throws.
void request_gpu_reset(int device, const std::string& what);
/// After a GPU call failed on this thread (a trace on the GL thread): when the device has a
/// sticky fault (gpu::device_fault), requests the reset and returns true.
bool request_gpu_reset_if_faulted();
/// Whether a reset waits for recover_gpu_if_requested().
[[nodiscard]] bool gpu_reset_requested();
/// How many resets this process has made (0 at start).
[[nodiscard]] unsigned gpu_generation();
/// The line of the last fault reported, empty when none.
[[nodiscard]] std::string last_gpu_fault();

/// When a reset was requested: takes the GPU turn, releases every registered user and the
/// counter checker, calls `reset` (gpu::reset_device(device) when empty; host tests pass their
/// own), counts a generation, clears the request, lets the turn go and restarts every user.
/// Returns whether it reset. A failing reset is reported through the returned false and the
/// request stays, so the next call tries again. Call it only on the thread that made the users'
/// GL objects, never from a worker (it waits for the turn the worker holds).
bool recover_gpu_if_requested(const std::function<void(int device)>& reset = {});

/// What the recovery does without a fault and a reset: with the GPU turn held, every registered
/// user lets go of its GPU objects and the counter checker goes; then `between` runs (still
/// holding the turn); then every user restarts (measures again). The soak takes its GPU memory
/// samples in `between`: what a lab holds for the parameters it had last (a pitched matrix, the
/// transposes' matrices, A/B's second lab) is in neither sample, what outlives the labs is.
/// Same thread rule as recover_gpu_if_requested.
void release_gpu_users(const std::function<void()>& between);

}  // namespace warplens::app
