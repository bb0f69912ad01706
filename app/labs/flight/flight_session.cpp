#include "flight_session.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace warplens::app {

namespace {

constexpr int kRuns = 7;
constexpr int kWarmup = 2;
constexpr int kChaseRuns = 3;

bool same_row(const gpu::LatencyPoint& p, const LadderRow& row) {
  return p.params.path == row.path && p.params.lanes == row.lanes;
}

bool has_async(const FlightResults& r, gpu::AsyncKind kind) {
  return std::any_of(r.async.begin(), r.async.end(),
                     [&](const gpu::AsyncMeasurement& a) { return a.kind == kind; });
}

bool has_latency(const FlightResults& r, const gpu::ChaseParams& c) {
  return std::any_of(r.ladder.begin(), r.ladder.end(),
                     [&](const gpu::LatencyPoint& p) { return p.params == c; });
}

}  // namespace

const char* to_string(FlightSection section) {
  switch (section) {
    case FlightSection::Latency: return "latency";
    case FlightSection::LittlesLaw: return "littles-law";
    case FlightSection::Async: return "async";
  }
  return "?";
}

FlightSection parse_flight_section(const std::string& text) {
  for (auto s : {FlightSection::Latency, FlightSection::LittlesLaw, FlightSection::Async})
    if (text == to_string(s)) return s;
  throw std::invalid_argument("flight section must be latency, littles-law or async (got \"" +
                              text + "\")");
}

const std::vector<LadderRow>& ladder_rows() {
  static const std::vector<LadderRow> rows = {{gpu::LoadPath::Default, 1},
                                              {gpu::LoadPath::L2Only, 1},
                                              {gpu::LoadPath::Default, gpu::kChaseWarpLanes},
                                              {gpu::LoadPath::L2Only, gpu::kChaseWarpLanes}};
  return rows;
}

const LadderRow& model_ladder_row() {
  return ladder_rows()[2];
}

std::string ladder_row_label(const LadderRow& row) {
  return std::string(row.path == gpu::LoadPath::L2Only ? "__ldcg" : "default") +
         (row.lanes == 1 ? ", 1 lane" : ", warp");
}

std::vector<gpu::StreamParams> littles_law_grid(const gpu::SmLimits& limits) {
  std::vector<gpu::StreamParams> v;
  for (int word : {4, 16})
    for (int loads : {1, 2, 4, 8})
      for (int blocks : {1, 2, 4, 0}) {
        gpu::StreamParams p;
        p.word_bytes = word;
        p.loads_per_thread = loads;
        p.block_threads = 256;
        p.dynamic_shared_bytes = blocks ? gpu::shared_for_blocks(limits, 256, blocks) : 0;
        p.grid_stride = false;
        v.push_back(p);
      }
  return v;
}

std::vector<gpu::StreamParams> plain_bar_copies() {
  gpu::StreamParams one;  // 4 B, 1 load, 256 threads
  gpu::StreamParams best;
  best.word_bytes = 16;
  best.loads_per_thread = 4;
  best.grid_stride = true;
  return {one, best};
}

std::vector<gpu::LatencyPoint> ladder_row(const FlightResults& r, const LadderRow& row) {
  std::vector<gpu::LatencyPoint> v;
  for (const auto& p : r.ladder)
    if (same_row(p, row)) v.push_back(p);
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
    return a.params.working_set_bytes < b.params.working_set_bytes;
  });
  return v;
}

const gpu::StreamMeasurement* find_stream(const FlightResults& r, const gpu::StreamParams& p) {
  for (const auto& m : r.stream)
    if (m.params == p) return &m;
  return nullptr;
}

double flight_line_gbps(const FlightModel& m, double bytes_in_flight_per_sm) {
  return m.line.gbps(bytes_in_flight_per_sm, m.warp_batch_bytes, m.residency.blocks_per_sm,
                     m.warp_batch_bytes / 32);
}

