#include "app_ui.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "atomic_file.h"
#include "cache_ui.h"
#include "plot.h"
#include "scenarios.h"
#include "shared_ui.h"
#include "sweeps.h"
#include "ui_widgets.h"
#include "warp_panel.h"

namespace warplens::app {

namespace {

using viz::Rgb;
using viz::to_imgui_color;

// --- header ------------------------------------------------------------------------------------

const char* lab_title(Lab lab) {
  switch (lab) {
    case Lab::Global: return "Global memory";
    case Lab::Banks: return "Shared banks";
    case Lab::Transpose: return "Transpose";
    case Lab::Matmul: return "Matrix multiply";
    case Lab::Reduction: return "Reduction";
    case Lab::Cache: return "Caches & occupancy";
  }
  return "?";
}

/// The header's lab buttons where the full titles do not fit (presenter scales, small windows).
const char* lab_short_title(Lab lab) {
  switch (lab) {
    case Lab::Global: return "Global";
    case Lab::Banks: return "Banks";
    case Lab::Transpose: return "Transpose";
    case Lab::Matmul: return "Matmul";
    case Lab::Reduction: return "Reduction";
    case Lab::Cache: return "Caches";
  }
  return "?";
}

void draw_header(UiState& ui, CopySession& session, SharedSession& shared,
                 const viz::ImGuiLayer& layer, const viz::Theme& theme, float width, float height,
                 bool with_cache, CompareSlot* compare) {
  ImGui::SetNextWindowPos({0, 0});
  ImGui::SetNextWindowSize({width, height});
  ImGui::Begin("##header", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus);
  ImGui::PushFont(layer.fonts().bold);
  ImGui::TextUnformatted("WarpLens");
  ImGui::PopFont();
  // One button per lab, the current one highlighted; short titles when the full ones would
  // leave no room for the compare button and the device line.
  const Lab labs[] = {Lab::Global, Lab::Banks,     Lab::Transpose,
                      Lab::Matmul, Lab::Reduction, Lab::Cache};
  const ImGuiStyle& style = ImGui::GetStyle();
  float full_w = 24 * layer.scale() + ImGui::CalcTextSize("A/B compare: on").x +
                 ImGui::CalcTextSize("measured on NVIDIA H100 80GB HBM3").x;
  for (Lab lab : labs)
    full_w += ImGui::CalcTextSize(lab_title(lab)).x + 2 * style.FramePadding.x + 4 * layer.scale();
  const bool short_titles = ImGui::GetCursorPosX() + full_w > width;
  for (Lab lab : labs) {
    if (lab == Lab::Cache && !with_cache) continue;
    ImGui::SameLine(0, lab == Lab::Global ? 24 * layer.scale() : 4 * layer.scale());
    const bool current = ui.lab == lab;
    if (current)
      ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    if (ImGui::SmallButton(short_titles ? lab_short_title(lab) : lab_title(lab)) &&
        ui.interactive && !current) {
      ui.lab = lab;
      if (lab != Lab::Global && lab != Lab::Cache) {
        SharedState st = shared.state();
        st.lab = lab;
        shared.set(st);
      }
    }
    if (current) ImGui::PopStyleColor();
  }
  if (compare && lab_has_compare(ui.lab)) {
    ImGui::SameLine(0, 24 * layer.scale());
    if (ui.compare)
      ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    const char* compare_label = short_titles ? (ui.compare ? "A/B: on" : "A/B")
                                             : (ui.compare ? "A/B compare: on" : "A/B compare");
    if (ImGui::SmallButton(compare_label) && ui.interactive) {
      if (ui.compare) {
        ui.compare = false;
      } else {
        start_compare(ui, session, shared, *compare);
      }
    }
    if (ui.compare) ImGui::PopStyleColor();
    if (ui.interactive && ImGui::IsItemHovered())
      ImGui::SetTooltip(
          "Two parameter sets side by side, both measured on the GPU (key C). A starts as a "
          "copy of the current parameters; change B (or A) in the panel.");
  }
  std::string right;
  bool warn = false;
  const model::HardwareModel shown_model =
      ui.lab == Lab::Global ? session.state().model : shared.state().model;
  if (session.gpu_mode()) {
    const auto& d = *session.device().device;
    right = format("measured on %s (CC %d.%d, %d SMs)", d.name.c_str(), d.cc_major, d.cc_minor,
                   d.sm_count);
    if (shown_model != model::HardwareModel::Modern) {
      right = "teaching model: " + std::string(model::to_string(shown_model)) +
              " \u2022 measurements come from the real " + d.name + " (CC " +
              std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor) + ")";
      warn = true;
    }
  } else {
    right = "model only \u2014 no CUDA device";
    warn = true;
  }
  // The device line fills what the buttons leave, shortened to the GPU's name, then cut with
  // an ellipsis; never drawn over the buttons.
  ImGui::SameLine();
  const float room = width - ImGui::GetCursorPosX() - 44 * layer.scale();
  if (ImGui::CalcTextSize(right.c_str()).x > room && session.gpu_mode() && !warn)
    right = session.device().device->name;
  right = fit_text(right, room);
  const float text_w = ImGui::CalcTextSize(right.c_str()).x;
  ImGui::SameLine(
      std::max(ImGui::GetCursorPosX() + 20 * layer.scale(), width - text_w - 24 * layer.scale()));
  if (warn) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float pad = 6 * layer.scale();
    ImGui::GetWindowDrawList()->AddRectFilled(
        {p.x - pad, p.y - pad * 0.5f},
        {p.x + text_w + pad, p.y + ImGui::GetTextLineHeight() + pad * 0.5f},
        to_imgui_color(theme.warning), 4 * layer.scale());
    ImGui::PushStyleColor(ImGuiCol_Text, color4(viz::text_on(theme.warning)));
    ImGui::TextUnformatted(right.c_str());
    ImGui::PopStyleColor();
  } else {
    ImGui::TextUnformatted(right.c_str());
  }
  ImGui::End();
}

