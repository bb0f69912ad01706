// The cache lab's numbers panel under the big view: per section, the model's table beside what
// the GPU measured (occupancy and the carveout sweep, the L1 sweep, the constant cache, the read
// paths), the chosen row highlighted.
#include <imgui.h>

#include <string>

#include "cache_ui.h"
#include "cache_ui_internal.h"
#include "ui_widgets.h"

namespace warplens::app {

using namespace cache_ui_detail;

void draw_cache_numbers(const CacheSession& session, const CacheResults& r, const viz::Theme& theme,
                        ImVec2 pos, ImVec2 size) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin("Numbers##cache", nullptr, kPanelFlags);
  const CacheModel& m = session.model();
  const CacheState& st = session.state();
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingStretchProp;
  const ImU32 current_row = to_imgui_color(theme.sector, 0.25f);
  const auto measured_cell = [&](bool have, const std::string& text) {
    if (have) {
      ImGui::TextUnformatted(text.c_str());
    } else {
      ImGui::TextDisabled("%s", session.gpu_mode() ? "\u2026" : "needs a GPU");
    }
  };
  switch (st.section) {
    case CacheSection::Carveout: {
      // Left: the occupancy table by dynamic shared memory; right: the shared-hungry sweep by
      // carveout at the chosen dynamic shared memory.
      const ImVec2 avail = ImGui::GetContentRegionAvail();
      const float gap = ImGui::GetStyle().ItemSpacing.x * 2;
      const float left_w = (avail.x - gap) * 0.54f;
      if (ImGui::BeginTable("carveout", 8, flags, {left_w, avail.y})) {
        ImGui::TableSetupScrollFreeze(0, 1);
        for (const char* h : {"dyn. shared", "opt-in", "capacity", "L1 left", "model blocks",
                              "occupancy", "API blocks", "limited by"})
          ImGui::TableSetupColumn(h);
        ImGui::TableHeadersRow();
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
      if (ImGui::BeginTable("carveout-sweep", 6, flags, {avail.x - left_w - gap, avail.y})) {
        ImGui::TableSetupScrollFreeze(0, 1);
        for (const char* h :
             {"carveout", "asks for", "model blocks", "API blocks", "seen (%smid)", "median ms"})
          ImGui::TableSetupColumn(h);
        ImGui::TableHeadersRow();
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
    case CacheSection::L1:
      if (ImGui::BeginTable("l1", 1 + static_cast<int>(l1_carveouts().size()), flags)) {
        ImGui::TableSetupScrollFreeze(0, 1);
        ImGui::TableSetupColumn("working set");
        for (int c : l1_carveouts())
          ImGui::TableSetupColumn(("ns/access, L1 hit, " + carveout_text(c)).c_str());
        ImGui::TableHeadersRow();
        for (auto ws : l1_working_sets()) {
          ImGui::TableNextRow();
          if (ws == st.working_set_bytes)
            ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, current_row);
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(kib(ws).c_str());
          for (int c : l1_carveouts()) {
            ImGui::TableNextColumn();
            const gpu::L1GatherMeasurement* pt = nullptr;
            for (const auto& x : r.l1)
              if (x.carveout == c && x.working_set_bytes == ws) pt = &x;
            const L1HitPoint* hit = nullptr;
            for (const auto& x : r.l1_hit)
              if (x.carveout == c && x.working_set_bytes == ws) hit = &x;
            measured_cell(pt != nullptr,
                          pt ? format("%.3f%s%s", pt->ns_per_access,
                                      hit ? (", " + hit_text(hit->rate) + " hit").c_str() : "",
                                      pt->fits_l1 ? " (fits L1)" : "")
                             : "");
          }
        }
        ImGui::EndTable();
      }
      break;
    case CacheSection::Constant:
      if (ImGui::BeginTable("constant", 4, flags)) {
        ImGui::TableSetupScrollFreeze(0, 1);
        for (const char* h :
             {"k (reads per request)", "ns / request", "cycles / request", "\u00d7 broadcast"})
          ImGui::TableSetupColumn(h);
        ImGui::TableHeadersRow();
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
      if (ImGui::BeginTable("read", 6, flags)) {
        ImGui::TableSetupScrollFreeze(0, 1);
        for (const char* h :
             {"path", "pattern", "GB/s", "median ms", "L1 hit rate (counters)", "checksum"})
          ImGui::TableSetupColumn(h);
        ImGui::TableHeadersRow();
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

}  // namespace warplens::app