std::string flight_line_extras_text(const FlightModel& m) {
  std::string s;
  if (m.loaded) s += "; near the wall the latency a 512 B batch chase measured beside a copy";
  if (m.block_gap_ns > 0)
    s += "; one block per SM: less the " + std::to_string(std::lround(m.block_gap_ns)) +
         " ns its SM holds no load each round (its stores and the next block's start, measured)";
  return s;
}

double flight_line_meets_peak_bytes(const FlightModel& m) {
  // Bisection on the line's own function: the least bytes where it is within 0.5 % of the cap.
  const double target = 0.995 * m.peak_gbps;
  double lo = 0, hi = std::max(m.knee_bytes, 1.0);
  for (int i = 0; i < 60 && flight_line_gbps(m, hi) < target; ++i) hi *= 2;
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    (flight_line_gbps(m, mid) < target ? lo : hi) = mid;
  }
  return hi;
}

FlightModel flight_model(const FlightState& st, const FlightResults& r,
                         const std::string& device_name) {
  FlightModel m;
  if (r.limits) {
    m.sm = r.limits->sm;
    m.levels = r.limits->levels;
    m.from_device = true;
    m.cc_major = r.limits->cc_major;
    m.cc_minor = r.limits->cc_minor;
    m.theoretical_gbps = r.limits->theoretical_gbps;
    m.device_text =
        device_name + " (CC " + std::to_string(m.cc_major) + "." + std::to_string(m.cc_minor) + ")";
  } else {
    m.sm = gpu::model_sm_limits();
    m.levels = {256 * 1024, std::int64_t{50} << 20};  // H100 SXM: 256 KiB L1 + shared, 50 MiB L2
    m.device_text = "model: H100 limits";
  }
  gpu::check_stream(st.stream, m.sm.shared_optin_per_block);
  gpu::check_chase({st.working_set_bytes, gpu::LoadPath::Default, 1},
                   std::max<std::int64_t>(4 * m.levels.l2_bytes, std::int64_t{4} << 20));
  if (r.memcpy && r.memcpy->gbps > 0) {
    m.peak_gbps = r.memcpy->gbps;
    m.peak_measured = true;
  }
  m.plateaus = gpu::find_plateaus(ladder_row(r, ladder_rows().front()), m.levels);
  const auto model_dram = gpu::find_plateaus(ladder_row(r, model_ladder_row()), m.levels).dram_ns;
  if (model_dram && *model_dram > 0) {
    m.latency_ns = *model_dram;
    m.latency_measured = true;
  }
  if (const auto* s = find_stream(r, st.stream)) {
    m.residency = s->residency;
    m.residency_measured = true;
  } else {
    m.residency =
        gpu::predict_residency(st.stream, m.sm, gpu::estimated_stream_registers(st.stream));
  }
  m.picture = gpu::sm_picture(st.stream, m.residency);
  m.bytes_in_flight = static_cast<double>(m.picture.bytes_in_flight);
  if (const auto tau = gpu::batch_ns_per_byte(r.stream, m.sm.sm_count, m.latency_ns, m.peak_gbps)) {
    m.batch_ns_per_byte = *tau;
    m.batch_measured = true;
  }
  m.warp_batch_bytes = 32.0 * st.stream.loads_per_thread * st.stream.word_bytes;
  // The probe's wall, once the probe and the ladder's L0 are measured (FlightModel::loaded).
  if (m.latency_measured) m.loaded = gpu::loaded_latency_model(r.probe, m.latency_ns);
  m.line.sms = m.sm.sm_count;
  m.line.latency_ns = m.latency_ns;
  m.line.peak_gbps = m.peak_gbps;
  m.line.batch_ns_per_byte = m.batch_ns_per_byte;
  m.line.loaded = m.loaded;
  if (m.peak_measured) m.line.gaps = gpu::block_gaps(r.timelines);
  if (m.residency.blocks_per_sm == 1 && !m.line.gaps.empty())
    m.block_gap_ns = m.line.gaps.at(m.warp_batch_bytes / 32);
  m.predicted_gbps = flight_line_gbps(m, m.bytes_in_flight);
  m.knee_bytes = gpu::knee_bytes_per_sm(m.sm.sm_count, m.latency_ns, m.peak_gbps);
  m.working_sets = gpu::ladder_working_sets(m.levels.l2_bytes);
  return m;
}

