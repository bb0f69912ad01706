#include "shared_ui.h"

#include <imgui.h>

#include <algorithm>
#include <string>
#include <vector>

#include "array_panel.h"
#include "bank_panel.h"
#include "knob_widgets.h"
#include "legend_slot.h"
#include "shared_kinds.h"
#include "shared_knobs.h"
#include "ui_widgets.h"
#include "view_step.h"
#include "warp_panel.h"

namespace warplens::app {

namespace {

using viz::to_imgui_color;

const char* pattern_label(SharedPatternKind kind) {
  switch (kind) {
    case SharedPatternKind::Strided: return "strided: s[offset + stride \u00d7 tid]";
    case SharedPatternKind::Tile: return "2D tile, by row or by column";
    case SharedPatternKind::Struct: return "field of a struct of N words";
    case SharedPatternKind::Interleaved: return "s[2*tid + part] (interleaved)";
    case SharedPatternKind::Blocked: return "s[tid + part*blockDim.x] (blocked)";
    case SharedPatternKind::MatmulA: return "matmul blockA[ty][k]";
    case SharedPatternKind::MatmulB: return "matmul blockB[k][tx]";
    case SharedPatternKind::Layout: return "a CuTe layout";
  }
  return "?";
}

const char* transpose_label(gpu::TransposeVariant v) {
  switch (v) {
    case gpu::TransposeVariant::Copy: return "copy (reference: tiles, no transpose)";
    case gpu::TransposeVariant::Naive: return "naive (scattered stores)";
    case gpu::TransposeVariant::Tiled: return "tiled: tile[T][T]";
    case gpu::TransposeVariant::Padded: return "padded: tile[T][T+1]";
    case gpu::TransposeVariant::Swizzled: return "swizzled: column XOR row";
    case gpu::TransposeVariant::Vectorized: return "vectorized: tile[2T][2T+1], float2";
  }
  return "?";
}

const char* reduction_label(gpu::ReductionVariant v) {
  switch (v) {
    case gpu::ReductionVariant::InterleavedDivergent: return "interleaved, tid % 2s (divergent)";
    case gpu::ReductionVariant::InterleavedStrided: return "interleaved, index 2s\u00b7tid";
    case gpu::ReductionVariant::Sequential: return "sequential addressing";
  }
  return "?";
}

}  // namespace

// --- each lab's own parameters (SharedLabBase::draw_lab_parameters) ----------------------------

void draw_bank_parameters(SharedState& state) {
  gpu::BankProbeParams& p = state.probe;
  SharedIndexParams& x = p.index;
  label("Access pattern");
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##shared-pattern", pattern_label(x.kind))) {
    for (auto k :
         {SharedPatternKind::Strided, SharedPatternKind::Tile, SharedPatternKind::Struct,
          SharedPatternKind::Interleaved, SharedPatternKind::Blocked, SharedPatternKind::Layout}) {
      if (ImGui::Selectable(pattern_label(k), x.kind == k)) {
        // The layout last written (always one the probe runs: set_bank_layout checked it).
        // The pattern knob's set (a layout pattern takes its fields from the layout text).
        find_knob(banks_knobs(), "pattern")->set(state, knob_value(k));
        if (k == SharedPatternKind::Tile && p.block_y == 1) {
          p.block_x = x.tile_width;
          p.block_y = x.tile_width;
        }
      }
    }
    ImGui::EndCombo();
  }
  label("Word size (bytes per lane)");
  radio_row<int>("word", x.word_bytes, {{1, "1"}, {2, "2"}, {4, "4"}, {8, "8"}, {16, "16"}});
  if (x.kind != SharedPatternKind::Layout) {  // a layout's offset is part of its text
    label("Offset (elements)");
    ImGui::SetNextItemWidth(-1);
    ImGui::SliderInt("##offset", &x.offset, 0, 64);
  }
  switch (x.kind) {
    case SharedPatternKind::Strided:
      label("Stride (elements; 0 = every lane on one word)");
      ImGui::SetNextItemWidth(-1);
      ImGui::SliderInt("##stride", &x.stride, 0, 64);
      break;
    case SharedPatternKind::Tile: {
      label("Tile width T (elements per row)");
      if (radio_row<int>("tile", x.tile_width, {{8, "8"}, {16, "16"}, {32, "32"}})) {
        x.pitch_elements = x.tile_width;
        p.block_x = x.tile_width;
        p.block_y = x.tile_width;
      }
      label("Row pitch (elements; T+1 pads each row)");
      ImGui::SetNextItemWidth(-1);
      ImGui::SliderInt("##pitch", &x.pitch_elements, x.tile_width, x.tile_width + 8);
      label("threadIdx.x walks");
      radio_row<bool>("by", x.by_column, {{false, "along a row"}, {true, "down a column"}});
      ImGui::Checkbox("XOR swizzle: column ^ (row % T)", &x.swizzle);
      break;
    }
    case SharedPatternKind::Struct:
      label("Words per struct");
      ImGui::SetNextItemWidth(-1);
      if (ImGui::SliderInt("##struct", &x.struct_words, 1, 8)) {
        x.field = std::min(x.field, x.struct_words - 1);
      }
      label("Field read");
      ImGui::SetNextItemWidth(-1);
      ImGui::SliderInt("##field", &x.field, 0, std::max(0, x.struct_words - 1));
      break;
    case SharedPatternKind::Layout: {
      draw_knob(*find_knob(banks_knobs(), "layout"), state);
      // The text beside the layout: its index expression and the shown warp's offsets, the
      // model's own (kept while the access stays, not parsed again every frame).
      static gpu::BankProbeParams shown;
      static int shown_warp = -1;
      static std::string index, offsets;
      if (!(shown == p) || shown_warp != state.warp) {
        shown = p;
        shown_warp = state.warp;
        index = shared_access_pattern(p, state.warp).index;
        offsets.clear();
        for (const model::LaneAccess& lane : shared_model_accesses(p, state.warp))
          if (lane.active) offsets += (offsets.empty() ? "" : " ") + std::to_string(lane.index);
      }
      ImGui::TextWrapped("index = %s", index.c_str());
      ImGui::TextDisabled("Offsets of warp %d's lanes (elements):", state.warp);
      ImGui::TextWrapped("%s", offsets.empty() ? "none (idle lanes)" : offsets.c_str());
      break;
    }
    case SharedPatternKind::Interleaved:
    case SharedPatternKind::Blocked:
      label("Which of the thread's two accesses");
      radio_row<int>("part", x.part, {{0, "first"}, {1, "second"}});
      break;
    default: break;
  }
  label("Block (threads x \u00d7 y)");
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.48f);
  ImGui::SliderInt("##bx", &p.block_x, 1, 256);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  ImGui::SliderInt("##by", &p.block_y, 1, 32);
  label("Operation");
  radio_row<gpu::SharedOp>("op", p.op,
                           {{gpu::SharedOp::Load, "load"}, {gpu::SharedOp::Store, "store"}});
  const int warps = std::max(1, (p.block_x * p.block_y + 31) / 32);
  label("Warp of the block shown");
  ImGui::SetNextItemWidth(-1);
  state.warp = std::clamp(state.warp, 0, warps - 1);
  ImGui::SliderInt("##warp", &state.warp, 0, warps - 1);
}