const char* pattern_label(IndexKind kind) {
  switch (kind) {
    case IndexKind::Strided: return "strided (offset + stride \u00d7 i)";
    case IndexKind::Permuted: return "permuted within each 32 elements";
    case IndexKind::SameWord: return "all lanes on one word";
    case IndexKind::Scattered: return "scattered (seeded hash)";
  }
  return "";
}

const char* load_path_label(gpu::LoadPath path) {
  switch (path) {
    case gpu::LoadPath::Default: return "default";
    case gpu::LoadPath::L2Only: return "__ldcg";
    case gpu::LoadPath::ReadOnly: return "__ldg";
  }
  return "";
}

}  // namespace

std::string kernel_text(const gpu::CopyParams& p) {
  if (p.matrix_width != 0) {
    return format("out[r][c] = in[r][c], %s, rows %lld B apart",
                  p.matrix_by_column ? "by column" : "by row",
                  static_cast<long long>(gpu::matrix_pitch_bytes(p)));
  }
  if (p.layout == gpu::StructLayout::ArrayOfStructs) return "out[i] = s[i].x + s[i].y + s[i].z";
  if (p.layout == gpu::StructLayout::StructOfArrays) return "out[i] = x[i] + y[i] + z[i]";
  std::string e;
  switch (p.kind) {
    case IndexKind::Strided:
      e = format("%lld + %lld\u00d7i", static_cast<long long>(p.offset),
                 static_cast<long long>(p.stride));
      break;
    case IndexKind::Permuted:
      e = format("%lld + perm%u(i)", static_cast<long long>(p.offset), p.seed);
      break;
    case IndexKind::SameWord:
      e = format("%lld + 32\u00d7(i/32)", static_cast<long long>(p.offset));
      break;
    case IndexKind::Scattered:
      e = format("%lld + hash%u(i)", static_cast<long long>(p.offset), p.seed);
      break;
  }
  const char* load = p.path == gpu::LoadPath::L2Only
                         ? "__ldcg(&in["
                         : (p.path == gpu::LoadPath::ReadOnly ? "__ldg(&in[" : "in[");
  const char* close = p.path == gpu::LoadPath::Default ? "]" : "])";
  if (p.side == gpu::PatternSide::Read) return std::string("out[i] = ") + load + e + close;
  return "out[" + e + "] = " + load + "i" + close;
}

namespace {

std::string warps_text(const CopyState& state) {
  if (state.warps == 1) return "warp " + std::to_string(state.warp);
  return "warps " + std::to_string(state.warp) + "\u2013" +
         std::to_string(state.warp + state.warps - 1);
}

// --- parameters --------------------------------------------------------------------------------

void draw_parameters(UiState& ui, CopySession& session, const viz::ImGuiLayer& layer, ImVec2 pos,
                     ImVec2 size) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin("Parameters", nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoSavedSettings);
  CopyState state = session.state();

  draw_scenario_picker(ui);
  ImGui::Separator();

