#include "tile_lab_unit.h"

#include <algorithm>

#include "json_support.h"
#include "tile_knobs.h"
#include "tile_preset.h"
#include "tile_scenario.h"
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
