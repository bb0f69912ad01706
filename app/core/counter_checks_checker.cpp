// CounterChecker: runs a verify case's or a cache-lab launch inside one profiled range on the
// GPU, reads its counters through the kept CUPTI session and sets them beside the model (the
// rows of `warplens verify`, bench's read-outs and the cache lab's L1 hit rates).
#include "counter_checks.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>

namespace warplens::app {

namespace {

constexpr std::size_t kLabGroup = 0;    ///< the verify catalog's metrics
constexpr std::size_t kCacheGroup = 1;  ///< the cache lab's hit rates

std::string num(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

}  // namespace

CounterChecker::CounterChecker(const gpu::DeviceInfo& device) : device_(device) {
  // The session first: a refusal (admin-only counters, vGPU, ...) shows before the labs
  // allocate their buffers. One configuration with every metric of every case kind, kept
  // enabled: a kept profiler cannot switch configurations (counters.h), and enabling the
  // profiler per read-out costs about 100 ms on an H100, where the union of these metrics needs
  // a few passes of a few milliseconds each.
  std::vector<std::string> metrics;
  for (bool shared : {false, true}) {
    for (bool store : {false, true}) {
      CounterCase c;
      c.kind = shared ? CaseKind::Bank : CaseKind::Copy;
      c.probe.op = store ? gpu::SharedOp::Store : gpu::SharedOp::Load;
      c.copy.side = store ? gpu::PatternSide::Write : gpu::PatternSide::Read;
      for (const std::string& m : case_metrics(c)) metrics.push_back(m);
    }
  }
  {  // ldmatrix's instruction counter, for the labs' own launches (LabLaunchCase)
    CounterCase c;
    c.kind = CaseKind::LabLaunch;
    c.lab_launch.ldmatrix = true;
    for (const std::string& m : case_metrics(c)) {
      if (std::find(metrics.begin(), metrics.end(), m) == metrics.end()) metrics.push_back(m);
    }
  }
  // The cache lab's L1 hit rates (LSU global loads and TEX-pipe texture fetches) in a group of
  // their own: in the first group they would add passes to every other read-out (measured on an
  // H100: verify's median read-out went from 36 to 59 ms). Switching groups enables the
  // profiler afresh, which the cache lab pays once per sweep of hit rates.
  std::vector<std::string> cache_metrics;
  for (bool texture : {false, true}) {
    CacheCounterCase c;
    c.kind = texture ? CacheCounterCase::Kind::ReadPath : CacheCounterCase::Kind::L1Gather;
    c.read.path = gpu::ReadPath::Texture;
    for (const std::string& m : cache_hit_metrics(c)) cache_metrics.push_back(m);
  }
  session_ = std::make_unique<gpu::CounterSession>(
      device.index, std::vector<std::vector<std::string>>{metrics, cache_metrics},
      gpu::CounterSession::KeepEnabled{});
  shared_ = std::make_unique<gpu::SharedLab>(device);
  // The first range a session profiles pays CUPTI's one-time set-up (about 150 ms on an H100):
  // pay it here, on a small bank-probe launch, so every check's read-out is the steady cost.
  CounterCase warm_up;
  warm_up.kind = CaseKind::Bank;
  (void)read(warm_up);
}

CounterChecker::~CounterChecker() = default;

void CounterChecker::suspend_profiler() {
  session_->suspend();
}

gpu::CopyLab& CounterChecker::copy_lab() {
  if (!copy_) copy_ = std::make_unique<gpu::CopyLab>(device_);
  return *copy_;
}

void CounterChecker::launch(const CounterCase& c) {
  switch (c.kind) {
    case CaseKind::Copy: {
      gpu::CopyParams p = c.copy;
      p.pitch_alignment = device_.pitch_alignment;
      copy_lab().launch_once(p);
      break;
    }
    case CaseKind::Bank: shared_->launch_bank_once(c.probe, kBankCounterRepeats); break;
    case CaseKind::TransposeGlobal:
      // The timed kernel: the traced one's predicated trace stores would count as store
      // instructions (9 per stored element on an H100), skewing sectors per instruction.
      shared_->launch_transpose_once(c.transpose);
      break;
    case CaseKind::LabLaunch: c.lab_launch.launch(device_.index, kLabLaunchReads)(); break;
  }
}

gpu::CounterSession::MetricValues CounterChecker::read(const CounterCase& c) {
  // The transpose's traced launch allocates and fills its matrices on first use (or when n
  // changes): run it once outside the profiled range, so no pass counts the fill's stores.
  if (c.kind == CaseKind::TransposeGlobal) launch(c);
  const std::size_t group = kLabGroup;  // the labs' configuration (see the constructor)
  gpu::CounterSession::MetricValues got;
  if (c.kind == CaseKind::LabLaunch) {
    // The checked load's counts: a launch with kLabLaunchReads requests less one with none.
    const std::function<void()> some = c.lab_launch.launch(device_.index, kLabLaunchReads);
    got = session_->profile_group(some, group);
    const std::function<void()> none = c.lab_launch.launch(device_.index, 0);
    const gpu::CounterSession::MetricValues base = session_->profile_group(none, group);
    for (std::size_t i = 0; i < got.values.size(); ++i) got.values[i] -= base.values[i];
    got.passes += base.passes;
  } else {
    got = session_->profile_group([&] { launch(c); }, group);
  }
  // In case_metrics() order; a metric this GPU does not know reads 0.
  const std::vector<std::string>& collected = session_->collected_metrics(group);
  gpu::CounterSession::MetricValues out;
  out.passes = got.passes;
  for (const std::string& name : case_metrics(c)) {
    const auto at = std::find(collected.begin(), collected.end(), name);
    out.values.push_back(
        at == collected.end() ? 0.0 : got.values[static_cast<std::size_t>(at - collected.begin())]);
  }
  return out;
}

LaunchCounters CounterChecker::read_launch(const std::function<void()>& launch) {
  const gpu::CounterSession::MetricValues got = session_->profile_group(launch, kLabGroup);
  const std::vector<std::string>& collected = session_->collected_metrics(kLabGroup);
  const auto value = [&](const char* name) {
    const auto at = std::find(collected.begin(), collected.end(), name);
    return at == collected.end() ? 0.0
                                 : got.values[static_cast<std::size_t>(at - collected.begin())];
  };
  LaunchCounters c;
  c.global_load_requests = value("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
  c.global_load_sectors = value("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
  c.global_store_requests = value("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum");
  c.global_store_sectors = value("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum");
  c.shared_load_instructions = value("smsp__inst_executed_op_shared_ld.sum");
  c.shared_load_wavefronts = value("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum");
  c.shared_store_instructions = value("smsp__inst_executed_op_shared_st.sum");
  c.shared_store_wavefronts = value("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum");
  c.passes = got.passes;
  return c;
}

CounterCheck CounterChecker::check(const CounterCase& c) {
  CounterCheck row;
  row.pattern = c.name;
  const std::vector<std::string> metrics = case_metrics(c);
  const Tolerance tol = case_tolerance(c);
  row.tolerance = tol.above;
  row.tolerance_below = tol.below;
  row.note = tol.note;
  try {
    row.model = model_per_request(c, gpu::CopyLab::default_buffer_bytes(device_));
  } catch (const std::exception& e) {
    row.note = std::string("model refused the pattern: ") + e.what();
    return row;
  }
  gpu::CounterSession::MetricValues got;
  std::chrono::steady_clock::time_point start;
  try {
    if (c.kind == CaseKind::Copy) (void)copy_lab();  // its allocation is no part of the read-out
    start = std::chrono::steady_clock::now();
    got = read(c);
  } catch (const gpu::CountersUnavailable&) {
    throw;
  } catch (const std::exception& e) {
    row.note = std::string("launch failed: ") + e.what();
    return row;
  }
  row.readout_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  row.passes = got.passes;
  const double numerator = got.values[0];
  row.requests = got.values[1];
  row.instructions = metrics.size() > 2 ? got.values[2] : got.values[1];
  // Global: per warp instruction when this GPU counts them, else per L1TEX request.
  const bool by_instruction = metrics.size() > 2 && row.instructions > 0;
  const double denominator = by_instruction ? row.instructions : row.requests;
  row.metric = metrics[0] + " / " + (by_instruction ? metrics[2] : metrics[1]);
  if (denominator <= 0) {
    row.note = "the launch counted no requests";
    return row;
  }
  row.hardware = numerator / denominator;
  row.agree = *row.hardware >= row.model - row.tolerance_below &&
              *row.hardware <= row.model + row.tolerance;
  if (by_instruction && row.requests > row.instructions * 1.0001) {
    const std::string split = "L1TEX split the instructions into " +
                              num(row.requests / row.instructions) + " requests each";
    row.note = row.note.empty() ? split : row.note + "; " + split;
  }
  if (!row.agree) {
    const std::string off = "differs by " + num(*row.hardware - row.model) + " per request";
    row.note = row.note.empty() ? off : row.note + "; " + off;
  }
  return row;
}

L1HitRate CounterChecker::l1_hit_rate(const CacheCounterCase& c) {
  L1HitRate out;
  const std::vector<std::string> names = cache_hit_metrics(c);
  out.metric = names[0] + " / (" + names[0] + " + " + names[1] + ")";
  const std::size_t group = kCacheGroup;  // the hit rates' own configuration (constructor)
  const std::vector<std::string>& collected = session_->collected_metrics(group);
  std::vector<std::size_t> at;
  for (const std::string& name : names) {
    const auto it = std::find(collected.begin(), collected.end(), name);
    if (it == collected.end()) {
      out.unavailable = std::string("L1 hit rate not available") +
                        (c.texture() ? " for the texture path" : "") +
                        ": this GPU's CUPTI does not know " + name;
      return out;
    }
    at.push_back(static_cast<std::size_t>(it - collected.begin()));
  }
  const bool gather = c.kind == CacheCounterCase::Kind::L1Gather;
  gpu::CounterSession::MetricValues got;
  auto start = std::chrono::steady_clock::now();
  try {
    if (!cache_) cache_ = std::make_unique<gpu::CacheLab>(device_);
    const auto launch = [&] {
      if (gather) {
        cache_->launch_l1_gather_once(c.carveout, c.working_set_bytes);
      } else {
        cache_->launch_read_path_once(c.read);
      }
    };
    // A first launch fills the buffers with kernels of their own: outside the profiled range.
    if (gather ? !cache_gather_ready_ : cache_image_side_ != c.read.side) {
      launch();
      if (gather) {
        cache_gather_ready_ = true;
      } else {
        cache_image_side_ = c.read.side;
      }
    }
    start = std::chrono::steady_clock::now();
    got = session_->profile_group(launch, group);
  } catch (const gpu::CountersUnavailable&) {
    throw;
  } catch (const std::invalid_argument& e) {
    out.unavailable = std::string("parameters refused: ") + e.what();
    return out;
  } catch (const std::exception& e) {
    out.unavailable = std::string("launch failed: ") + e.what();
    return out;
  }
  out.readout_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  out.passes = got.passes;
  out.hit_sectors = got.values[at[0]];
  out.miss_sectors = got.values[at[1]];
  const double looked_up = out.hit_sectors + out.miss_sectors;
  if (!(looked_up > 0)) {
    out.unavailable = std::string("L1 hit rate not available") +
                      (c.texture() ? " for the texture path" : "") +
                      ": the launch counted no sector lookups on " +
                      (c.texture() ? "the TEX pipe" : "the LSU pipe");
    return out;
  }
  out.percent = 100.0 * out.hit_sectors / looked_up;
  return out;
}

}  // namespace warplens::app