void draw_transpose_parameters(SharedState& state) {
  gpu::TransposeParams& t = state.transpose;
  label("Kernel shown");
  for (auto v : gpu::kTransposeVariants) {
    if (ImGui::RadioButton(transpose_label(v), t.variant == v)) t.variant = v;
  }
  if (t.variant == gpu::TransposeVariant::Vectorized) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s", vectorized_transpose_text(t).c_str());
    ImGui::PopTextWrapPos();
  }
  label("Tile T (T \u00d7 T floats per block)");
  if (radio_row<int>("tile", t.tile, {{8, "8"}, {16, "16"}, {32, "32"}})) {
    t.rows_per_block = std::min(t.rows_per_block, t.tile);
  }
  label("Rows per block (block = T \u00d7 rows threads)");
  radio_row<int>("rows", t.rows_per_block,
                 {{1, "1"}, {2, "2"}, {4, "4"}, {8, "8"}, {16, "16"}, {32, "32"}});
  label("Matrix n \u00d7 n floats");
  radio_row<int>("n", t.n, {{1024, "1024"}, {2048, "2048"}, {4096, "4096"}, {8192, "8192"}});
  label("Tile access shown");
  radio_row<bool>("show", state.transpose_read,
                  {{false, "write tile[ty][tx]"}, {true, "read tile[tx][ty]"}});
}

