#include "shared_session.h"

#include <stdexcept>

#include "copy_pattern.h"
#include "cute_layout.h"
#include "frame_phases.h"
#include "gl_interop.h"
#include "gpu_fault.h"
#include "gpu_turn.h"
#include "shared_kinds.h"

namespace warplens::app {

std::optional<gpu::BankProbeParams> shown_access(const SharedState& state) {
  return shared_kind(state.lab).shown_access(state);
}

void set_bank_layout(SharedState& state, const std::string& text) {
  const SharedIndexParams index =
      shared_layout_index(model::parse_layout(text), state.probe.index.word_bytes);
  state.probe.index = index;
  state.probe_layout = text;
}

bool shows_global(const SharedState& state) {
  return shared_kind(state.lab).global_views && state.transpose_view != TransposeView::Tile;
}

bool same_measurement(const SharedState& a, const SharedState& b) {
  return a.lab == b.lab && shared_kind(a.lab).same_measurement(a, b);
}

bool same_counters(const SharedState& a, const SharedState& b) {
  if (a.lab != b.lab) return false;
  const bool global_a = shows_global(a);
  const bool global_b = shows_global(b);
  if (global_a || global_b)
    return global_a == global_b && a.transpose_view == b.transpose_view &&
           a.transpose == b.transpose;
  try {
    return shown_access(a) == shown_access(b) && shown_warp(a) == shown_warp(b);
  } catch (const std::invalid_argument&) {
    return false;
  }
}

std::optional<CounterCase> counter_case(const SharedState& state) {
  CounterCase c;
  c.name = "window";
  if (shows_global(state)) {
    c.kind = CaseKind::TransposeGlobal;
    c.transpose = state.transpose;
    c.transpose_write = state.transpose_view == TransposeView::GlobalWrite;
    return c;
  }
  const auto access = shown_access(state);
  if (!access) return std::nullopt;
  c.kind = CaseKind::Bank;
  c.probe = *access;
  return c;
}

struct SharedSession::Interop {
  std::unique_ptr<gpu::GlInteropBuffer> buffer;         // the bank view's
  std::unique_ptr<gpu::GlInteropBuffer> global_buffer;  // the warp view's
};

namespace {
/// One warp's global access of the transpose: 4-byte lanes, 8-byte for the vectorized kernel.
model::GlobalAnalysis analyze_transpose_global(const TraceRecords& trace, bool write_side,
                                               gpu::TransposeVariant variant) {
  return model::analyze_global(accesses_from_trace(trace),
                               4 * gpu::transpose_access_floats(variant),
                               write_side ? model::Op::Store : model::Op::Load);
}
}  // namespace

SharedSession::SharedSession(BankTraceSink& bank_sink, WarpTraceSink& global_sink, bool use_gpu,
                             Lab lab)
    : bank_sink_(bank_sink),
      global_sink_(global_sink),
      interop_(std::make_unique<Interop>()),
      worker_(
          2,
          [this] {
            worker_.set_status("starting the shared-memory labs on " + device_.device->name);
            return std::make_shared<gpu::SharedLab>(*device_.device);
          },
          [this](int slot, const SharedState& job, gpu::SharedLab& gpu_lab) {
            run_job(slot, job, gpu_lab);
          }) {
  device_ = session_device(use_gpu);
  SharedState initial;
  initial.lab = lab;
  set(initial);
  worker_.supersede(kMeasure, kCounters);  // a measurement reads the counters too
  if (gpu_mode()) {
    worker_.start();
    gpu_user_.emplace(GpuUser{[this] { release_gpu(); }, [this] { restart_gpu(); }});
  }
}

void SharedSession::release_gpu() {
  interop_ = std::make_unique<Interop>();
  worker_.release_lab();
}

void SharedSession::restart_gpu() {
  traced_state_.reset();  // traced again once the worker has made the lab
  if (worker_.lab_failed()) {
    use_host_trace();
  } else {
    worker_.post(kMeasure, state_);
  }
}

SharedSession::~SharedSession() {
  worker_.stop();
  interop_.reset();  // unregister while the GL context is still current
}

void SharedSession::set(const SharedState& requested) {
  SharedState state = requested;
  try {
    auto access = shown_access(state);
    model::SharedAnalysis predicted;
    if (access) {
      const int limit = gpu_mode() ? device_.device->shared_bytes_per_block_optin
                                   : gpu::kModelSharedBytesPerBlock;
      (void)gpu::plan_bank_probe(*access, limit);
      predicted = analyze_probe(*access, shown_warp(state), state.model);
    }
    if (app::shows_global(state)) {
      const bool write_side = state.transpose_view == TransposeView::GlobalWrite;
      global_predicted_ =
          analyze_transpose_global(gpu::transpose_global_trace(state.transpose, 0, write_side),
                                   write_side, state.transpose.variant);
    }
    access_ = access;
    predicted_ = std::move(predicted);
  } catch (const std::exception& e) {
    worker_.refuse(e.what());
    return;
  }
  state.warp = shown_warp(state);
  const bool changed = !(state == state_) || !have_state_;
  const bool remeasure_needed = !have_state_ || !same_measurement(state, state_);
  state_ = state;
  have_state_ = true;
  worker_.accept(changed);
  if (!changed) return;
  const bool failed = worker_.lab_failed();
  if (!gpu_mode() || failed || interop_failed_ || (!access_ && !shows_global())) use_host_trace();
  if (gpu_mode() && !failed && remeasure_needed) {
    remeasure();
  } else if (gpu_mode() && !failed && !counters_current()) {
    worker_.post(kCounters, state_);
  }
}

void SharedSession::remeasure() {
  if (!gpu_mode()) return;
  worker_.retry();
  worker_.post(kMeasure, state_);
}

void SharedSession::use_host_trace() {
  trace_ = access_ ? shared_model_trace(*access_, state_.warp) : TraceRecords{};
  bank_sink_.publish(trace_);
  trace_ = bank_sink_.contents();
  if (shared_kind(state_.lab).global_views) {
    global_trace_ = gpu::transpose_global_trace(
        state_.transpose, 0, state_.transpose_view == TransposeView::GlobalWrite);
    global_sink_.publish(global_trace_);
    global_trace_ = global_sink_.contents();
  }
  traced_on_gpu_ = false;
  traced_.reset();
  global_traced_.reset();
  traced_state_ = state_;
}

bool SharedSession::trace_global_on_gl_thread(gpu::SharedLab& lab) {
  const bool write_side = state_.transpose_view == TransposeView::GlobalWrite;
  if (gpu::traces_through_host()) {  // after a GPU fault: no CUDA-GL interop (gpu_fault.h)
    // The frame holds the GPU turn (serialized frames): no worker times the matrices now.
    global_sink_.publish(lab.trace_transpose_to_host(state_.transpose, 0, write_side));
    global_trace_ = global_sink_.contents();
    global_traced_ = analyze_transpose_global(global_trace_, write_side, state_.transpose.variant);
    return true;
  }
  if (!interop_->global_buffer)
    interop_->global_buffer = std::make_unique<gpu::GlInteropBuffer>(global_sink_.interop_buffer());
  void* device_buffer = interop_->global_buffer->map(nullptr, lab.trace_stream());
  bool traced = false;
  try {
    // The worker may be timing a transpose on the same matrices (at n = 8192, for a good part
    // of a second): never wait for it on the GL thread; the next frame tries again.
    traced = lab.try_trace_transpose_to_device(state_.transpose, 0, write_side, device_buffer);
  } catch (...) {
    interop_->global_buffer->unmap(lab.trace_stream());
    throw;
  }
  interop_->global_buffer->unmap(lab.trace_stream());
  if (!traced) return false;
  global_trace_ = global_sink_.contents();
  global_traced_ = analyze_transpose_global(global_trace_, write_side, state_.transpose.variant);
  return true;
}

void SharedSession::update() {
  if (!gpu_mode()) return;
  // The counter line catches up: counters of an older state with nothing asked for the shown one
  // (a request dropped while a measurement of the same parameters ran) are asked for again, once
  // per state.
  if (!worker_.lab_failed() && !worker_.busy() && measurement_current() && !counters_current() &&
      !(counters_asked_ && *counters_asked_ == state_)) {
    gpu_log("%s lab: counters of an older state and none asked for: asking again",
            to_string(state_.lab));
    counters_asked_ = state_;
    worker_.post(kCounters, state_);
  }
  if (traced_state_ && *traced_state_ == state_) return;
  if (worker_.lab_failed()) {
    use_host_trace();
    return;
  }
  trace_on_gl_thread();
}

void SharedSession::trace_on_gl_thread() {
  const auto lab = worker_.lab();
  if (!lab || interop_failed_) return;  // the worker is still starting the lab
  if (gpu::launch_overdue()) return;    // as in CopySession: no trace behind an overdue launch
  TraceTurn turn;                       // nor behind a worker's job for long (gpu_turn.h)
  if (!trace_wait_.go(turn)) return;
  if (!access_ && !shows_global()) {
    use_host_trace();
    return;
  }
  const PhaseTimer timer(std::string("trace ") + to_string(state_.lab));
  try {
    if (shows_global()) {
      if (!trace_global_on_gl_thread(*lab)) return;  // the matrices are busy: next frame
      traced_on_gpu_ = true;
      traced_state_ = state_;
      return;
    }
    if (gpu::traces_through_host()) {  // after a GPU fault: no CUDA-GL interop (gpu_fault.h)
      bank_sink_.publish(lab->trace_bank_to_host(*access_, state_.warp));
    } else {
      if (!interop_->buffer)
        interop_->buffer = std::make_unique<gpu::GlInteropBuffer>(bank_sink_.interop_buffer());
      void* device_buffer = interop_->buffer->map(nullptr, lab->trace_stream());
      try {
        lab->trace_bank_to_device(*access_, state_.warp, device_buffer);
      } catch (...) {
        interop_->buffer->unmap(lab->trace_stream());
        throw;
      }
      interop_->buffer->unmap(lab->trace_stream());
    }
    trace_ = bank_sink_.contents();
    traced_on_gpu_ = true;
    traced_ = model::analyze_shared(accesses_from_trace(trace_), access_->index.word_bytes,
                                    to_model_op(access_->op), state_.model);
    traced_state_ = state_;
  } catch (const std::exception& e) {
    gpu_log("trace on the GL thread failed: %s", e.what());
    if (request_gpu_reset_if_faulted()) {  // the reset re-traces; no host model meanwhile
      set_error(std::string("GPU fault while tracing: ") + e.what());
      return;
    }
    interop_failed_ = shows_global() ? !interop_->global_buffer : !interop_->buffer;
    set_error(std::string("GPU trace failed, showing the host model instead: ") + e.what());
    use_host_trace();
  }
}

bool SharedSession::idle() const {
  if (!gpu_mode()) return true;
  const bool traced = (traced_state_ && *traced_state_ == state_) || worker_.lab_failed();
  return traced && !worker_.busy();
}

SharedSession::Measured SharedSession::measured() const {
  Measured m;
  {
    std::lock_guard lock(mutex_);
    m = measured_;
  }
  m.busy = worker_.busy();
  m.status = worker_.status();
  return m;
}

bool SharedSession::measurement_current() const {
  std::lock_guard lock(mutex_);
  return measured_.of && same_measurement(*measured_.of, state_);
}

bool SharedSession::counters_current() const {
  std::lock_guard lock(mutex_);
  return measured_.counters_of && same_counters(*measured_.counters_of, state_);
}

std::string SharedSession::error() const {
  return worker_.error();
}

void SharedSession::set_error(const std::string& message) {
  worker_.set_error(message);
}

void SharedSession::run_job(int slot, const SharedState& job, gpu::SharedLab& lab) {
  const gpu::DeviceInfo& device = *device_.device;
  // The counters of the shown access, on a dedicated launch after any timed ones.
  const auto read_counters = [&]() -> std::optional<LabCounters> {
    std::optional<CounterCase> c;
    try {
      c = counter_case(job);
    } catch (const std::invalid_argument&) {
      return std::nullopt;
    }
    if (!c) return std::nullopt;
    worker_.set_status("reading the hardware counters");
    return read_lab_counters(device, *c);
  };
  const auto publish_counters = [&](std::optional<LabCounters> counters) {
    std::lock_guard lock(mutex_);
    measured_.counters = std::move(counters);
    measured_.counters_of = job;
  };
  if (slot == kCounters) {
    publish_counters(read_counters());
    return;
  }
  Measured result;
  shared_kind(job.lab).time(lab, job, result, worker_.cancel_flag(kMeasure),
                            [&](const std::string& text) { worker_.set_status(text); });
  {
    // The measurements go on screen now; the counters follow (a dedicated launch).
    std::lock_guard lock(mutex_);
    result.of = job;
    measured_ = std::move(result);
  }
  publish_counters(worker_.cancelled(kMeasure) ? std::nullopt : read_counters());
}

}  // namespace warplens::app