  gpu::CopyParams& p = state.params;
  // The struct and matrix kernels have their own index math: the 1D controls do not apply.
  const bool one_dimensional = p.layout == gpu::StructLayout::None && p.matrix_width == 0;
  ImGui::BeginDisabled(!one_dimensional);
  ImGui::TextDisabled("Index pattern");
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##pattern", pattern_label(p.kind))) {
    for (IndexKind k :
         {IndexKind::Strided, IndexKind::Permuted, IndexKind::SameWord, IndexKind::Scattered}) {
      if (ImGui::Selectable(pattern_label(k), p.kind == k)) p.kind = k;
    }
    ImGui::EndCombo();
  }
  ImGui::EndDisabled();
  ImGui::BeginDisabled(!one_dimensional);  // struct and matrix hold 4-byte floats
  ImGui::TextDisabled("Word size (bytes per lane)");
  for (int w : {1, 2, 4, 8, 16}) {
    if (ImGui::RadioButton(std::to_string(w).c_str(), p.word_bytes == w)) p.word_bytes = w;
    if (w != 16) ImGui::SameLine();
  }
  ImGui::EndDisabled();
  ImGui::BeginDisabled(!one_dimensional);
  int offset = static_cast<int>(p.offset);
  ImGui::TextDisabled("Offset (elements)");
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderInt("##offset", &offset, 0, 64, "%d", ImGuiSliderFlags_AlwaysClamp))
    p.offset = offset;
  if (p.kind == IndexKind::Strided) {
    int stride = static_cast<int>(p.stride);
    ImGui::TextDisabled("Stride (elements)");
    ImGui::SetNextItemWidth(-1);
    if (ImGui::SliderInt("##stride", &stride, 1, 64, "%d", ImGuiSliderFlags_AlwaysClamp))
      p.stride = stride;
  }
  if (p.kind == IndexKind::Permuted || p.kind == IndexKind::Scattered) {
    int seed = static_cast<int>(p.seed);
    ImGui::TextDisabled("Seed");
    ImGui::SetNextItemWidth(-1);
    if (ImGui::InputInt("##seed", &seed) && seed >= 0) p.seed = static_cast<std::uint32_t>(seed);
  }
  ImGui::EndDisabled();
  ImGui::TextDisabled("Struct {x, y, z} of floats, read field by field");
  for (auto l : {gpu::StructLayout::None, gpu::StructLayout::ArrayOfStructs,
                 gpu::StructLayout::StructOfArrays}) {
    const char* label = l == gpu::StructLayout::None             ? "off##layout"
                        : l == gpu::StructLayout::ArrayOfStructs ? "AoS"
                                                                 : "SoA";
    if (ImGui::RadioButton(label, p.layout == l)) {
      p.layout = l;
      if (l != gpu::StructLayout::None) p.word_bytes = 4;  // the fields are 4-byte floats
    }
    if (l != gpu::StructLayout::StructOfArrays) ImGui::SameLine();
  }
  if (p.layout != gpu::StructLayout::None) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped(
        "%s", p.layout == gpu::StructLayout::ArrayOfStructs
                  ? "Array of structures: s[i].x, s[i].y, s[i].z sit 12 bytes apart per thread. "
                    "Pattern, offset, stride and side do not apply."
                  : "Structure of arrays: x[i], y[i], z[i] in three arrays. "
                    "Pattern, offset, stride and side do not apply.");
    ImGui::PopStyleColor();
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
  ImGui::BeginDisabled(!one_dimensional);
  ImGui::TextDisabled("Which side follows the pattern");
  if (ImGui::RadioButton("loads", p.side == gpu::PatternSide::Read))
    p.side = gpu::PatternSide::Read;
  ImGui::SameLine();
  if (ImGui::RadioButton("stores", p.side == gpu::PatternSide::Write))
    p.side = gpu::PatternSide::Write;
  ImGui::TextDisabled("Load path");
  for (gpu::LoadPath path :
       {gpu::LoadPath::Default, gpu::LoadPath::L2Only, gpu::LoadPath::ReadOnly}) {
    if (ImGui::RadioButton(load_path_label(path), p.path == path)) p.path = path;
    if (path != gpu::LoadPath::ReadOnly) ImGui::SameLine();
  }
  ImGui::EndDisabled();
  const int block_warps = p.block_threads / 32;
  ImGui::TextDisabled("Warps of block 0 shown (%d threads, %d warps)", p.block_threads,
                      block_warps);
  for (int n : {1, 2, 4, 8}) {
    if (n > block_warps) break;
    if (ImGui::RadioButton((std::to_string(n) + "##warps").c_str(), state.warps == n))
      state.warps = n;
    ImGui::SameLine();
  }
  ImGui::TextDisabled("side by side");
  ImGui::SetNextItemWidth(-1);
  ImGui::SliderInt("##warp", &state.warp, 0, block_warps - state.warps,
                   state.warps == 1 ? "warp %d" : "from warp %d", ImGuiSliderFlags_AlwaysClamp);
  state.warp = std::min(state.warp, block_warps - state.warps);
  ImGui::Spacing();
  ImGui::TextDisabled("Kernel: %s", kernel_text(p).c_str());
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
  (void)layer;
  if (!(state == session.state())) session.set(state);
  ImGui::End();
}

// --- warp view ---------------------------------------------------------------------------------

