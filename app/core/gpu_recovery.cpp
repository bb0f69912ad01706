#include "gpu_recovery.h"

#include <algorithm>
#include <mutex>
#include <vector>

#include "counter_service.h"
#include "gpu.h"
#include "gpu_fault.h"
#include "gpu_log.h"
#include "gpu_restart.h"
#include "gpu_turn.h"

namespace warplens::app {

namespace {

struct Recovery {
  std::mutex mutex;
  std::vector<std::weak_ptr<GpuUser>> users;
  bool requested = false;
  int device = 0;
  unsigned generation = 0;
  std::string last_fault;
};

Recovery& recovery() {
  static Recovery r;
  return r;
}

std::vector<std::shared_ptr<GpuUser>> users_now() {
  Recovery& r = recovery();
  std::lock_guard lock(r.mutex);
  std::vector<std::shared_ptr<GpuUser>> users;
  for (const auto& weak : r.users)
    if (auto user = weak.lock()) users.push_back(std::move(user));
  return users;
}

}  // namespace

GpuUserRegistration::GpuUserRegistration(GpuUser user)
    : user_(std::make_shared<GpuUser>(std::move(user))) {
  Recovery& r = recovery();
  std::lock_guard lock(r.mutex);
  r.users.push_back(user_);
}

GpuUserRegistration::~GpuUserRegistration() {
  if (!user_) return;
  Recovery& r = recovery();
  std::lock_guard lock(r.mutex);
  r.users.erase(std::remove_if(r.users.begin(), r.users.end(),
                               [&](const std::weak_ptr<GpuUser>& w) {
                                 const auto u = w.lock();
                                 return !u || u == user_;
                               }),
                r.users.end());
}

void request_gpu_reset(int device, const std::string& what) {
  {
    Recovery& r = recovery();
    std::lock_guard lock(r.mutex);
    gpu_log("reset requested on device %d: %s", device, what.c_str());
    r.requested = true;
    r.device = device;
    r.last_fault = what;
  }
  // The process's owner restarts it now, from this thread (gpu_restart.h); it returns only when
  // the restart could not happen, and the request stays for recover_gpu_if_requested.
  (void)run_gpu_restart(what);
}

bool request_gpu_reset_if_faulted() {
  const auto fault = gpu::device_fault();
  if (!fault) return false;
  request_gpu_reset(fault->device, "GPU fault (" + fault->what + ")");
  return true;
}

bool gpu_reset_requested() {
  Recovery& r = recovery();
  std::lock_guard lock(r.mutex);
  return r.requested;
}

unsigned gpu_generation() {
  Recovery& r = recovery();
  std::lock_guard lock(r.mutex);
  return r.generation;
}

std::string last_gpu_fault() {
  Recovery& r = recovery();
  std::lock_guard lock(r.mutex);
  return r.last_fault;
}

namespace {

// Releases every user (the GPU turn held), runs `between`, restarts every user when `between`
// returns true.
bool release_then(const std::function<bool()>& between) {
  const auto users = users_now();
  {
    // No job runs while the turn is held; jobs in flight on a faulted context fail at their
    // next CUDA call, so this waits little.
    std::unique_lock<std::mutex> turn;
    if (frame_borrows_turn()) return false;  // a job is paused mid-way: a later frame
    if (!frame_holds_turn()) turn = std::unique_lock<std::mutex>(gpu_turn());
    for (const auto& user : users)
      if (user->release) user->release();
    release_counter_checker();
    if (!between()) return false;
  }
  for (const auto& user : users)
    if (user->restart) user->restart();
  return true;
}

}  // namespace

bool recover_gpu_if_requested(const std::function<void(int device)>& reset) {
  if (!gpu_reset_requested()) return false;
  return release_then([&] {
    int device = 0;
    {
      Recovery& r = recovery();
      std::lock_guard lock(r.mutex);
      device = r.device;
    }
    gpu::forget_overdue_launch();  // its event goes with the context
    try {
      if (reset) {
        reset(device);
      } else {
        gpu::reset_device(device);
      }
    } catch (const std::exception& e) {
      gpu_log("device reset failed: %s", e.what());
      return false;
    }
    gpu_log("device %d reset", device);
    Recovery& r = recovery();
    std::lock_guard lock(r.mutex);
    r.requested = false;
    ++r.generation;
    return true;
  });
}

void release_gpu_users(const std::function<void()>& between) {
  (void)release_then([&] {
    between();
    return true;
  });
}

}  // namespace warplens::app
