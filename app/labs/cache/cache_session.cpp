#include "cache_session.h"

#include <algorithm>
#include <stdexcept>

#include "counter_service.h"
#include "gpu_turn.h"

namespace warplens::app {

namespace {

constexpr int kRuns = 7;
constexpr int kWarmup = 2;

// The model's device when there is none: an H100 (CC 9.0), as the rest of the window assumes.
gpu::CacheDeviceLimits model_limits() {
  gpu::CacheDeviceLimits l;
  l.table = gpu::carveout_table(9, 0);
  l.shared_bytes_per_sm = 228 * 1024;
  l.shared_bytes_per_block_optin = 227 * 1024;
  l.reserved_shared_bytes_per_block = 1024;
  l.max_threads_per_sm = 2048;
  l.max_blocks_per_sm = 32;
  l.table_matches = true;
  return l;
}

}  // namespace

PredictedOccupancy predict_occupancy(const CacheModel& m, int carveout,
                                     std::int64_t dynamic_bytes) {
  PredictedOccupancy p;
  p.carveout = carveout;
  p.dynamic_shared_bytes = dynamic_bytes;
  const int by_threads = m.max_threads_per_sm / std::max(m.threads_per_block, 1);
  const int other = std::min(by_threads, m.max_blocks_per_sm);
  const std::int64_t block_bytes = dynamic_bytes + m.reserved_bytes;
  p.choice = gpu::carveout_capacity(m.table, carveout, block_bytes, other);
  p.blocks_per_sm = std::min(other, gpu::blocks_by_shared(p.choice.shared_kib, block_bytes));
  const int warps = m.threads_per_block / 32;
  const int max_warps = std::max(m.max_threads_per_sm / 32, 1);
  p.occupancy_percent = 100.0 * p.blocks_per_sm * warps / max_warps;
  p.limiter = p.blocks_per_sm < other             ? "shared memory"
              : by_threads <= m.max_blocks_per_sm ? "threads"
                                                  : "blocks per SM";
  return p;
}

const char* to_string(CacheSection section) {
  switch (section) {
    case CacheSection::Carveout: return "carveout";
    case CacheSection::L1: return "l1";
    case CacheSection::Constant: return "constant";
    case CacheSection::ReadPath: return "read-path";
  }
  return "?";
}

CacheSection parse_cache_section(const std::string& text) {
  for (auto s :
       {CacheSection::Carveout, CacheSection::L1, CacheSection::Constant, CacheSection::ReadPath})
    if (text == to_string(s)) return s;
  throw std::invalid_argument("cache section must be carveout, l1, constant or read-path (got \"" +
                              text + "\")");
}

const std::vector<std::int64_t>& l1_working_sets() {
  static const std::vector<std::int64_t> sets = [] {
    std::vector<std::int64_t> v;
    for (int kib : {8, 16, 32, 48, 64, 96, 128, 192, 256, 384, 512, 1024})
      v.push_back(std::int64_t{kib} * 1024);
    return v;
  }();
  return sets;
}

const std::vector<int>& l1_carveouts() {
  static const std::vector<int> c = {gpu::kCarveoutDefault, gpu::kCarveoutMaxL1, 50,
                                     gpu::kCarveoutMaxShared};
  return c;
}

std::vector<std::int64_t> occupancy_dynamic_shared(std::int64_t optin_limit_bytes) {
  std::vector<std::int64_t> v;
  for (int kib : {0, 8, 16, 24, 32, 48, 56, 64, 76, 100, 114, 160, 200, 227})
    if (std::int64_t{kib} * 1024 <= optin_limit_bytes) v.push_back(std::int64_t{kib} * 1024);
  return v;
}

std::vector<int> hungry_carveouts(const gpu::CarveoutTable* table) {
  if (table && !table->capacities_kib.empty()) return gpu::carveouts_per_capacity(*table);
  return {gpu::kCarveoutDefault, 0, 25, 50, 75, 100};
}

const std::vector<gpu::ReadPattern>& read_patterns() {
  static const std::vector<gpu::ReadPattern> p = {
      gpu::ReadPattern::Scattered, gpu::ReadPattern::Local2D, gpu::ReadPattern::Morton,
      gpu::ReadPattern::ColumnTile, gpu::ReadPattern::ColumnTileMorton};
  return p;
}

const std::vector<gpu::ReadPath>& read_paths() {
  static const std::vector<gpu::ReadPath> p = {gpu::ReadPath::Plain, gpu::ReadPath::Ldg,
                                               gpu::ReadPath::Texture};
  return p;
}

CacheModel cache_model(const CacheState& state, const gpu::CacheDeviceLimits* device_limits,
                       const std::string& device_name) {
  gpu::check_carveout(state.carveout);
  gpu::check_constant_k(state.k);
  gpu::check_working_set(state.working_set_bytes);
  gpu::check_read_path(state.read);
  const gpu::CacheDeviceLimits fallback = model_limits();
  const bool from_device = device_limits && device_limits->table;
  const gpu::CacheDeviceLimits& l = from_device ? *device_limits : fallback;
  gpu::check_dynamic_shared(state.dynamic_shared_bytes, l.shared_bytes_per_block_optin);
  CacheModel m;
  m.table = *l.table;
  m.table_from_device = from_device;
  m.device_text = from_device ? device_name + " (CC " + std::to_string(m.table.cc_major) + "." +
                                    std::to_string(m.table.cc_minor) + ")"
                              : std::string("model: CC 9.0 (H100) table");
  m.optin_limit_bytes = l.shared_bytes_per_block_optin;
  m.reserved_bytes = l.reserved_shared_bytes_per_block;
  m.threads_per_block = gpu::CacheLab::shared_hungry_threads();
  m.max_threads_per_sm = l.max_threads_per_sm > 0 ? l.max_threads_per_sm : 2048;
  m.max_blocks_per_sm = l.max_blocks_per_sm > 0 ? l.max_blocks_per_sm : 32;
  m.current = predict_occupancy(m, state.carveout, state.dynamic_shared_bytes);
  for (auto dyn : occupancy_dynamic_shared(m.optin_limit_bytes))
    m.sweep.push_back(predict_occupancy(m, state.carveout, dyn));
  for (int carveout : hungry_carveouts(&m.table))
    m.carveout_sweep.push_back(predict_occupancy(m, carveout, state.dynamic_shared_bytes));
  m.needs_optin = gpu::needs_shared_optin(state.dynamic_shared_bytes);
  m.optin_note = gpu::shared_optin_note(state.dynamic_shared_bytes, m.optin_limit_bytes);
  m.lane_groups = gpu::constant_lane_groups(state.k);
  return m;
}

bool same_cache_measurement(CacheSection section, const CacheState& a, const CacheState& b) {
  switch (section) {
    case CacheSection::Carveout:
      return a.carveout == b.carveout && a.dynamic_shared_bytes == b.dynamic_shared_bytes;
    case CacheSection::L1:
    case CacheSection::Constant: return true;  // the sweeps cover every choice
    case CacheSection::ReadPath:
      return a.read.side == b.read.side && a.read.radius == b.read.radius &&
             a.read.scattered_reads == b.read.scattered_reads;
  }
  return false;
}

CacheSession::CacheSession(bool use_gpu)
    : WorkerSession(
          use_gpu, 1,
          [this] {
            auto lab = start_lab("cache lab");
            std::lock_guard lock(mutex_);
            measured_.limits = lab->limits();
            return lab;
          },
          [this](int, const CacheState& job, gpu::CacheLab& lab) { run_job(job, lab); }) {
  model_ = cache_model(state_, nullptr, "");
  // After a GPU reset: measure again what is shown (a lab not shown waits to be shown).
  start_worker([this] {
    if (shown_ && !worker_.lab_failed()) request_current();
  });
}

void CacheSession::show() {
  if (shown_ || !gpu_mode()) return;
  shown_ = true;
  if (!measurement_current()) request_current();
}

CacheSession::~CacheSession() {
  worker_.stop();
}

std::string CacheSession::no_gpu_text() const {
  return "Measured lines need a GPU (" + device_.reason + "); the model's are drawn.";
}

void CacheSession::set(const CacheState& requested) {
  CacheModel model;
  try {
    model = cache_model(requested, limits_ ? &*limits_ : nullptr,
                        gpu_mode() ? device_.device->name : "");
  } catch (const std::exception& e) {
    worker_.refuse(e.what());
    return;
  }
  const bool changed = !(requested == state_);
  state_ = requested;
  model_ = std::move(model);
  worker_.accept(/*changed=*/true);  // the cache lab's errors end with any accepted set()
  if (changed && shown_ && gpu_mode() && !measurement_current()) request_current();
}

void CacheSession::request_current() {
  if (!gpu_mode()) return;
  worker_.retry();
  {
    std::lock_guard lock(mutex_);  // no progress of the last job while this one waits
    measured_.done = 0;
    measured_.total = 0;
  }
  worker_.post(0, state_);
}

void CacheSession::remeasure() {
  request_current();
}

void CacheSession::update() {
  if (!gpu_mode() || limits_) return;
  std::optional<gpu::CacheDeviceLimits> limits;
  {
    std::lock_guard lock(mutex_);
    limits = measured_.limits;
  }
  if (!limits) return;
  limits_ = std::move(limits);
  try {
    model_ = cache_model(state_, &*limits_, device_.device->name);
  } catch (const std::exception& e) {
    set_error(std::string("parameters refused on this GPU: ") + e.what());
  }
}

CacheResults CacheSession::measured() const {
  return worker_.with_progress(mutex_, measured_);
}

bool CacheSession::measurement_current() const {
  std::lock_guard lock(mutex_);
  const std::optional<CacheState>* of = nullptr;
  switch (state_.section) {
    case CacheSection::Carveout: of = &measured_.carveout_of; break;
    case CacheSection::L1: of = &measured_.l1_of; break;
    case CacheSection::Constant: of = &measured_.constant_of; break;
    case CacheSection::ReadPath: of = &measured_.read_of; break;
  }
  return of && of->has_value() && same_cache_measurement(state_.section, **of, state_);
}

void CacheSession::inject_results_for_test(CacheResults results) {
  std::lock_guard lock(mutex_);
  measured_ = std::move(results);
}

void CacheSession::set_error(const std::string& message) {
  worker_.set_error(message);
}

void CacheSession::run_job(const CacheState& job, gpu::CacheLab& lab) {
  const gpu::DeviceInfo& device = *device_.device;
  const auto* const cancel = worker_.cancel_flag(0);
  const auto status = [&](const std::string& text, int done, int total) {
    worker_.set_status(text);
    std::lock_guard lock(mutex_);
    measured_.done = done;
    measured_.total = total;
  };
  {
    std::lock_guard lock(mutex_);
    measured_.done = 0;
    measured_.total = 0;
  }
  const auto& limits = lab.limits();
  switch (job.section) {
    case CacheSection::Carveout: {
      const auto dyns = occupancy_dynamic_shared(limits.shared_bytes_per_block_optin);
      const auto sweep = hungry_carveouts(limits.table ? &*limits.table : nullptr);
      {
        std::lock_guard lock(mutex_);
        measured_.occupancy.clear();
        measured_.hungry.reset();
        measured_.hungry_sweep.clear();
        measured_.carveout_of.reset();
      }
      const int total = static_cast<int>(dyns.size() + 1 + sweep.size());
      std::vector<gpu::OccupancyInfo> table;
      for (std::size_t i = 0; i < dyns.size(); ++i) {
        if (*cancel) throw gpu::Cancelled();
        status("asking the occupancy API", static_cast<int>(i), total);
        table.push_back(lab.occupancy(job.carveout, dyns[i]));
      }
      {
        std::lock_guard lock(mutex_);
        measured_.occupancy = table;
      }
      int done = static_cast<int>(dyns.size());
      status("timing the shared-hungry kernel", done++, total);
      auto hungry =
          lab.measure_shared_hungry(job.carveout, job.dynamic_shared_bytes, kRuns, kWarmup, cancel);
      {
        std::lock_guard lock(mutex_);
        measured_.hungry = std::move(hungry);
      }
      for (int carveout : sweep) {
        status("timing the shared-hungry kernel at carveout " + std::to_string(carveout), done++,
               total);
        auto m =
            lab.measure_shared_hungry(carveout, job.dynamic_shared_bytes, kRuns, kWarmup, cancel);
        std::lock_guard lock(mutex_);
        measured_.hungry_sweep.push_back(std::move(m));  // the plot grows point by point
      }
      std::lock_guard lock(mutex_);
      measured_.carveout_of = job;
      break;
    }
    case CacheSection::L1: {
      {
        std::lock_guard lock(mutex_);
        measured_.l1.clear();
        measured_.l1_hit.clear();
        measured_.l1_hit_note.clear();
        measured_.l1_of.reset();
      }
      const auto& sets = l1_working_sets();
      const int total = static_cast<int>(sets.size() * l1_carveouts().size());
      int done = 0;
      for (int carveout : l1_carveouts()) {
        for (auto ws : sets) {
          status("timing the L1 gather", done, total);
          auto m = lab.measure_l1_gather(carveout, ws, kRuns, kWarmup, cancel);
          std::lock_guard lock(mutex_);
          measured_.l1.push_back(std::move(m));  // partial sweeps draw as they grow
          ++done;
        }
      }
      {
        std::lock_guard lock(mutex_);
        measured_.l1_of = job;
      }
      // The hit rates: dedicated launches on the checker's own lab, after every timed run.
      done = 0;
      const CounterBurst burst;  // the profiler switched on once for the sweep
      for (int carveout : l1_carveouts()) {
        for (auto ws : sets) {
          if (*cancel) throw gpu::Cancelled();
          status("reading L1 hit rates (hardware counters)", done++, total);
          CacheCounterCase c;
          c.kind = CacheCounterCase::Kind::L1Gather;
          c.carveout = carveout;
          c.working_set_bytes = ws;
          L1HitRate rate = read_cache_hit_rate(device, c);
          std::lock_guard lock(mutex_);
          if (!rate.percent) {
            measured_.l1_hit_note = rate.unavailable;  // the rest would fail alike
            break;
          }
          measured_.l1_hit.push_back({carveout, ws, std::move(rate)});
        }
        std::lock_guard lock(mutex_);
        if (!measured_.l1_hit_note.empty()) break;
      }
      break;
    }
    case CacheSection::Constant: {
      {
        std::lock_guard lock(mutex_);
        measured_.constant.clear();
        measured_.constant_of.reset();
      }
      for (int k = 1; k <= 32; ++k) {
        status("timing constant reads", k - 1, 32);
        auto m = lab.measure_constant(k, kRuns, kWarmup, cancel);
        std::lock_guard lock(mutex_);
        measured_.constant.push_back(std::move(m));
      }
      std::lock_guard lock(mutex_);
      measured_.constant_of = job;
      break;
    }
    case CacheSection::ReadPath: {
      {
        std::lock_guard lock(mutex_);
        measured_.read.clear();
        measured_.read_hit.clear();
        measured_.read_hit_note.clear();
        measured_.read_of.reset();
      }
      const int total = static_cast<int>(read_paths().size() * read_patterns().size());
      int done = 0;
      for (auto path : read_paths()) {
        for (auto pattern : read_patterns()) {
          gpu::ReadPathParams p = job.read;
          p.path = path;
          p.pattern = pattern;
          status(
              std::string("timing ") + gpu::to_string(path) + " reads, " + gpu::to_string(pattern),
              done, total);
          auto m = lab.measure_read_path(p, kRuns, kWarmup, cancel);
          std::lock_guard lock(mutex_);
          measured_.read.push_back(std::move(m));
          ++done;
        }
      }
      {
        std::lock_guard lock(mutex_);
        measured_.read_of = job;
      }
      // The hit rates after every timed run. A path whose counters this GPU lacks (the
      // texture pipe's, say) notes why and the others still read.
      done = 0;
      const CounterBurst burst;  // the profiler switched on once for the sweep
      for (auto path : read_paths()) {
        for (auto pattern : read_patterns()) {
          if (*cancel) throw gpu::Cancelled();
          status("reading L1 hit rates (hardware counters)", done++, total);
          CacheCounterCase c;
          c.kind = CacheCounterCase::Kind::ReadPath;
          c.read = job.read;
          c.read.path = path;
          c.read.pattern = pattern;
          L1HitRate rate = read_cache_hit_rate(device, c);
          std::lock_guard lock(mutex_);
          if (!rate.percent && measured_.read_hit_note.find(rate.unavailable) == std::string::npos)
            measured_.read_hit_note +=
                (measured_.read_hit_note.empty() ? "" : "; ") + rate.unavailable;
          measured_.read_hit.push_back({c.read, std::move(rate)});
        }
      }
      break;
    }
  }
}

}  // namespace warplens::app
