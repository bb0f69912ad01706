// The shared-memory labs' numbers: the per-request table beside the GPU trace and counters,
// each lab's measurements (bank probe, transpose, multiply and reduction bars, the multiply's
// global traffic). The parameters and the view are shared_ui.cpp's.
#include "shared_ui.h"

#include <imgui.h>

#include <algorithm>
#include <string>
#include <vector>

#include "array_panel.h"
#include "bank_panel.h"
#include "legend_slot.h"
#include "shared_kinds.h"
#include "ui_widgets.h"
#include "warp_panel.h"

namespace warplens::app {

namespace {

// Horizontal bars scaled to the largest value, with the value and a note right of each bar.
void draw_bars(const std::vector<FigureBar>& bars, const viz::Theme& theme, float scale) {
  double top = 0;
  for (const auto& b : bars) top = std::max(top, b.value);
  float name_w = 0, value_w = 0, note_w = 0;
  for (const auto& b : bars) {
    name_w = std::max(name_w, ImGui::CalcTextSize(b.name.c_str()).x);
    value_w = std::max(value_w, ImGui::CalcTextSize(b.text.c_str()).x);
    note_w = std::max(note_w, ImGui::CalcTextSize(b.note.c_str()).x);
  }
  // Right of each bar its value and note (on the draw list): on one line where the column has
  // room, else the note under the value.
  const float avail = ImGui::GetContentRegionAvail().x;
  const float fixed = name_w + 12 * scale + 40.0f + 8 * scale;
  const bool one_line = fixed + value_w + 8 * scale + note_w <= avail;
  const float text_w = one_line ? value_w + 8 * scale + note_w : std::max(value_w, note_w);
  if (fixed + text_w > avail)
    audit_finding("clipped", "bars: values and notes run past the column");
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float line_h =
      ImGui::GetTextLineHeightWithSpacing() * 1.15f + (one_line ? 0 : ImGui::GetTextLineHeight());
  for (const auto& b : bars) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float bar_x = p.x + name_w + 12 * scale;
    const float bar_max = std::max(40.0f, avail - name_w - text_w - 24 * scale);
    const float w = top > 0 ? static_cast<float>(b.value / top) * bar_max : 0;
    ImGui::TextUnformatted(b.name.c_str());
    const viz::Rgb c = b.highlight ? theme.lanes[20] : theme.sector;
    draw->AddRectFilled({bar_x, p.y + 2 * scale}, {bar_x + w, p.y + line_h - 4 * scale},
                        to_imgui_color(c), 2 * scale);
    const float tx = bar_x + bar_max + 8 * scale;
    draw->AddText({tx, p.y}, to_imgui_color(theme.text), b.text.c_str());
    if (!b.note.empty()) {
      const ImVec2 at = one_line
                            ? ImVec2{tx + ImGui::CalcTextSize(b.text.c_str()).x + 8 * scale, p.y}
                            : ImVec2{tx, p.y + ImGui::GetTextLineHeight()};
      draw->AddText(at, to_imgui_color(theme.muted_text), b.note.c_str());
    }
    ImGui::SetCursorScreenPos({p.x, p.y + line_h});
  }
  ImGui::Dummy({1, 1});
}

void draw_global_table(const SharedSession& session) {
  if (!begin_stat_table("transpose-global", session.global_traced().has_value())) return;
  global_stat_rows(session.global_predicted(), session.global_traced());
  ImGui::EndTable();
}

void draw_analysis_table(const SharedSession& session) {
  if (session.shows_global()) {
    draw_global_table(session);
    return;
  }
  const auto& p = session.predicted();
  const auto& t = session.traced();
  const bool show_traced = t.has_value();
  if (!session.access()) {
    ImGui::TextDisabled("No shared-memory access in this kernel.");
    return;
  }
  if (!begin_stat_table("shared-request", show_traced, p.model)) return;
  for (const StatText& row : shared_stat_texts(p, t)) stat_row(row, show_traced);
  ImGui::EndTable();
}

void measured_bank(const SharedSession::Measured& m, bool current) {
  if (!m.bank) {
    ImGui::TextDisabled("%s", m.busy ? "measuring\u2026" : "\u2014");
    return;
  }
  const auto& b = *m.bank;
  if (!ImGui::BeginTable("bank-measured", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH))
    return;
  ImGui::TableSetupColumn("measured on the GPU", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  const auto value_row = [&](const char* name, const std::string& value, const char* tip) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(name);
    if (tip && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tip);
    ImGui::TableNextColumn();
    if (current) {
      ImGui::TextUnformatted(value.c_str());
    } else {
      ImGui::TextDisabled("%s", value.c_str());
    }
  };
  value_row("cycles per request, one warp alone", format("%.2f", b.cycles_per_request),
            "clock64() around a loop of independent accesses by the shown warp, / repeats. "
            "Latency-bound: one warp alone hides a conflict's extra wavefronts; the bytes per SM "
            "per clock below show their cost");
  value_row("whole GPU", format("%.0f GB/s", b.gbps),
            "bytes the active lanes asked for / median time (CUDA events), 10^9 B/s");
  value_row(
      "per SM per clock, whole GPU",
      format("%.1f B (%.0f %% of 128)", b.bytes_per_clock_per_sm, 100.0 * b.fraction_of_limit),
      "bytes per SM per SM clock, from each SM's clock64() span; 128 B/clk/SM is the "
      "shared-memory bandwidth of 32 four-byte banks");
  value_row("SM clock during the run", format("%.0f MHz", b.sm_clock_mhz),
            "clock64 cycles / elapsed time");
  ImGui::EndTable();
}

}  // namespace

