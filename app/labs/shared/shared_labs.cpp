#include "shared_labs.h"

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>
#include <vector>

#include "json_support.h"
#include "knob_widgets.h"
#include "lab.h"
#include "shared_kinds.h"
#include "shared_preset.h"
#include "shared_scenario.h"
#include "shared_ui.h"
#include "ui_state.h"
#include "ui_widgets.h"

namespace warplens::app {

// --- what the four labs share ------------------------------------------------------------------

SharedLabBase::SharedLabBase(Lab lab, bool use_gpu)
    : SessionLab(bank_view_, global_view_, use_gpu, lab) {}

void SharedLabBase::apply(const Scenario& scenario, std::optional<model::HardwareModel> model) {
  SharedState state = shared_scenario(scenario);
  state.model = model.value_or(state.model);
  session_.set(state);
}

std::string SharedLabBase::preset_section() const {
  return toml_text(shared_preset_section(session_.state()));
}

void SharedLabBase::draw_parameters(LabFrame& frame, ImVec2 pos, ImVec2 size) {
  draw_shared_parameters(frame, session_, frame.layer, pos, size,
                         [this](SharedState& state) { draw_lab_parameters(state); });
}

void SharedLabBase::draw_knobs(LabFrame& frame) {
  // The one or two knobs the lab's scenarios turn (their `strip` in shared_knobs.cpp).
  (void)frame;
  SharedState st = session_.state();
  draw_strip_knobs(shared_kind(st.lab).knobs(), st);
  if (!(st == session_.state())) session_.set(st);
}

void SharedLabBase::draw_view(LabFrame& frame, ImVec2 pos, ImVec2 size, const char* side_name) {
  draw_shared_view(frame.ui, session_, bank_view_, global_view_, frame.layer, frame.theme, pos,
                   size, side_name);
}

float SharedLabBase::numbers_height(const LabFrame& frame, float body_h, float cap) const {
  return std::min(
      {body_h * 0.42f, 11.0f * ImGui::GetFrameHeightWithSpacing() + 24 * frame.layer.scale(), cap});
}

void SharedLabBase::draw_numbers(LabFrame& frame, ImVec2 pos, ImVec2 size) {
  draw_shared_numbers(session_, frame.layer, frame.theme, pos, size);
}

std::string SharedLabBase::status_text() const {
  return shared_status_text(session_);
}

std::string SharedLabBase::source_text() const {
  if (session_.traced_on_gpu())
    return "bank trace from the GPU kernel on " + session_.device().device->name;
  return "host model only (" +
         (session_.device().reason.empty() ? session_.error() : session_.device().reason) + ")";
}

CompareColumn SharedLabBase::compare_column() const {
  CompareColumn c;
  c.parameters = parameters_text();
  const SharedState& st = session_.state();
  if (session_.shows_global()) {
    c.access = st.transpose_view == TransposeView::GlobalWrite ? "global write out[\u2026]"
                                                               : "global read in[\u2026]";
    const model::GlobalAnalysis& g = session_.global_predicted();
    c.model = format("%zu sector%s, %s of the bytes moved used", g.sectors.size(),
                     g.sectors.size() == 1 ? "" : "s", percent_text(g.efficiency()).c_str());
  } else {
    try {
      c.access = shared_access_text(st);
    } catch (const std::invalid_argument& e) {
      c.access = e.what();
    }
    if (!session_.access()) {
      c.model = "no shared memory";
    } else {
      const model::SharedAnalysis& a = session_.predicted();
      c.model = shared_cost_text(a);
    }
  }
  c.counters_stale = !session_.counters_current();
  const SharedSession::Measured m =
      session_.gpu_mode() ? session_.measured() : SharedSession::Measured{};
  c.counters =
      counters_summary(m.counters, m.busy, session_.shows_global() ? "sectors" : "wavefronts",
                       session_.shows_global() ? model::HardwareModel::Modern : st.model);
  c.headline = headline(m, session_.measurement_current());
  c.headline.busy = m.busy;
  if (!session_.gpu_mode()) c.headline.note = "no GPU";
  return c;
}

std::optional<PredictAnswer> SharedLabBase::predict_answer() const {
  PredictAnswer a;
  a.question.ask_gbps = session_.gpu_mode();
  if (session_.shows_global()) {
    a.question.text = "How many 32-byte sectors does this warp's global access move?";
    a.question.unit = "sectors";
    a.model = static_cast<double>(session_.global_predicted().sectors.size());
    if (session_.global_traced())
      a.gpu = static_cast<double>(session_.global_traced()->sectors.size());
  } else {
    if (!session_.access()) return std::nullopt;
    a.question.text = "How many wavefronts does this warp's shared-memory request take?";
    a.question.unit = "wavefronts";
    a.model = session_.predicted().wavefronts;
    if (session_.traced()) a.gpu = session_.traced()->wavefronts;
  }
  const CompareColumn c = compare_column();
  a.gbps = c.headline.value;
  a.gbps_what = c.headline.what;
  return a;
}

void SharedLabBase::figure_numbers(nlohmann::json& j) const {
  j["model_shown"] = model::to_string(session_.state().model);
  if (session_.shows_global()) {
    j["model"] = global_analysis_json(session_.global_predicted());
    if (session_.global_traced()) j["gpu_trace"] = global_analysis_json(*session_.global_traced());
  } else if (session_.access()) {
    j["model"] = shared_analysis_json(session_.predicted());
    if (session_.traced()) j["gpu_trace"] = shared_analysis_json(*session_.traced());
  }
  nlohmann::json measured = nlohmann::json::object();
  const auto m = session_.measured();
  if (session_.measurement_current()) {
    if (m.bank) {
      measured["cycles_per_request"] = m.bank->cycles_per_request;
      measured["gbps"] = m.bank->gbps;
      measured["bytes_per_clock_per_sm"] = m.bank->bytes_per_clock_per_sm;
      measured["fraction_of_128_bytes_per_clock"] = m.bank->fraction_of_limit;
      measured["sm_clock_mhz"] = m.bank->sm_clock_mhz;
    }
    for (const auto& t : m.transpose)
      measured["transpose"].push_back({{"variant", gpu::to_string(t.params.variant)},
                                       {"gbps", t.gbps},
                                       {"verified", t.verified},
                                       {"timing", timing_json(t.timing)}});
    for (const auto& r : m.matmul)
      measured["matmul"].push_back({{"block_size", r.params.block_size},
                                    {"gflops", r.gflops},
                                    {"verified", r.verified},
                                    {"timing", timing_json(r.timing)}});
    for (const auto& r : m.reduction)
      measured["reduction"].push_back({{"variant", gpu::to_string(r.params.variant)},
                                       {"gbps", r.gbps},
                                       {"verified", r.verified},
                                       {"timing", timing_json(r.timing)}});
  }
  j["measured"] = measured;
}

namespace {

/// The headline of the measured variant that matches the state, from one lab's result list.
template <typename Result, typename Matches, typename Value>
Headline variant_headline(Headline h, const std::vector<Result>& results, bool current,
                          Matches matches, Value value) {
  for (const auto& r : results) {
    if (current && matches(r)) {
      h.value = value(r);
      if (!r.verified) h.note = "WRONG RESULT";
    }
  }
  return h;
}

}  // namespace

// --- bank lab ----------------------------------------------------------------------------------

std::string BankLab::parameters_text() const {
  const SharedState& st = session().state();
  return format("%d\u00d7%d block, warp %d", st.probe.block_x, st.probe.block_y, st.warp);
}

Headline BankLab::headline(const SharedSession::Measured& m, bool current) const {
  Headline h;
  h.unit = "GB/s";
  h.what = "bank probe, bytes the active lanes ask for";
  if (m.bank && current) {
    h.value = m.bank->gbps;
    // Where a bank conflict shows: the whole GPU's bytes per SM per clock (one warp alone hides
    // the extra wavefronts in its latency).
    h.note = format("%.1f bytes per SM per clock, whole GPU", m.bank->bytes_per_clock_per_sm);
  }
  return h;
}

// --- transpose ---------------------------------------------------------------------------------

bool TransposeLab::pick_view(UiState& ui, int view) {
  if (view < 0 || view > 2) return false;
  SharedState st = session().state();
  st.transpose_view = static_cast<TransposeView>(view);
  session().set(st);
  ui.select_transpose_view = true;
  return true;
}

namespace {
constexpr TransposeView kTransposeStages[] = {TransposeView::GlobalRead, TransposeView::Tile,
                                              TransposeView::GlobalWrite};
}  // namespace

int TransposeLab::step_stage() const {
  const TransposeView v = session().state().transpose_view;
  for (int i = 0; i < 3; ++i)
    if (kTransposeStages[i] == v) return i;
  return 0;
}

void TransposeLab::go_to_step_stage(UiState& ui, int stage) {
  if (stage < 0 || stage >= 3) return;
  SharedState st = session().state();
  st.transpose_view = kTransposeStages[stage];
  session().set(st);
  ui.select_transpose_view = true;  // the tabs follow
}

std::string TransposeLab::step_stage_name() const {
  switch (session().state().transpose_view) {
    case TransposeView::GlobalRead: return "1 of 3: the global read in[\u2026]";
    case TransposeView::Tile: return "2 of 3: the shared tile (stored, __syncthreads(), read)";
    case TransposeView::GlobalWrite: return "3 of 3: the global write out[\u2026]";
  }
  return {};
}

int ReductionLab::step_stages() const {
  return 2 * std::max(1, gpu::reduction_steps(session().state().reduction));
}

int ReductionLab::step_stage() const {
  const SharedState& st = session().state();
  return 2 * st.reduction_step + (st.reduction_second ? 1 : 0);
}

void ReductionLab::go_to_step_stage(UiState& ui, int stage) {
  (void)ui;
  if (stage < 0 || stage >= step_stages()) return;
  SharedState st = session().state();
  st.reduction_step = stage / 2;
  st.reduction_second = stage % 2 == 1;
  session().set(st);
}

std::string ReductionLab::step_stage_name() const {
  const SharedState& st = session().state();
  return format("tree level %d of %d, %s", st.reduction_step + 1,
                gpu::reduction_steps(st.reduction), st.reduction_second ? "s[i + s]" : "s[i]");
}

void TransposeLab::end_frame(UiState& ui) {
  ui.select_transpose_view = false;
}

std::string TransposeLab::parameters_text() const {
  const gpu::TransposeParams& t = session().state().transpose;
  return format("%s transpose, tile %d, %d rows per block, n = %d", gpu::to_string(t.variant),
                t.tile, t.rows_per_block, t.n);
}

Headline TransposeLab::headline(const SharedSession::Measured& m, bool current) const {
  const gpu::TransposeParams& t = session().state().transpose;
  Headline h;
  h.unit = "GB/s";
  h.what = std::string(gpu::to_string(t.variant)) + " transpose, read + write";
  return variant_headline(
      h, m.transpose, current, [&](const auto& r) { return r.params.variant == t.variant; },
      [](const auto& r) { return r.gbps; });
}

// --- matrix multiply ---------------------------------------------------------------------------

std::string MatmulLab::parameters_text() const {
  const gpu::MatmulParams& p = session().state().matmul;
  return p.block_size ? format("BLOCK_SIZE %d, n = %d", p.block_size, p.n)
                      : format("naive multiply, n = %d", p.n);
}

Headline MatmulLab::headline(const SharedSession::Measured& m, bool current) const {
  const gpu::MatmulParams& p = session().state().matmul;
  Headline h;
  h.unit = "GFLOP/s";
  h.what = p.block_size
               ? "tiled multiply, BLOCK_SIZE " + std::to_string(p.block_size) + ", 2n\u00b3 / time"
               : std::string("naive multiply, 2n\u00b3 / time");
  return variant_headline(
      h, m.matmul, current, [&](const auto& r) { return r.params.block_size == p.block_size; },
      [](const auto& r) { return r.gflops; });
}

// --- reduction ---------------------------------------------------------------------------------

std::string ReductionLab::parameters_text() const {
  const gpu::ReductionParams& p = session().state().reduction;
  return format("%s, %d threads per block, %lld elements", gpu::to_string(p.variant),
                p.block_threads, static_cast<long long>(p.elements));
}

Headline ReductionLab::headline(const SharedSession::Measured& m, bool current) const {
  const gpu::ReductionParams& p = session().state().reduction;
  Headline h;
  h.unit = "GB/s";
  h.what = std::string(gpu::to_string(p.variant)) + " reduction, input read";
  return variant_headline(
      h, m.reduction, current, [&](const auto& r) { return r.params.variant == p.variant; },
      [](const auto& r) { return r.gbps; });
}

}  // namespace warplens::app