void draw_matmul_parameters(SharedState& state) {
  gpu::MatmulParams& m = state.matmul;
  label("Kernel shown (BLOCK_SIZE)");
  radio_row<int>("bs", m.block_size, {{0, "naive"}, {8, "8"}, {16, "16"}, {32, "32"}});
  label("Matrices n \u00d7 n floats");
  radio_row<int>("n", m.n, {{512, "512"}, {1024, "1024"}, {2048, "2048"}, {4096, "4096"}});
  label("Shared read shown");
  radio_row<bool>("operand", state.matmul_b, {{false, "blockA[ty][k]"}, {true, "blockB[k][tx]"}});
  label("Step k of the inner loop");
  ImGui::SetNextItemWidth(-1);
  ImGui::SliderInt("##k", &state.matmul_k, 0, std::max(0, m.block_size - 1));
  state.matmul_k = std::clamp(state.matmul_k, 0, std::max(0, m.block_size - 1));
}

void draw_reduction_parameters(SharedState& state) {
  gpu::ReductionParams& r = state.reduction;
  label("Kernel shown");
  for (auto v : gpu::kReductionVariants) {
    if (ImGui::RadioButton(reduction_label(v), r.variant == v)) r.variant = v;
  }
  label("Threads per block");
  radio_row<int>("bt", r.block_threads,
                 {{64, "64"}, {128, "128"}, {256, "256"}, {512, "512"}, {1024, "1024"}});
  label("Elements summed (32-bit integers)");
  int log2 = 0;
  while ((std::int64_t{1} << (log2 + 1)) <= r.elements) ++log2;
  radio_row<int>(
      "elements", log2,
      {{20, "2\u00b2\u2070"}, {22, "2\u00b2\u00b2"}, {24, "2\u00b2\u2074"}, {26, "2\u00b2\u2076"}});
  r.elements = std::int64_t{1} << log2;
  const int steps = gpu::reduction_steps(r);
  state.reduction_step = std::clamp(state.reduction_step, 0, steps - 1);
  const gpu::BankProbeParams step = gpu::reduction_step(r, state.reduction_step, false);
  // The step's s: sequential addressing halves it from threads / 2 (the step's active
  // threads), the interleaved variants double it from 1.
  const int s = r.variant == gpu::ReductionVariant::Sequential ? step.index.active_threads
                                                               : 1 << state.reduction_step;
  label(format("Step of the tree (s = %d)", s).c_str());
  ImGui::SetNextItemWidth(-1);
  ImGui::SliderInt("##step", &state.reduction_step, 0, steps - 1);
  label("Shared read shown");
  radio_row<bool>("operand", state.reduction_second, {{false, "s[i]"}, {true, "s[i + s]"}});
}

std::string shared_access_text(const SharedState& state) {
  const auto access = shown_access(state);
  if (!access) return "no shared memory";
  const SharedIndexParams& x = access->index;
  const std::string word = std::to_string(x.word_bytes) + "-byte words";
  switch (x.kind) {
    case SharedPatternKind::Tile: {
      // A lane of several words (the vectorized transpose): which of them is shown.
      const std::string x_index =
          x.lane_elements == 1 ? "tx"
                               : std::to_string(x.lane_elements) + "tx" +
                                     (x.field ? " + " + std::to_string(x.field) : std::string());
      return format("%s of tile[%d][%d]%s",
                    (x.by_column ? "column read tile[" + x_index + "][ty]"
                                 : "row access tile[ty][" + x_index + "]")
                        .c_str(),
                    x.tile_width, x.pitch_elements, x.swizzle ? ", XOR-swizzled" : "");
    }
    case SharedPatternKind::MatmulA:
      return format("blockA[ty][%d] of a %d\u00d7%d tile", x.field, x.pitch_elements,
                    x.pitch_elements);
    case SharedPatternKind::MatmulB:
      return format("blockB[%d][tx] of a %d\u00d7%d tile", x.field, x.pitch_elements,
                    x.pitch_elements);
    case SharedPatternKind::Struct:
      return format("field %d of %d-word structs, ", x.field, x.struct_words) + word;
    case SharedPatternKind::Layout:
      // The bank lab's layout as the student wrote it; a kernel's from its index.
      return "layout " + (state.probe_layout.empty() ? shared_layout_text(x) : state.probe_layout) +
             ", " + word;
    case SharedPatternKind::Interleaved: return format("s[2*tid%s], ", x.part ? " + 1" : "") + word;
    case SharedPatternKind::Blocked:
      return format("s[tid%s], ", x.part ? " + blockDim.x" : "") + word;
    case SharedPatternKind::Strided:
    default:
      if (x.stride == 0) return format("s[%d] for every lane, ", x.offset) + word;
      return "s[" + (x.offset ? std::to_string(x.offset) + " + " : std::string()) +
             (x.stride == 1 ? std::string() : std::to_string(x.stride) + "\u00d7") + "tid], " +
             word;
  }
}