FlightSession::FlightSession(bool use_gpu)
    : WorkerSession(
          use_gpu, 1,
          [this] {
            auto lab = start_lab("bytes-in-flight lab");
            publish([&](FlightResults& r) { r.limits = lab->limits(); });
            return lab;
          },
          [this](int, const FlightState& job, gpu::FlightLab& lab) { run_job(job, lab); }) {
  model_ = flight_model(state_, measured_, "");
  start_worker([this] {  // after a GPU reset: measure again
    if (!worker_.lab_failed()) request();
  });
}

FlightSession::~FlightSession() {
  worker_.stop();
}

std::string FlightSession::no_gpu_text() const {
  return "Measured lines need a GPU (" + device_.reason + "); the model's are drawn.";
}

void FlightSession::set(const FlightState& requested) {
  FlightModel model;
  try {
    model = flight_model(requested, measured(), gpu_mode() ? device_.device->name : "");
  } catch (const std::exception& e) {
    worker_.refuse(e.what());
    return;
  }
  const bool changed = !(requested == state_);
  state_ = requested;
  model_ = std::move(model);
  worker_.accept(changed);
  if (changed && shown_) request();
}

void FlightSession::show() {
  if (shown_ || !gpu_mode()) return;
  shown_ = true;
  request();
}

void FlightSession::request() {
  if (!gpu_mode()) return;
  worker_.retry();
  worker_.post(0, state_);
}

void FlightSession::remeasure() {
  publish([&](FlightResults& r) {
    switch (state_.section) {
      case FlightSection::Latency: r.ladder.clear(); break;
      case FlightSection::LittlesLaw:
        r.stream.clear();
        r.probe.clear();
        r.memcpy.reset();
        break;
      case FlightSection::Async: r.async.clear(); break;
    }
  });
  request();
}

void FlightSession::update() {
  int version = 0;
  {
    std::lock_guard lock(mutex_);
    version = measured_.version;
  }
  if (version == model_version_) return;
  model_version_ = version;
  try {
    model_ = flight_model(state_, measured(), gpu_mode() ? device_.device->name : "");
  } catch (const std::exception& e) {
    worker_.set_error(std::string("parameters refused on this GPU: ") + e.what());
  }
}

FlightResults FlightSession::measured() const {
  return worker_.with_progress(mutex_, measured_);
}

void FlightSession::inject_results_for_test(FlightResults results) {
  {
    std::lock_guard lock(mutex_);
    results.version = measured_.version + 1;
    measured_ = std::move(results);
  }
  update();
}

void FlightSession::publish(const std::function<void(FlightResults&)>& change) {
  std::lock_guard lock(mutex_);
  change(measured_);
  ++measured_.version;
}

