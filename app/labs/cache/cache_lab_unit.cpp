#include "cache_lab_unit.h"

#include <nlohmann/json.hpp>

#include "cache_figures.h"
#include "cache_preset.h"
#include "cache_scenario.h"
#include "cache_ui.h"
#include "json_support.h"
#include "lab.h"
#include "ui_state.h"

namespace warplens::app {

void CacheLabUnit::apply(const Scenario& scenario, std::optional<model::HardwareModel> model) {
  (void)model;  // the cache lab has no teaching models
  session_.set(cache_scenario(scenario));
  session_.show();
}

std::string CacheLabUnit::preset_section() const {
  return toml_text(cache_preset_section(session_.state()));
}

void CacheLabUnit::begin_frame() {
  session_.show();
  results_ = session_.measured();
}

void CacheLabUnit::draw_parameters(LabFrame& frame, ImVec2 pos, ImVec2 size) {
  draw_cache_parameters(session_, results_, frame.theme, pos, size, frame.ui.interactive,
                        frame.draw_scenario_picker);
}

void CacheLabUnit::draw_view(LabFrame& frame, ImVec2 pos, ImVec2 size, const char* side_name) {
  (void)side_name;
  draw_cache_view(session_, results_, frame.layer, frame.theme, pos, size, frame.ui.interactive,
                  aside_);
}

float CacheLabUnit::numbers_height(const LabFrame& frame, float body_h, float cap) const {
  (void)frame;
  (void)cap;
  return body_h * 0.32f;
}

void CacheLabUnit::draw_numbers(LabFrame& frame, ImVec2 pos, ImVec2 size) {
  draw_cache_numbers(session_, results_, frame.theme, pos, size, aside_, frame.layer.scale());
}

void CacheLabUnit::draw_knobs(LabFrame& frame) {
  draw_cache_knobs(session_, frame.layer.scale());
}

std::vector<KeyNumber> CacheLabUnit::key_numbers() const {
  return cache_key_numbers(session_, results_);
}

std::string CacheLabUnit::status_text() const {
  return cache_status_text(session_, results_);
}

std::string CacheLabUnit::source_text() const {
  return session_.gpu_mode() ? "cache lab measured on " + session_.device().device->name
                             : "cache lab, model only (" + session_.device().reason + ")";
}

void CacheLabUnit::figure_numbers(nlohmann::json& j) const {
  nlohmann::json measured = nlohmann::json::object();
  const CacheResults r = session_.measured();
  for (const auto& o : r.occupancy)
    measured["occupancy"].push_back({{"carveout", o.carveout},
                                     {"dynamic_shared_bytes", o.dynamic_shared_bytes},
                                     {"blocks_per_sm", o.blocks_per_sm},
                                     {"occupancy_percent", o.occupancy_percent}});
  if (r.hungry)
    measured["shared_hungry"] = {{"blocks_per_sm", r.hungry->observed_blocks_per_sm},
                                 {"timing", timing_json(r.hungry->timing)}};
  for (const auto& h : r.hungry_sweep)
    measured["shared_hungry_by_carveout"].push_back(
        {{"carveout", h.occupancy.carveout},
         {"asked_capacity_kib", h.occupancy.model.rounded_kib},
         {"blocks_per_sm", h.occupancy.blocks_per_sm},
         {"observed_blocks_per_sm", h.observed_blocks_per_sm},
         {"timing", timing_json(h.timing)}});
  const auto hit = [](const L1HitRate& rate) {
    return rate.percent ? nlohmann::json(*rate.percent) : nlohmann::json(nullptr);
  };
  for (const auto& p : r.l1_hit)
    measured["l1_hit_rate_pct"].push_back({{"carveout", p.carveout},
                                           {"working_set_bytes", p.working_set_bytes},
                                           {"percent", hit(p.rate)}});
  for (const auto& p : r.read_hit)
    measured["read_path_l1_hit_rate_pct"].push_back({{"path", gpu::to_string(p.params.path)},
                                                     {"pattern", gpu::to_string(p.params.pattern)},
                                                     {"percent", hit(p.rate)}});
  if (!r.l1_hit_note.empty()) measured["l1_hit_note"] = r.l1_hit_note;
  if (!r.read_hit_note.empty()) measured["read_hit_note"] = r.read_hit_note;
  for (const auto& p : r.l1)
    measured["l1"].push_back({{"carveout", p.carveout},
                              {"working_set_bytes", p.working_set_bytes},
                              {"ns_per_access", p.ns_per_access},
                              {"verified", p.verified}});
  for (const auto& p : r.constant)
    measured["constant"].push_back({{"k", p.k},
                                    {"cycles_per_request", p.cycles_per_request},
                                    {"ns_per_request", p.ns_per_request},
                                    {"verified", p.verified}});
  for (const auto& p : r.read)
    measured["read_path"].push_back({{"path", gpu::to_string(p.params.path)},
                                     {"pattern", gpu::to_string(p.params.pattern)},
                                     {"gbps", p.gbps},
                                     {"verified", p.verified}});
  j["measured"] = measured;
}

std::vector<FigurePanel> CacheLabUnit::figure_panels() const {
  return cache_figure_panels(session_, session_.measured());
}

std::optional<FigurePanelData> CacheLabUnit::figure_panel(FigurePanel panel) const {
  return cache_figure_panel(session_, session_.measured(), panel);
}

}  // namespace warplens::app