void draw_warp_view(const UiState& ui, CopySession& session, viz::WarpView& view,
                    const viz::ImGuiLayer& layer, const viz::Theme& theme, ImVec2 pos, ImVec2 size,
                    const char* side_name = nullptr) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  const char* source = session.trace_source() == TraceSource::GpuKernel
                           ? "Warp view \u2014 addresses traced from the GPU kernel"
                           : "Warp view \u2014 addresses from the host model";
  const std::string title =
      side_name ? std::string(side_name) + " \u2022 " + source + "###warp" + side_name
                : std::string(source) + "###warp";
  ImGui::Begin(title.c_str(), nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoScrollbar);
  WarpPanelInfo info;
  info.first_warp = session.state().warp;
  if (session.state().params.layout != gpu::StructLayout::None) {
    for (const char* field : {"x", "y", "z"})
      info.slot_captions.push_back("warp " + std::to_string(info.first_warp) + ": load of field " +
                                   field);
  }
  info.model = session.state().model;
  info.analysis = session.traced() ? &*session.traced() : &session.predicted();
  draw_warp_panel(view, session.trace(), info, layer, theme, ui.interactive);
  ImGui::End();
}

// --- statistics --------------------------------------------------------------------------------

void draw_numbers(const CopySession& session, const viz::ImGuiLayer& layer) {
  const float s = layer.scale();
  const auto& p = session.predicted();
  const auto& t = session.traced();
  const bool show_traced = t.has_value();
  const float half = (ImGui::GetContentRegionAvail().x - 16 * s) * 0.5f;

  ImGui::BeginChild("##request", {half, 0});
  if (begin_stat_table("request", show_traced)) {
    global_stat_rows(p, t, session.state().model != model::HardwareModel::Modern);
    const bool fields = session.state().params.layout != gpu::StructLayout::None;
    if (session.predicted_totals().warps > 1) {
      const auto& pt = session.predicted_totals();
      const auto& tt = session.traced_totals();
      const char* what = fields ? "loads" : "warps";
      stat_row(format("sectors, %d %s, distinct", pt.warps, what).c_str(),
               std::to_string(pt.distinct_sectors),
               tt ? std::to_string(tt->distinct_sectors) : std::string(), tt.has_value(),
               "distinct sectors all shown warps touch: what they move when they share sectors");
      stat_row(format("sectors, %d %s, summed", pt.warps, what).c_str(),
               std::to_string(pt.summed_sectors),
               tt ? std::to_string(tt->summed_sectors) : std::string(), tt.has_value(),
               "the sum of each warp's request: sectors shared between warps count again");
    }
    ImGui::EndTable();
  }
  const auto m = session.measured();  // one copy of the worker's results for this frame
  draw_counter_line(m.counters, session.measurement_current(), m.busy, session.gpu_mode(),
                    "sectors");
  ImGui::EndChild();
  ImGui::SameLine(0, 16 * s);

  ImGui::BeginChild("##bandwidth", {half, 0});
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
      if (stale) {
        ImGui::TextDisabled("%s", value.c_str());
      } else {
        ImGui::TextUnformatted(value.c_str());
      }
    };
    if (m.copy) {
      value_row(
          "this copy kernel", format("%.0f", m.copy->gbps), !current,
          "median of the timed launches; CUDA events; bytes the program asked to read + write");
      value_row(
          "  spread (min\u2013max)",
          format("%.0f\u2013%.0f",
                 static_cast<double>(m.copy->plan.requested_bytes) / (m.copy->timing.max_ms * 1e6),
                 static_cast<double>(m.copy->plan.requested_bytes) / (m.copy->timing.min_ms * 1e6)),
          !current, nullptr);
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
        "measured (median, min\u2013max)", theme.lanes[8], {}, {}, {}, {}, false, true, -1};
    viz::PlotSeries predicted{
        "model (DRAM bytes)", theme.overfetch, {}, {}, {}, {}, true, false, -1};
    const double current = sweep_x(axis, session.state().params);
    for (const auto& pt : sweep->points) {
      if (pt.measured.params.word_bytes == session.state().params.word_bytes && pt.x == current) {
        measured.highlight = static_cast<int>(measured.x.size());
      }
      measured.x.push_back(pt.x);
      measured.y.push_back(pt.measured.gbps);
      const double bytes = static_cast<double>(pt.measured.plan.requested_bytes);
      measured.y_low.push_back(bytes / (pt.measured.timing.max_ms * 1e6));
      measured.y_high.push_back(bytes / (pt.measured.timing.min_ms * 1e6));
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
  unsigned max_requests = 0;
  long long requests = 0, used = 0;
  int touched = 0;
  for (const auto& sector : h) {
    max_requests = std::max(max_requests, sector.requests);
    requests += sector.requests;
    used += sector.bytes;
    touched += sector.requests > 0;
  }
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
  ImGui::Text(
      "%d sectors moved by %lld warp requests (up to %u per sector); %lld of %lld bytes moved were "
      "asked for (%.1f %%).",
      touched, requests, max_requests, used, requests * 32,
      requests ? 100.0 * static_cast<double>(used) / (32.0 * static_cast<double>(requests)) : 0.0);
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

void draw_bottom(UiState& ui, CopySession& session, viz::HeatStrip& heat,
                 const viz::ImGuiLayer& layer, const viz::Theme& theme, ImVec2 pos, ImVec2 size) {
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

// Right end of the status bar: the keys help, UI scale and theme (presenter controls).
const char* const kScaleLabels[] = {"1\u00d7", "1.5\u00d7", "2\u00d7", "3\u00d7"};

float view_controls_x(const viz::ImGuiLayer& layer) {
  const float s = layer.scale();
  const ImGuiStyle& style = ImGui::GetStyle();
  float width = ImGui::CalcTextSize("? keys").x + ImGui::CalcTextSize("scale").x +
                ImGui::CalcTextSize("Light theme").x + 4 * style.FramePadding.x +
                4 * style.ItemSpacing.x + style.WindowPadding.x + 32 * s;
  for (const char* label : kScaleLabels)
    width += ImGui::CalcTextSize(label).x + 2 * style.FramePadding.x + style.ItemSpacing.x;
  return ImGui::GetWindowWidth() - width;
}

void draw_view_controls(UiState& ui, const viz::ImGuiLayer& layer, float x) {
  const float s = layer.scale();
  const char* const* scales = kScaleLabels;
  const float values[] = {1.0f, 1.5f, 2.0f, 3.0f};
  ImGui::SameLine(std::max(ImGui::GetCursorPosX() + 20 * s, x));
  if (ImGui::SmallButton("? keys")) ui.show_keys = !ui.show_keys;
  ImGui::SameLine(0, 16 * s);
  ImGui::TextDisabled("scale");
  for (int i = 0; i < 4; ++i) {
    ImGui::SameLine();
    const bool current = std::abs(ui.ui_scale - values[i]) < 0.01f;
    if (current)
      ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    if (ImGui::SmallButton(scales[i]) && !current) {
      ui.ui_scale = values[i];
      ui.scale_changed = true;
    }
    if (current) ImGui::PopStyleColor();
  }
  ImGui::SameLine(0, 16 * s);
  const bool dark = ui.theme == viz::ThemeName::Dark;
  if (ImGui::SmallButton(dark ? "Light theme" : "Dark theme")) {
    ui.theme = dark ? viz::ThemeName::Light : viz::ThemeName::Dark;
    ui.theme_changed = true;
  }
}

// The keyboard help overlay.
void draw_keys_help(UiState& ui, float w, float h) {
  if (!ui.show_keys) return;
  ImGui::SetNextWindowPos({w * 0.5f, h * 0.5f}, ImGuiCond_Always, {0.5f, 0.5f});
  ImGui::Begin("Keys", &ui.show_keys,
               ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoSavedSettings);
  if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg)) {
    const std::pair<const char*, const char*> rows[] = {
        {"\u2190 / \u2192", "previous / next scenario"},
        {"space", "run the measurement again"},
        {"1 \u2026 4",
         "pick a view: numbers, heatmap, offset sweep, stride sweep (global); tile, "
         "global read, global write (transpose)"},
        {"C", "A/B compare on / off (global and shared-memory labs)"},
        {"A / B", "while comparing: the panel edits side A or side B"},
        {"F11", "full screen on / off"},
        {"?", "show or hide this list"},
    };
    for (const auto& [key, what] : rows) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(key);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(what);
    }
    ImGui::EndTable();
  }
  ImGui::End();
}

