#include "global_lab.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "global_knobs.h"
#include "global_panels.h"
#include "global_preset.h"
#include "global_scenario.h"
#include "json_support.h"
#include "knob_widgets.h"
#include "lab.h"
#include "ui_state.h"
#include "ui_widgets.h"

namespace warplens::app {

std::string field_text(const CopyState& state) {
  if (state.params.layout == gpu::StructLayout::None) return {};
  static constexpr const char* kNames[] = {"x", "y", "z"};
  return format("field %s (%d of %d)", kNames[std::clamp(state.field, 0, 2)], state.field + 1,
                gpu::kStructFields);
}

void GlobalLab::apply(const Scenario& scenario, std::optional<model::HardwareModel> model) {
  session_.set(global_state(global_scenario(scenario), model));
}

std::string GlobalLab::preset_section() const {
  return toml_text(global_preset_section(session_.state()));
}

void GlobalLab::draw_parameters(LabFrame& frame, ImVec2 pos, ImVec2 size) {
  draw_global_parameters(frame, session_, pos, size);
}

void GlobalLab::draw_knobs(LabFrame& frame) {
  (void)frame;
  CopyState st = session_.state();
  draw_strip_knobs(global_knobs(), st);
  if (!(st == session_.state())) session_.set(st);
}

void GlobalLab::draw_view(LabFrame& frame, ImVec2 pos, ImVec2 size, const char* side_name) {
  draw_global_view(frame.ui, session_, view_, frame.layer, frame.theme, pos, size, side_name);
}

float GlobalLab::numbers_height(const LabFrame& frame, float body_h, float cap) const {
  if (frame.ui.bottom != BottomView::Numbers) return body_h * 0.55f;
  return std::min(
      {body_h * 0.42f, 12.0f * ImGui::GetFrameHeightWithSpacing() + 40 * frame.layer.scale(), cap});
}

void GlobalLab::draw_numbers(LabFrame& frame, ImVec2 pos, ImVec2 size) {
  draw_global_bottom(frame.ui, session_, heat_, frame.layer, frame.theme, pos, size);
}

void GlobalLab::open_bottom_view(BottomView view, const Scenario& scenario, int sweep_word_bytes) {
  if ((view != BottomView::OffsetSweep && view != BottomView::StrideSweep) || !session_.gpu_mode())
    return;
  gpu::CopyParams base =
      scenario.lab == Lab::Global ? global_scenario(scenario).copy : gpu::CopyParams{};
  base.word_bytes = sweep_word_bytes;
  session_.start_sweep(view == BottomView::OffsetSweep ? SweepAxis::Offset : SweepAxis::Stride,
                       base);
}

bool GlobalLab::pick_view(UiState& ui, int view) {
  if (view < 0 || view > 3) return false;
  ui.bottom = static_cast<BottomView>(view);
  ui.select_bottom = true;
  return true;
}

std::string GlobalLab::status_text() const {
  const auto& p = session_.state().params;
  return std::string(p.side == gpu::PatternSide::Read ? "global loads" : "global stores") + " of " +
         std::to_string(p.word_bytes) + "-byte words \u2022 " + kernel_text(p) + " \u2022 block " +
         std::to_string(p.block_threads / std::max(1, p.block_y)) + "\u00d7" +
         std::to_string(std::max(1, p.block_y)) + ", " + warps_text(session_.state()) +
         (p.layout != gpu::StructLayout::None ? ", " + field_text(session_.state()) : "") +
         " \u2022 model: " + std::string(model::describe(session_.state().model));
}

std::string GlobalLab::source_text() const {
  if (session_.trace_source() == TraceSource::GpuKernel)
    return "trace from the GPU kernel on " + session_.device().device->name;
  return "host model only (" +
         (session_.device().reason.empty() ? session_.error() : session_.device().reason) + ")";
}

CompareColumn GlobalLab::compare_column() const {
  CompareColumn c;
  const CopyState& st = session_.state();
  c.parameters = kernel_text(st.params) + format(", %d-byte words", st.params.word_bytes);
  c.access = st.params.layout != gpu::StructLayout::None
                 ? format("load of field %c of warp %d", "xyz"[st.field], st.warp)
                 : std::string(st.params.side == gpu::PatternSide::Read ? "load" : "store") +
                       format(" of warp %d", st.warp) +
                       // A matrix's rows: the pitch the allocation gave (cudaMallocPitch's, or
                       // the width's bytes unpadded), on screen where the lesson names it.
                       (st.params.matrix_width != 0
                            ? format(", rows %lld B apart",
                                     static_cast<long long>(gpu::matrix_pitch_bytes(st.params)))
                            : std::string());
  const model::GlobalAnalysis& g = session_.predicted();
  // The unit the model shown moves: 32-byte sectors, or a historical model's transactions (Fermi's
  // caching load: 128-byte lines), in as many requests as it splits the warp into.
  const std::string moved =
      st.model == model::HardwareModel::Modern
          ? format("%zu sector%s", g.sectors.size(), g.sectors.size() == 1 ? "" : "s")
          : format("%d transaction%s", g.transactions, g.transactions == 1 ? "" : "s") +
                (g.transaction_bytes > 0 ? format(" of %d B", g.transaction_bytes) : "") +
                (g.requests > 1 ? format(" in %d requests", g.requests) : "");
  c.model = moved + ", " + percent_text(g.efficiency()) + " of the bytes moved used";
  // Several warps: what they move together (their distinct sectors) against the sum of their
  // requests, the trace's where the GPU traced them.
  if (st.params.layout == gpu::StructLayout::None && st.model == model::HardwareModel::Modern &&
      session_.predicted_totals().warps > 1) {
    const CopySession::WarpTotals& t =
        session_.traced_totals().value_or(session_.predicted_totals());
    c.more.push_back({format("warps 0\u2013%d together: the distinct sectors they touch (what L1 "
                             "and L2 move at best) of their requests' sum",
                             t.warps - 1),
                      format("%zu of %zu sectors", t.distinct_sectors, t.summed_sectors), ""});
  }
  Headline& h = c.headline;
  h.unit = "GB/s";
  h.what = "copy kernel, bytes read + written";
  const bool current = session_.measurement_current();
  c.counters_stale = !current;
  if (!session_.gpu_mode()) {
    h.note = "no GPU";
    c.counters = counters_summary(std::nullopt, false, "sectors");
    return c;
  }
  const CopySession::Measured m = session_.measured();  // one copy of the worker's results
  h.busy = m.busy;
  if (m.copy && current) h.value = m.copy->gbps;
  c.counters = counters_summary(m.counters, m.busy, "sectors", st.model);
  return c;
}

// A struct layout's lesson is its three field loads, one after another.
int GlobalLab::step_stages() const {
  return session_.state().params.layout != gpu::StructLayout::None ? gpu::kStructFields : 1;
}

int GlobalLab::step_stage() const {
  return step_stages() > 1 ? session_.state().field : 0;
}

void GlobalLab::go_to_step_stage(UiState& ui, int stage) {
  (void)ui;
  if (step_stages() == 1 || stage < 0 || stage >= step_stages()) return;
  CopyState st = session_.state();
  st.field = stage;
  session_.set(st);
}

std::string GlobalLab::step_stage_name() const {
  return step_stages() > 1 ? "load of " + field_text(session_.state()) : std::string();
}

std::optional<PredictAnswer> GlobalLab::predict_answer() const {
  PredictAnswer a;
  const CopyState& st = session_.state();
  const model::GlobalAnalysis& p = session_.predicted();
  const char* access = st.params.side == gpu::PatternSide::Read ? "load" : "store";
  if (p.transaction_bytes != model::kSectorBytes ||
      static_cast<std::size_t>(p.transactions) != p.sectors.size()) {
    // A historical model whose transactions are not the 32-byte sectors (Fermi's caching load:
    // 128-byte lines; G80: segments): the question counts what its view draws. The GPU moves
    // sectors, not this model's transactions, so it has no answer of its own here.
    const std::string size =
        p.transaction_bytes > 0 ? format("%d-byte ", p.transaction_bytes) : std::string();
    a.question = {
        format("Under the %s model, how many %stransactions does warp %d's %s move?",
               std::string(model::to_string(st.model)).c_str(), size.c_str(), st.warp, access),
        "transactions", session_.gpu_mode()};
    a.model = static_cast<double>(p.transactions);
  } else {
    a.question = {format("How many 32-byte sectors does warp %d's %s move?", st.warp, access),
                  "sectors", session_.gpu_mode()};
    a.model = static_cast<double>(p.sectors.size());
    if (session_.traced()) a.gpu = static_cast<double>(session_.traced()->sectors.size());
  }
  const CompareColumn c = compare_column();
  a.gbps = c.headline.value;
  a.gbps_what = c.headline.what;
  return a;
}

void GlobalLab::figure_numbers(nlohmann::json& j) const {
  j["model_shown"] = model::to_string(session_.state().model);
  if (session_.state().params.layout != gpu::StructLayout::None)
    j["struct_field"] = std::string(1, static_cast<char>('x' + session_.state().field));
  j["model"] = global_analysis_json(session_.predicted());
  if (session_.traced()) j["gpu_trace"] = global_analysis_json(*session_.traced());
  nlohmann::json measured = nlohmann::json::object();
  const auto m = session_.measured();
  if (m.copy && session_.measurement_current()) {
    measured["copy_gbps"] = m.copy->gbps;
    measured["copy_timing"] = timing_json(m.copy->timing);
  }
  if (m.memcpy) measured["memcpy_d2d_gbps"] = m.memcpy->gbps;
  j["measured"] = measured;
}

}  // namespace warplens::app
