#include "flight_lab_unit.h"

#include <nlohmann/json.hpp>

#include "flight_figures.h"
#include "flight_preset.h"
#include "flight_scenario.h"
#include "json_support.h"
#include "ui_state.h"
#include "ui_widgets.h"

namespace warplens::app {

void FlightLabUnit::apply(const Scenario& scenario, std::optional<model::HardwareModel> model) {
  (void)model;  // no teaching models here
  session_.set(flight_scenario(scenario));
  session_.show();
}

std::string FlightLabUnit::preset_section() const {
  return toml_text(flight_preset_section(session_.state()));
}

void FlightLabUnit::begin_frame() {
  session_.show();
  results_ = session_.measured();
}

void FlightLabUnit::draw_parameters(LabFrame& frame, ImVec2 pos, ImVec2 size) {
  draw_flight_parameters(session_, results_, frame.theme, pos, size, frame.ui.interactive,
                         frame.draw_scenario_picker);
}

void FlightLabUnit::draw_view(LabFrame& frame, ImVec2 pos, ImVec2 size, const char* side_name) {
  draw_flight_view(session_, results_, frame.layer, frame.theme, pos, size, frame.ui.interactive,
                   aside_, side_name);
}

float FlightLabUnit::numbers_height(const LabFrame& frame, float body_h, float cap) const {
  (void)frame;
  return std::min(body_h * 0.3f, cap);
}

void FlightLabUnit::draw_numbers(LabFrame& frame, ImVec2 pos, ImVec2 size) {
  draw_flight_numbers(session_, results_, frame.theme, pos, size, aside_, frame.layer.scale());
}

bool FlightLabUnit::pick_view(UiState& ui, int view) {
  (void)ui;
  if (view < 0 || view > 2) return false;
  FlightState st = session_.state();
  st.section = static_cast<FlightSection>(view);
  session_.set(st);
  return true;
}

void FlightLabUnit::draw_knobs(LabFrame& frame) {
  draw_flight_knobs(session_, frame.layer.scale());
}

std::vector<KeyNumber> FlightLabUnit::key_numbers() const {
  return flight_key_numbers(session_, results_);
}

CompareColumn FlightLabUnit::compare_column() const {
  CompareColumn c;
  const auto& p = session_.state().stream;
  const FlightModel& m = session_.model();
  c.parameters = format("%d B words, %d loads/thread, %d threads, %lld KiB shared%s", p.word_bytes,
                        p.loads_per_thread, p.block_threads,
                        static_cast<long long>(p.dynamic_shared_bytes / 1024),
                        p.grid_stride ? ", grid-stride" : "");
  c.access = format("%d warps/SM \u00d7 %d \u00d7 %d B in flight", m.picture.warps,
                    m.picture.loads_per_warp, m.picture.bytes_per_load);
  c.model = format("%.0f GB/s (Little's law)", m.predicted_gbps);
  c.counters = "\u2014 (no counters in this lab)";
  c.headline = flight_headline(session_, session_.measured());
  return c;
}

std::string FlightLabUnit::status_text() const {
  return flight_status_text(session_, results_);
}

std::string FlightLabUnit::source_text() const {
  return session_.gpu_mode() ? "bytes-in-flight lab measured on " + session_.device().device->name
                             : "bytes-in-flight lab, model only (" + session_.device().reason + ")";
}

void FlightLabUnit::figure_numbers(nlohmann::json& j) const {
  const FlightModel& m = session_.model();
  j["model"] = {{"bytes_in_flight_per_sm", m.bytes_in_flight},
                {"warps_per_sm", m.residency.warps_per_sm},
                {"predicted_gbps", m.predicted_gbps},
                {"latency_ns", m.latency_ns},
                {"latency_measured", m.latency_measured},
                {"peak_gbps", m.peak_gbps},
                {"knee_bytes_per_sm", m.knee_bytes}};
  nlohmann::json measured = nlohmann::json::object();
  const FlightResults r = session_.measured();
  if (r.memcpy) measured["memcpy_gbps"] = r.memcpy->gbps;
  for (const auto& p : r.ladder)
    measured["latency"].push_back({{"path", gpu::to_string(p.params.path)},
                                   {"lanes", p.params.lanes},
                                   {"working_set_bytes", p.params.working_set_bytes},
                                   {"ns_per_load", p.ns_per_load},
                                   {"cycles_per_load", p.cycles_per_load},
                                   {"verified", p.verified}});
  for (const auto& s : r.stream)
    measured["littles_law"].push_back({{"word_bytes", s.params.word_bytes},
                                       {"loads_per_thread", s.params.loads_per_thread},
                                       {"block_threads", s.params.block_threads},
                                       {"dynamic_shared_bytes", s.params.dynamic_shared_bytes},
                                       {"grid_stride", s.params.grid_stride},
                                       {"bytes_in_flight_per_sm", s.bytes_in_flight_per_sm},
                                       {"gbps", s.gbps},
                                       {"timing", timing_json(s.timing)},
                                       {"verified", s.verified}});
  for (const auto& a : r.async)
    measured["async"].push_back(
        {{"kind", gpu::to_string(a.kind)},
         {"unsupported", a.unsupported ? nlohmann::json(*a.unsupported) : nullptr},
         {"bytes_in_flight_per_sm", a.bytes_in_flight_per_sm},
         {"gbps", a.gbps},
         {"verified", a.verified}});
  j["measured"] = measured;
}

std::vector<FigurePanel> FlightLabUnit::figure_panels() const {
  return flight_figure_panels(session_, session_.measured());
}

std::optional<FigurePanelData> FlightLabUnit::figure_panel(FigurePanel panel) const {
  return flight_figure_panel(session_, session_.measured(), panel);
}

}  // namespace warplens::app
