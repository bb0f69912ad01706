#include "tile_session.h"

#include <stdexcept>
#include <utility>

#include "counter_service.h"
#include "tma_model.h"

namespace warplens::app {

void check_tile_state(const TileState& state) {
  gpu::check_tile_read(state.tile, state.read);
}

TileModel tile_model(const TileState& state) {
  check_tile_state(state);
  TileModel m;
  m.layout_text = gpu::tile_layout_text(state.tile);
  m.placement = gpu::tile_placement_model(state.tile);
  const int e = state.tile.element_bytes;
  m.stored.assign(static_cast<std::size_t>(gpu::tile_shared_bytes(state.tile) / e), -1);
  for (std::size_t k = 0; k < m.placement.size(); ++k)
    m.stored[static_cast<std::size_t>(m.placement[k] / e)] = static_cast<std::int32_t>(k);
  m.lanes = gpu::tile_read_lanes(state.tile, state.read);
  m.analysis = gpu::tile_read_analysis(state.tile, state.read);
  return m;
}

TraceRecords tile_trace(const gpu::TileLanes& lanes) {
  TraceRecords trace{};
  for (int l = 0; l < kTraceLanes; ++l) {
    const std::int32_t at = lanes.byte_offset[static_cast<std::size_t>(l)];
    if (at < 0) continue;
    trace[static_cast<std::size_t>(l)] = {static_cast<std::uint32_t>(at), 0,
                                          static_cast<std::uint32_t>(lanes.access_bytes), 1};
  }
  return trace;
}

bool placement_matches(const gpu::TilePlacement& placement, const TileModel& model) {
  return placement.byte_offset == model.placement;
}

TileSession::TileSession(BankTraceSink& banks, bool use_gpu)
    : WorkerSession(
          use_gpu, 1,
          [this] {
            worker_.set_status("starting the tile lab on " + device_.device->name);
            return std::make_shared<gpu::TileLab>(device_.device->index);
          },
          [this](int, const TileState& job, gpu::TileLab& lab) { run_job(job, lab); }),
      banks_(banks) {
  model_ = tile_model(state_);
  trace_ = tile_trace(model_.lanes);
  banks_.publish(trace_);
  start_worker([this] {  // after a GPU reset: measure again, if on screen
    if (shown_ && !worker_.lab_failed()) request();
  });
}

void TileSession::show() {
  if (shown_) return;
  shown_ = true;
  request();
}

TileSession::~TileSession() {
  worker_.stop();
}

std::string TileSession::no_gpu_text() const {
  return "No GPU (" + device_.reason +
         "): the tile is the model's placement, the wavefronts the "
         "model's.";
}

std::optional<std::string> TileSession::unsupported() const {
  if (!gpu_mode()) return std::nullopt;
  const auto& d = *device_.device;
  return gpu::tile_unsupported(state_.tile, &state_.read, d.cc_major, d.cc_minor);
}

void TileSession::set(const TileState& requested) {
  TileModel model;
  try {
    model = tile_model(requested);
  } catch (const std::exception& e) {
    worker_.refuse(e.what());
    return;
  }
  const bool changed = !(requested == state_);
  state_ = requested;
  model_ = std::move(model);
  trace_ = tile_trace(model_.lanes);
  banks_.publish(trace_);
  worker_.accept(changed);
  if (changed && shown_) request();
}

void TileSession::request() {
  if (!gpu_mode()) return;
  worker_.retry();
  worker_.post(0, state_);
}

void TileSession::remeasure() {
  publish([](TileResults& r) { r = TileResults{{}, {}, {}, {}, {}, {}, r.version, false, {}}; });
  request();
}

TileResults TileSession::measured() const {
  return worker_.with_progress(mutex_, measured_);
}

std::optional<TileResults> TileSession::current() const {
  TileResults r = measured();
  if (!r.state || !(*r.state == state_)) return std::nullopt;
  return r;
}

void TileSession::inject_results_for_test(TileResults results) {
  std::lock_guard lock(mutex_);
  results.version = measured_.version + 1;
  measured_ = std::move(results);
}

void TileSession::publish(const std::function<void(TileResults&)>& change) {
  std::lock_guard lock(mutex_);
  change(measured_);
  ++measured_.version;
}

void TileSession::run_job(const TileState& job, gpu::TileLab& lab) {
  const auto& d = *device_.device;
  // A new job starts from nothing: the numbers shown belong to one state.
  publish([&](TileResults& r) {
    r = TileResults{job, {}, {}, {}, {}, {}, r.version, false, {}};
    r.unsupported = gpu::tile_unsupported(job.tile, &job.read, d.cc_major, d.cc_minor);
  });
  if (gpu::tile_unsupported(job.tile, &job.read, d.cc_major, d.cc_minor)) return;
  const auto* const cancel = worker_.cancel_flag(0);
  worker_.set_status("filling the tile and reading it back");
  gpu::TilePlacement placement = lab.load_tile(job.tile);
  publish([&](TileResults& r) { r.placement = std::move(placement); });
  if (*cancel) throw gpu::Cancelled();
  worker_.set_status("timing the warp's read");
  const gpu::TileReadMeasurement read = lab.measure_read(job.tile, job.read, kTileTimedReads);
  publish([&](TileResults& r) { r.read = read; });
  if (*cancel) throw gpu::Cancelled();
  worker_.set_status("reading the counters of the fill alone");
  const TileCounted counted = count_tile_read(d, lab, job, [&] {
    if (*cancel) throw gpu::Cancelled();
    worker_.set_status("reading the counters of the fill and its reads");
  });
  publish([&](TileResults& r) {
    if (counted.wavefronts_per_request) {
      r.wavefronts_per_request = *counted.wavefronts_per_request;
    } else {
      r.counters_unavailable = counted.unavailable;
    }
  });
}

TileCounted count_tile_read(const gpu::DeviceInfo& device, gpu::TileLab& lab,
                            const TileState& state, const std::function<void()>& between) {
  TileCounted out;
  const LaunchCountersRead none =
      read_launch_counters(device, lab.counter_launch(state.tile, state.read, 0));
  if (!none.counters) {
    out.unavailable = none.unavailable;
    return out;
  }
  if (between) between();
  const LaunchCountersRead some =
      read_launch_counters(device, lab.counter_launch(state.tile, state.read, kTileCounterReads));
  if (!some.counters) {
    out.unavailable = some.unavailable;
    return out;
  }
  out.wavefronts_per_request =
      (some.counters->shared_load_wavefronts - none.counters->shared_load_wavefronts) /
      kTileCounterReads;
  return out;
}

}  // namespace warplens::app
