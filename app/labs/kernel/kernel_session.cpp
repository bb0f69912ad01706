#include "kernel_session.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "counter_service.h"
#include "frame_phases.h"
#include "gl_interop.h"
#include "gpu_fault.h"
#include "gpu_log.h"
#include "gpu_recovery.h"
#include "gpu_turn.h"

namespace warplens::app {

namespace {

constexpr int kRuns = 15;
constexpr int kWarmup = 3;

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// The view's records of one row of the host model: lane l in slot 0.
TraceRecords host_records(const gpu::KernelRowModel& row, int word_bytes) {
  TraceRecords t{};
  for (int lane = 0; lane < kTraceLanes; ++lane) {
    const model::LaneAccess& a = row.lanes[static_cast<std::size_t>(lane)];
    if (!a.active) continue;
    const auto address = static_cast<std::uint64_t>(a.address);
    t[static_cast<std::size_t>(lane)] = {static_cast<std::uint32_t>(address),
                                         static_cast<std::uint32_t>(address >> 32),
                                         static_cast<std::uint32_t>(word_bytes), 1u};
  }
  return t;
}

/// The model's totals and the generated source of a program, kept for the last few programs:
/// the tile check behind them evaluates up to gpu::kTileCheckEvaluations thread rows on the GL
/// thread (60-74 ms for the own-kernel transposes on the H100 soak's frames, 2026-11-27), and a
/// class steps back and forth between the same scenarios (and A/B compare makes a second
/// session of the same program). Shared by every session of the process.
struct ProgramModel {
  gpu::KernelProgram program;
  model::HardwareModel hw;
  gpu::KernelTotals totals;
  std::string source;
};

const ProgramModel& program_model(const gpu::KernelProgram& program, model::HardwareModel hw) {
  static std::mutex mutex;
  static std::vector<std::unique_ptr<ProgramModel>> kept;  // the newest last
  constexpr std::size_t kKept = 24;
  std::lock_guard lock(mutex);
  for (std::size_t i = 0; i < kept.size(); ++i) {
    if (kept[i]->program == program && kept[i]->hw == hw) {
      std::rotate(kept.begin() + static_cast<std::ptrdiff_t>(i),
                  kept.begin() + static_cast<std::ptrdiff_t>(i) + 1, kept.end());
      return *kept.back();
    }
  }
  auto m = std::make_unique<ProgramModel>();
  m->program = program;
  m->hw = hw;
  m->totals = gpu::model_totals(program, hw);  // throws for a program the model refuses
  m->source = gpu::generate_source(program, m->totals.tile_cleared);
  if (kept.size() >= kKept) kept.erase(kept.begin());
  kept.push_back(std::move(m));
  return *kept.back();
}

}  // namespace

const char* to_string(KernelSection section) {
  return section == KernelSection::Source ? "source" : "access";
}

KernelSection parse_kernel_section(const std::string& text) {
  if (text == "access") return KernelSection::Access;
  if (text == "source") return KernelSection::Source;
  throw std::invalid_argument("kernel section must be access or source (got \"" + text + "\")");
}

void check_tile_row(const KernelState& st) {
  const gpu::KernelBuffer& tile = st.program.tile;
  if (st.tile_row == 0) return;
  if (st.tile_row < 0 || st.tile_row > kMaxKernelTileRow)
    throw std::invalid_argument("tile_row must be 0 (banks alone) or 1 .. " +
                                std::to_string(kMaxKernelTileRow) + " elements (got " +
                                std::to_string(st.tile_row) + ")");
  if (tile.elements < st.tile_row)
    throw std::invalid_argument("tile_row = " + std::to_string(st.tile_row) +
                                " needs a tile of at least that many elements (tile = { elements "
                                "= ... })");
  if (tile.word_bytes != 4)
    throw std::invalid_argument(
        "tile_row: the tile is drawn as stored for 4-byte words only (the "
        "tile's word_bytes is " +
        std::to_string(tile.word_bytes) + ")");
}

KernelState default_kernel_state() {
  KernelState s;
  s.program.block = {256, 1};
  s.program.in = {std::int64_t{1} << 24, 4};
  s.program.out = {std::int64_t{1} << 24, 4};
  s.program.grid = {static_cast<int>((std::int64_t{1} << 24) / 256), 1};
  gpu::KernelRow load;
  load.space = gpu::KernelSpace::In;
  load.index = "bx*bdx + tx";
  gpu::KernelRow store = load;
  store.space = gpu::KernelSpace::Out;
  store.op = model::Op::Store;
  s.program.rows = {load, store};
  return s;
}

std::string row_text(const gpu::KernelRow& row) {
  const std::string where = std::string(gpu::to_string(row.space)) + "[" + row.index + "]";
  const std::string bytes = " (" + std::to_string(row.word_bytes) + " B)";
  if (row.op == model::Op::Store) return where + " = v" + bytes;
  if (row.path == gpu::LoadPath::L2Only) return "v = __ldcg(" + where + ")" + bytes;
  if (row.path == gpu::LoadPath::ReadOnly) return "v = __ldg(" + where + ")" + bytes;
  return "v = " + where + bytes;
}

std::string row_layout_text(const gpu::KernelRow& row) {
  if (row.layout.empty()) return {};
  return "CuTe layout " + row.layout +
         (row.lane_layout.empty() ? "" : ", lanes " + row.lane_layout) + " gives " + row.index;
}

bool same_run(const KernelState& a, const KernelState& b) {
  return a.program == b.program && a.traced == b.traced;
}

double predicted_gbps(const gpu::KernelTotals& t, std::int64_t requested_bytes,
                      double reference_gbps) {
  const double moved = 32.0 * (t.global_load.cost + t.global_store.cost);
  if (moved <= 0 || requested_bytes <= 0) return 0;
  return reference_gbps * std::min(1.0, static_cast<double>(requested_bytes) / moved);
}

bool counters_agree(double model, double counted, bool shared_store) {
  const double slack = 0.05 * std::max(1.0, model);
  if (shared_store) return counted >= model - slack && counted <= model + 1.5;
  return std::abs(counted - model) <= slack;
}

struct KernelSession::Interop {
  std::unique_ptr<gpu::GlInteropBuffer> warp, bank;
};

KernelSession::KernelSession(WarpTraceSink& warp_sink, BankTraceSink& bank_sink, bool use_gpu)
    : WorkerSession(
          use_gpu, 2, [this] { return start_lab("own-kernel lab (NVRTC)"); },
          [this](int slot, const KernelState& job, gpu::KernelLab& lab) {
            run_job(slot, job, lab);
          }),
      warp_sink_(warp_sink),
      bank_sink_(bank_sink),
      interop_(std::make_unique<Interop>()) {
  worker_.supersede(kRun, kCounters);  // a new run drops a waiting counter read-out
  set(default_kernel_state());
  start_worker(
      [this] {  // after a GPU reset: the old lab's traces are gone; run again
        publish([](KernelResults& r) {
          r.run.reset();
          r.counters.reset();
          r.counters_unavailable.clear();
        });
        shown_.reset();
        counters_requested_ = 0;
        interop_failed_ = false;
        show_host_trace();
        if (!worker_.lab_failed()) worker_.post(kRun, state_);
      },
      [this] {
        interop_->warp.reset();
        interop_->bank.reset();
      });
}

KernelSession::~KernelSession() {
  worker_.stop();
  interop_.reset();  // unregister while the GL context is still current
}

void KernelSession::set(const KernelState& requested) {
  edited_ = requested;
  KernelState st = requested;
  const bool have = !rows_.empty();
  const bool run_changed = !have || !same_run(st, state_);
  std::vector<gpu::KernelRowModel> rows;
  gpu::KernelTotals totals = totals_;
  std::string source = source_;
  try {
    const std::int64_t max_tile =
        gpu_mode() ? device_.device->shared_bytes_per_block_optin : gpu::kMaxKernelTileBytes;
    gpu::check_program(st.program, max_tile);
    gpu::check_traced_warp(st.program, st.traced);
    check_tile_row(st);
    rows = gpu::model_warp(st.program, st.traced, st.model);
    if (run_changed || st.model != state_.model) {
      // The tile check (up to kTileCheckEvaluations) runs once per program: kept with it.
      const ProgramModel& m = program_model(st.program, st.model);
      totals = m.totals;
      source = m.source;
    }
  } catch (const std::exception& e) {
    worker_.refuse(e.what());
    return;
  }
  st.step = std::clamp(st.step, 0, static_cast<int>(st.program.rows.size()) - 1);
  edited_.step = st.step;
  const bool changed = !have || !(st == state_);
  state_ = st;
  rows_ = std::move(rows);
  totals_ = totals;
  source_ = std::move(source);
  worker_.accept(changed);
  if (!changed) return;
  if (run_changed) {
    edit_time_ns_ = now_ns();
    if (gpu_mode() && !worker_.lab_failed()) worker_.post(kRun, state_);
  }
  if (!run_current(measured())) show_host_trace();
}

void KernelSession::remeasure() {
  if (!gpu_mode()) return;
  worker_.retry();
  edit_time_ns_ = now_ns();
  worker_.post(kRun, state_);
}

bool KernelSession::shown_row_is_tile() const {
  return state_.program.rows.at(static_cast<std::size_t>(state_.step)).space ==
         gpu::KernelSpace::Tile;
}

void KernelSession::show_host_trace() {
  const auto& row = state_.program.rows.at(static_cast<std::size_t>(state_.step));
  trace_ = host_records(rows_.at(static_cast<std::size_t>(state_.step)), row.word_bytes);
  auto& sink = shown_row_is_tile() ? static_cast<Sink<TraceRecords>&>(bank_sink_)
                                   : static_cast<Sink<TraceRecords>&>(warp_sink_);
  sink.publish(trace_);
  trace_ = sink.contents();
  traced_on_gpu_ = false;
  shown_ = state_;
  shown_version_ = -1;
}

bool KernelSession::run_current(const KernelResults& r) const {
  return r.run && r.program == state_.program && r.traced == state_.traced;
}

void KernelSession::update() {
  if (!gpu_mode()) return;
  KernelResults r;
  {
    std::lock_guard lock(mutex_);
    if (shown_ && *shown_ == state_ && shown_version_ == measured_.version) return;
    if (measured_.run) {
      r.run.emplace();
      r.run->trace_id = measured_.run->trace_id;
      r.run->records = measured_.run->records;
    }
    r.program = measured_.program;
    r.traced = measured_.traced;
    r.version = measured_.version;
  }
  const bool tile_row = shown_row_is_tile();
  auto& target = tile_row ? static_cast<Sink<TraceRecords>&>(bank_sink_)
                          : static_cast<Sink<TraceRecords>&>(warp_sink_);
  if (run_current(r) && (!target.interop_buffer() || gpu::traces_through_host())) {
    // A host-memory sink (tests, no GL), or no CUDA-GL interop after a GPU fault (gpu_fault.h):
    // the GPU's records as the run copied them back.
    TraceRecords t{};
    const auto first = static_cast<std::size_t>(state_.step) * kTraceLanes;
    for (std::size_t l = 0; l < kTraceLanes && first + l < r.run->records.size(); ++l)
      t[l] = r.run->records[first + l];
    target.publish(t);
    trace_ = target.contents();
    traced_on_gpu_ = true;
    shown_ = state_;
    shown_version_ = r.version;
    request_counters();
    return;
  }
  const auto lab = worker_.lab();
  if (!run_current(r) || !lab || interop_failed_) {
    if (!shown_ || !(*shown_ == state_)) show_host_trace();
    if (interop_failed_) request_counters();
    return;
  }
  TraceTurn turn;  // a worker's job runs: a few frames later (gpu_turn.h)
  if (!trace_wait_.go(turn)) return;
  const bool tile = shown_row_is_tile();
  auto& sink = tile ? static_cast<Sink<TraceRecords>&>(bank_sink_)
                    : static_cast<Sink<TraceRecords>&>(warp_sink_);
  auto& buffer = tile ? interop_->bank : interop_->warp;
  const PhaseTimer timer("trace kernel (interop)");
  try {
    if (!buffer) buffer = std::make_unique<gpu::GlInteropBuffer>(sink.interop_buffer());
    void* device_trace = buffer->map(nullptr, lab->trace_stream());
    bool copied = false;
    try {
      copied = lab->copy_trace_row(r.run->trace_id, state_.step, device_trace);
    } catch (...) {
      buffer->unmap(lab->trace_stream());
      throw;
    }
    buffer->unmap(lab->trace_stream());
    if (!copied) return;  // a newer run is being published: the next frame
    trace_ = sink.contents();
    traced_on_gpu_ = true;
    shown_ = state_;
    shown_version_ = r.version;
  } catch (const std::exception& e) {
    gpu_log("trace on the GL thread failed: %s", e.what());
    if (request_gpu_reset_if_faulted()) {  // the reset runs the kernel again
      worker_.set_error(std::string("GPU fault while tracing: ") + e.what());
      return;
    }
    interop_failed_ = true;
    worker_.set_error(std::string("GPU trace failed, showing the host model instead: ") + e.what());
    show_host_trace();
  }
  request_counters();
}

void KernelSession::request_counters() {
  // Once per run of the current program, after its trace is in the view.
  const KernelResults r = measured();
  if (!run_current(r) || r.counters || !r.counters_unavailable.empty()) return;
  if (counters_requested_ == r.run->trace_id) return;
  counters_requested_ = r.run->trace_id;
  worker_.post(kCounters, state_);
}

bool KernelSession::idle() const {
  if (!gpu_mode()) return true;
  if (worker_.lab_failed()) return true;
  if (worker_.busy()) return false;
  const KernelResults r = measured();
  // Settled: the run is in and the view shows it, or the run failed (an error) for this program.
  if (!run_current(r)) return !error().empty();
  std::lock_guard lock(mutex_);
  return interop_failed_ || (shown_ && *shown_ == state_ && shown_version_ == measured_.version);
}

KernelResults KernelSession::measured() const {
  return worker_.with_progress(mutex_, measured_);
}

void KernelSession::publish(const std::function<void(KernelResults&)>& change) {
  std::lock_guard lock(mutex_);
  change(measured_);
  ++measured_.version;
}

void KernelSession::inject_results_for_test(KernelResults results) {
  results.program = state_.program;
  results.traced = state_.traced;
  publish([&](KernelResults& r) {
    const int version = r.version;
    r = std::move(results);
    r.version = version;
  });
}

void KernelSession::run_job(int slot, const KernelState& job, gpu::KernelLab& lab) {
  const std::atomic<bool>* cancel = worker_.cancel_flag(slot);
  if (slot == kRun) {
    worker_.set_status("compiling and running your kernel");
    publish([&](KernelResults& r) { r.compile_log.clear(); });
    gpu::KernelRun run;
    try {
      const gpu::KernelSimulation simulation = gpu::simulate_program(job.program, job.traced);
      if (cancel->load()) throw gpu::Cancelled();
      run = lab.run(job.program, job.traced, kRuns, kWarmup, cancel, &simulation);
    } catch (const gpu::KernelCompileError& e) {
      publish([&](KernelResults& r) { r.compile_log = e.log(); });
      throw;
    }
    const double ms = static_cast<double>(now_ns() - edit_time_ns_.load()) / 1e6;
    std::optional<gpu::MemcpyMeasurement> reference;
    if (!measured().reference) {
      worker_.set_status("timing cudaMemcpy for the bandwidth model");
      reference = lab.reference_copy();
    }
    publish([&](KernelResults& r) {
      r.run = std::move(run);
      r.program = job.program;
      r.traced = job.traced;
      if (reference) r.reference = reference;
      r.counters.reset();
      r.counters_unavailable.clear();
      r.edit_to_result_ms = ms;
    });
    // The counters follow once the GL thread has copied the trace into its view (update()):
    // CUPTI's replays hold the GPU, and the view's copy would wait for them.
    return;
  }
  worker_.set_status("reading the counters of one launch");
  const auto launch = lab.counter_launch(job.program);
  LaunchCountersRead read = read_launch_counters(lab.device(), launch);
  publish([&](KernelResults& r) {
    if (!(r.program == job.program)) return;  // a newer run is in
    r.counters = read.counters;
    r.counters_unavailable = read.unavailable;
  });
}

}  // namespace warplens::app