void FlightSession::run_job(const FlightState& job, gpu::FlightLab& lab) {
  const auto* const cancel = worker_.cancel_flag(0);
  const FlightResults have = measured();
  int done = 0, total = 0;
  const auto status = [&](const std::string& text) {
    worker_.set_status(text);
    publish([&](FlightResults& r) {
      r.done = done;
      r.total = total;
    });
  };
  const auto memcpy_ref = [&] {
    if (have.memcpy) return;
    status("timing cudaMemcpy");
    auto m = lab.measure_memcpy(kRuns, kWarmup);
    publish([&](FlightResults& r) { r.memcpy = m; });
  };
  const auto chase = [&](const gpu::ChaseParams& c) {
    if (has_latency(have, c)) return;
    if (*cancel) throw gpu::Cancelled();
    status("chasing pointers: " + ladder_row_label({c.path, c.lanes}));
    auto p = lab.measure_latency(c, kChaseRuns, cancel);
    publish([&](FlightResults& r) { r.ladder.push_back(p); });
  };
  const auto stream = [&](const gpu::StreamParams& p) {
    if (find_stream(have, p)) return;
    status("timing the copy");
    auto m = lab.measure_stream(p, kRuns, kWarmup, cancel);
    publish([&](FlightResults& r) {
      if (!find_stream(r, p)) r.stream.push_back(m);
    });
  };
  const auto& limits = lab.limits();
  const auto sets = gpu::ladder_working_sets(limits.levels.l2_bytes);
  switch (job.section) {
    case FlightSection::Latency: {
      total = static_cast<int>(sets.size() * ladder_rows().size());
      for (auto ws : sets)
        for (const auto& row : ladder_rows()) {
          chase({ws, row.path, row.lanes});
          ++done;
        }
      break;
    }
    case FlightSection::LittlesLaw: {
      const auto grid = littles_law_grid(limits.sm);
      total = static_cast<int>(grid.size()) + 3;
      memcpy_ref();
      // The point of the panel's parameters first: it is what the headline shows, and a
      // restarted window (or a class waiting) sees it before the model's inputs and the grid
      // (the whole section took 6 s on an H200, 2026-11-27).
      stream(job.stream);
      ++done;
      // The model's latency: the DRAM points of view 1's row model_ladder_row().
      const LadderRow& model_row = model_ladder_row();
      for (auto ws : sets)
        if (ws >= 2 * limits.levels.l2_bytes) chase({ws, model_row.path, model_row.lanes});
      ++done;
      // And how it grows under load: the loaded-latency probe (flight_lab.h).
      if (have.probe.empty()) {
        status("chasing pointers beside a copy (loaded latency)");
        std::vector<gpu::LoadedLatencyPoint> probe;
        for (int load : gpu::probe_copy_blocks(limits.sm))
          for (int batch : {0, gpu::kProbeBatchSmall, gpu::kProbeBatchLarge}) {
            if (*cancel) throw gpu::Cancelled();
            probe.push_back(lab.measure_loaded_latency(load, batch, kChaseRuns, cancel));
          }
        publish([&](FlightResults& r) { r.probe = probe; });
      }
      // And the SM's idle time per round with one block per SM: the one-block timelines.
      if (have.timelines.empty()) {
        status("stamping one block's round on its SM (the one-block gap)");
        std::vector<gpu::BlockTimeline> timelines;
        for (const auto& p : gpu::timeline_copies(limits.sm, 1)) {
          if (*cancel) throw gpu::Cancelled();
          timelines.push_back(lab.measure_block_timeline(p, kRuns, cancel));
        }
        publish([&](FlightResults& r) { r.timelines = timelines; });
      }
      ++done;
      for (const auto& p : grid) {
        if (*cancel) throw gpu::Cancelled();
        stream(p);
        ++done;
      }
      break;
    }
    case FlightSection::Async: {
      total = 5;
      memcpy_ref();
      ++done;
      for (const auto& p : plain_bar_copies()) {
        stream(p);
        ++done;
      }
      for (auto kind : {gpu::AsyncKind::CpAsync, gpu::AsyncKind::Tma}) {
        if (has_async(have, kind)) continue;
        if (*cancel) throw gpu::Cancelled();
        status(std::string("timing the staged copy: ") + gpu::to_string(kind));
        auto m = lab.measure_async(kind, kRuns, kWarmup, cancel);
        publish([&](FlightResults& r) { r.async.push_back(m); });
        ++done;
      }
      break;
    }
  }
  publish([&](FlightResults& r) { r.done = r.total = 0; });
}

}  // namespace warplens::app