// Keys a lecturer drives the window with; ignored while a text field has the keyboard.
void handle_keys(UiState& ui, CopySession& session, SharedSession& shared, CompareSlot* compare) {
  if (!ui.interactive) return;
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput || ImGui::IsAnyItemActive()) return;
  const int count = catalog_size(ui);
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow)))
    ui.pending_scenario = (ui.scenario + count - 1) % count;
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow)))
    ui.pending_scenario = (ui.scenario + 1) % count;
  for (ImWchar c : io.InputQueueCharacters) {
    CompareSide* a = ui.compare && compare ? compare->made() : nullptr;
    if (c == ' ') {
      if (ui.lab == Lab::Global) {
        session.remeasure();
        if (a) a->session.remeasure();
      } else if (ui.lab == Lab::Cache) {
        // the cache lab re-runs from its own panel
      } else {
        shared.remeasure();
        if (a) a->shared.remeasure();
      }
    } else if ((c == 'c' || c == 'C') && compare && lab_has_compare(ui.lab)) {
      if (ui.compare) {
        ui.compare = false;
      } else {
        start_compare(ui, session, shared, *compare);
      }
    } else if ((c == 'a' || c == 'A') && ui.compare) {
      ui.compare_edit_a = true;
    } else if ((c == 'b' || c == 'B') && ui.compare) {
      ui.compare_edit_a = false;
    } else if (c == '?') {
      ui.show_keys = !ui.show_keys;
    } else if (c >= '1' && c <= '4') {
      const int k = c - '1';
      if (ui.lab == Lab::Global) {
        ui.bottom = static_cast<BottomView>(k);
        ui.select_bottom = true;
      } else if (ui.lab == Lab::Transpose && k < 3) {
        for (SharedSession* side : {&shared, a ? &a->shared : nullptr}) {
          if (!side) continue;
          SharedState st = side->state();
          st.transpose_view = static_cast<TransposeView>(k);
          side->set(st);
        }
        ui.select_transpose_view = true;
      }
    }
  }
}

