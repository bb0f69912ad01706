// The own-kernel lab's view, numbers, knobs, key numbers and status line (kernel_ui.h). The
// editor is kernel_ui_editor.cpp.
#include "kernel_ui.h"

#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cmath>

#include "array_panel.h"
#include "bank_panel.h"
#include "lab_panel.h"
#include "legend_slot.h"
#include "ui_widgets.h"
#include "warp_panel.h"

namespace warplens::app {

namespace {

// The tile as the program declares it, tile[rows][st.tile_row] of 4-byte words (its element 0
// at byte 0 of the traced addresses, as the kernel's trace records tile indices), on the
// model's banks.
ArrayGeometry kernel_tile_geometry(const KernelState& st, int banks, int bank_width_bytes) {
  ArrayGeometry g;
  g.name = "tile";
  g.pitch_elements = st.tile_row;
  g.width_elements = st.tile_row;
  g.element_bytes = 4;
  g.min_rows = static_cast<int>(
      std::min<std::int64_t>(kArrayMaxRows, st.program.tile.elements / st.tile_row));
  g.banks = std::max(1, banks);
  g.bank_width_bytes = std::max(1, bank_width_bytes);
  return g;
}

/// The constants `row`'s index names, with their values: ", s = 4" for tile[2*s*tx] (the 8-way
/// conflict is worked out from the screen); empty where it names none.
std::string constants_text(const gpu::KernelProgram& program, const gpu::KernelRow& row) {
  std::string values;
  const auto word = [&](std::size_t i) {
    return i < row.index.size() &&
           (std::isalnum(static_cast<unsigned char>(row.index[i])) || row.index[i] == '_');
  };
  for (const auto& c : program.constants)
    for (std::size_t at = row.index.find(c.name); at != std::string::npos;
         at = row.index.find(c.name, at + 1))
      if (!(at > 0 && word(at - 1)) && !word(at + c.name.size())) {
        values += format(", %s = %lld", c.name.c_str(), static_cast<long long>(c.value));
        break;
      }
  return values;
}

constexpr const char* kDash = "\u2014";

// The four kinds of access the launch's totals and the counters count, in the numbers table's
// order: the model's totals and the counters' requests and cost of each, in one place.
struct OpKind {
  const char* name;  // "global loads"
  const char* unit;  // "sectors" or "wavefronts"
  gpu::KernelOpTotals gpu::KernelTotals::*model;
  double LaunchCounters::*requests;
  double LaunchCounters::*cost;
  bool shared_store;  // Hopper's counter reads high under load (counters_agree)
};
constexpr OpKind kOpKinds[] = {
    {"global loads", "sectors", &gpu::KernelTotals::global_load,
     &LaunchCounters::global_load_requests, &LaunchCounters::global_load_sectors, false},
    {"global stores", "sectors", &gpu::KernelTotals::global_store,
     &LaunchCounters::global_store_requests, &LaunchCounters::global_store_sectors, false},
    {"shared loads", "wavefronts", &gpu::KernelTotals::shared_load,
     &LaunchCounters::shared_load_instructions, &LaunchCounters::shared_load_wavefronts, false},
    {"shared stores", "wavefronts", &gpu::KernelTotals::shared_store,
     &LaunchCounters::shared_store_instructions, &LaunchCounters::shared_store_wavefronts, true},
};

const OpKind& op_kind_of(const gpu::KernelRow& row) {
  const bool store = row.op == model::Op::Store;
  return kOpKinds[(row.space == gpu::KernelSpace::Tile ? 2 : 0) + (store ? 1 : 0)];
}

const gpu::KernelRow& shown_row(const KernelState& st) {
  return st.program.rows.at(static_cast<std::size_t>(st.step));
}

// The GPU trace's verdict of the shown row, when the run is of the current program.
const gpu::KernelRowModel* traced_row(const KernelSession& session, const KernelResults& r) {
  if (!session.run_current(r)) return nullptr;
  const auto& traced = r.run->traced;
  const auto step = static_cast<std::size_t>(session.state().step);
  return step < traced.size() ? &traced[step] : nullptr;
}

std::string plural(int n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// The step control: ◀, "access k of N" as a slider, ▶.
void step_control(KernelSession& session, float scale, float width) {
  KernelState st = session.state();
  const int rows = static_cast<int>(st.program.rows.size());
  if (ImGui::ArrowButton("##step-back", ImGuiDir_Left) && st.step > 0) --st.step;
  ImGui::SameLine(0, 4 * scale);
  const float arrow = ImGui::GetFrameHeight();
  ImGui::SetNextItemWidth(std::max(width - 2 * arrow - 8 * scale, 40 * scale));
  int k = st.step + 1;
  const std::string text = format("access %d of %d", k, rows);
  if (rows > 1 && slider_int_thin("##step", k, 1, rows, text)) st.step = k - 1;
  if (rows <= 1)
    ImGui::Button(text.c_str(), {std::max(width - 2 * arrow - 8 * scale, 60 * scale), 0});
  ImGui::SameLine(0, 4 * scale);
  if (ImGui::ArrowButton("##step-next", ImGuiDir_Right) && st.step + 1 < rows) ++st.step;
  if (!(st == session.state())) session.set(st);
}

void draw_source(const KernelSession& session, const KernelResults& r, const viz::ImGuiLayer& layer,
                 const viz::Theme& theme, bool interactive) {
  if (!r.compile_log.empty() && !session.run_current(r)) {
    ImGui::PushStyleColor(ImGuiCol_Text, color4(theme.warning));
    ImGui::TextWrapped("NVRTC refused this source:");
    ImGui::PopStyleColor();
    ImGui::PushFont(layer.fonts().mono);
    ImGui::TextWrapped("%s", r.compile_log.c_str());
    ImGui::PopFont();
  }
  if (interactive) {
    if (ImGui::SmallButton("Copy the source")) ImGui::SetClipboardText(session.source().c_str());
    ImGui::SameLine();
  }
  ImGui::TextDisabled(
      "%s",
      session.gpu_mode()
          ? (session.run_current(r)
                 ? ("what ran on the GPU, compiled by NVRTC for " + r.run->architecture).c_str()
                 : "compiling\u2026")
          : "generated only: nothing was compiled or run (no GPU)");
  ImGui::PushFont(layer.fonts().mono);
  // Read-only and selectable: a student copies parts of it.
  std::string text = session.source();
  ImGui::InputTextMultiline("##source", text.data(), text.size() + 1,
                            ImGui::GetContentRegionAvail(), ImGuiInputTextFlags_ReadOnly);
  ImGui::PopFont();
}

void draw_access(KernelSession& session, const KernelResults& r, viz::WarpView& warp,
                 viz::BankView& bank, const viz::ImGuiLayer& layer, const viz::Theme& theme,
                 UiState& ui, const char* side_name) {
  const bool interactive = ui.interactive;
  const KernelState& st = session.state();
  const gpu::KernelRow& row = shown_row(st);
  const gpu::KernelRowModel& model = session.rows_model().at(static_cast<std::size_t>(st.step));
  const gpu::KernelRowModel* traced = traced_row(session, r);
  // The presenter layout shows the access in the strip and its cost in the key numbers: the view
  // keeps its room for the picture.
  // So does each side of A/B compare, whose table carries the access and its cost.
  const bool presenter = open_legend_slot() != nullptr;
  const bool compact = presenter || side_name != nullptr;
  if (!compact) {
    ImGui::PushFont(layer.fonts().bold);
    ImGui::TextWrapped("%s", kernel_access_title(st).c_str());
    ImGui::PopFont();
  }
  std::string verdict = "model: " + kernel_row_cost_text(model);
  if (traced) {
    const bool agree = traced->cost() == model.cost();
    verdict +=
        format(" \u2022 GPU trace: %d %s", traced->cost(), agree ? "\u2713" : "\u2717 differs");
  } else {
    verdict +=
        session.gpu_mode() ? " \u2022 GPU trace: running\u2026" : " \u2022 no GPU: host model";
  }
  if (!compact) ImGui::TextWrapped("%s", verdict.c_str());
  // Out of range: this warp's lanes, else the grid's (the GPU counted them over the launch).
  const std::int64_t grid_out =
      session.run_current(r) && static_cast<std::size_t>(st.step) < r.run->out_of_range.size()
          ? r.run->out_of_range[static_cast<std::size_t>(st.step)]
          : 0;
  if (model.out_of_range_lanes > 0 || grid_out > 0) {
    ImGui::PushStyleColor(ImGuiCol_Text, color4(theme.warning));
    if (model.out_of_range_lanes > 0)
      ImGui::TextWrapped(
          "%s of this warp index outside %s: they skip the access (out of range%s).",
          plural(model.out_of_range_lanes, "lane", "lanes").c_str(), gpu::to_string(row.space),
          grid_out > 0 ? (", " + with_thousands(grid_out) + " over the grid").c_str() : "");
    else
      ImGui::TextWrapped("%s lanes of other warps index outside %s and skip this access.",
                         with_thousands(grid_out).c_str(), gpu::to_string(row.space));
    ImGui::PopStyleColor();
  }
  const std::string source = session.traced_on_gpu() ? "traced on the GPU" : "host model";
  const std::string block = format("block (%d, %d)", st.traced.block_x, st.traced.block_y);
  if (row.space == gpu::KernelSpace::Tile) {
    const auto& analysis = traced && traced->shared ? *traced->shared : *model.shared;
    const std::string caption =
        compact
            ? format("access %d: %s \u2022 %s", st.step + 1, row_text(row).c_str(), source.c_str())
            : format("warp %d of %s \u2022 tile %s \u2022 %s", st.traced.warp, block.c_str(),
                     row.op == model::Op::Store ? "store" : "load", source.c_str());
    const bool legend = !side_name || layer.scale() < 1.5f || open_legend_slot();
    // The tile as stored beside its banks, where the program says how it is laid out
    // (tile_row): a column read of tile[32][32] is one tint, of tile[32][33] a diagonal. Where
    // the two do not fit (3x), the tile keeps the count in the banks' place (key T: the banks);
    // an A/B pane keeps its banks, as the bank lab's does.
    // (The full layout's view on a short window: the banks alone, which then stack a bank's
    // words in one cell where the tile beside them would leave cells too narrow and elide rows.)
    const bool room = open_legend_slot() || ImGui::GetContentRegionAvail().y >= 400 * layer.scale();
    // (The session holds only a tile_row check_tile_row accepts.)
    const ArrayPlacement array =
        room && st.tile_row > 0
            ? begin_array_view(
                  ui, session.trace(),
                  kernel_tile_geometry(st, analysis.bank_count, analysis.bank_width_bytes), layer,
                  theme, 360, !side_name,
                  tile_count_text(analysis.wavefronts, analysis.min_wavefronts, false))
            : ArrayPlacement::None;
    if (array != ArrayPlacement::Alone)
      draw_bank_view(bank, session.trace(), analysis, layer, theme, interactive, caption.c_str(),
                     legend);
    if (array == ArrayPlacement::Beside) end_array_beside();
    return;
  }
  WarpPanelInfo info;
  info.first_warp = st.traced.warp;
  info.slot_captions.push_back(format("lanes 0\u201331 of warp %d, %s: %s %s (%s)", st.traced.warp,
                                      block.c_str(),
                                      row.op == model::Op::Store ? "store to" : "load from",
                                      gpu::to_string(row.space), source.c_str()));
  info.short_slot_captions.push_back(format("warp %d: %s %s", st.traced.warp,
                                            row.op == model::Op::Store ? "store to" : "load from",
                                            gpu::to_string(row.space)));
  info.model = st.model;
  info.op = row.op;
  const model::GlobalAnalysis& analysis =
      traced && traced->global ? *traced->global : *model.global;
  info.analysis = &analysis;
  info.strip_caption =
      row.space == gpu::KernelSpace::In
          ? "bytes from the base of in \u2022 thin rules: 32 B sectors \u2022 thick rules: 128 B "
            "lines"
          : "bytes from the base of out \u2022 thin rules: 32 B sectors \u2022 thick rules: 128 B "
            "lines";
  draw_warp_panel(warp, session.trace(), info, layer, theme, interactive);
}

}  // namespace

std::string kernel_access_title(const KernelState& st) {
  const gpu::KernelRow& row = shown_row(st);
  return format("access %d of %zu: ", st.step + 1, st.program.rows.size()) + row_text(row) +
         constants_text(st.program, row) + (row.sync_after ? ", then __syncthreads()" : "") +
         (row.layout.empty() ? "" : " \u2190 CuTe layout " + row.layout);
}

std::string kernel_row_cost_text(const gpu::KernelRowModel& row) {
  const int cost = row.cost();
  if (row.global && row.global->active_lanes == 0) return "no lane in range: no request";
  if (row.shared && row.shared->active_lanes == 0) return "no lane in range: no request";
  std::string text = row.global ? plural(cost, "sector", "sectors") + " per request"
                                : plural(cost, "wavefront", "wavefronts") + " per request";
  if (row.global)
    text += format(" (%.0f\u00a0%% of the bytes moved are used)", 100 * row.global->efficiency());
  else if (row.shared && row.shared->wavefronts > row.shared->min_wavefronts)
    text += format(" (%d-way conflict)", row.shared->min_wavefronts
                                             ? row.shared->wavefronts / row.shared->min_wavefronts
                                             : row.shared->wavefronts);
  return text;
}

void draw_kernel_view(KernelSession& session, const KernelResults& r, viz::WarpView& warp,
                      viz::BankView& bank, const viz::ImGuiLayer& layer, const viz::Theme& theme,
                      ImVec2 pos, ImVec2 size, UiState& ui, const char* side_name) {
  const bool interactive = ui.interactive;
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  // A/B: each side's title names the access it shows (its CuTe layout where the row has one),
  // as much of it as the title bar holds, so that two sides of the same lab tell themselves
  // apart.
  const gpu::KernelRow& shown = shown_row(session.state());
  std::string title = "Your kernel##kernel-view";
  if (side_name) {
    const std::string side = std::string(side_name) + ": ";
    const std::string access = shown.layout.empty() ? row_text(shown) : shown.layout;
    title = fitting_title({side + (shown.layout.empty() ? "" : "CuTe layout ") + access,
                           side + access, side + "Your kernel"},
                          size.x) +
            "##kernel-view-" + side_name;
  }
  ImGui::Begin(title.c_str(), nullptr,
               kPanelFlags | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse |
                   (open_legend_slot() && !side_name ? ImGuiWindowFlags_NoTitleBar : 0));
  const float s = layer.scale();
  if (open_legend_slot()) {
    // Presenter: the strip holds the step control and keys 1 / 2 pick the section; A/B's two
    // views keep their title bars, which name the sides.
    if (session.state().section == KernelSection::Access)
      draw_access(session, r, warp, bank, layer, theme, ui, side_name);
    else
      draw_source(session, r, layer, theme, interactive);
    ImGui::End();
    return;
  }
  KernelState st = session.state();
  const float button_w =
      ImGui::CalcTextSize("Source").x + 2 * ImGui::GetStyle().FramePadding.x + 12 * s;
  if (section_button("Access", st.section == KernelSection::Access, button_w))
    st.section = KernelSection::Access;
  ImGui::SameLine();
  if (section_button("Source", st.section == KernelSection::Source, button_w))
    st.section = KernelSection::Source;
  if (!(st == session.state())) session.set(st);
  if (session.state().section == KernelSection::Access) {
    ImGui::SameLine(0, 16 * s);
    step_control(session, s, ImGui::GetContentRegionAvail().x);
    draw_access(session, r, warp, bank, layer, theme, ui, side_name);
  } else {
    draw_source(session, r, layer, theme, interactive);
  }
  ImGui::End();
}

void draw_kernel_numbers(const KernelSession& session, const KernelResults& r,
                         const viz::Theme& theme, ImVec2 pos, ImVec2 size, float scale) {
  (void)scale;
  (void)theme;
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin("Numbers##kernel", nullptr, kPanelFlags);
  const KernelState& st = session.state();
  const bool current = session.run_current(r);
  const ImGuiTableFlags flags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
  // Left: each row of the traced warp, model beside the GPU's trace.
  ImGui::BeginGroup();
  if (ImGui::BeginTable("kernel-rows", 4, flags)) {
    ImGui::TableSetupColumn("access");
    ImGui::TableSetupColumn("model, per request");
    ImGui::TableSetupColumn("GPU trace");
    ImGui::TableSetupColumn("out of range");
    ImGui::TableHeadersRow();
    for (std::size_t i = 0; i < st.program.rows.size(); ++i) {
      const gpu::KernelRowModel& m = session.rows_model()[i];
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      // The shown access carries an arrow.
      const bool shown = static_cast<int>(i) == st.step;
      const gpu::KernelRow& row = st.program.rows[i];
      ImGui::Text("%s%zu %s %s", shown ? "\u2192 " : "", i + 1,
                  std::string(model::to_string(row.op)).c_str(), gpu::to_string(row.space));
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s%s%s", row_text(row).c_str(), row.layout.empty() ? "" : "\n",
                          row_layout_text(row).c_str());
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(
          plural(m.cost(), m.global ? "sector" : "wavefront", m.global ? "sectors" : "wavefronts")
              .c_str());
      ImGui::TableSetColumnIndex(2);
      if (current && i < r.run->traced.size()) {
        const int t = r.run->traced[i].cost();
        ImGui::Text("%d %s", t, t == m.cost() ? "\u2713" : "\u2717");
      } else {
        ImGui::TextDisabled("%s", kDash);
      }
      ImGui::TableSetColumnIndex(3);
      if (current && i < r.run->out_of_range.size())
        ImGui::Text("%s", with_thousands(r.run->out_of_range[i]).c_str());
      else
        ImGui::TextDisabled("%s", kDash);
    }
    ImGui::EndTable();
  }
  ImGui::EndGroup();
  ImGui::SameLine();
  // Right: the launch's totals beside the counters, then time and GB/s.
  ImGui::BeginGroup();
  const gpu::KernelTotals& t = session.totals();
  const std::optional<LaunchCounters>& c = current ? r.counters : std::nullopt;
  if (ImGui::BeginTable("kernel-totals", 3, flags)) {
    ImGui::TableSetupColumn("whole launch");
    ImGui::TableSetupColumn(t.exact ? "model" : "model (sampled)");
    ImGui::TableSetupColumn("counters");
    ImGui::TableHeadersRow();
    const auto total_row = [&](const char* what, const gpu::KernelOpTotals& m,
                               std::optional<double> req, std::optional<double> cost,
                               const char* unit, bool shared_store = false) {
      if (m.requests == 0 && (!req || *req == 0)) return;
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextUnformatted(what);
      ImGui::TableSetColumnIndex(1);
      ImGui::Text("%.2f %s/req", m.per_request(), unit);
      ImGui::TableSetColumnIndex(2);
      if (req && cost && *req > 0) {
        const double per = *cost / *req;
        const bool agree = counters_agree(m.per_request(), per, shared_store);
        ImGui::Text("%.2f %s", per, agree ? "\u2713" : "\u2717");
        if (ImGui::IsItemHovered())
          ImGui::SetTooltip("%.0f requests, %.0f %s over the launch (model %.0f, %.0f)%s", *req,
                            *cost, unit, m.requests, m.cost,
                            shared_store ? "\nHopper counts shared-store wavefronts up to 1.5 "
                                           "per request high under load"
                                         : "");
      } else {
        ImGui::TextDisabled("%s", kDash);
      }
    };
    const auto opt = [&](double LaunchCounters::*f) -> std::optional<double> {
      if (!c) return std::nullopt;
      return (*c).*f;
    };
    for (const OpKind& k : kOpKinds) {
      const bool starred = k.shared_store && t.tile_clear.requests > 0;
      total_row(starred ? "shared stores*" : k.name, t.*k.model, opt(k.requests), opt(k.cost),
                k.unit, k.shared_store);
    }
    ImGui::EndTable();
  }
  if (t.tile_clear.requests > 0)
    ImGui::TextWrapped("* with the tile's clearing before row 1: %s stores of 16 B",
                       with_thousands(static_cast<std::int64_t>(t.tile_clear.requests)).c_str());
  if (current && !r.counters && !r.counters_unavailable.empty())
    ImGui::TextDisabled("counters: %s", r.counters_unavailable.c_str());
  const double reference = r.reference ? r.reference->gbps : kAssumedCopyGbps;
  const std::int64_t requested =
      current ? r.run->requested_bytes : gpu::requested_global_bytes(st.program, {});
  const double predicted = predicted_gbps(t, requested, reference);
  if (current) {
    ImGui::Text("measured: %.0f GB/s (%.3f ms median of %d) %s", r.run->gbps,
                r.run->timing.median_ms, r.run->timing.runs,
                r.run->verified  ? "\u2713 out verified"
                : r.run->checked ? "\u2717 WRONG"
                                 : "");
    if (!r.run->checked) {
      ImGui::TextDisabled("out not checked: the grid is past what the host simulates");
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r.run->check.c_str());
    }
  } else {
    ImGui::TextDisabled("measured: %s", session.gpu_mode() ? "running\u2026" : "needs a GPU");
  }
  ImGui::TextWrapped(
      "bandwidth model, DRAM sectors only (no latency, barriers or bank conflicts): %.0f GB/s "
      "= cudaMemcpy's %.0f%s \u00d7 bytes asked / bytes of the sectors moved",
      predicted, reference, r.reference ? "" : " (assumed)");
  ImGui::EndGroup();
  ImGui::End();
}

