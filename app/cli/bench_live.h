// The live path, checked headless on a GPU (warplens-bench live, fault-drill; the GPU smoke run):
//   live         for each lab: a scenario of its own, then one parameter change as the panel
//                makes it (LabInstance::random_change), frames drawn as the window draws them
//                until the new measured point and its counter line are on screen
//                (LabInstance::live_reading); fails past 1 s or on a lab error.
//   fault-drill  for each lab: measured, then the test-only trapping kernel (gpu_fault.h) on the
//                lab's worker; the process restarts itself as the window does (gpu_restart.h),
//                restores the lab's preset and must show a measured point with its counters,
//                the same parameters, within 3 s of the fault. The state between the process
//                images travels in a JSON file (--state).
#pragma once

#include <string>
#include <vector>

namespace warplens::bench {

struct LiveOptions {
  bool fault_drill = false;
  std::vector<std::string> labs;   ///< lab names (lab_id.h); empty: every lab
  std::string state;               ///< fault-drill: the file a restarted image continues from
  double change_limit_ms = 1000;   ///< live: change -> point and counter line
  double restart_limit_ms = 3000;  ///< fault-drill: fault -> point and counters in the new image
  /// fault-drill: the faulting kernel runs clean once before it faults, so the fault meets code
  /// that runs beside the frames (gpu_fault.h: RunsAlone), not code run alone as new code is
  bool proven_code = false;
};

/// Runs the check, prints one table (flushed line by line); exit 0 all passed, 1 a row failed,
/// 3 no CUDA device.
int run_live(const LiveOptions& options);

}  // namespace warplens::bench
