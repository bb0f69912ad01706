#include "global_panels.h"

#include <imgui.h>

#include <algorithm>
#include <string>
#include <vector>

#include "array_panel.h"
#include "atomic_file.h"
#include "copy_pattern.h"
#include "global_knobs.h"
#include "heatmap_figure.h"
#include "knob_widgets.h"
#include "lab.h"
#include "legend_slot.h"
#include "plot.h"
#include "sweeps.h"
#include "ui_state.h"
#include "ui_widgets.h"
#include "warp_panel.h"

namespace warplens::app {

namespace {

using viz::to_imgui_color;

}  // namespace

std::string kernel_text(const gpu::CopyParams& p) {
  if (p.matrix_width != 0) {
    return format("out[r][c] = in[r][c], %s, rows %lld B apart",
                  p.matrix_by_column ? "by column" : "by row",
                  static_cast<long long>(gpu::matrix_pitch_bytes(p)));
  }
  if (p.layout == gpu::StructLayout::ArrayOfStructs) return "out[i] = s[i].x + s[i].y + s[i].z";
  if (p.layout == gpu::StructLayout::StructOfArrays) return "out[i] = x[i] + y[i] + z[i]";
  const std::string e = index_text(p, index_expr::ExpressionStyle::Display);
  const char* load = p.path == gpu::LoadPath::L2Only
                         ? "__ldcg(&in["
                         : (p.path == gpu::LoadPath::ReadOnly ? "__ldg(&in[" : "in[");
  const char* close = p.path == gpu::LoadPath::Default ? "]" : "])";
  if (p.side == gpu::PatternSide::Read) return std::string("out[i] = ") + load + e + close;
  return "out[" + e + "] = " + load + "i" + close;
}

std::string warps_text(const CopyState& state) {
  if (state.warps == 1) return "warp " + std::to_string(state.warp);
  return "warps " + std::to_string(state.warp) + "\u2013" +
         std::to_string(state.warp + state.warps - 1);
}

// --- parameters --------------------------------------------------------------------------------

void draw_global_parameters(LabFrame& frame, CopySession& session, ImVec2 pos, ImVec2 size) {
  UiState& ui = frame.ui;
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin("Parameters", nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoSavedSettings);
  CopyState state = session.state();

  frame.draw_scenario_picker();
  ImGui::Separator();

  gpu::CopyParams& p = state.params;
  // The struct and matrix kernels have their own index math: the 1D controls do not apply
  // (global_knobs.h).
  for (const char* key : {"pattern", "word_bytes", "offset", "stride", "seed", "layout"})
    draw_knob(global_knob(key), state);
  if (p.layout != gpu::StructLayout::None) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped(
        "%s", p.layout == gpu::StructLayout::ArrayOfStructs
                  ? "Array of structures: s[i].x, s[i].y, s[i].z sit 12 bytes apart per thread. "
                    "Pattern, offset, stride and side do not apply."
                  : "Structure of arrays: x[i], y[i], z[i] in three arrays. "
                    "Pattern, offset, stride and side do not apply.");
    ImGui::PopStyleColor();
    draw_strip_knob(*find_knob(global_knobs(), "field"), state, "Load shown: field");
    ImGui::SameLine();
    ImGui::TextDisabled("(%d of %d)", state.field + 1, gpu::kStructFields);
  }
  ImGui::TextDisabled("2D: a matrix of floats read by a 2D block");
  bool matrix = p.matrix_width != 0;
  if (ImGui::Checkbox("matrix##on", &matrix)) {
    p.matrix_width = matrix ? 120 : 0;
    p.block_y = matrix ? 8 : 1;
    if (matrix) p.word_bytes = 4;
  }
  if (matrix) {
    ImGui::SameLine();
    if (ImGui::RadioButton("by row", !p.matrix_by_column)) p.matrix_by_column = false;
    ImGui::SameLine();
    if (ImGui::RadioButton("by column", p.matrix_by_column)) p.matrix_by_column = true;
    for (int by : {8, 16, 32}) {
      const std::string label =
          std::to_string(p.block_threads / by) + "\u00d7" + std::to_string(by);
      if (ImGui::RadioButton(label.c_str(), p.block_y == by)) p.block_y = by;
      ImGui::SameLine();
    }
    ImGui::TextDisabled("block");
    int width = p.matrix_width;
    ImGui::SetNextItemWidth(-1);
    if (ImGui::SliderInt("##width", &width, 32, 256, "width %d floats",
                         ImGuiSliderFlags_AlwaysClamp)) {
      p.matrix_width = width;
    }
    ImGui::Checkbox("rows padded by cudaMallocPitch", &p.matrix_pitched);
    ImGui::TextDisabled("pitch %lld B%s", static_cast<long long>(gpu::matrix_pitch_bytes(p)),
                        !p.matrix_pitched    ? " (width \u00d7 4, unpadded)"
                        : session.gpu_mode() ? " (from cudaMallocPitch)"
                                             : " (512 B assumed: no GPU)");
  }
  for (const char* key : {"side", "path"}) draw_knob(global_knob(key), state);
  const int block_warps = p.block_threads / 32;
  ImGui::TextDisabled("Warps of block 0 shown (%d threads, %d warps)", p.block_threads,
                      block_warps);
  const bool structs = p.layout != gpu::StructLayout::None;  // one warp, one field at a time
  if (structs) state.warps = 1;
  ImGui::BeginDisabled(structs);
  for (int n : {1, 2, 4, 8}) {
    if (n > block_warps) break;
    if (ImGui::RadioButton((std::to_string(n) + "##warps").c_str(), state.warps == n))
      state.warps = n;
    ImGui::SameLine();
  }
  ImGui::TextDisabled("side by side");
  ImGui::EndDisabled();
  ImGui::SetNextItemWidth(-1);
  ImGui::SliderInt("##warp", &state.warp, 0, block_warps - state.warps,
                   state.warps == 1 ? "warp %d" : "from warp %d", ImGuiSliderFlags_AlwaysClamp);
  state.warp = std::min(state.warp, block_warps - state.warps);
  ImGui::Spacing();
  ImGui::PushTextWrapPos(0);  // the permuted index is longer than the panel is wide
  ImGui::TextDisabled("Kernel: %s", kernel_text(p).c_str());
  ImGui::PopTextWrapPos();
  ImGui::TextDisabled("Memory model shown");
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##model", model::describe(state.model).data())) {
    for (auto hw : {model::HardwareModel::Modern, model::HardwareModel::FermiCaching,
                    model::HardwareModel::FermiL2Only, model::HardwareModel::Kepler,
                    model::HardwareModel::G80}) {
      if (ImGui::Selectable(model::describe(hw).data(), state.model == hw)) state.model = hw;
    }
    ImGui::EndCombo();
  }

  if (ui.interactive) {
    ImGui::Separator();
    if (ImGui::Button("Re-measure") && session.gpu_mode()) session.remeasure();
  }
  ImGui::Separator();
  ImGui::TextDisabled("Reading the view");
  for (const char* hint :
       {"Each lane of one warp runs the same load; its connector shows which bytes it reads.",
        "Memory moves in 32-byte sectors (the blue row). Bytes a sector carries that no lane "
        "asked for are hatched.",
        "Fewer sectors per request: more of the measured bandwidth is useful."}) {
    ImGui::Bullet();
    ImGui::TextWrapped("%s", hint);
  }
  if (!(state == session.state())) session.set(state);
  ImGui::End();
}