SharedBars transpose_bars(const SharedState& st, const SharedSession::Measured& m) {
  SharedBars out;
  if (m.transpose.empty()) return out;
  out.title =
      format("%d\u00d7%d floats, tile %d, %d rows per block \u2022 GB/s = read + write",
             st.transpose.n, st.transpose.n, st.transpose.tile, st.transpose.rows_per_block);
  const double copy = m.transpose.front().gbps;
  for (const auto& t : m.transpose) {
    if (t.refused) {  // these parameters do not suit this variant: its reason, no bar
      out.bars.push_back({gpu::to_string(t.params.variant), 0, "refused", t.check,
                          t.params.variant == st.transpose.variant});
      continue;
    }
    out.bars.push_back(
        {gpu::to_string(t.params.variant), t.gbps,
         copy > 0 ? format("%.0f GB/s  %.1f %% of copy", t.gbps, 100.0 * t.gbps / copy)
                  : format("%.0f GB/s", t.gbps),
         t.verified ? "verified" : "WRONG RESULT", t.params.variant == st.transpose.variant});
  }
  return out;
}

SharedBars matmul_bars(const SharedState& st, const SharedSession::Measured& m) {
  SharedBars out;
  if (m.matmul.empty()) return out;
  out.title = format(
      "%d\u00d7%d floats \u2022 GFLOP/s = 2n\u00b3 / time \u2022 reads: bytes of A and B "
      "from global memory \u2022 %d entries of C checked",
      st.matmul.n, st.matmul.n, m.matmul.front().checked_entries);
  for (const auto& r : m.matmul) {
    out.bars.push_back(
        {r.params.block_size ? format("BLOCK_SIZE %d", r.params.block_size) : std::string("naive"),
         r.gflops, format("%.0f GFLOP/s", r.gflops),
         r.verified ? matmul_reads_text(r.params) : std::string("WRONG RESULT"),
         r.params.block_size == st.matmul.block_size});
  }
  return out;
}

SharedBars reduction_bars(const SharedState& st, const SharedSession::Measured& m) {
  SharedBars out;
  if (m.reduction.empty()) return out;
  out.title = format("%lld integers, %d threads per block \u2022 bars: GB/s of input read",
                     static_cast<long long>(st.reduction.elements), st.reduction.block_threads);
  for (const auto& r : m.reduction) {
    out.bars.push_back({gpu::to_string(r.params.variant), r.gbps,
                        format("%.0f GB/s  %.3f ms", r.gbps, r.timing.median_ms),
                        r.verified ? "verified" : "WRONG RESULT",
                        r.params.variant == st.reduction.variant});
  }
  return out;
}

SharedBars shared_measured_bars(const SharedSession& session, const SharedSession::Measured& m) {
  const SharedState& st = session.state();
  const auto bars = shared_kind(st.lab).bars;
  if (!session.gpu_mode() || !session.measurement_current() || !bars) return {};
  return bars(st, m);
}

void draw_shared_numbers(const SharedSession& session, const viz::ImGuiLayer& layer,
                         const viz::Theme& theme, ImVec2 pos, ImVec2 size) {
  const float s = layer.scale();
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin(
      "##shared-numbers", nullptr,
      ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
  const float half = stat_table_width(ImGui::GetContentRegionAvail().x, s);
  const auto m = session.measured();  // one copy of the worker's results for this frame
  ImGui::BeginChild("##shared-model", {half, 0});
  draw_analysis_table(session);
  if (session.access() || session.shows_global()) {
    draw_counter_line(
        m.counters, session.counters_current(), m.busy, session.gpu_mode(),
        session.shows_global() ? "sectors" : "wavefronts",
        session.shows_global() ? model::HardwareModel::Modern : session.state().model);
  }
  ImGui::EndChild();
  ImGui::SameLine(0, 16 * s);
  ImGui::BeginChild("##shared-measured", {0, 0});
  ImGui::PushTextWrapPos(0);  // the lines over the bars wrap to the column
  const bool current = session.measurement_current();
  const SharedState& st = session.state();
  if (!session.gpu_mode()) {
    ImGui::TextDisabled("Measurements need a CUDA device.");
    ImGui::TextDisabled("%s", session.device().reason.c_str());
  } else if (!shared_kind(st.lab).bars) {  // the bank probe: its measured rows
    measured_bank(m, current);
  } else {
    const SharedBars shown = shared_measured_bars(session, m);
    const std::vector<FigureBar>& bars = shown.bars;
    if (!shown.title.empty()) ImGui::TextDisabled("%s", shown.title.c_str());
    if (bars.empty()) {
      ImGui::TextDisabled("%s", m.busy ? "measuring\u2026" : "\u2014");
    } else {
      draw_bars(bars, theme, s);
    }
  }
  if (const auto notes = shared_kind(st.lab).notes) {
    for (const std::string& note : notes(st, shared_measured_bars(session, m).bars.empty()))
      ImGui::TextDisabled("%s", note.c_str());
  }
  if (!m.status.empty() && m.busy) ImGui::TextDisabled("%s\u2026", m.status.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndChild();
  ImGui::End();
}

}  // namespace warplens::app