void draw_status(UiState& ui, const CopySession& session, const SharedSession& shared,
                 const viz::ImGuiLayer& layer, const viz::Theme& theme, ImVec2 pos, ImVec2 size,
                 const CacheSession* cache, const CacheResults* cache_results,
                 const CompareSide* a) {
  const bool cache_lab = ui.lab == Lab::Cache && cache && cache_results;
  std::string error = cache_lab               ? cache->error()
                      : ui.lab == Lab::Global ? session.error()
                                              : shared.error();
  if (a && !cache_lab) {
    // While comparing, each side's problem is named by its side.
    const std::string a_error = ui.lab == Lab::Global ? a->session.error() : a->shared.error();
    if (!error.empty()) error = "B: " + error;
    if (!a_error.empty()) error = "A: " + a_error + (error.empty() ? "" : " \u2022 " + error);
  }
  if (error.empty()) error = ui.compare_error;
  std::string text = error.empty() ? layer.font_warning() : error;
  if (text.empty() && cache_lab) text = cache_status_text(*cache, *cache_results);
  if (text.empty() && !ui.interactive) {
    // Figures: the footer names the scenario, the device that measured and the model shown.
    const auto& device = session.device().device;
    const model::HardwareModel shown =
        ui.lab == Lab::Global ? session.state().model : shared.state().model;
    text = scenario_at(ui, ui.scenario).title + " \u2022 " +
           (device ? "measured on " + device->name : std::string("model only, no GPU")) +
           " \u2022 model: " + std::string(model::describe(shown)) + " \u2022 WarpLens";
  }
  if (text.empty() && ui.lab != Lab::Global) text = shared_status_text(shared);
  if (text.empty()) {
    const auto& p = session.state().params;
    text = std::string(p.side == gpu::PatternSide::Read ? "global loads" : "global stores") +
           " of " + std::to_string(p.word_bytes) + "-byte words \u2022 " + kernel_text(p) +
           " \u2022 block " + std::to_string(p.block_threads / std::max(1, p.block_y)) + "\u00d7" +
           std::to_string(std::max(1, p.block_y)) + ", " + warps_text(session.state()) +
           " \u2022 model: " + std::string(model::describe(session.state().model));
  }
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin(
      "##status", nullptr,
      ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
  // The presenter controls sit at the right end; the text gets what is left, shortened with
  // an ellipsis rather than running under them.
  const float controls_x = ui.interactive ? view_controls_x(layer) : ImGui::GetWindowWidth();
  const float room = controls_x - ImGui::GetCursorPosX() - 16 * layer.scale();
  text = fit_text(text, room);
  if (!error.empty()) {
    ImGui::TextColored(color4(theme.warning), "%s", text.c_str());
  } else {
    ImGui::TextDisabled("%s", text.c_str());
  }
  if (error.size() > text.size() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", error.c_str());
  if (ui.interactive) draw_view_controls(ui, layer, controls_x);
  ImGui::End();
}

}  // namespace

const Scenario& scenario_at(const UiState& ui, int index) {
  const auto& builtin = builtin_scenarios();
  if (index < static_cast<int>(builtin.size())) return builtin[static_cast<std::size_t>(index)];
  return ui.loaded[static_cast<std::size_t>(index) - builtin.size()];
}

int catalog_size(const UiState& ui) {
  return static_cast<int>(builtin_scenarios().size() + ui.loaded.size());
}

void draw_scenario_picker(UiState& ui) {
  const int count = catalog_size(ui);
  const int builtin = static_cast<int>(builtin_scenarios().size());
  ImGui::TextDisabled("Scenario");
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##scenario", scenario_at(ui, ui.scenario).title.c_str(),
                        ImGuiComboFlags_HeightLarge)) {
    Lab group = Lab::Global;
    for (int i = 0; i < count; ++i) {
      const Scenario& sc = scenario_at(ui, i);
      if (i == builtin) {
        ImGui::TextDisabled("Loaded from files");
      } else if (i < builtin && (i == 0 || sc.lab != group)) {
        group = sc.lab;
        ImGui::TextDisabled("%s", lab_title(group));
      }
      ImGui::Indent();
      if (ImGui::Selectable((sc.title + "##" + std::to_string(i)).c_str(), i == ui.scenario))
        ui.pending_scenario = i;
      ImGui::Unindent();
    }
    ImGui::EndCombo();
  }
  const Scenario& current = scenario_at(ui, ui.scenario);
  if (ui.compare) {
    // A/B compare: which side the parameters below belong to.
    ImGui::Spacing();
    ImGui::TextUnformatted("Parameters of side");
    ImGui::SameLine();
    if (ImGui::RadioButton("A##edit", ui.compare_edit_a)) ui.compare_edit_a = true;
    ImGui::SameLine();
    if (ImGui::RadioButton("B##edit", !ui.compare_edit_a)) ui.compare_edit_a = false;
    ImGui::Spacing();
  }
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(current.summary.c_str());
  if (!current.look_for.empty()) ImGui::TextDisabled("Look for: %s", current.look_for.c_str());
  ImGui::PopTextWrapPos();
  if (ui.interactive) {
    // A preset file of the user's: type or paste its path, then Load (or Enter).
    char path[512];
    std::snprintf(path, sizeof path, "%s", ui.preset_path.c_str());
    ImGui::SetNextItemWidth(-ImGui::CalcTextSize("Load").x - 3 * ImGui::GetStyle().ItemSpacing.x);
    const bool enter = ImGui::InputTextWithHint("##preset", "preset file (.toml)", path,
                                                sizeof path, ImGuiInputTextFlags_EnterReturnsTrue);
    ui.preset_path = path;
    ImGui::SameLine();
    if ((ImGui::Button("Load") || enter) && !ui.preset_path.empty()) ui.preset_requested = true;
    if (!ui.preset_message.empty()) {
      ImGui::PushTextWrapPos(0);
      if (ui.preset_error) {
        ImGui::TextColored({0.85f, 0.2f, 0.1f, 1}, "%s", ui.preset_message.c_str());
      } else {
        ImGui::TextDisabled("%s", ui.preset_message.c_str());
      }
      ImGui::PopTextWrapPos();
    }
  }
  ImGui::Separator();
}

