#include "figures.h"

#include <filesystem>
#include <iostream>

#include "atomic_file.h"
#include "exit_codes.h"
#include "headless_context.h"
#include "headless_frames.h"
#include "json_support.h"
#include "png_writer.h"

namespace warplens::app {

namespace {

nlohmann::json global_json(const model::GlobalAnalysis& a) {
  return {{"sectors_per_request", a.sectors.size()},
          {"lines_per_request", a.lines.size()},
          {"requested_bytes", a.requested_bytes},
          {"moved_bytes", a.moved_bytes},
          {"efficiency", a.efficiency()}};
}

nlohmann::json shared_json(const model::SharedAnalysis& a) {
  return {{"wavefronts_per_request", a.wavefronts},
          {"phases", a.phases.size()},
          {"broadcast", a.broadcast},
          {"requested_bytes", a.requested_bytes},
          {"moved_bytes", a.moved_bytes},
          {"efficiency", a.efficiency()}};
}

void flatten(const nlohmann::json& j, const std::string& prefix, std::string& out) {
  if (j.is_object()) {
    for (const auto& [key, value] : j.items())
      flatten(value, prefix.empty() ? key : prefix + "." + key, out);
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) flatten(j[i], prefix + "." + std::to_string(i), out);
  } else {
    std::string value = j.is_string() ? j.get<std::string>() : j.dump();
    if (value.find_first_of(",\"\n") != std::string::npos) {
      std::string quoted = "\"";
      for (char c : value) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
      value = quoted + "\"";
    }
    out += prefix + "," + value + "\n";
  }
}

}  // namespace

nlohmann::json figure_numbers(const Scenario& scenario, const UiState& ui,
                              const CopySession& session, const SharedSession& shared,
                              const CacheSession* cache, CompareSide* a) {
  nlohmann::json j;
  j["scenario"] = scenario.name;
  j["title"] = scenario.title;
  j["lab"] = to_string(scenario.lab);
  const auto& device = session.device().device;
  j["device"] = device ? device->name : "none (" + session.device().reason + ")";
  j["gbps_definition"] = "bytes the program asked to read + write / median time, 1e9 B/s";
  nlohmann::json measured = nlohmann::json::object();
  if (ui.lab == Lab::Cache) {
    if (cache) {
      const CacheResults r = cache->measured();
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
        measured["read_path_l1_hit_rate_pct"].push_back(
            {{"path", gpu::to_string(p.params.path)},
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
    }
  } else if (ui.lab == Lab::Global) {
    j["model_shown"] = model::to_string(session.state().model);
    j["model"] = global_json(session.predicted());
    if (session.traced()) j["gpu_trace"] = global_json(*session.traced());
    const auto m = session.measured();
    if (m.copy && session.measurement_current()) {
      measured["copy_gbps"] = m.copy->gbps;
      measured["copy_timing"] = timing_json(m.copy->timing);
    }
    if (m.memcpy) measured["memcpy_d2d_gbps"] = m.memcpy->gbps;
  } else {
    j["model_shown"] = model::to_string(shared.state().model);
    if (shared.shows_global()) {
      j["model"] = global_json(shared.global_predicted());
      if (shared.global_traced()) j["gpu_trace"] = global_json(*shared.global_traced());
    } else if (shared.access()) {
      j["model"] = shared_json(shared.predicted());
      if (shared.traced()) j["gpu_trace"] = shared_json(*shared.traced());
    }
    const auto m = shared.measured();
    if (shared.measurement_current()) {
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
  }
  j["measured"] = measured;
  if (a && ui.compare && lab_has_compare(ui.lab)) {
    UiState single = ui;
    single.compare = false;
    const nlohmann::json side_a = figure_numbers(
        scenario.compare_with.empty() ? scenario : find_scenario(scenario.compare_with), single,
        a->session, a->shared);
    const Headline ha = headline(ui.lab, a->session, a->shared);
    const Headline hb = headline(ui.lab, session, shared);
    nlohmann::json c;
    c["a"] = {{"scenario", side_a["scenario"]},
              {"model", side_a.value("model", nlohmann::json())},
              {"measured", side_a["measured"]}};
    c["headline"] = {{"what_a", ha.what}, {"what_b", hb.what}, {"unit", hb.unit}};
    if (ha.value) c["headline"]["a"] = *ha.value;
    if (hb.value) c["headline"]["b"] = *hb.value;
    if (const auto ratio = headline_ratio(ha, hb)) c["headline"]["b_over_a"] = *ratio;
    j["compare"] = c;
  }
  return j;
}

std::string figure_numbers_csv(const nlohmann::json& numbers) {
  std::string out = "key,value\n";
  flatten(numbers, "", out);
  return out;
}

int render_all(const ViewOptions& options, const std::string& out_dir, int width, int height) {
  try {
    std::error_code ec;
    std::filesystem::create_directories(out_dir, ec);
    if (ec) {
      std::cerr << "warplens render: cannot create " << out_dir << ": " << ec.message() << "\n";
      return kExitRuntime;
    }
    const auto device = options.use_gpu ? gpu::query_device() : gpu::DeviceQuery{};
    viz::HeadlessContext context(device.device ? device.device->index : -1);
    HeadlessScene scene(options);
    CopySession& session = scene.session;
    SharedSession& shared = scene.shared;
    UiState ui;
    ui.theme = options.theme;
    ui.interactive = false;
    if (options.model != model::HardwareModel::Modern) ui.model_override = options.model;
    viz::RenderTarget target;
    const auto& catalog = builtin_scenarios();
    for (int i = 0; i < static_cast<int>(catalog.size()); ++i) {
      const Scenario& scenario = catalog[static_cast<std::size_t>(i)];
      apply_scenario(ui, session, shared, i, &scene.cache, &scene.compare);
      ui.bottom = BottomView::Numbers;
      ui.select_bottom = true;
      scene.wait_until_idle();
      scene.draw_frames(ui, target, width, height);
      const std::string base = (std::filesystem::path(out_dir) / scenario.name).string();
      viz::write_png(viz::read_framebuffer(width, height), base + ".png");
      std::cout << base << ".png\n";
      if (session.gpu_mode()) {
        const auto numbers =
            figure_numbers(scenario, ui, session, shared, &scene.cache, scene.compare.made());
        viz::write_file_atomically(base + ".json", numbers.dump(2) + "\n");
        viz::write_file_atomically(base + ".csv", figure_numbers_csv(numbers));
        std::cout << base << ".json\n" << base << ".csv\n";
      }
      const std::string error = ui.lab == Lab::Cache    ? scene.cache.error()
                                : ui.lab == Lab::Global ? session.error()
                                                        : shared.error();
      if (!error.empty())
        std::cerr << "warplens render: " << scenario.name << ": " << error << "\n";
    }
    return kExitOk;
  } catch (const std::exception& e) {
    std::cerr << "warplens render: " << e.what() << "\n";
    return kExitRuntime;
  }
}

}  // namespace warplens::app
