// The cache lab's numbers: the panel under the big view (per section, the model's table beside
// what the GPU measured, the chosen row highlighted, after whatever the view set aside) and the
// presenter layout's key numbers. Table columns are as wide as their headers and cells; headers
// take two short lines, each with its full meaning as a tooltip, and a table wider than the
// panel scrolls sideways instead of cutting a column.
#include <imgui.h>

#include <algorithm>
#include <initializer_list>
#include <string>

#include "cache_ui.h"
#include "cache_ui_internal.h"
#include "ui_widgets.h"

namespace warplens::app {

using namespace cache_ui_detail;

namespace {

constexpr const char* kDash = "\u2014";

struct Header {
  std::string name;  ///< one or two lines ("\n")
  std::string tip;   ///< the full meaning, shown on hover
};

// Declares the columns and draws the header row (frozen when the table scrolls).
void header_row(const std::vector<Header>& headers) {
  ImGui::TableSetupScrollFreeze(0, 1);
  int lines = 1;
  for (const Header& h : headers) {
    ImGui::TableSetupColumn(h.name.c_str());
    lines = std::max(lines, 1 + static_cast<int>(std::count(h.name.begin(), h.name.end(), '\n')));
  }
  ImGui::TableNextRow(
      ImGuiTableRowFlags_Headers,
      static_cast<float>(lines) * ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().CellPadding.y);
  for (std::size_t c = 0; c < headers.size(); ++c) {
    if (!ImGui::TableSetColumnIndex(static_cast<int>(c))) continue;
    ImGui::TableHeader(headers[c].name.c_str());
    if (!headers[c].tip.empty() && ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", headers[c].tip.c_str());
  }
}

bool begin_table(const char* id, int columns, ImVec2 size) {
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX |
                                ImGuiTableFlags_SizingFixedFit;
  return ImGui::BeginTable(id, columns, flags, size);
}

std::string blocks_tip(const char* what) {
  return std::string(what) + " (resident blocks per SM)";
}

}  // namespace

void draw_cache_numbers(const CacheSession& session, const CacheResults& r, const viz::Theme& theme,
                        ImVec2 pos, ImVec2 size, const CacheAside& aside, float scale) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin("Numbers##cache", nullptr, kPanelFlags);
  aside.draw(theme, scale);
  if (!aside.empty()) ImGui::Separator();
  const CacheModel& m = session.model();
  const CacheState& st = session.state();
  const ImU32 current_row = to_imgui_color(theme.sector, 0.25f);
  const std::string why_empty = session.gpu_mode() ? "not measured yet" : session.no_gpu_text();
  const auto measured_cell = [&](bool have, const std::string& text) {
    if (have) {
      ImGui::TextUnformatted(text.c_str());
    } else {
      ImGui::TextDisabled("%s", session.gpu_mode() && r.busy ? "\u2026" : kDash);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", why_empty.c_str());
    }
  };
  // A table keeps at least a few rows; below that the panel scrolls instead.
  const ImVec2 avail = {
      ImGui::GetContentRegionAvail().x,
      std::max(ImGui::GetContentRegionAvail().y, 5 * ImGui::GetTextLineHeightWithSpacing())};
  const std::string gpu_tip = session.gpu_mode() ? "" : "; needs a GPU";
  switch (st.section) {
    case CacheSection::Carveout: {
      // Left: the occupancy table by dynamic shared memory; right: the shared-hungry sweep by
      // carveout at the chosen dynamic shared memory.
      const float gap = ImGui::GetStyle().ItemSpacing.x * 2;
      const float left_w = (avail.x - gap) * 0.54f;
      if (begin_table("carveout", 8, {left_w, avail.y})) {
        header_row({
            {"dynamic\nshared", "dynamic shared memory per block (the launch's third parameter)"},
            {"opt-\nin", "whether the kernel must opt in (cudaFuncSetAttribute): above 48 KiB"},
            {"shared\ncapacity", "the shared capacity this carveout gives the SM (" +
                                     carveout_text(st.carveout) + "); * raised to hold one block"},
            {"L1\nleft", "the L1 left of the SM's unified storage"},
            {"blocks\nmodel", blocks_tip("the carveout table's prediction")},
            {"occu-\npancy", "resident warps / the SM's warps (model)"},
            {"blocks\nAPI",
             blocks_tip("the occupancy API on the GPU; \u2713 = the model") + gpu_tip},
            {"limited\nby", "what caps the resident blocks (model)"},
        });
        for (const auto& row : m.sweep) {
          ImGui::TableNextRow();
          if (row.dynamic_shared_bytes == st.dynamic_shared_bytes)
            ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, current_row);
          const gpu::OccupancyInfo* gpu_row = nullptr;
          for (const auto& o : r.occupancy)
            if (o.dynamic_shared_bytes == row.dynamic_shared_bytes && o.carveout == st.carveout)
              gpu_row = &o;
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(kib(row.dynamic_shared_bytes).c_str());
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(gpu::needs_shared_optin(row.dynamic_shared_bytes) ? "yes" : "no");
          ImGui::TableNextColumn();
          ImGui::Text("%d KiB%s", row.choice.shared_kib, row.choice.raised_for_block ? " *" : "");
          ImGui::TableNextColumn();
          ImGui::Text("%d KiB", row.choice.l1_kib);
          ImGui::TableNextColumn();
          ImGui::Text("%d", row.blocks_per_sm);
          ImGui::TableNextColumn();
          ImGui::Text("%.0f %%", row.occupancy_percent);
          ImGui::TableNextColumn();
          measured_cell(
              gpu_row != nullptr,
              gpu_row ? format("%d%s", gpu_row->blocks_per_sm,
                               gpu_row->blocks_per_sm == row.blocks_per_sm ? " \u2713" : " differs")
                      : "");
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(row.limiter.c_str());
        }
        ImGui::EndTable();
      }
      ImGui::SameLine(0, gap);
      const bool have =
          r.carveout_of && same_cache_measurement(CacheSection::Carveout, *r.carveout_of, st);
      if (begin_table("carveout-sweep", 6, {avail.x - left_w - gap, avail.y})) {
        header_row({
            {"carve-\nout", "the carveout: % of the largest shared capacity (-1: the driver's)"},
            {"asks\nfor",
             "the capacity it asks for: percent \u00d7 the largest, rounded up to "
             "one the SM supports (\u2192 raised to hold one block)"},
            {"blocks\nmodel", blocks_tip("the carveout table's prediction")},
            {"blocks\nAPI", blocks_tip("the occupancy API on the GPU") + gpu_tip},
            {"blocks\nseen", blocks_tip("the most seen at once on one SM (%smid)") + gpu_tip},
            {"median\nms", "the shared-hungry kernel's time, median of the runs, at " +
                               kib(st.dynamic_shared_bytes) + " per block" + gpu_tip},
        });
        for (const auto& row : m.carveout_sweep) {
          const gpu::SharedHungryMeasurement* pt = nullptr;
          for (const auto& x : r.hungry_sweep)
            if (x.occupancy.carveout == row.carveout && (have || (r.busy && !r.carveout_of)))
              pt = &x;
          ImGui::TableNextRow();
          if (row.carveout == st.carveout)
            ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, current_row);
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(row.carveout == gpu::kCarveoutDefault
                                     ? "default"
                                     : format("%d %%", row.carveout).c_str());
          ImGui::TableNextColumn();
          if (row.choice.driver_default) {
            ImGui::TextDisabled("(driver)");
          } else if (row.choice.raised_for_block) {
            ImGui::Text("%d\u2192%d KiB", row.choice.rounded_kib, row.choice.shared_kib);
          } else {
            ImGui::Text("%d KiB", row.choice.rounded_kib);
          }
          ImGui::TableNextColumn();
          ImGui::Text("%d", row.blocks_per_sm);
          ImGui::TableNextColumn();
          measured_cell(pt != nullptr, pt ? format("%d", pt->occupancy.blocks_per_sm) : "");
          ImGui::TableNextColumn();
          measured_cell(pt != nullptr, pt ? format("%d", pt->observed_blocks_per_sm) : "");
          ImGui::TableNextColumn();
          measured_cell(pt != nullptr, pt ? format("%.3f", pt->timing.median_ms) : "");
        }
        ImGui::EndTable();
      }
      break;
    }
    case CacheSection::L1: {
      const auto& carveouts = l1_carveouts();
      if (begin_table("l1", 1 + static_cast<int>(carveouts.size()), avail)) {
        std::vector<Header> headers = {{"working\nset", "the working set each block gathers from"}};
        std::vector<int> l1_left;
        for (int c : carveouts) {
          gpu::CarveoutChoice left;
          try {
            left = gpu::carveout_capacity(m.table, c, m.reserved_bytes, 1);
          } catch (const std::exception&) {
          }
          l1_left.push_back(left.l1_kib);
          headers.push_back({carveout_text(c) + "\nns \u00b7 L1 hit",
                             "carveout " + carveout_text(c) +
                                 format(", L1 left %d KiB: ", left.l1_kib) +
                                 "ns per 4-byte access \u00b7 L1 hit rate (hardware counters)" +
                                 gpu_tip + "; \u2713 the working set fits that L1 (model)"});
        }
        header_row(headers);
        for (auto ws : l1_working_sets()) {
          ImGui::TableNextRow();
          if (ws == st.working_set_bytes)
            ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, current_row);
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(kib(ws).c_str());
          for (std::size_t ci = 0; ci < carveouts.size(); ++ci) {
            const int c = carveouts[ci];
            ImGui::TableNextColumn();
            const gpu::L1GatherMeasurement* pt = nullptr;
            for (const auto& x : r.l1)
              if (x.carveout == c && x.working_set_bytes == ws) pt = &x;
            const L1HitPoint* hit = nullptr;
            for (const auto& x : r.l1_hit)
              if (x.carveout == c && x.working_set_bytes == ws) hit = &x;
            const bool fits = ws <= std::int64_t{l1_left[ci]} * 1024;
            measured_cell(pt != nullptr,
                          pt ? format("%.3f%s", pt->ns_per_access,
                                      hit ? (" \u00b7 " + hit_text(hit->rate)).c_str() : "")
                             : "");
            if (fits) {
              ImGui::SameLine();
              ImGui::TextDisabled("\u2713");
            }
          }
        }
        ImGui::EndTable();
      }
      break;
    }
    case CacheSection::Constant:
      if (begin_table("constant", 5, avail)) {
        header_row({
            {"k", "distinct __constant__ addresses per warp request"},
            {"reads\nmodel", "constant-cache reads per request: one per distinct address"},
            {"ns /\nrequest", "time per warp request (measured)" + gpu_tip},
            {"cycles /\nrequest", "SM clock cycles per warp request (clock64)" + gpu_tip},
            {"\u00d7 the\nbroadcast", "cycles per request / those at k = 1" + gpu_tip},
        });
        const double base = !r.constant.empty() ? r.constant.front().cycles_per_request : 0;
        for (int k = 1; k <= 32; ++k) {
          const gpu::ConstantMeasurement* pt = nullptr;
          for (const auto& x : r.constant)
            if (x.k == k) pt = &x;
          ImGui::TableNextRow();
          if (k == st.k) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, current_row);
          ImGui::TableNextColumn();
          ImGui::Text("%d", k);
          ImGui::TableNextColumn();
          ImGui::Text("%d", k);
          ImGui::TableNextColumn();
          measured_cell(pt != nullptr, pt ? format("%.3f", pt->ns_per_request) : "");
          ImGui::TableNextColumn();
          measured_cell(pt != nullptr, pt ? format("%.1f", pt->cycles_per_request) : "");
          ImGui::TableNextColumn();
          measured_cell(pt != nullptr && base > 0,
                        pt && base > 0 ? format("%.1f\u00d7", pt->cycles_per_request / base) : "");
        }
        ImGui::EndTable();
      }
      break;
    case CacheSection::ReadPath:
      if (begin_table("read", 6, avail)) {
        header_row({
            {"path", "the load path"},
            {"pattern", "each thread's footprint, the shape of a warp's centres, the layout"},
            {"GB/s", "10^9 bytes/s the program asked for" + gpu_tip},
            {"median\nms", "kernel time, median of the runs" + gpu_tip},
            {"L1 hit", "L1 hit rate from the hardware counters" + gpu_tip},
            {"check", "the checksum against the CPU" + gpu_tip},
        });
        for (auto path : read_paths()) {
          for (auto pattern : read_patterns()) {
            const gpu::ReadPathMeasurement* pt = nullptr;
            for (const auto& x : r.read)
              if (x.params.path == path && x.params.pattern == pattern) pt = &x;
            const ReadHitPoint* hit = nullptr;
            for (const auto& x : r.read_hit)
              if (x.params.path == path && x.params.pattern == pattern) hit = &x;
            ImGui::TableNextRow();
            if (path == st.read.path && pattern == st.read.pattern)
              ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, current_row);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(path_label(path));
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(pattern_label(pattern).c_str());
            ImGui::TableNextColumn();
            measured_cell(pt != nullptr, pt ? format("%.1f", pt->gbps) : "");
            ImGui::TableNextColumn();
            measured_cell(pt != nullptr, pt ? format("%.3f", pt->timing.median_ms) : "");
            ImGui::TableNextColumn();
            measured_cell(hit != nullptr, hit ? hit_text(hit->rate) : "");
            if (hit && !hit->rate.percent && ImGui::IsItemHovered())
              ImGui::SetTooltip("%s", hit->rate.unavailable.c_str());
            ImGui::TableNextColumn();
            measured_cell(pt != nullptr, pt ? (pt->verified ? "verified" : pt->check) : "");
          }
        }
        ImGui::EndTable();
      }
      break;
  }
  ImGui::End();
}