bool load_preset(UiState& ui, CopySession& session, SharedSession& shared, const std::string& path,
                 CacheSession* cache, CompareSlot* compare) {
  try {
    Scenario scenario = load_scenario_file(path);
    ui.loaded.push_back(std::move(scenario));
    ui.preset_message = "loaded " + path;
    ui.preset_error = false;
    apply_scenario(ui, session, shared, catalog_size(ui) - 1, cache, compare);
    return true;
  } catch (const ScenarioError& e) {
    ui.preset_message = e.what();
    ui.preset_error = true;
    return false;
  }
}

namespace {
// Puts a global or shared-lab scenario's parameters into one side's sessions; `model`, when
// set, replaces the scenario's own memory model.
void apply_to_side(const Scenario& scenario, CopySession& session, SharedSession& shared,
                   std::optional<model::HardwareModel> model) {
  if (scenario.lab == Lab::Global) {
    CopyState state = session.state();
    state.params = scenario.copy;
    state.warp = scenario.warp;
    state.warps = scenario.warps;
    state.model = model.value_or(scenario.copy_model);
    session.set(state);
  } else {
    SharedState state = scenario.shared;
    state.model = model.value_or(state.model);
    shared.set(state);
  }
}
}  // namespace

void apply_scenario(UiState& ui, CopySession& session, SharedSession& shared, int index,
                    CacheSession* cache, CompareSlot* compare) {
  if (index < 0 || index >= catalog_size(ui)) return;
  const Scenario& scenario = scenario_at(ui, index);
  if (scenario.lab == Lab::Cache) {
    if (!cache) return;
    ui.scenario = index;
    ui.lab = Lab::Cache;
    ui.compare = false;
    cache->set(scenario.cache);
    cache->show();
    return;
  }
  ui.scenario = index;
  ui.lab = scenario.lab;
  ui.select_transpose_view = true;
  apply_to_side(scenario, session, shared, ui.model_override);
  ui.compare = false;
  if (!scenario.compare_with.empty() && compare) {
    CompareSide& a = compare->side();
    apply_to_side(find_scenario(scenario.compare_with), a.session, a.shared, ui.model_override);
    ui.compare = true;
    ui.compare_edit_a = false;
  }
}

void start_compare(UiState& ui, CopySession& session, SharedSession& shared, CompareSlot& compare) {
  try {
    CompareSide& a = compare.side();
    a.session.set(session.state());
    a.shared.set(shared.state());
    ui.compare = true;
    ui.compare_edit_a = false;
  } catch (const std::exception& e) {
    ui.compare = false;
    ui.compare_error = std::string("A/B compare could not start: ") + e.what();
  }
}

