// The bytes-in-flight lab's part of `warplens-bench kernels-once` (kernels_once.h): the pointer
// chase (default and __ldcg, one lane and a warp; it builds its cycle with lay_cycle and warms
// with touch_lines), the streaming copy of every word size x loads per thread x grid shape, the
// loaded-latency probe (idle and beside a copy), the staged copies (cp.async, TMA; where the GPU
// lacks one, the row says so), cudaMemcpy; every copy verified word by word, every chase checked
// against the host's cycle. Copy buffers are 16 MiB.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "flight_scenario.h"
#include "lab_id.h"
#include "measure_flight.h"

namespace warplens::app {

namespace {

constexpr std::int64_t kCopyBytes = std::int64_t{16} << 20;
constexpr std::int64_t kChaseBytes = 64 * 1024;

void chase(KernelRunLog& log, gpu::FlightLab& lab, gpu::ChaseParams p, const std::string& prefix) {
  p.working_set_bytes = std::min(p.working_set_bytes, kChaseBytes);
  log.run(std::string("chase ") + gpu::to_string(p.path),
          prefix + std::to_string(p.lanes) + (p.lanes == 1 ? " lane, " : " lanes, ") +
              std::to_string(p.working_set_bytes / 1024) + " KiB",
          [&] {
            const auto m = lab.measure_latency(p, 1);
            return RunCheck{m.verified, m.check};
          });
}

void stream(KernelRunLog& log, gpu::FlightLab& lab, const gpu::StreamParams& p,
            const std::string& prefix) {
  log.run("stream_copy",
          prefix + std::to_string(p.word_bytes) + " B x " + std::to_string(p.loads_per_thread) +
              " loads, " + std::to_string(p.block_threads) + " threads, " +
              std::to_string(p.dynamic_shared_bytes / 1024) + " KiB shared" +
              (p.grid_stride ? ", grid stride" : ""),
          [&] {
            const auto m = lab.measure_stream(p, 1, 0);
            return RunCheck{m.verified, m.check};
          });
}

}  // namespace

std::vector<KernelRun> flight_kernels_once(const gpu::DeviceInfo& device,
                                           const std::vector<const Scenario*>& scenarios) {
  KernelRunLog log(to_string(Lab::Flight));
  std::unique_ptr<gpu::FlightLab> lab;
  try {
    lab = std::make_unique<gpu::FlightLab>(device, kCopyBytes);
  } catch (const std::exception& e) {
    log.fail("FlightLab (16 MiB copy buffers)", e.what());
    return log.take();
  }
  for (auto path : {gpu::LoadPath::Default, gpu::LoadPath::L2Only})
    for (int lanes : {1, gpu::kChaseWarpLanes}) chase(log, *lab, {kChaseBytes, path, lanes}, "");
  for (int word : {4, 8, 16}) {
    for (int loads : {1, 2, 4, 8}) {
      for (bool grid_stride : {false, true}) {
        gpu::StreamParams p;
        p.word_bytes = word;
        p.loads_per_thread = loads;
        p.grid_stride = grid_stride;
        stream(log, *lab, p, "");
      }
    }
  }
  // The loaded-latency probe: the warp chase and a batch chase, idle and beside one copy block
  // per SM (its chase is the ladder's largest working set, 4 x L2).
  for (int load : {0, 1})
    for (int batch : {0, gpu::kProbeBatchLarge})
      log.run("loaded_probe",
              std::to_string(load) + " copy blocks/SM, " +
                  (batch == 0 ? std::string("warp chase") : std::to_string(batch) + " B batch"),
              [&] {
                const auto m = lab->measure_loaded_latency(load, batch, 1);
                return RunCheck{m.verified, m.check};
              });
  log.run("loaded_probe", "1 copy block/SM of 4 loads per thread, warp chase", [&] {
    const auto m = lab->measure_loaded_latency(1, 0, 1, nullptr, gpu::kProbeCopyLoadsMany);
    return RunCheck{m.verified, m.check};
  });
  for (auto kind : {gpu::AsyncKind::CpAsync, gpu::AsyncKind::Tma}) {
    log.run(kind == gpu::AsyncKind::CpAsync ? "cp_async_copy" : "tma_copy", "16 MiB", [&] {
      const auto m = lab->measure_async(kind, 1, 0);
      if (m.unsupported) return RunCheck{true, "not run: " + *m.unsupported};
      return RunCheck{m.verified, m.check};
    });
  }
  log.run("cudaMemcpy", "16 MiB", [&] {
    const auto m = lab->measure_memcpy(1, 0);
    return RunCheck{m.gbps > 0, "timed once"};
  });
  for (const Scenario* s : scenarios) {
    const FlightState& st = flight_scenario(*s);
    const std::string prefix = "scenario " + s->name + ": ";
    stream(log, *lab, st.stream, prefix);
    chase(log, *lab, {st.working_set_bytes, gpu::LoadPath::Default, 1}, prefix);
  }
  return log.take();
}

}  // namespace warplens::app
