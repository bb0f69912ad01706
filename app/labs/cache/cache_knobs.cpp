#include "cache_knobs.h"

#include <cstdint>

namespace warplens::app {

namespace {

std::vector<Knob<CacheState>> make_knobs() {
  using S = CacheState;
  const auto kib = [](std::int64_t bytes) { return bytes / 1024; };
  std::vector<Knob<S>> k;
  k.push_back(named<S>(
      {.key = "section",
       .label = "Section",
       .style = KnobStyle::Radio,
       .picks = {knob_value(CacheSection::Carveout), knob_value(CacheSection::L1),
                 knob_value(CacheSection::Constant), knob_value(CacheSection::ReadPath)},
       .get = [](const S& s) { return knob_value(s.section); },
       .set = [](S& s, std::int64_t v) { s.section = static_cast<CacheSection>(v); }},
      {CacheSection::Carveout, CacheSection::L1, CacheSection::Constant, CacheSection::ReadPath},
      [](CacheSection c) { return to_string(c); }));
  k.push_back({.key = "carveout",
               .label = "Carveout (% of the unified L1 for shared memory; -1 the driver's)",
               .low = -1,
               .high = 100,
               .picks = {gpu::kCarveoutDefault, 0, 25, 50, 100},
               .get = [](const S& s) { return std::int64_t{s.carveout}; },
               .set = [](S& s, std::int64_t v) { s.carveout = static_cast<int>(v); }});
  k.push_back({.key = "dynamic_shared_kib",
               .label = "Dynamic shared memory per block (KiB)",
               .low = 0,
               .high = 227,
               .picks = {0, 20, 56, 100},
               .get = [kib](const S& s) { return kib(s.dynamic_shared_bytes); },
               .set = [](S& s, std::int64_t v) { s.dynamic_shared_bytes = v * 1024; }});
  std::vector<std::int64_t> working_sets;
  for (std::int64_t bytes : l1_working_sets()) working_sets.push_back(bytes / 1024);
  k.push_back({.key = "working_set_kib",
               .label = "Working set (KiB)",
               .low = working_sets.front(),
               .high = working_sets.back(),
               .picks = working_sets,
               .get = [kib](const S& s) { return kib(s.working_set_bytes); },
               .set = [](S& s, std::int64_t v) { s.working_set_bytes = v * 1024; }});
  std::vector<std::int64_t> ks;
  for (int i = 1; i <= 32; ++i) ks.push_back(i);
  k.push_back({.key = "k",
               .label = "Distinct addresses per warp",
               .low = 1,
               .high = 32,
               .picks = ks,
               .get = [](const S& s) { return std::int64_t{s.k}; },
               .set = [](S& s, std::int64_t v) { s.k = static_cast<int>(v); }});
  const auto read_name = [](auto e) { return gpu::to_string(e); };
  k.push_back(
      named<S>({.key = "path",
                .label = "Read path",
                .style = KnobStyle::Combo,
                .picks = knob_values(read_paths()),
                .get = [](const S& s) { return knob_value(s.read.path); },
                .set = [](S& s, std::int64_t v) { s.read.path = static_cast<gpu::ReadPath>(v); }},
               {gpu::ReadPath::Plain, gpu::ReadPath::Ldg, gpu::ReadPath::Texture}, read_name));
  k.push_back(named<S>(
      {.key = "pattern",
       .label = "Access pattern",
       .style = KnobStyle::Combo,
       .picks = knob_values(read_patterns()),
       .get = [](const S& s) { return knob_value(s.read.pattern); },
       .set = [](S& s, std::int64_t v) { s.read.pattern = static_cast<gpu::ReadPattern>(v); }},
      {gpu::ReadPattern::Scattered, gpu::ReadPattern::Local2D, gpu::ReadPattern::Morton,
       gpu::ReadPattern::ColumnTile, gpu::ReadPattern::ColumnTileMorton},
      read_name));
  k.push_back({.key = "image_side",
               .label = "Image side (pixels)",
               .low = 64,
               .high = 8192,
               .get = [](const S& s) { return std::int64_t{s.read.side}; },
               .set = [](S& s, std::int64_t v) { s.read.side = static_cast<int>(v); }});
  k.push_back({.key = "radius",
               .label = "Window radius",
               .low = 0,
               .high = 4,
               .get = [](const S& s) { return std::int64_t{s.read.radius}; },
               .set = [](S& s, std::int64_t v) { s.read.radius = static_cast<int>(v); }});
  k.push_back({.key = "scattered_reads",
               .label = "Reads per thread",
               .low = 1,
               .high = 32,
               .get = [](const S& s) { return std::int64_t{s.read.scattered_reads}; },
               .set = [](S& s, std::int64_t v) { s.read.scattered_reads = static_cast<int>(v); }});
  return k;
}

}  // namespace

const std::vector<Knob<CacheState>>& cache_knobs() {
  static const std::vector<Knob<CacheState>> knobs = make_knobs();
  return knobs;
}

}  // namespace warplens::app
