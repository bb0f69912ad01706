#include "copy_session.h"

#include <algorithm>
#include <set>

#include "frame_phases.h"
#include "gpu_fault.h"
#include "gpu_turn.h"

namespace warplens::app {

namespace {

CopySession::WarpTotals totals(const TraceRecords& trace, int warps, int word_bytes, model::Op op,
                               model::HardwareModel hw) {
  CopySession::WarpTotals t;
  t.warps = warps;
  std::set<std::int64_t> all;
  for (int slot = 0; slot < warps; ++slot) {
    const auto a = model::analyze_global(accesses_from_trace(trace, slot), word_bytes, op, hw);
    t.summed_sectors += a.sectors.size();
    all.insert(a.sectors.begin(), a.sectors.end());
  }
  t.distinct_sectors = all.size();
  return t;
}

/// The request the view and the per-request numbers show: warp `warp`'s, or for a struct
/// layout the load of the chosen field.
model::AccessPattern shown_pattern(const CopyState& s) {
  if (s.params.layout == gpu::StructLayout::None) return copy_access_pattern(s.params, s.warp);
  return struct_field_pattern(s.params, s.warp, s.field);
}

/// What the view draws of a full trace: the traced warps as they are, or of a struct layout's
/// three field loads (slots 0..2) the chosen one alone, in slot 0.
TraceRecords shown_slots(const TraceRecords& trace, const CopyState& s) {
  if (s.params.layout == gpu::StructLayout::None) return trace;
  TraceRecords one{};
  std::copy_n(trace.begin() + s.field * kTraceLanes, kTraceLanes, one.begin());
  return one;
}

constexpr int kTimedRuns = 15;  // median of 15 after 3 warm-up launches
constexpr int kSweepRuns = 10;  // per sweep point: median of 10 after 3 warm-up launches
}  // namespace

CopySession::CopySession(WarpTraceSink& warp_sink, HeatmapSink& heat_sink, bool use_gpu)
    : warp_sink_(warp_sink),
      heat_sink_(heat_sink),
      worker_(
          2, [this] { return make_lab(); },
          [this](int slot, const Job& job, gpu::CopyLab& lab) { run_job(slot, job, lab); }) {
  device_ = session_device(use_gpu);
  set(CopyState{});
  if (gpu_mode()) {
    worker_.start();
    gpu_user_.emplace(GpuUser{[this] { release_gpu(); }, [this] { restart_gpu(); }});
  }
}

void CopySession::release_gpu() {
  interop_.reset();
  heat_interop_.reset();
  worker_.release_lab();
}

void CopySession::restart_gpu() {
  traced_state_.reset();  // traced again once the worker has made the lab
  if (worker_.lab_failed()) {
    use_host_model_trace();
  } else {
    worker_.post(kMeasure, Job{state_, {}});
  }
}

CopySession::~CopySession() {
  worker_.stop();
  interop_.reset();  // unregister while the GL context is still current
  heat_interop_.reset();
}

void CopySession::set(const CopyState& requested) {
  CopyState state = requested;
  // cudaMallocPitch's alignment on this device, so the model pads rows as the GPU does.
  if (gpu_mode()) state.params.pitch_alignment = device_.device->pitch_alignment;
  try {
    (void)gpu::plan_copy(state.params, gpu::kModelBufferBytes);
    if (state.warp < 0 || state.warps < 1 || state.warps > kMaxTraceWarps ||
        state.warp + state.warps > state.params.block_threads / 32) {
      throw std::invalid_argument("warps " + std::to_string(state.warp) + ".." +
                                  std::to_string(state.warp + state.warps - 1) +
                                  " are not all in block 0");
    }
    if (state.field < 0 || state.field >= gpu::kStructFields)
      throw std::invalid_argument("field " + std::to_string(state.field) +
                                  " is not x, y or z (0..2)");
    // Without a struct layout no field is shown: x, as a preset says it (it names no other).
    if (state.params.layout == gpu::StructLayout::None) state.field = 0;
    // Everything into locals first: refused parameters change nothing.
    const auto pattern = shown_pattern(state);
    auto predicted = model::analyze_global(model::evaluate_lanes(pattern), pattern.word_bytes,
                                           pattern.op, state.model);
    auto predicted_totals =
        totals(model_trace(state.params, state.warp, state.warps),
               trace_slots(state.params, state.warps), pattern.word_bytes, pattern.op, state.model);
    predicted_ = std::move(predicted);
    predicted_totals_ = predicted_totals;
  } catch (const std::exception& e) {
    worker_.refuse(e.what());
    return;
  }
  const bool changed = !(state == state_) || trace_source_ == TraceSource::None;
  state_ = state;
  worker_.accept(changed);
  if (!changed) return;
  if (!gpu_mode() || worker_.lab_failed() || interop_failed_) use_host_model_trace();
  if (gpu_mode() && !worker_.lab_failed())
    remeasure();  // after a failed allocation: Re-measure retries
}

void CopySession::remeasure() {
  if (!gpu_mode()) return;
  worker_.retry();  // an explicit re-measure retries the allocation
  // Cancels a measurement of older parameters between launches.
  worker_.post(kMeasure, Job{state_, {}});
}

void CopySession::use_host_model_trace() {
  trace_ = shown_slots(model_trace(state_.params, state_.warp, state_.warps), state_);
  warp_sink_.publish(trace_);
  try {
    heat_sink_.publish(host_twin_heatmap(
        state_.params, gpu::plan_copy(state_.params, gpu::kModelBufferBytes).threads));
    heatmap_unavailable_.clear();
  } catch (const std::invalid_argument& e) {
    heat_sink_.publish(SectorHeatmap{});
    heatmap_unavailable_ = e.what();
  }
  heatmap_ = heat_sink_.contents();
  show_transactions();
  trace_ = warp_sink_.contents();
  trace_source_ = TraceSource::HostModel;
  traced_.reset();
  traced_totals_.reset();
  traced_state_ = state_;
}

void CopySession::show_transactions() {
  std::vector<TransactionRange> transactions;
  if (state_.model != model::HardwareModel::Modern) {
    for (int slot = 0; slot < traced_warps(trace_); ++slot) {
      const auto a = model::analyze_global(accesses_from_trace(trace_, slot),
                                           state_.params.word_bytes, predicted_.op, state_.model);
      for (const auto& r : a.transaction_ranges) {
        transactions.push_back(
            {static_cast<std::uint64_t>(r.begin), static_cast<std::uint64_t>(r.end), slot});
      }
    }
  }
  warp_sink_.publish_transactions(transactions);
}

void CopySession::update() {
  if (!gpu_mode()) return;
  if (worker_.lab_failed() && trace_source_ != TraceSource::HostModel) use_host_model_trace();
  if (traced_state_ && *traced_state_ == state_) return;
  trace_on_gl_thread();
}

void CopySession::trace_on_gl_thread() {
  const auto lab = worker_.lab();
  if (!lab || interop_failed_) return;  // the worker is still allocating
  // A launch past its time limit still holds the GPU: a trace now would wait for it here, on
  // the GL thread, and freeze the window. Next frame.
  if (gpu::launch_overdue()) return;
  TraceTurn turn;  // a worker measures: a few frames later (gpu_turn.h)
  if (!trace_wait_.go(turn)) return;
  try {
    const int warps = state_.params.layout == gpu::StructLayout::None ? state_.warps : 1;
    heatmap_unavailable_.clear();
    if (gpu::traces_through_host()) {  // after a GPU fault: no CUDA-GL interop (gpu_fault.h)
      const PhaseTimer timer("trace global (host)");
      warp_sink_.publish(lab->trace_to_host(state_.params, state_.warp, warps));
      heat_sink_.publish(lab->heatmap_to_host(state_.params));
    } else {
      const PhaseTimer timer("trace global (interop)");
      if (!interop_ && !interop_failed_)
        interop_ = std::make_unique<gpu::GlInteropBuffer>(warp_sink_.interop_buffer());
      void* device_buffer = interop_->map(nullptr, lab->trace_stream());
      try {
        lab->trace_to_device(state_.params, state_.warp, warps, device_buffer);
      } catch (...) {
        interop_->unmap(lab->trace_stream());
        throw;
      }
      interop_->unmap(lab->trace_stream());
      if (!heat_interop_)
        heat_interop_ = std::make_unique<gpu::GlInteropBuffer>(heat_sink_.interop_buffer());
      void* heat_buffer = heat_interop_->map(nullptr, lab->trace_stream());
      try {
        lab->heatmap_to_device(state_.params, heat_buffer);
      } catch (...) {
        heat_interop_->unmap(lab->trace_stream());
        throw;
      }
      heat_interop_->unmap(lab->trace_stream());
    }
    heatmap_ = heat_sink_.contents();
    // The struct kernel traces its three field loads into slots 0..2: the totals count all
    // three, the view shows the chosen field's request alone (republished from the host).
    const TraceRecords full = warp_sink_.contents();
    traced_totals_ = totals(full, trace_slots(state_.params, state_.warps),
                            state_.params.word_bytes, predicted_.op, state_.model);
    if (state_.params.layout != gpu::StructLayout::None)
      warp_sink_.publish(shown_slots(full, state_));
    trace_ = warp_sink_.contents();
    trace_source_ = TraceSource::GpuKernel;
    traced_ = model::analyze_global(accesses_from_trace(trace_), state_.params.word_bytes,
                                    predicted_.op, state_.model);
    show_transactions();
    traced_state_ = state_;
  } catch (const std::exception& e) {
    gpu_log("trace on the GL thread failed: %s", e.what());
    if (request_gpu_reset_if_faulted()) {  // the reset re-traces; no host model meanwhile
      set_error(std::string("GPU fault while tracing: ") + e.what());
      return;
    }
    interop_failed_ = !interop_;
    set_error(std::string("GPU trace failed, showing the host model instead: ") + e.what());
    use_host_model_trace();
  }
}

std::shared_ptr<gpu::CopyLab> CopySession::make_lab() {
  const gpu::DeviceInfo& device = *device_.device;
  worker_.set_status("allocating buffers of 8 x L2 on " + device.name);
  std::shared_ptr<gpu::CopyLab> lab;
  try {
    lab = std::make_shared<gpu::CopyLab>(device);
  } catch (const gpu::GpuError& e) {
    if (std::string(e.what()).find("out of memory") == std::string::npos) throw;
    // The lesson holds with buffers of 2 x L2: every copy still streams through DRAM, and the
    // bandwidth model works from the DRAM bytes of whatever buffer the copy spans.
    const std::int64_t smaller = std::max<std::int64_t>(2 * device.l2_bytes, 64 << 20);
    worker_.set_status("GPU memory short: allocating buffers of 2 x L2 on " + device.name);
    lab = std::make_shared<gpu::CopyLab>(device, smaller);  // short again: the worker says so
    worker_.set_error(gpu::out_of_memory_text(
        "GPU memory short: the copy buffers are 2 x " + std::to_string(smaller >> 20) +
            " MiB instead of 2 x " +
            std::to_string(gpu::CopyLab::default_buffer_bytes(device) >> 20) +
            " MiB (out of memory at the larger size); the copies still stream through DRAM",
        gpu::current_device_memory()));
  }
  auto reference = lab->measure_memcpy(kTimedRuns);
  std::lock_guard lock(mutex_);
  measured_.memcpy = reference;
  return lab;
}

void CopySession::run_job(int slot, const Job& job, gpu::CopyLab& lab) {
  const gpu::DeviceInfo& device = *device_.device;
  if (slot == kSweep) {
    const auto progress = [&](const SweepResult& partial) {
      std::lock_guard lock(mutex_);
      sweep_ = partial;
    };
    SweepResult result = app::run_sweep(lab, device, job.axis, job.state.params, kSweepRuns,
                                        worker_.cancel_flag(kSweep), progress);
    std::lock_guard lock(mutex_);
    sweep_ = std::move(result);
    return;
  }
  worker_.set_status("measuring");
  auto result = lab.measure(job.state.params, kTimedRuns, 3, worker_.cancel_flag(kMeasure));
  {
    // The measured point goes on screen now; the counters follow (a dedicated launch).
    std::lock_guard lock(mutex_);
    measured_.copy = result;
    measured_.counters.reset();
  }
  if (worker_.cancelled(kMeasure)) return;
  worker_.set_status("reading the hardware counters");
  CounterCase counter_case;
  counter_case.name = "window";
  counter_case.kind = CaseKind::Copy;
  counter_case.copy = job.state.params;
  auto counters = read_lab_counters(device, counter_case);
  std::lock_guard lock(mutex_);
  measured_.counters = std::move(counters);
}

void CopySession::start_sweep(SweepAxis axis, const gpu::CopyParams& base) {
  if (!gpu_mode()) {
    set_error("sweeps measure on the GPU: " + device_.reason);
    return;
  }
  Job job;
  job.state.params = base;
  job.axis = axis;
  worker_.post(kSweep, job);  // stops a running sweep; the worker then takes this one
}

void CopySession::cancel_sweep() {
  worker_.cancel(kSweep);
}

std::optional<SweepResult> CopySession::sweep() const {
  std::lock_guard lock(mutex_);
  return sweep_;
}

bool CopySession::sweep_running() const {
  return worker_.pending(kSweep);
}

bool CopySession::idle() const {
  if (!gpu_mode()) return true;
  const bool failed = worker_.lab_failed();
  const bool traced = traced_state_ && *traced_state_ == state_;
  const bool measuring = worker_.pending(kMeasure);
  const bool has_error = !worker_.error().empty();
  std::lock_guard lock(mutex_);
  const bool measured =
      failed ||
      (!measuring && (has_error || (measured_.copy && measured_.copy->params == state_.params)));
  return (traced || failed) && measured && !worker_.pending(kSweep);
}

CopySession::Measured CopySession::measured() const {
  Measured m;
  {
    std::lock_guard lock(mutex_);
    m = measured_;
  }
  m.busy = worker_.pending(kMeasure);
  m.gpu_status = worker_.status();
  return m;
}

bool CopySession::measurement_current() const {
  // Not waiting for `busy`: the counters' read-out after the timed runs (hundreds of ms for a
  // copy over the lab's buffers) must not hold the new point back.
  const bool waiting = worker_.waiting(kMeasure);
  std::lock_guard lock(mutex_);
  return measured_.copy && measured_.copy->params == state_.params && !waiting;
}

std::string CopySession::error() const {
  return worker_.error();
}

void CopySession::set_error(const std::string& message) {
  worker_.set_error(message);
}

}  // namespace warplens::app