// --- warp view ---------------------------------------------------------------------------------

void draw_global_view(UiState& ui, CopySession& session, viz::WarpView& view,
                      const viz::ImGuiLayer& layer, const viz::Theme& theme, ImVec2 pos,
                      ImVec2 size, const char* side_name) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  const bool traced = session.trace_source() == TraceSource::GpuKernel;
  const std::string side = pane_title_prefix(side_name);
  const std::string title =
      fitting_title({side + (traced ? "Warp view \u2014 addresses traced from the GPU kernel"
                                    : "Warp view \u2014 addresses from the host model"),
                     side + (traced ? "Warp view \u2014 GPU trace" : "Warp view \u2014 host model"),
                     side + (traced ? "GPU trace" : "host model")},
                    size.x) +
      "###warp" + (side_name ? side_name : "");
  ImGui::Begin(title.c_str(), nullptr, view_window_flags(side_name));
  WarpPanelInfo info;
  info.first_warp = session.state().warp;
  if (session.state().params.layout != gpu::StructLayout::None) {
    const std::string field = field_text(session.state());
    info.slot_captions = {"warp " + std::to_string(info.first_warp) + ": load of " + field};
    info.short_slot_captions = {field};
  }
  const std::string path_caption = load_path_caption(session.state().params, info.first_warp);
  if (!path_caption.empty() && session.state().warps == 1) {
    info.slot_captions = {path_caption};
    info.short_slot_captions = {"warp " + std::to_string(info.first_warp) + " \u2022 __" +
                                gpu::to_string(session.state().params.path)};
  }
  info.model = session.state().model;
  info.op = session.predicted().op;
  info.analysis = session.traced() ? &*session.traced() : &session.predicted();
  // A matrix: its rows as stored beside the warp view (where the lines start, the pitch's padding).
  const gpu::CopyParams& p = session.state().params;
  const ArrayPlacement array =
      p.matrix_width > 0
          ? begin_array_view(ui, session.trace(),
                             {"matrix", static_cast<int>(gpu::matrix_pitch_bytes(p) / 4),
                              p.matrix_width, 4, 0, p.block_y, 0, 4},
                             layer, theme, 700)
          : ArrayPlacement::None;
  if (array != ArrayPlacement::Alone)
    draw_warp_panel(view, session.trace(), info, layer, theme, ui.interactive);
  if (array == ArrayPlacement::Beside) end_array_beside();
  ImGui::End();
}

