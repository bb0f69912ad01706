#include "cache_knobs.h"

#include <cstdint>
#include <string>

#include "cache_ui_internal.h"
#include "ui_widgets.h"

namespace warplens::app {

namespace {

std::vector<Knob<CacheState>> make_knobs() {
  using S = CacheState;
  const auto kib = [](std::int64_t bytes) { return bytes / 1024; };
  // The presenter strip: the one or two knobs of the section, each saying what it is inside it.
  const auto in = [](CacheSection section) {
    return [section](const S& s) { return s.section == section; };
  };
  const auto words = [](const char* full, const char* brief) {
    return [full, brief](std::int64_t v, bool short_form) {
      return format(short_form ? brief : full, static_cast<int>(v));
    };
  };
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
               .set = [](S& s, std::int64_t v) { s.carveout = static_cast<int>(v); },
               .strip = "carveout",
               .strip_when = in(CacheSection::Carveout),
               .strip_text =
                   [](std::int64_t v, bool brief) {
                     if (v < 0) return std::string(brief ? "default" : "carveout default");
                     return format(brief ? "%d %%" : "carveout %d %%", static_cast<int>(v));
                   },
               .strip_tip =
                   [](std::int64_t) {
                     return std::string(
                         "carveout: % of the largest shared capacity (-1: the driver picks)");
                   }});
  k.push_back(
      {.key = "dynamic_shared_kib",
       .label = "Dynamic shared memory per block (KiB)",
       .low = 0,
       .high = 227,
       .picks = {0, 20, 56, 100},
       .get = [kib](const S& s) { return kib(s.dynamic_shared_bytes); },
       .set = [](S& s, std::int64_t v) { s.dynamic_shared_bytes = v * 1024; },
       .strip = "dynamic shared",
       .strip_when = in(CacheSection::Carveout),
       .strip_text = words("%d KiB / block", "%d KiB"),
       .strip_tip = [](std::int64_t) { return std::string("dynamic shared memory per block"); }});
  std::vector<std::int64_t> working_sets;
  for (std::int64_t bytes : l1_working_sets()) working_sets.push_back(bytes / 1024);
  k.push_back(
      {.key = "working_set_kib",
       .label = "Working set (KiB)",
       .low = working_sets.front(),
       .high = working_sets.back(),
       .values = working_sets,
       .picks = working_sets,
       .get = [kib](const S& s) { return kib(s.working_set_bytes); },
       .set = [](S& s, std::int64_t v) { s.working_set_bytes = v * 1024; },
       .strip = "working set",
       .strip_when = in(CacheSection::L1),
       .strip_style = Knob<S>::StripStyle::Slider,
       .strip_text = [](std::int64_t v,
                        bool brief) { return (brief ? "" : "working set ") + app::kib(v * 1024); },
       .strip_tip =
           [](std::int64_t) { return std::string("working set per block (the ringed point)"); }});
  std::vector<std::int64_t> ks;
  for (int i = 1; i <= 32; ++i) ks.push_back(i);
  k.push_back({.key = "k",
               .label = "Distinct addresses per warp",
               .low = 1,
               .high = 32,
               .picks = ks,
               .get = [](const S& s) { return std::int64_t{s.k}; },
               .set = [](S& s, std::int64_t v) { s.k = static_cast<int>(v); },
               .strip = "k",
               .strip_when = in(CacheSection::Constant),
               .strip_text = words("k = %d addresses", "k = %d"),
               .strip_tip =
                   [](std::int64_t) {
                     return std::string(
                         "k: distinct __constant__ addresses per warp request (1 = broadcast)");
                   }});
  const auto read_name = [](auto e) { return gpu::to_string(e); };
  k.push_back(named<S>(
      {.key = "path",
       .label = "Read path",
       .style = KnobStyle::Combo,
       .picks = knob_values(read_paths()),
       .get = [](const S& s) { return knob_value(s.read.path); },
       .set = [](S& s, std::int64_t v) { s.read.path = static_cast<gpu::ReadPath>(v); },
       .strip = "path",
       .strip_when = in(CacheSection::ReadPath),
       .strip_text =
           [](std::int64_t v, bool brief) {
             const auto p = static_cast<gpu::ReadPath>(v);
             if (!brief) return std::string(path_label(p));
             return std::string(p == gpu::ReadPath::Plain ? "plain"
                                : p == gpu::ReadPath::Ldg ? "ldg"
                                                          : "tex");
           },
       .strip_tip = [](std::int64_t) { return std::string("load path (the ringed bar)"); }},
      {gpu::ReadPath::Plain, gpu::ReadPath::Ldg, gpu::ReadPath::Texture}, read_name));
  k.push_back(named<S>(
      {.key = "pattern",
       .label = "Access pattern",
       .style = KnobStyle::Combo,
       .picks = knob_values(read_patterns()),
       .get = [](const S& s) { return knob_value(s.read.pattern); },
       .set = [](S& s, std::int64_t v) { s.read.pattern = static_cast<gpu::ReadPattern>(v); },
       .strip = "pattern",
       .strip_when = in(CacheSection::ReadPath),
       .strip_text =
           [](std::int64_t v, bool brief) {
             const auto p = static_cast<gpu::ReadPattern>(v);
             if (!brief) return pattern_label(p);
             // Its number in the list, and what kind of order.
             std::size_t i = 0;
             while (i < read_patterns().size() && read_patterns()[i] != p) ++i;
             return std::to_string(i + 1) + " " +
                    (p == gpu::ReadPattern::Scattered ? "scattered"
                     : gpu::reads_morton(p)           ? "Morton"
                                                      : "row-major");
           },
       .strip_tip =
           [](std::int64_t v) {
             return "access pattern: " + pattern_label(static_cast<gpu::ReadPattern>(v));
           }},
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