void draw_app(UiState& ui, CopySession& session, SharedSession& shared, viz::WarpView& view,
              viz::BankView& bank_view, viz::WarpView& global_view, viz::HeatStrip& heat,
              const viz::ImGuiLayer& layer, int width, int height, CacheSession* cache,
              CompareSlot* compare) {
  const viz::Theme& theme = viz::theme(ui.theme);
  const float s = layer.scale();
  const float w = static_cast<float>(width), h = static_cast<float>(height);
  const float header_h = ImGui::GetFrameHeight() + 16 * s;
  const float status_h = ImGui::GetFrameHeight() + 8 * s;
  const float gap = 8 * s;
  const float panel_w = std::clamp(0.24f * w, 260 * s, 380 * s);
  const float body_y = header_h;
  const float body_h = h - header_h - status_h;
  const float main_x = panel_w + gap;
  const float main_w = w - main_x;
  // At presenter scales the views keep at least 70 % of the height (their grids and strips
  // are what the room reads); the numbers scroll.
  const float stats_cap = s >= 1.5f ? body_h * 0.3f : body_h;

  draw_header(ui, session, shared, layer, theme, w, header_h, cache != nullptr, compare);
  if (ui.lab == Lab::Cache && !cache) ui.lab = Lab::Global;
  // A/B compare: side A follows the shown lab; the panel edits the side picked.
  CompareSide* a = nullptr;
  if (ui.compare && compare && lab_has_compare(ui.lab)) {
    a = &compare->side();
    if (ui.lab != Lab::Global && a->shared.state().lab != ui.lab) {
      SharedState st = a->shared.state();
      st.lab = ui.lab;
      a->shared.set(st);
    }
  }
  LabSide b_side{session, shared};
  LabSide edit = a && ui.compare_edit_a ? a->side() : b_side;
  // The cache lab's measurements, copied once for this frame's panels and status line.
  std::optional<CacheResults> cache_results;
  if (ui.lab == Lab::Cache) {
    cache->show();
    cache_results = cache->measured();
    const float stats_h = body_h * 0.32f;
    draw_cache_parameters(*cache, *cache_results, theme, {0, body_y}, {panel_w, body_h},
                          ui.interactive, [&] { draw_scenario_picker(ui); });
    draw_cache_view(*cache, *cache_results, layer, theme, {main_x, body_y},
                    {main_w, body_h - stats_h - gap}, ui.interactive);
    draw_cache_numbers(*cache, *cache_results, theme, {main_x, body_y + body_h - stats_h},
                       {main_w, stats_h});
  } else if (a) {
    // Two views side by side, the comparison under them.
    const float stats_h =
        std::min({body_h * 0.36f, 9.0f * ImGui::GetFrameHeightWithSpacing() + 40 * s, stats_cap});
    const float view_h = body_h - stats_h - gap;
    const float half_w = (main_w - gap) * 0.5f;
    if (ui.lab == Lab::Global) {
      draw_parameters(ui, edit.session, layer, {0, body_y}, {panel_w, body_h});
      draw_warp_view(ui, a->session, a->view, layer, theme, {main_x, body_y}, {half_w, view_h},
                     "A");
      draw_warp_view(ui, session, view, layer, theme, {main_x + half_w + gap, body_y},
                     {half_w, view_h}, "B");
    } else {
      draw_shared_parameters(ui, edit.shared, layer, {0, body_y}, {panel_w, body_h});
      draw_shared_view(ui, a->shared, a->bank_view, a->global_view, layer, theme, {main_x, body_y},
                       {half_w, view_h}, "A");
      draw_shared_view(ui, shared, bank_view, global_view, layer, theme,
                       {main_x + half_w + gap, body_y}, {half_w, view_h}, "B");
    }
    draw_compare_numbers(ui.lab, a->side(), b_side, layer, theme,
                         {main_x, body_y + body_h - stats_h}, {main_w, stats_h});
  } else if (ui.lab == Lab::Global) {
    const float stats_h =
        ui.bottom == BottomView::Numbers
            ? std::min(
                  {body_h * 0.42f, 12.0f * ImGui::GetFrameHeightWithSpacing() + 40 * s, stats_cap})
            : body_h * 0.55f;
    draw_parameters(ui, session, layer, {0, body_y}, {panel_w, body_h});
    draw_warp_view(ui, session, view, layer, theme, {main_x, body_y},
                   {main_w, body_h - stats_h - gap});
    draw_bottom(ui, session, heat, layer, theme, {main_x, body_y + body_h - stats_h},
                {main_w, stats_h});
  } else {
    const float stats_h =
        std::min({body_h * 0.42f, 11.0f * ImGui::GetFrameHeightWithSpacing() + 24 * s, stats_cap});
    draw_shared_parameters(ui, shared, layer, {0, body_y}, {panel_w, body_h});
    draw_shared_view(ui, shared, bank_view, global_view, layer, theme, {main_x, body_y},
                     {main_w, body_h - stats_h - gap});
    draw_shared_numbers(shared, layer, theme, {main_x, body_y + body_h - stats_h},
                        {main_w, stats_h});
  }
  // The transpose views' tabs have followed the state once (both sides, when comparing).
  if (ui.lab == Lab::Transpose) ui.select_transpose_view = false;
  draw_status(ui, session, shared, layer, theme, {0, h - status_h}, {w, status_h}, cache,
              cache_results ? &*cache_results : nullptr, a);
  draw_keys_help(ui, w, h);
  handle_keys(ui, session, shared, compare);
  if (ui.pending_scenario >= 0) {
    apply_scenario(ui, session, shared, ui.pending_scenario, cache, compare);
    ui.pending_scenario = -1;
  }
  if (ui.preset_requested) {
    ui.preset_requested = false;
    load_preset(ui, session, shared, ui.preset_path, cache, compare);
  }
}

}  // namespace warplens::app