std::string shared_access_caption(const SharedState& state, const gpu::BankProbeParams& access) {
  const SharedKind& kind = shared_kind(state.lab);
  return format("warp %d of a %d\u00d7%d block \u2022 ", state.warp, access.block_x,
                access.block_y) +
         shared_access_text(state) +
         (kind.picks_warp ? "" : " \u2022 " + std::string(to_string(state.lab)) + " kernel");
}

void draw_shared_parameters(LabFrame& frame, SharedSession& session, const viz::ImGuiLayer& layer,
                            ImVec2 pos, ImVec2 size,
                            const std::function<void(SharedState&)>& draw_lab_parameters) {
  (void)layer;
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin("Parameters##shared", nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoSavedSettings);
  frame.draw_scenario_picker();
  SharedState state = session.state();
  draw_lab_parameters(state);
  // Parameters just edited may be refused (set() below says why); keep the model choice of
  // the access shown until then.
  bool has_access = false;
  try {
    has_access = shown_access(state).has_value();
  } catch (const std::invalid_argument&) {
    has_access = session.access().has_value();
  }
  if (has_access) {
    label("Memory model shown");
    ImGui::SetNextItemWidth(-1);
    if (ImGui::BeginCombo("##shared-model", std::string(model::describe(state.model)).c_str())) {
      for (auto m : {model::HardwareModel::Modern, model::HardwareModel::Kepler,
                     model::HardwareModel::G80}) {
        if (ImGui::Selectable(std::string(model::describe(m)).c_str(), state.model == m))
          state.model = m;
      }
      ImGui::EndCombo();
    }
  }
  if (!(state == session.state())) {
    try {
      session.set(state);
    } catch (const std::exception&) {
      // set() reports refused parameters through error(); nothing else throws here.
    }
  }
  ImGui::Separator();
  if (const auto& access = session.access()) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("Same numbers on the command line:");
    const std::string command =
        shared_analyze_command(*access, session.state().warp, session.state().model);
    ImGui::TextUnformatted(command.c_str());
    if (session.predicted().active_lanes < 32) {
      // The expression language has no idle lanes: analyze counts every lane of the warp.
      ImGui::TextDisabled(
          "analyze runs all 32 lanes; here %d are idle, so its numbers can differ from the "
          "table.",
          32 - session.predicted().active_lanes);
    }
    ImGui::PopTextWrapPos();
  }
  if (session.gpu_mode()) {
    if (frame.ui.interactive && ImGui::Button("Re-measure")) session.remeasure();
  }
  ImGui::End();
}

