// The cache lab's part of `warplens-bench kernels-once` (kernels_once.h): the L1 gather at the
// carveout extremes, the shared-hungry kernel below and above the 48 KiB opt-in, constant reads
// from broadcast to 32 addresses, every read path x pattern on a 256 x 256 image, each verified
// as the lab's measure_* verifies it; then each built-in scenario's point. On the one-SM view the
// grids are one SM's share (1 gather block, 32 shared-hungry blocks, 4 constant blocks).
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "cache_scenario.h"
#include "lab_id.h"
#include "measure_cache.h"

namespace warplens::app {

namespace {

constexpr int kReadSide = 256;  // pixels per side of the read-path image (the lab's smallest: 64)
constexpr std::int64_t kKiB = 1024;

std::string kib(std::int64_t bytes) {
  return std::to_string(bytes / kKiB) + " KiB";
}

void gather(KernelRunLog& log, gpu::CacheLab& lab, int carveout, std::int64_t working_set,
            const std::string& prefix) {
  log.run("l1_gather", prefix + "carveout " + std::to_string(carveout) + ", " + kib(working_set),
          [&] {
            const auto m = lab.measure_l1_gather(carveout, working_set, 1, 0);
            return RunCheck{m.verified, m.check};
          });
}

void hungry(KernelRunLog& log, gpu::CacheLab& lab, int carveout, std::int64_t dynamic_shared,
            const std::string& prefix) {
  log.run("shared_hungry",
          prefix + "carveout " + std::to_string(carveout) + ", " + kib(dynamic_shared) +
              " dynamic shared",
          [&] {
            const auto m = lab.measure_shared_hungry(carveout, dynamic_shared, 1, 0);
            return RunCheck{m.verified, m.check};
          });
}

void constant(KernelRunLog& log, gpu::CacheLab& lab, int k, const std::string& prefix) {
  log.run("constant_reads", prefix + "k " + std::to_string(k), [&] {
    const auto m = lab.measure_constant(k, 1, 0);
    return RunCheck{m.verified, m.check};
  });
}

void read_path(KernelRunLog& log, gpu::CacheLab& lab, gpu::ReadPathParams p,
               const std::string& prefix) {
  p.side = std::min(p.side, kReadSide);
  log.run(std::string("read_path_kernel ") + gpu::to_string(p.path),
          prefix + gpu::to_string(p.pattern) + ", side " + std::to_string(p.side), [&] {
            const auto m = lab.measure_read_path(p, 1, 0);
            return RunCheck{m.verified, m.check};
          });
}

}  // namespace

std::vector<KernelRun> cache_kernels_once(const gpu::DeviceInfo& device,
                                          const std::vector<const Scenario*>& scenarios) {
  KernelRunLog log(to_string(Lab::Cache));
  std::unique_ptr<gpu::CacheLab> lab;
  try {
    lab = std::make_unique<gpu::CacheLab>(device);
  } catch (const std::exception& e) {
    log.fail("CacheLab", e.what());
    return log.take();
  }
  for (int carveout : {gpu::kCarveoutDefault, gpu::kCarveoutMaxL1, gpu::kCarveoutMaxShared})
    gather(log, *lab, carveout, 64 * kKiB, "");
  // Under 48 KiB and over it (the opt-in), within what this GPU allows a block.
  const std::int64_t big =
      std::min<std::int64_t>(100 * kKiB, device.shared_bytes_per_block_optin - 4 * kKiB);
  for (std::int64_t dynamic_shared : {20 * kKiB, big})
    hungry(log, *lab, gpu::kCarveoutMaxShared, dynamic_shared, "");
  hungry(log, *lab, gpu::kCarveoutMaxL1, 20 * kKiB, "");
  for (int k : {1, 4, 32}) constant(log, *lab, k, "");
  for (auto path : read_paths()) {
    for (auto pattern : read_patterns()) {
      gpu::ReadPathParams p;
      p.path = path;
      p.pattern = pattern;
      p.side = kReadSide;
      read_path(log, *lab, p, "");
    }
  }
  for (const Scenario* s : scenarios) {
    const CacheState& st = cache_scenario(*s);
    const std::string prefix = "scenario " + s->name + ": ";
    gather(log, *lab, st.carveout, st.working_set_bytes, prefix);
    hungry(log, *lab, st.carveout, st.dynamic_shared_bytes, prefix);
    constant(log, *lab, st.k, prefix);
    read_path(log, *lab, st.read, prefix);
  }
  return log.take();
}

}  // namespace warplens::app
