#include "figures.h"

#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "atomic_file.h"
#include "exit_codes.h"
#include "headless_context.h"
#include "headless_frames.h"
#include "json_support.h"
#include "png_writer.h"

namespace warplens::app {

namespace {

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

nlohmann::json figure_numbers(const Scenario& scenario, const UiState& ui, Workbench& labs) {
  const LabInstance& shown = labs.lab(ui.lab);
  nlohmann::json j;
  j["scenario"] = scenario.name;
  j["title"] = scenario.title;
  j["lab"] = to_string(scenario.lab);
  const auto& device = shown.device().device;
  j["device"] = device ? device->name : "none (" + shown.device().reason + ")";
  j["gbps_definition"] = "bytes the program asked to read + write / median time, 1e9 B/s";
  shown.figure_numbers(j);
  const LabInstance* a = labs.made_a(ui.lab);
  if (a && ui.compare && lab_info(ui.lab).compare_ratio) {
    const Scenario& scenario_a =
        scenario.compare_with.empty() ? scenario : find_scenario(scenario.compare_with);
    nlohmann::json side_a;
    a->figure_numbers(side_a);
    const Headline ha = a->compare_column().headline;
    const Headline hb = shown.compare_column().headline;
    nlohmann::json c;
    c["a"] = {{"scenario", scenario_a.name},
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

bool audit_fails(const LayoutFinding& finding) {
  if (finding.panel == "view" || finding.panel == "title" || finding.kind == "missing") return true;
  return finding.panel == "numbers" && finding.kind != "scrolls";
}

void add_audit_findings(nlohmann::json& report, const std::string& scenario,
                        const LayoutAudit& audit) {
  if (!report.contains("findings")) {
    report["findings"] = nlohmann::json::array();
    report["failing"] = 0;
  }
  for (const LayoutFinding& f : audit.findings()) {
    const bool fails = audit_fails(f);
    report["findings"].push_back({{"scenario", scenario},
                                  {"panel", f.panel},
                                  {"kind", f.kind},
                                  {"text", f.text},
                                  {"fails", fails}});
    if (fails) report["failing"] = report["failing"].get<int>() + 1;
  }
}

int render_all(const ViewOptions& options, const std::string& out_dir, int width, int height) {
  try {
    std::error_code ec;
    if (!out_dir.empty()) std::filesystem::create_directories(out_dir, ec);
    if (ec) {
      std::cerr << "warplens render: cannot create " << out_dir << ": " << ec.message() << "\n";
      return kExitRuntime;
    }
    const auto device = options.use_gpu ? gpu::query_device() : gpu::DeviceQuery{};
    viz::HeadlessContext context(device.device ? device.device->index : -1);
    HeadlessScene scene(options);
    UiState ui = catalog_ui(options);
    viz::RenderTarget target;
    LayoutAudit audit;
    nlohmann::json report = {{"findings", nlohmann::json::array()}, {"failing", 0}};
    std::ostream& files = options.audit ? std::cerr : std::cout;
    const auto& catalog = builtin_scenarios();
    for (int i = 0; i < static_cast<int>(catalog.size()); ++i) {
      const Scenario& scenario = catalog[static_cast<std::size_t>(i)];
      apply_scenario(ui, scene.labs, i);
      ui.bottom = BottomView::Numbers;
      ui.select_bottom = true;
      scene.wait_until_idle();
      scene.draw_still(ui, target, width, height, options.audit ? &audit : nullptr);
      if (options.audit) add_audit_findings(report, scenario.name, audit);
      const std::string error = scene.labs.lab(ui.lab).error();
      if (!error.empty())
        std::cerr << "warplens render: " << scenario.name << ": " << error << "\n";
      if (out_dir.empty()) continue;  // --audit alone
      const std::string base = (std::filesystem::path(out_dir) / scenario.name).string();
      viz::write_png(viz::read_drawn_framebuffer(width, height), base + ".png");
      files << base << ".png\n";
      if (scene.labs.lab(ui.lab).device().device) {
        const auto numbers = figure_numbers(scenario, ui, scene.labs);
        viz::write_file_atomically(base + ".json", numbers.dump(2) + "\n");
        viz::write_file_atomically(base + ".csv", figure_numbers_csv(numbers));
        files << base << ".json\n" << base << ".csv\n";
      }
    }
    if (options.audit) {
      std::cout << report.dump(2) << "\n";
      if (report["failing"].get<int>() > 0) return kExitRuntime;
    }
    return kExitOk;
  } catch (const std::exception& e) {
    std::cerr << "warplens render: " << e.what() << "\n";
    return kExitRuntime;
  }
}

}  // namespace warplens::app