// --- the presenter layout's key numbers ------------------------------------------------------

std::vector<KeyNumber> cache_key_numbers(const CacheSession& session, const CacheResults& r) {
  const CacheModel& m = session.model();
  const CacheState& st = session.state();
  const bool gpu = session.gpu_mode();
  // A measured value, or what stands in for it: measuring, not yet, or no GPU at all.
  const auto pending = [&](const std::string& label) -> KeyNumber {
    if (!gpu) return {label, kDash, "needs a GPU"};
    return {label, r.busy ? "measuring\u2026" : kDash, r.busy ? r.status : "not measured yet"};
  };
  std::vector<KeyNumber> numbers;
  switch (st.section) {
    case CacheSection::Carveout: {
      const int slots = m.max_threads_per_sm / std::max(m.threads_per_block, 1);
      numbers.push_back({"resident blocks per SM (model), " + kib(st.dynamic_shared_bytes) +
                             " per block, carveout " + carveout_text(st.carveout),
                         format("%d of %d \u2192 %.0f %% occupancy", m.current.blocks_per_sm, slots,
                                m.current.occupancy_percent),
                         "limited by " + m.current.limiter +
                             format("; shared %d KiB, L1 %d KiB", m.current.choice.shared_kib,
                                    m.current.choice.l1_kib)});
      std::string by_carveout, capacities;
      for (int c : {0, 50, 100}) {
        try {
          const PredictedOccupancy p = predict_occupancy(m, c, st.dynamic_shared_bytes);
          by_carveout += (by_carveout.empty() ? "" : " \u00b7 ") + format("%d", p.blocks_per_sm);
          capacities += (capacities.empty() ? "" : ", ") +
                        format("%d %%: shared %d KiB", c, p.choice.shared_kib);
        } catch (const std::exception&) {
          by_carveout += (by_carveout.empty() ? "" : " \u00b7 ") + std::string("?");
        }
      }
      numbers.push_back(
          {"blocks per SM at carveout 0 \u00b7 50 \u00b7 100 % (model)", by_carveout, capacities});
      const bool have = r.hungry && r.carveout_of &&
                        same_cache_measurement(CacheSection::Carveout, *r.carveout_of, st);
      if (have) {
        const auto& h = *r.hungry;
        numbers.push_back(
            {"blocks per SM on the GPU: occupancy API, seen (%smid)",
             format("%d%s \u00b7 %d", h.occupancy.blocks_per_sm,
                    h.occupancy.blocks_per_sm == m.current.blocks_per_sm ? " \u2713" : "",
                    h.observed_blocks_per_sm),
             format("kernel %.3f ms (median of %d)", h.timing.median_ms, h.timing.runs)});
      } else {
        numbers.push_back(pending("blocks per SM on the GPU: occupancy API, seen (%smid)"));
      }
      break;
    }
    case CacheSection::L1: {
      // The knee sits where the working set outgrows the L1 a carveout leaves.
      std::string left;
      for (int c : {gpu::kCarveoutMaxL1, 50, gpu::kCarveoutMaxShared}) {
        try {
          const auto choice = gpu::carveout_capacity(m.table, c, m.reserved_bytes, 1);
          left += (left.empty() ? "" : " \u00b7 ") + format("%d", choice.l1_kib);
        } catch (const std::exception&) {
          left += (left.empty() ? "" : " \u00b7 ") + std::string("?");
        }
      }
      numbers.push_back(
          {"L1 left at carveout 0 \u00b7 50 \u00b7 100 % (model): where each knee "
           "should come",
           left + " KiB", "max L1 first, max shared last"});
      std::string ns, hits;
      for (int c : {gpu::kCarveoutMaxL1, 50, gpu::kCarveoutMaxShared}) {
        for (const auto& pt : r.l1)
          if (pt.carveout == c && pt.working_set_bytes == st.working_set_bytes)
            ns += (ns.empty() ? "" : " \u00b7 ") + format("%.2f", pt.ns_per_access);
        for (const auto& pt : r.l1_hit)
          if (pt.carveout == c && pt.working_set_bytes == st.working_set_bytes)
            hits += (hits.empty() ? "" : " \u00b7 ") + hit_text(pt.rate);
      }
      const std::string label =
          "ns per access at " + kib(st.working_set_bytes) + ", carveout 0 \u00b7 50 \u00b7 100 %";
      if (ns.empty()) {
        numbers.push_back(pending(label));
      } else {
        numbers.push_back({label, ns + " ns", hits.empty() ? "" : "L1 hit rate " + hits});
      }
      break;
    }
    case CacheSection::Constant: {
      numbers.push_back(
          {"constant-cache reads per warp request (model)",
           format("k = %d \u2192 %d read%s", st.k, st.k, st.k == 1 ? "" : "s"),
           st.k == 1 ? "one read, broadcast to all 32 lanes"
                     : format("lanes l, l + %d, l + %d, \u2026 share a read", st.k, 2 * st.k)});
      const gpu::ConstantMeasurement* pt = nullptr;
      for (const auto& x : r.constant)
        if (x.k == st.k) pt = &x;
      if (pt && !r.constant.empty() && r.constant.front().cycles_per_request > 0) {
        numbers.push_back({format("cycles per warp request at k = %d (measured)", st.k),
                           format("%.0f = %.1f\u00d7 the broadcast", pt->cycles_per_request,
                                  pt->cycles_per_request / r.constant.front().cycles_per_request),
                           format("model: %d\u00d7", st.k)});
      } else {
        numbers.push_back(pending(format("cycles per warp request at k = %d (measured)", st.k)));
      }
      break;
    }
    case CacheSection::ReadPath: {
      const std::string pattern = pattern_label(st.read.pattern);
      std::string bars;
      for (auto path : read_paths())
        for (const auto& x : r.read)
          if (x.params.path == path && x.params.pattern == st.read.pattern)
            bars += (bars.empty() ? "" : " \u00b7 ") + format("%.0f", x.gbps);
      const std::string label = "GB/s, plain \u00b7 __ldg \u00b7 texture: " + pattern;
      if (bars.empty()) {
        numbers.push_back(pending(label));
      } else {
        numbers.push_back({label, bars, ""});
      }
      // Row-major against Morton for the ringed path, where the pattern has both.
      const auto partner = [](gpu::ReadPattern p) {
        switch (p) {
          case gpu::ReadPattern::Local2D: return gpu::ReadPattern::Morton;
          case gpu::ReadPattern::Morton: return gpu::ReadPattern::Local2D;
          case gpu::ReadPattern::ColumnTile: return gpu::ReadPattern::ColumnTileMorton;
          case gpu::ReadPattern::ColumnTileMorton: return gpu::ReadPattern::ColumnTile;
          case gpu::ReadPattern::Scattered: break;
        }
        return p;
      };
      const gpu::ReadPattern other = partner(st.read.pattern);
      if (other != st.read.pattern) {
        const gpu::ReadPattern row = gpu::reads_morton(st.read.pattern) ? other : st.read.pattern;
        const gpu::ReadPattern z = gpu::reads_morton(st.read.pattern) ? st.read.pattern : other;
        const gpu::ReadPathMeasurement *a = nullptr, *b = nullptr;
        for (const auto& x : r.read) {
          if (x.params.path != st.read.path) continue;
          if (x.params.pattern == row) a = &x;
          if (x.params.pattern == z) b = &x;
        }
        const std::string rm_label =
            std::string("GB/s, row-major \u2192 Morton, ") + path_label(st.read.path);
        if (a && b) {
          numbers.push_back({rm_label, format("%.0f \u2192 %.0f", a->gbps, b->gbps), ""});
        } else {
          numbers.push_back(pending(rm_label));
        }
      }
      if (st.read.pattern == gpu::ReadPattern::ColumnTile ||
          st.read.pattern == gpu::ReadPattern::ColumnTileMorton) {
        numbers.push_back({"one warp load of the 4\u00d74 tiles (model)",
                           "row-major 32 sectors in 32 lines; Morton about 16 in 8", ""});
      }
      break;
    }
  }
  return numbers;
}

}  // namespace warplens::app