void draw_shared_view(UiState& ui, SharedSession& session, viz::BankView& view,
                      viz::WarpView& global_view, const viz::ImGuiLayer& layer,
                      const viz::Theme& theme, ImVec2 pos, ImVec2 size, const char* side_name) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  const bool traced = session.traced_on_gpu();
  const std::string side = pane_title_prefix(side_name);
  const std::string kind = session.shows_global() ? "Warp view" : "Bank view";
  const std::string title =
      fitting_title(
          {side + kind +
               (session.shows_global()
                    ? (traced ? " \u2014 global addresses traced from the GPU kernel"
                              : " \u2014 global addresses from the host model")
                    : (traced ? " \u2014 shared-memory addresses traced from the GPU kernel"
                              : " \u2014 shared-memory addresses from the host model")),
           side + kind + (traced ? " \u2014 GPU trace" : " \u2014 host model"),
           side + (traced ? "GPU trace" : "host model")},
          size.x) +
      "###bank" + (side_name ? side_name : "");
  ImGui::Begin(title.c_str(), nullptr, view_window_flags(side_name));
  if (shared_kind(session.state().lab).global_views && !open_legend_slot()) {
    // Tabs: the tile's banks, the kernel's global read, its global write. (Not in the presenter
    // layout: its strip picks the view, as do keys 1-3, and the picture keeps the height.)
    SharedState st = session.state();
    if (ImGui::BeginTabBar("##transpose-views")) {
      const auto tab = [&](const char* label, TransposeView v) {
        const bool follow_state = ui.select_transpose_view || !ui.interactive;
        const ImGuiTabItemFlags flags =
            follow_state && st.transpose_view == v ? ImGuiTabItemFlags_SetSelected : 0;
        if (ImGui::BeginTabItem(label, nullptr, flags)) {
          if (!follow_state) st.transpose_view = v;
          ImGui::EndTabItem();
        }
      };
      tab("Shared tile (banks)", TransposeView::Tile);
      tab("Global read in[\u2026]", TransposeView::GlobalRead);
      tab("Global write out[\u2026]", TransposeView::GlobalWrite);
      ImGui::EndTabBar();
    }
    if (!(st == session.state())) session.set(st);
  }
  if (session.shows_global()) {
    const bool write = session.state().transpose_view == TransposeView::GlobalWrite;
    WarpPanelInfo info;
    info.slot_captions.push_back(
        format("lanes 0\u201331 of warp 0, block (0, 0): the %s %s (%s)",
               gpu::to_string(session.state().transpose.variant),
               write ? "kernel's store to out" : "kernel's load from in",
               session.traced_on_gpu() ? "traced on the GPU" : "host model"));
    info.short_slot_captions.push_back(write ? "warp 0: store to out" : "warp 0: load from in");
    info.op = write ? model::Op::Store : model::Op::Load;
    info.strip_caption =
        "bytes from the matrix base \u2022 thin rules: 32 B sectors \u2022 thick rules: 128 B "
        "lines";
    draw_warp_panel(global_view, session.global_trace(), info, layer, theme, ui.interactive);
  } else if (!session.access()) {
    ImGui::PushTextWrapPos(0);
    const char* why = shared_kind(session.state().lab).no_access_text;
    ImGui::TextUnformatted(why ? why : "No shared-memory access here.");
    ImGui::PopTextWrapPos();
  } else {
    const SharedState& st = session.state();
    const std::string caption = shared_access_caption(st, *session.access());
    const auto& analysis = session.traced() ? *session.traced() : session.predicted();
    // Side by side at presenter scales the legend would leave the grids no room; the single
    // view and the 1x compare keep it, and the presenter's A/B shows it beside the views.
    const bool legend = !side_name || layer.scale() < 1.5f || open_legend_slot();
    // A 2D tile: the tile as stored beside the grid, where the room has space for both.
    // Where the two do not fit (3x), the tile stays in the grid's place, with the grid's count;
    // an A/B pane keeps its grid (the two grids side by side are that lesson; key T shows the
    // tiles).
    const SharedIndexParams& index = session.access()->index;
    ArrayGeometry tile;
    std::string count;
    if (tile_view_applies(index)) {
      tile = tile_geometry(index, analysis.bank_count, analysis.bank_width_bytes);
      count = tile_count_text(analysis.wavefronts, analysis.min_wavefronts, answer_hidden());
    }
    const ArrayPlacement array =
        tile_view_applies(index)
            ? begin_array_view(ui, session.trace(), tile, layer, theme, 360, !side_name, count)
            : ArrayPlacement::None;
    if (array != ArrayPlacement::Alone)
      draw_bank_view(view, session.trace(), analysis, layer, theme, ui.interactive, caption.c_str(),
                     legend);
    if (array == ArrayPlacement::Beside) end_array_beside();
  }
  ImGui::End();
}

std::string shared_status_text(const SharedSession& session) {
  const SharedState& st = session.state();
  return std::string(to_string(st.lab)) + " lab \u2022 " + shared_access_text(st) +
         " \u2022 model: " + std::string(model::describe(st.model));
}

}  // namespace warplens::app