namespace {

// --- statistics --------------------------------------------------------------------------------

void draw_numbers(const CopySession& session, const viz::ImGuiLayer& layer) {
  const float s = layer.scale();
  const auto& p = session.predicted();
  const auto& t = session.traced();
  const bool show_traced = t.has_value();
  const float half = stat_table_width(ImGui::GetContentRegionAvail().x, s);

  ImGui::BeginChild("##request", {half, 0});
  if (session.state().params.layout != gpu::StructLayout::None) {
    ImGui::TextDisabled("per request: the load of %s; last rows: all three loads",
                        field_text(session.state()).c_str());
  }
  if (begin_stat_table("request", show_traced, session.state().model)) {
    global_stat_rows(p, t);
    const bool fields = session.state().params.layout != gpu::StructLayout::None;
    if (session.predicted_totals().warps > 1) {
      const auto& pt = session.predicted_totals();
      const auto& tt = session.traced_totals();
      const char* what = fields ? "loads" : "warps";
      const std::string who = fields ? "the three field loads" : "the shown warps";
      const std::string distinct_tip =
          "distinct sectors " + who + " touch: what they move when they share sectors (L1 / L2)";
      const std::string summed_tip =
          "the sum of the requests of " + who + ": shared sectors count again";
      stat_row(format("sectors, %d %s, distinct", pt.warps, what).c_str(),
               std::to_string(pt.distinct_sectors),
               tt ? std::to_string(tt->distinct_sectors) : std::string(), tt.has_value(),
               distinct_tip.c_str());
      stat_row(format("sectors, %d %s, summed", pt.warps, what).c_str(),
               std::to_string(pt.summed_sectors),
               tt ? std::to_string(tt->summed_sectors) : std::string(), tt.has_value(),
               summed_tip.c_str());
    }
    ImGui::EndTable();
  }
  const auto m = session.measured();  // one copy of the worker's results for this frame
  draw_counter_line(m.counters, session.measurement_current(), m.busy, session.gpu_mode(),
                    "sectors", session.state().model);
  const std::string path_note = load_path_note(session.state().params);
  if (!path_note.empty()) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s", path_note.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::EndChild();
  ImGui::SameLine(0, 16 * s);

  ImGui::BeginChild("##bandwidth", {0, 0});
  if (!session.gpu_mode()) {
    ImGui::TextDisabled("Measured bandwidth needs a CUDA device.");
    ImGui::TextDisabled("%s", session.device().reason.c_str());
  } else if (ImGui::BeginTable("bandwidth", 2,
                               ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH)) {
    ImGui::TableSetupColumn("measured (read + write, 10\u2079 B/s)",
                            ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("GB/s", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    const bool current = session.measurement_current();
    const auto value_row = [&](const char* name, const std::string& value, bool stale,
                               const char* tip) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(name);
      if (tip && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tip);
      ImGui::TableNextColumn();
      ImGui::PushTextWrapPos(0);  // a spread with slow and fast launches runs long: it wraps
      ImGui::PushStyleColor(
          ImGuiCol_Text, ImGui::GetStyleColorVec4(stale ? ImGuiCol_TextDisabled : ImGuiCol_Text));
      ImGui::TextUnformatted(value.c_str());
      ImGui::PopStyleColor();
      ImGui::PopTextWrapPos();
    };
    if (m.copy) {
      value_row(
          "this copy kernel", format("%.0f", m.copy->gbps), !current,
          "median of the timed launches; CUDA events; bytes the program asked to read + write");
      value_row("  spread of the launches",
                spread_text(m.copy->timing, static_cast<double>(m.copy->plan.requested_bytes)),
                !current,
                "interquartile range (p25\u2013p75) of the timed launches' GB/s; a launch "
                "further than 1.5 IQR (at least 5 % of the median) outside it is counted as slow "
                "or fast instead of widening the range (warplens-bench and the JSON keep min "
                "and max)");
    } else {
      value_row("this copy kernel", m.busy ? "measuring\u2026" : "\u2014", true, nullptr);
    }
    if (m.memcpy) {
      value_row("cudaMemcpy device\u2192device", format("%.0f", m.memcpy->gbps), false,
                "the driver's own copy over the same buffer: the practical ceiling");
      if (m.copy)
        value_row("  this copy / memcpy", percent_text(m.copy->gbps / m.memcpy->gbps), !current,
                  nullptr);
    }
    value_row("theoretical DRAM peak", format("%.0f", session.device().device->theoretical_gbps),
              false, "2 x memory clock x bus width (cudaDeviceGetAttribute)");
    if (m.copy) {
      value_row("launch",
                with_thousands(m.copy->plan.threads) + " threads \u00d7 " +
                    std::to_string(m.copy->timing.runs) + " runs",
                !current, nullptr);
    }
    ImGui::EndTable();
    const std::string note = bandwidth_note(session.state().params);
    if (!note.empty()) {
      ImGui::PushTextWrapPos(0);
      ImGui::TextDisabled("%s", note.c_str());
      ImGui::PopTextWrapPos();
    }
    if (!m.gpu_status.empty()) ImGui::TextDisabled("%s\u2026", m.gpu_status.c_str());
  }
  ImGui::EndChild();
}

void draw_sweep(UiState& ui, CopySession& session, const viz::ImGuiLayer& layer,
                const viz::Theme& theme, SweepAxis axis) {
  const float s = layer.scale();
  if (!session.gpu_mode()) {
    ImGui::TextDisabled(
        "Sweeps time the copy kernel at every %s on the GPU; there is none here (%s).",
        to_string(axis), session.device().reason.c_str());
    return;
  }
  const auto sweep = session.sweep();
  const bool running = session.sweep_running();
  const bool mine = sweep && sweep->axis == axis;
  gpu::CopyParams base = session.state().params;
  ImGui::TextDisabled("Word size");
  ImGui::SameLine();
  for (int w : {4, 8, 16}) {
    ImGui::SameLine();
    if (ImGui::RadioButton((std::to_string(w) + " B##sweep").c_str(), ui.sweep_word_bytes == w))
      ui.sweep_word_bytes = w;
  }
  base.word_bytes = ui.sweep_word_bytes;
  ImGui::SameLine(0, 24 * s);
  if (ui.interactive) {
    if (!running) {
      if (ImGui::Button(mine ? "Measure again" : "Measure sweep")) session.start_sweep(axis, base);
    } else if (ImGui::Button("Cancel")) {
      session.cancel_sweep();
    }
    ImGui::SameLine();
  }
  const int done = mine ? static_cast<int>(sweep->points.size()) : 0;
  const int total = mine ? sweep->total_points : 0;
  ImGui::SetNextItemWidth(200 * s);
  ImGui::ProgressBar(total ? static_cast<float>(done) / static_cast<float>(total) : 0.0f,
                     {200 * s, 0},
                     total ? format("%d / %d points", done, total).c_str() : "not measured");
  ImGui::SameLine(0, 24 * s);
  ImGui::Checkbox("log y", &ui.log_y);
  if (mine) {
    const SweepPoint* worst_at = nullptr;
    const double worst = sweep->worst_prediction_error(&worst_at);
    ImGui::SameLine(0, 24 * s);
    if (worst_at) {
      ImGui::TextDisabled("model vs measured: worst %.1f %% (at %s %g)%s", 100 * worst,
                          to_string(axis), worst_at->x,
                          sweep->cancelled ? " \u2022 cancelled, points kept" : "");
    }
  }
  if (ui.interactive && mine && !running) {
    ImGui::SameLine(0, 24 * s);
    if (ImGui::Button("Export JSON + CSV")) {
      const std::string stem = std::string("warplens-") + to_string(axis) + "-sweep-" +
                               std::to_string(sweep->base.word_bytes) + "B";
      try {
        viz::write_file_atomically(stem + ".json", sweep_json(*sweep));
        viz::write_file_atomically(stem + ".csv", sweep_csv(*sweep));
        ui.message = "wrote " + stem + ".json and .csv";
      } catch (const std::exception& e) {
        ui.message = e.what();
      }
    }
  }
  if (!ui.message.empty()) ImGui::TextDisabled("%s", ui.message.c_str());

  viz::PlotSpec spec;
  spec.x_label =
      std::string(to_string(axis)) + " (elements of " + std::to_string(base.word_bytes) + " B)";
  spec.y_label = "GB/s (read + write, 10\u2079 B/s)";
  spec.log_y = ui.log_y;
  spec.x_min = 0;
  spec.x_max = axis == SweepAxis::Offset ? 32 : 64;
  std::vector<viz::PlotSeries> series;
  std::vector<viz::ReferenceLine> references;
  if (mine) {
    viz::PlotSeries measured{
        "measured (median, IQR)", theme.lanes[8], {}, {}, {}, {}, false, true, -1};
    viz::PlotSeries predicted{
        "model (DRAM bytes)", theme.overfetch, {}, {}, {}, {}, true, false, -1};
    const double current = sweep_x(axis, session.state().params);
    for (const auto& pt : sweep->points) {
      if (pt.measured.params.word_bytes == session.state().params.word_bytes && pt.x == current) {
        measured.highlight = static_cast<int>(measured.x.size());
      }
      measured.x.push_back(pt.x);
      measured.y.push_back(pt.measured.gbps);
      const GbpsRange iqr =
          iqr_gbps(pt.measured.timing, static_cast<double>(pt.measured.plan.requested_bytes));
      measured.y_low.push_back(iqr.low);
      measured.y_high.push_back(iqr.high);
      predicted.x.push_back(pt.x);
      predicted.y.push_back(pt.predicted_gbps);
    }
    series = {measured, predicted};
    references = {{"cudaMemcpy D2D", theme.sector, sweep->memcpy.gbps},
                  {"theoretical peak", theme.muted_text, sweep->theoretical_gbps}};
  }
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  viz::draw_plot(to_string(axis), spec, series, references, avail.x, avail.y, theme, s,
                 ui.interactive);
}

void draw_heatmap(const UiState& ui, const CopySession& session, viz::HeatStrip& heat,
                  const viz::ImGuiLayer& layer, const viz::Theme& theme) {
  const float s = layer.scale();
  const SectorHeatmap& h = session.heatmap();
  if (!session.heatmap_unavailable().empty()) {
    ImGui::TextDisabled("No heatmap: %s.", session.heatmap_unavailable().c_str());
    return;
  }
  const bool gpu = session.trace_source() == TraceSource::GpuKernel;
  ImGui::TextDisabled(
      "Every warp of the %s launch, counted per 32-byte sector of the first %d KiB of the %s "
      "buffer%s.",
      gpu ? "real" : "modelled", kHeatSectors * 32 / 1024,
      session.state().params.side == gpu::PatternSide::Read ? "input" : "output",
      gpu ? " (atomics in the kernel, drawn through interop)" : " (host model: no GPU)");
  ImGui::TextUnformatted(heatmap_totals_text(h).c_str());  // as its figure writes it
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float label_h = ImGui::GetTextLineHeightWithSpacing() * 2.2f;
  const float row_label_w = ImGui::CalcTextSize("bytes used per byte moved").x + 12 * s;
  const int w = std::max(64, static_cast<int>(avail.x));
  const int hpx = std::max(48, static_cast<int>(avail.y - label_h));
  const float x0 = row_label_w, x1 = static_cast<float>(w) - 8 * s;
  const GLuint texture = heat.render(w, hpx, x0, x1, s, theme);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(texture)),
               {static_cast<float>(w), static_cast<float>(hpx)}, {0, 1}, {1, 0});
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImU32 text = to_imgui_color(theme.text), muted = to_imgui_color(theme.muted_text);
  draw->AddText(
      {origin.x, origin.y + 0.25f * static_cast<float>(hpx) - 0.5f * ImGui::GetFontSize()}, text,
      "requests per sector");
  draw->AddText(
      {origin.x, origin.y + 0.75f * static_cast<float>(hpx) - 0.5f * ImGui::GetFontSize()}, text,
      "bytes used per byte moved");
  for (double v : viz::nice_ticks(0, kHeatSectors * 32, 8)) {
    const float x = origin.x + x0 + static_cast<float>(v / (kHeatSectors * 32)) * (x1 - x0);
    const std::string label = viz::tick_label(v);
    draw->AddText({x - 0.5f * ImGui::CalcTextSize(label.c_str()).x,
                   origin.y + static_cast<float>(hpx) + 2 * s},
                  muted, label.c_str());
  }
  const char* axis =
      "bytes from the buffer base \u2022 one column per 32 B sector \u2022 darker: more requests "
      "(log scale, black at 32)";
  draw->AddText({origin.x + x1 - ImGui::CalcTextSize(axis).x,
                 origin.y + static_cast<float>(hpx) + ImGui::GetFontSize() + 4 * s},
                muted, axis);
  (void)ui;
}

}  // namespace

