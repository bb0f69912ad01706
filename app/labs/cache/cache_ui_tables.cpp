// The cache lab's numbers as data: per section, the model's table beside what the GPU measured,
// each cell's text as the window shows it, and the read path's measured bars. The numbers panel
// (cache_ui_numbers.cpp) draws these tables; the course-note figures (cache_figures.cpp) copy
// them, so both show the same words.
#include <algorithm>
#include <string>

#include "cache_ui_internal.h"
#include "read_path_model.h"
#include "ui_widgets.h"

namespace warplens::app::cache_ui_detail {

namespace {

constexpr const char* kDash = "\u2014";

std::string blocks_tip(const char* what) {
  return std::string(what) + " (resident blocks per SM)";
}

}  // namespace

std::vector<NumbersTable> cache_numbers_tables(const CacheSession& session, const CacheResults& r) {
  const CacheModel& m = session.model();
  const CacheState& st = session.state();
  const std::string why_empty = session.gpu_mode() ? "not measured yet" : no_gpu_note(session);
  // A measured value, or what stands in for it: "…" while measuring, else "—" (greyed, with why).
  const auto measured_cell = [&](bool have, const std::string& text) -> NumbersCell {
    if (have) return {text};
    return {session.gpu_mode() && r.busy ? "\u2026" : kDash, true, why_empty};
  };
  const std::string gpu_tip = session.gpu_mode() ? "" : "; needs a GPU";
  std::vector<NumbersTable> tables;
  switch (st.section) {
    case CacheSection::Carveout: {
      // Left: the occupancy table by dynamic shared memory; right: the shared-hungry sweep by
      // carveout at the chosen dynamic shared memory.
      NumbersTable& occupancy = tables.emplace_back();
      occupancy.id = "carveout";
      occupancy.columns = {
          {"dynamic\nshared", "dynamic shared memory per block (the launch's third parameter)"},
          {"opt-\nin", "whether the kernel must opt in (cudaFuncSetAttribute): above 48 KiB"},
          {"shared\ncapacity", "the shared capacity this carveout gives the SM (" +
                                   carveout_text(st.carveout) + "); * raised to hold one block"},
          {"L1\nleft", "the L1 left of the SM's unified storage"},
          {"blocks\nmodel", blocks_tip("the carveout table's prediction")},
          {"occu-\npancy", "resident warps / the SM's warps (model)"},
          {"blocks\nAPI", blocks_tip("the occupancy API on the GPU; \u2713 = the model") + gpu_tip,
           true},
          {"limited\nby", "what caps the resident blocks (model)"},
      };
      for (const auto& row : m.sweep) {
        if (row.dynamic_shared_bytes == st.dynamic_shared_bytes)
          occupancy.current = static_cast<int>(occupancy.rows.size());
        const gpu::OccupancyInfo* gpu_row = nullptr;
        for (const auto& o : r.occupancy)
          if (o.dynamic_shared_bytes == row.dynamic_shared_bytes && o.carveout == st.carveout)
            gpu_row = &o;
        occupancy.rows.push_back({
            {kib(row.dynamic_shared_bytes)},
            {gpu::needs_shared_optin(row.dynamic_shared_bytes) ? "yes" : "no"},
            {format("%d KiB%s", row.choice.shared_kib, row.choice.raised_for_block ? " *" : "")},
            {format("%d KiB", row.choice.l1_kib)},
            {format("%d", row.blocks_per_sm)},
            {format("%.0f %%", row.occupancy_percent)},
            measured_cell(gpu_row != nullptr,
                          gpu_row ? format("%d%s", gpu_row->blocks_per_sm,
                                           gpu_row->blocks_per_sm == row.blocks_per_sm ? " \u2713"
                                                                                       : " differs")
                                  : ""),
            {row.limiter},
        });
      }
      const bool have =
          r.carveout_of && same_cache_measurement(CacheSection::Carveout, *r.carveout_of, st);
      NumbersTable& sweep = tables.emplace_back();
      sweep.id = "carveout-sweep";
      sweep.columns = {
          {"carve-\nout", "the carveout: % of the largest shared capacity (-1: the driver's)"},
          {"asks\nfor",
           "the capacity it asks for: percent \u00d7 the largest, rounded up to "
           "one the SM supports (\u2192 raised to hold one block)"},
          {"blocks\nmodel", blocks_tip("the carveout table's prediction")},
          {"blocks\nAPI", blocks_tip("the occupancy API on the GPU") + gpu_tip, true},
          {"blocks\nseen", blocks_tip("the most seen at once on one SM (%smid)") + gpu_tip, true},
          {"median\nms",
           "the shared-hungry kernel's time, median of the runs, at " +
               kib(st.dynamic_shared_bytes) + " per block" + gpu_tip,
           true},
      };
      for (const auto& row : m.carveout_sweep) {
        const gpu::SharedHungryMeasurement* pt = nullptr;
        for (const auto& x : r.hungry_sweep)
          if (x.occupancy.carveout == row.carveout && (have || (r.busy && !r.carveout_of))) pt = &x;
        if (row.carveout == st.carveout) sweep.current = static_cast<int>(sweep.rows.size());
        NumbersCell asks;
        if (row.choice.driver_default) {
          asks = {"(driver)", true};
        } else if (row.choice.raised_for_block) {
          asks = {format("%d\u2192%d KiB", row.choice.rounded_kib, row.choice.shared_kib)};
        } else {
          asks = {format("%d KiB", row.choice.rounded_kib)};
        }
        sweep.rows.push_back({
            {row.carveout == gpu::kCarveoutDefault ? "default" : format("%d %%", row.carveout)},
            asks,
            {format("%d", row.blocks_per_sm)},
            measured_cell(pt != nullptr, pt ? format("%d", pt->occupancy.blocks_per_sm) : ""),
            measured_cell(pt != nullptr, pt ? format("%d", pt->observed_blocks_per_sm) : ""),
            measured_cell(pt != nullptr, pt ? format("%.3f", pt->timing.median_ms) : ""),
        });
      }
      break;
    }
    case CacheSection::L1: {
      const auto& carveouts = l1_carveouts();
      NumbersTable& t = tables.emplace_back();
      t.id = "l1";
      t.columns = {{"working\nset", "the working set each block gathers from"}};
      std::vector<int> l1_left;
      for (int c : carveouts) {
        gpu::CarveoutChoice left;
        try {
          left = gpu::carveout_capacity(m.table, c, m.reserved_bytes, 1);
        } catch (const std::exception&) {
        }
        l1_left.push_back(left.l1_kib);
        t.columns.push_back({carveout_text(c) + "\nns \u00b7 L1 hit",
                             "carveout " + carveout_text(c) +
                                 format(", L1 left %d KiB: ", left.l1_kib) +
                                 "ns per 4-byte access \u00b7 L1 hit rate (hardware counters)" +
                                 gpu_tip + "; \u2713 the working set fits that L1 (model)",
                             true});
      }
      for (auto ws : l1_working_sets()) {
        if (ws == st.working_set_bytes) t.current = static_cast<int>(t.rows.size());
        std::vector<NumbersCell> cells = {{kib(ws)}};
        for (std::size_t ci = 0; ci < carveouts.size(); ++ci) {
          const int c = carveouts[ci];
          const gpu::L1GatherMeasurement* pt = nullptr;
          for (const auto& x : r.l1)
            if (x.carveout == c && x.working_set_bytes == ws) pt = &x;
          const L1HitPoint* hit = nullptr;
          for (const auto& x : r.l1_hit)
            if (x.carveout == c && x.working_set_bytes == ws) hit = &x;
          NumbersCell cell = measured_cell(
              pt != nullptr, pt ? format("%.3f%s", pt->ns_per_access,
                                         hit ? (" \u00b7 " + hit_text(hit->rate)).c_str() : "")
                                : "");
          if (ws <= std::int64_t{l1_left[ci]} * 1024) cell.mark = "\u2713";
          cells.push_back(cell);
        }
        t.rows.push_back(std::move(cells));
      }
      break;
    }
    case CacheSection::Constant: {
      NumbersTable& t = tables.emplace_back();
      t.id = "constant";
      t.columns = {
          {"k", "distinct __constant__ addresses per warp request"},
          {"reads\nmodel", "constant-cache reads per request: one per distinct address"},
          {"ns /\nrequest", "time per warp request (measured)" + gpu_tip, true},
          {"cycles /\nrequest", "SM clock cycles per warp request (clock64)" + gpu_tip, true},
          {"\u00d7 the\nbroadcast", "cycles per request / those at k = 1" + gpu_tip, true},
      };
      const double base = !r.constant.empty() ? r.constant.front().cycles_per_request : 0;
      for (int k = 1; k <= 32; ++k) {
        const gpu::ConstantMeasurement* pt = nullptr;
        for (const auto& x : r.constant)
          if (x.k == k) pt = &x;
        if (k == st.k) t.current = static_cast<int>(t.rows.size());
        t.rows.push_back({
            {format("%d", k)},
            {format("%d", k)},
            measured_cell(pt != nullptr, pt ? format("%.3f", pt->ns_per_request) : ""),
            measured_cell(pt != nullptr, pt ? format("%.1f", pt->cycles_per_request) : ""),
            measured_cell(
                pt != nullptr && base > 0,
                pt && base > 0 ? format("%.1f\u00d7", pt->cycles_per_request / base) : ""),
        });
      }
      break;
    }
    case CacheSection::ReadPath: {
      NumbersTable& t = tables.emplace_back();
      t.id = "read";
      t.columns = {
          {"path", "the load path"},
          {"pattern", "each thread's footprint, the shape of a warp's centres, the layout"},
          {"GB/s", "10^9 bytes/s the program asked for" + gpu_tip, true},
          {"median\nms", "kernel time, median of the runs" + gpu_tip, true},
          {"L1 hit", "L1 hit rate from the hardware counters" + gpu_tip, true},
          {"check", "the checksum against the CPU" + gpu_tip, true},
      };
      for (auto path : read_paths()) {
        for (auto pattern : read_patterns()) {
          const gpu::ReadPathMeasurement* pt = nullptr;
          for (const auto& x : r.read)
            if (x.params.path == path && x.params.pattern == pattern) pt = &x;
          const ReadHitPoint* hit = nullptr;
          for (const auto& x : r.read_hit)
            if (x.params.path == path && x.params.pattern == pattern) hit = &x;
          if (path == st.read.path && pattern == st.read.pattern)
            t.current = static_cast<int>(t.rows.size());
          NumbersCell hit_cell = measured_cell(hit != nullptr, hit ? hit_text(hit->rate) : "");
          if (hit && !hit->rate.percent) hit_cell.tip = hit->rate.unavailable;
          t.rows.push_back({
              {path_label(path)},
              {pattern_label(pattern)},
              measured_cell(pt != nullptr, pt ? format("%.1f", pt->gbps) : ""),
              measured_cell(pt != nullptr, pt ? format("%.3f", pt->timing.median_ms) : ""),
              hit_cell,
              measured_cell(pt != nullptr, pt ? (pt->verified ? "verified" : pt->check) : ""),
          });
        }
      }
      break;
    }
  }
  return tables;
}

std::vector<FigureBar> read_path_bars(const CacheSession& session, const CacheResults& r) {
  const CacheState& st = session.state();
  std::vector<FigureBar> bars;
  // The view's order: grouped by access pattern, the load paths in bar order within a group.
  for (auto pattern : read_patterns()) {
    for (auto path : read_paths()) {
      const gpu::ReadPathMeasurement* m = nullptr;
      for (const auto& x : r.read)
        if (x.params.path == path && x.params.pattern == pattern) m = &x;
      if (!m) continue;
      const ReadHitPoint* hit = nullptr;
      for (const auto& x : r.read_hit)
        if (x.params.path == path && x.params.pattern == pattern) hit = &x;
      bars.push_back({pattern_label(pattern) + " \u2022 " + path_label(path), m->gbps,
                      format("%.0f GB/s", m->gbps),
                      !m->verified ? "WRONG RESULT"
                      : hit        ? "L1 hit " + hit_text(hit->rate)
                                   : std::string(),
                      st.read.path == path && st.read.pattern == pattern});
    }
  }
  return bars;
}

std::vector<FigureBar> read_path_model_bars(const CacheSession& session) {
  const CacheState& st = session.state();
  std::vector<FigureBar> bars;
  const auto count = [](double v) {
    return v == static_cast<double>(static_cast<long long>(v)) ? format("%.0f", v)
                                                               : format("%.1f", v);
  };
  for (auto pattern : read_patterns()) {
    gpu::ReadPathParams p = st.read;
    p.path = gpu::ReadPath::Plain;
    p.pattern = pattern;
    const WarpLoadModel m = read_load_model(p);
    const bool shown = st.read.pattern == pattern && st.read.path != gpu::ReadPath::Texture;
    bars.push_back({pattern_label(pattern) + " \u2022 sectors", m.sectors,
                    "model: " + count(m.sectors) + " sectors", "per warp load", shown, true});
    bars.push_back({pattern_label(pattern) + " \u2022 lines", m.lines,
                    "model: " + count(m.lines) + " lines", "per warp load", shown, true});
  }
  return bars;
}

std::string read_path_title(const CacheState& st, bool model) {
  return format(model ? "Read path: %d\u00d7%d image of 32-bit pixels, sectors and lines per "
                        "warp load (model)"
                      : "Read path: %d\u00d7%d image of 32-bit pixels, GB/s the program asked for",
                st.read.side, st.read.side);
}

}  // namespace warplens::app::cache_ui_detail
