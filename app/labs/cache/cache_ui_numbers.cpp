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
#include "read_path_model.h"
#include "ui_widgets.h"

namespace warplens::app {

using namespace cache_ui_detail;

namespace {

constexpr const char* kDash = "\u2014";

// Declares the columns and draws the header row (frozen when the table scrolls).
void header_row(const std::vector<NumbersColumn>& headers) {
  ImGui::TableSetupScrollFreeze(0, 1);
  int lines = 1;
  for (const NumbersColumn& h : headers) {
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

}  // namespace

void draw_cache_numbers(const CacheSession& session, const CacheResults& r, const viz::Theme& theme,
                        ImVec2 pos, ImVec2 size, const CacheAside& aside, float scale) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin("Numbers##cache", nullptr, kPanelFlags);
  aside.draw(theme, scale);
  if (!aside.empty()) ImGui::Separator();
  const ImU32 current_row = to_imgui_color(theme.sector, 0.25f);
  // A table keeps at least a few rows; below that the panel scrolls instead.
  const ImVec2 avail = {
      ImGui::GetContentRegionAvail().x,
      std::max(ImGui::GetContentRegionAvail().y, 5 * ImGui::GetTextLineHeightWithSpacing())};
  const std::vector<NumbersTable> tables = cache_numbers_tables(session, r);
  // Two tables (the carveout's) stand side by side, the first on 54 % of the width.
  const float gap = ImGui::GetStyle().ItemSpacing.x * 2;
  const float left_w = (avail.x - gap) * 0.54f;
  for (std::size_t t = 0; t < tables.size(); ++t) {
    const NumbersTable& table = tables[t];
    ImVec2 table_size = avail;
    if (tables.size() == 2) table_size.x = t == 0 ? left_w : avail.x - left_w - gap;
    if (t > 0) ImGui::SameLine(0, gap);
    if (!begin_table(table.id, static_cast<int>(table.columns.size()), table_size)) continue;
    header_row(table.columns);
    for (std::size_t i = 0; i < table.rows.size(); ++i) {
      ImGui::TableNextRow();
      if (static_cast<int>(i) == table.current)
        ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, current_row);
      for (const NumbersCell& cell : table.rows[i]) {
        ImGui::TableNextColumn();
        if (cell.muted)
          ImGui::TextDisabled("%s", cell.text.c_str());
        else
          ImGui::TextUnformatted(cell.text.c_str());
        if (!cell.tip.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", cell.tip.c_str());
        if (!cell.mark.empty()) {
          ImGui::SameLine();
          ImGui::TextDisabled("%s", cell.mark.c_str());
        }
      }
    }
    ImGui::EndTable();
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
          // Raised past the request, the capacity says why (carveout-l1's kernel, without
          // shared memory, gets 8 KiB at 0 %; this one needs a block's worth).
          capacities += (capacities.empty() ? "" : ", ") +
                        format("%d %%: shared %d KiB%s", c, p.choice.shared_kib,
                               p.choice.raised_for_block ? " (raised to hold one block)" : "");
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
           left + " KiB", "carveout 0 leaves the most L1, 100 % the least"});
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
                     : format("lanes i, i + %d, i + %d, \u2026 share a read", st.k, 2 * st.k)});
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
        // The model's loads of warp 0 (read_path_model.h): the plain and __ldg paths' buffers.
        const auto count = [](double v) {
          return v == static_cast<double>(static_cast<long long>(v)) ? format("%.0f", v)
                                                                     : format("%.1f", v);
        };
        const WarpLoadModel rm = column_tile_load_model(st.read.side, false);
        const WarpLoadModel z = column_tile_load_model(st.read.side, true);
        numbers.push_back(
            {format("one warp load of the 4\u00d74 tiles (model: the mean of warp 0's "
                    "%d loads)",
                    rm.loads),
             format("row-major %s sectors in %s lines; Morton %s in %s", count(rm.sectors).c_str(),
                    count(rm.lines).c_str(), count(z.sectors).c_str(), count(z.lines).c_str()),
             ""});
      }
      break;
    }
  }
  return numbers;
}

}  // namespace warplens::app