void draw_kernel_knobs(KernelSession& session, float scale) {
  step_control(session, scale,
               ImGui::CalcTextSize("access 8 of 8").x + 2 * ImGui::GetFrameHeight() + 16 * scale);
}

std::vector<KeyNumber> kernel_key_numbers(const KernelSession& session, const KernelResults& r) {
  const KernelState& st = session.state();
  const gpu::KernelRowModel& m = session.rows_model().at(static_cast<std::size_t>(st.step));
  std::vector<KeyNumber> k;
  const gpu::KernelRowModel* traced = traced_row(session, r);
  // Model only: "model" in the label, not a line of its own (a short projector column).
  const bool model_only = !traced && !session.gpu_mode();
  k.push_back(
      {format("access %d of %zu, per request%s", st.step + 1, st.program.rows.size(),
              model_only ? " (model)" : ""),
       plural(m.cost(), m.global ? "sector" : "wavefront", m.global ? "sectors" : "wavefronts"),
       traced       ? format("GPU trace: %d %s", traced->cost(),
                       traced->cost() == m.cost() ? "\u2713" : "\u2717")
       : model_only ? std::string()
                    : std::string("GPU trace: running\u2026")});
  // The rows themselves: the presenter layout has no editor, and "edit the rows" must point at
  // something on screen. The access shown is marked.
  std::string rows;
  for (std::size_t i = 0; i < st.program.rows.size(); ++i)
    rows +=
        format("%s%s %zu  %s", i ? "\n" : "", static_cast<int>(i) == st.step ? "\u2192" : "  ",
               i + 1, row_text(st.program.rows[i]).c_str()) +
        (st.program.rows[i].layout.empty() ? "" : "\n     " + row_layout_text(st.program.rows[i]));
  // Their constants' values (tile[2*s*tx]: s = 4 makes the 8-way conflict).
  for (std::size_t i = 0; i < st.program.constants.size(); ++i)
    rows += format("%s%s = %lld", i ? ", " : "\n   where ", st.program.constants[i].name.c_str(),
                   static_cast<long long>(st.program.constants[i].value));
  k.push_back({"your rows (key P: the panel edits them)", "", rows});
  const Headline h = kernel_headline(session, r);
  k.push_back(
      {h.note.empty() ? "whole kernel: read + write asked by the rows" : "whole kernel",
       h.value ? format("%.0f GB/s", *h.value) : std::string(h.busy ? "measuring\u2026" : kDash),
       h.note});
  return k;
}

