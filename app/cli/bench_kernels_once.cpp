#include "bench_kernels_once.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>

#include "gpu.h"
#include "kernels_once.h"
#include "lab.h"
#include "scenarios.h"

namespace warplens::bench {

int run_kernels_once(const KernelsOnceOptions& o) {
  for (const std::string& name : o.labs) {
    try {
      (void)app::parse_lab(name);
    } catch (const std::exception& e) {
      std::cerr << "warplens-bench kernels-once: " << e.what() << "\n";
      return 2;
    }
  }
  const auto query = gpu::query_device();
  if (!query.device) {
    std::cerr << "warplens-bench kernels-once: " << query.reason << "\n";
    return 3;
  }
  const gpu::DeviceInfo& d = *query.device;
  const gpu::DeviceInfo small = app::one_sm_view(d);
  std::printf("device   %s (CC %d.%d, %d SMs), handed to the labs as one SM (kernels_once.h)\n",
              d.name.c_str(), d.cc_major, d.cc_minor, d.sm_count);
  std::printf("%-10s %-40s %-58s %-4s %9s  %s\n", "lab", "kernel", "parameters", "ok", "ms",
              "check");
  const auto start = std::chrono::steady_clock::now();
  int runs = 0, failed = 0, scenarios = 0;
  for (const app::LabInfo& info : app::lab_registry()) {
    const std::string name = to_string(info.id);
    if (!o.labs.empty() && std::find(o.labs.begin(), o.labs.end(), name) == o.labs.end()) continue;
    std::vector<const app::Scenario*> own;
    if (o.scenarios) {
      for (const app::Scenario& s : app::builtin_scenarios())
        if (s.lab == info.id) own.push_back(&s);
    }
    scenarios += static_cast<int>(own.size());
    for (const app::KernelRun& r : info.kernels_once(small, own)) {
      ++runs;
      failed += !r.ok;
      std::printf("%-10s %-40s %-58s %-4s %9.1f  %s\n", r.lab.c_str(), r.kernel.c_str(),
                  r.parameters.c_str(), r.ok ? "ok" : "FAIL", r.ms, r.check.c_str());
    }
    std::fflush(stdout);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("kernels-once: %d runs, %d failed, %d scenarios, %.1f s\n", runs, failed, scenarios,
              seconds);
  return failed ? 1 : 0;
}

}  // namespace warplens::bench
