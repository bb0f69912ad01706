#include "tile_lab_unit.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "json_support.h"
#include "number_text.h"
#include "tile_knobs.h"
#include "tile_preset.h"
#include "tile_scenario.h"
#include "tile_ui.h"
#include "ui_state.h"
#include "ui_widgets.h"

namespace warplens::app {

void TileLabUnit::apply(const Scenario& scenario, std::optional<model::HardwareModel> model) {
  (void)model;  // the banks of today's GPUs only
  session_.set(tile_scenario(scenario));
}

std::string TileLabUnit::preset_section() const {
  return toml_text(tile_preset_section(session_.state()));
}

void TileLabUnit::draw_parameters(LabFrame& frame, ImVec2 pos, ImVec2 size) {
  draw_tile_parameters(session_, results_, frame.theme, pos, size, frame.ui.interactive,
                       frame.draw_scenario_picker);
}

void TileLabUnit::draw_view(LabFrame& frame, ImVec2 pos, ImVec2 size, const char* side_name) {
  draw_tile_view(frame.ui, session_, results_, bank_view_, frame.layer, frame.theme, pos, size,
                 frame.ui.interactive, side_name);
}

float TileLabUnit::numbers_height(const LabFrame& frame, float body_h, float cap) const {
  const float line = ImGui::GetTextLineHeightWithSpacing();
  (void)frame;
  return std::min({body_h * 0.2f, cap, line * 4.5f});
}

void TileLabUnit::draw_numbers(LabFrame& frame, ImVec2 pos, ImVec2 size) {
  draw_tile_numbers(session_, results_, frame.layer, frame.theme, pos, size);
}

std::string TileLabUnit::status_text() const {
  return tile_status_text(session_, results_);
}

std::string TileLabUnit::source_text() const {
  return session_.gpu_mode() ? "tile lab measured on " + session_.device().device->name
                             : "tile lab, model only (" + session_.device().reason + ")";
}

void TileLabUnit::figure_numbers(nlohmann::json& j) const {
  const TileState& st = session_.state();
  const TileModel& m = session_.model();
  j["model_shown"] = "modern";
  j["model"] = {{"layout", m.layout_text},
                {"fill", tile_fill_name(st.tile.fill)},
                {"read", gpu::tile_read_text(st.read)},
                {"wavefronts", m.analysis.wavefronts},
                {"min_wavefronts", m.analysis.min_wavefronts}};
  nlohmann::json measured = nlohmann::json::object();
  if (const auto r = session_.current()) {
    if (r->unsupported) measured["unsupported"] = *r->unsupported;
    if (r->placement) {
      measured["fill_cycles"] = r->placement->fill_cycles;
      measured["placement_is_model"] = placement_matches(*r->placement, m);
    }
    if (r->read) {
      measured["cycles_per_request"] = r->read->cycles_per_request;
      measured["gbps"] = r->read->gbps;
      measured["bytes_per_clock_per_sm"] = r->read->bytes_per_clock_per_sm;
      measured["verified"] = r->read->values_ok;
    }
    if (r->wavefronts_per_request) measured["counted_wavefronts"] = *r->wavefronts_per_request;
  }
  j["measured"] = measured;
}

std::vector<KeyNumber> TileLabUnit::key_numbers() const {
  return tile_key_numbers(session_, results_);
}

CompareColumn TileLabUnit::compare_column() const {
  CompareColumn c;
  const TileState& st = session_.state();
  c.parameters = session_.model().layout_text;
  c.access = gpu::tile_read_text(st.read);
  c.model = tile_model_text(session_.model());
  c.counters = tile_counter_text(session_, results_);
  if (c.counters.empty()) c.counters = "\u2014 (no GPU)";
  c.headline.unit = "cycles per request";
  c.headline.what = "the warp's read";
  if (const auto r = session_.current(); r && r->read)
    c.headline.value = r->read->cycles_per_request;
  c.headline.busy = results_.busy;
  if (!session_.gpu_mode()) c.headline.note = "no GPU";
  return c;
}

}  // namespace warplens::app

namespace warplens::app {

// Predict, then reveal: the read's wavefronts per request; the GPU's answer is the counters'.
std::optional<PredictAnswer> TileLabUnit::predict_answer() const {
  PredictAnswer a;
  a.question.text = "How many wavefronts does the warp's " +
                    gpu::tile_read_text(session_.state().read) + " of this tile take?";
  a.question.unit = "wavefronts";
  a.model = session_.model().analysis.wavefronts;
  if (const auto r = session_.current(); r && r->wavefronts_per_request)
    a.gpu = *r->wavefronts_per_request;
  return a;
}

// Course-note figures: the read on the banks (the bank grid beside the stored tile) and the
// numbers; the stored tile itself has its own drawing in the window only.
std::vector<FigurePanel> TileLabUnit::figure_panels() const {
  return {FigurePanel::Banks, FigurePanel::Numbers};
}

bool TileLabUnit::show_figure_panel(FigurePanel panel) {
  const auto panels = figure_panels();
  return std::find(panels.begin(), panels.end(), panel) != panels.end();
}

std::optional<FigurePanelData> TileLabUnit::figure_panel(FigurePanel panel) const {
  const TileState& st = session_.state();
  const TileModel& m = session_.model();
  FigurePanelData d;
  d.panel = panel;
  d.access = "warp 0 \u2022 " + gpu::tile_read_text(st.read) + " of " + m.layout_text;
  d.source = source_text();
  switch (panel) {
    case FigurePanel::Banks:
      d.trace = session_.trace();
      d.shared = m.analysis;
      return d;
    case FigurePanel::Numbers: {
      const auto r = session_.current();
      d.rows = shared_stat_texts(m.analysis, std::nullopt);
      // The tile lab traces nothing on the GPU: its lanes are the layout's; the counters below
      // confirm the count.
      d.trace_column = trace_column_title(false, model::HardwareModel::Modern);
      d.notes.push_back("Model: " + tile_model_text(m) + "; layout " + m.layout_text + ".");
      if (!session_.gpu_mode()) {
        d.measured_absent = "measurements need a CUDA device: " + session_.device().reason;
      } else if (r && r->unsupported) {
        d.measured_absent = "this GPU cannot run it: " + *r->unsupported;
      } else if (r) {
        d.measured_title = "measured on the GPU";
        if (r->placement)
          d.measured.push_back({"tile as stored", placement_matches(*r->placement, m)
                                                      ? "= the model's \u2713"
                                                      : "differs from the model's"});
        if (r->wavefronts_per_request)
          d.measured.push_back(
              {"wavefronts per request, counters", format("%.2f", *r->wavefronts_per_request)});
        if (r->read)
          d.measured.push_back({"cycles per request", format("%.1f", r->read->cycles_per_request)});
        if (r->read && r->read->gpu_blocks > 0)
          d.measured.push_back({"whole GPU", format("%.0f GB/s, %.1f B/clk/SM (%.0f %% of 128)",
                                                    r->read->gbps, r->read->bytes_per_clock_per_sm,
                                                    100.0 * r->read->fraction_of_limit)});
      }
      return d;
    }
    default: return std::nullopt;
  }
}

}  // namespace warplens::app