std::string kernel_status_text(const KernelSession& session, const KernelResults& r) {
  const std::string device = session.gpu_mode()
                                 ? session.device().device->name + ", NVRTC " + gpu::nvrtc_version()
                                 : std::string("nothing compiled");
  return sectioned_status_text("your kernel", to_string(session.state().section), device,
                               session.gpu_mode(), r.busy, r.status);
}

std::string kernel_counters_summary(const KernelSession& session, const KernelResults& r) {
  if (!session.run_current(r)) return r.busy ? "reading\u2026" : kDash;
  if (!r.counters) return r.counters_unavailable.empty() ? kDash : r.counters_unavailable;
  const OpKind& k = op_kind_of(shown_row(session.state()));
  const LaunchCounters& c = *r.counters;
  const gpu::KernelOpTotals& m = session.totals().*k.model;
  const double req = c.*k.requests, cost = c.*k.cost;
  if (req <= 0) return std::string(k.name) + ": none counted";
  const double per = cost / req;
  const bool agree = counters_agree(m.per_request(), per, k.shared_store);
  return format("%s %.2f per request (model %.2f) %s", k.name, per, m.per_request(),
                agree ? "\u2713" : "\u2717");
}

Headline kernel_headline(const KernelSession& session, const KernelResults& r) {
  Headline h;
  h.unit = "GB/s";
  h.what = format("your kernel, %zu row%s, read + write", session.state().program.rows.size(),
                  session.state().program.rows.size() == 1 ? "" : "s");
  if (session.run_current(r)) {
    h.value = r.run->gbps;
    if (r.run->checked && !r.run->verified) h.note = "WRONG RESULT";
  }
  h.busy = r.busy;
  if (!session.gpu_mode()) h.note = "no GPU";
  return h;
}

}  // namespace warplens::app