void draw_global_bottom(UiState& ui, CopySession& session, viz::HeatStrip& heat,
                        const viz::ImGuiLayer& layer, const viz::Theme& theme, ImVec2 pos,
                        ImVec2 size) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin(
      "##bottom", nullptr,
      ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
  if (ImGui::BeginTabBar("##views")) {
    const auto tab = [&](const char* label, BottomView view) {
      const ImGuiTabItemFlags flags =
          ui.select_bottom && ui.bottom == view ? ImGuiTabItemFlags_SetSelected : 0;
      const bool open = ImGui::BeginTabItem(label, nullptr, flags);
      if (open) {
        if (!ui.select_bottom) ui.bottom = view;
        ImGui::EndTabItem();
      }
      return open;
    };
    if (tab("Numbers", BottomView::Numbers)) draw_numbers(session, layer);
    if (tab("Sector heatmap", BottomView::Heatmap)) draw_heatmap(ui, session, heat, layer, theme);
    if (tab("Offset sweep", BottomView::OffsetSweep))
      draw_sweep(ui, session, layer, theme, SweepAxis::Offset);
    if (tab("Stride sweep", BottomView::StrideSweep))
      draw_sweep(ui, session, layer, theme, SweepAxis::Stride);
    ui.select_bottom = false;
    ImGui::EndTabBar();
  }
  ImGui::End();
}

}  // namespace warplens::app
