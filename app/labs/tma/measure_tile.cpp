#include "measure_tile.h"

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "counter_service.h"
#include "exit_codes.h"
#include "json_support.h"
#include "lab_id.h"
#include "tile_knobs.h"
#include "tile_preset.h"
#include "tile_scenario.h"
#include "toml_fields.h"

namespace warplens::app {

namespace {

nlohmann::json measure_row(gpu::TileLab& lab, const gpu::DeviceInfo& d, const TileState& s,
                           bool& ok) {
  const TileModel m = tile_model(s);
  nlohmann::json row = {{"fill", tile_fill_name(s.tile.fill)},
                        {"swizzle", std::string(gpu::to_string(s.tile.swizzle))},
                        {"element_bytes", s.tile.element_bytes},
                        {"rows", s.tile.rows},
                        {"cols", s.tile.cols},
                        {"pitch_bytes", gpu::tile_pitch_bytes(s.tile)},
                        {"layout", m.layout_text},
                        {"read", gpu::tile_read_text(s.read)},
                        {"model_wavefronts", m.analysis.wavefronts}};
  const gpu::TilePlacement placement = lab.load_tile(s.tile);
  const bool same = placement_matches(placement, m);
  ok = ok && same;
  row["fill_cycles"] = placement.fill_cycles;
  row["placement"] = same ? "model's" : "DIFFERS";
  const gpu::TileReadMeasurement r = lab.measure_read(s.tile, s.read, kTileTimedReads);
  ok = ok && r.values_ok;
  row["cycles_per_request"] = r.cycles_per_request;
  row["verified"] = r.values_ok;
  row["gpu_blocks"] = r.gpu_blocks;
  row["gbps"] = r.gbps;
  row["bytes_per_clock_per_sm"] = r.bytes_per_clock_per_sm;
  row["sm_clock_mhz"] = r.sm_clock_mhz;
  const TileCounted counted = count_tile_read(d, lab, s);
  if (counted.wavefronts_per_request)
    row["counted_wavefronts"] = *counted.wavefronts_per_request;
  else
    row["counters"] = counted.unavailable;
  return row;
}

int measure_body(const TileState& s, const std::string& format) {
  const gpu::DeviceQuery q = gpu::query_device();
  if (!q.device) {
    std::cerr << "warplens measure: " << q.reason << "\n";
    return kExitNoDevice;
  }
  const gpu::DeviceInfo& d = *q.device;
  if (auto why = gpu::tile_unsupported(s.tile, &s.read, d.cc_major, d.cc_minor))
    throw std::invalid_argument(*why);
  nlohmann::json doc = measurement_header(
      d, "tile", "GB/s: shared-memory bytes the lanes receive, whole GPU (reads only)");
  doc["preset"] = toml_json(tile_preset_section(s));  // the parameters timed (its knob table)
  gpu::TileLab lab(d.index);
  bool ok = true;
  doc["measurements"] = nlohmann::json::array({measure_row(lab, d, s, ok)});
  write_measurement(std::cout, format, doc, tile_measure_table(doc));
  if (!ok) {
    std::cerr << "warplens measure: the tile or its read differs from the model\n";
    return kExitRuntime;
  }
  return kExitOk;
}

}  // namespace

MeasuredTable tile_measure_table(const nlohmann::json& doc) {
  MeasuredTable t;
  t.head.push_back("device  " + doc.value("device", std::string("?")) + " (CC " +
                   doc.value("compute_capability", std::string("?")) + ")");
  std::vector<TableColumn> cols = {field("fill", "/fill"),
                                   field("swizzle", "/swizzle"),
                                   field("element B", "/element_bytes"),
                                   field("rows", "/rows"),
                                   field("cols", "/cols"),
                                   field("pitch B", "/pitch_bytes"),
                                   field("layout", "/layout"),
                                   field("read", "/read"),
                                   field("fill cycles", "/fill_cycles", 0),
                                   field("placement", "/placement"),
                                   field("cycles/request", "/cycles_per_request", 1),
                                   field("GB/s", "/gbps", 0),
                                   field("B/clk/SM", "/bytes_per_clock_per_sm", 1),
                                   field("model wavefronts", "/model_wavefronts"),
                                   field("counted wavefronts", "/counted_wavefronts", 2),
                                   verified_column()};
  t.sections.push_back({"", {}, cols});
  t.csv = cols;
  return t;
}

int measure_tile_lab(const MeasureOptions& o, const Scenario* scenario) {
  const TileState s = scenario ? tile_scenario(*scenario) : TileState{};
  return exit_code_of("measure", [&] { return measure_body(s, o.format); });
}

std::vector<KernelRun> tile_kernels_once(const gpu::DeviceInfo& device,
                                         const std::vector<const Scenario*>& scenarios) {
  KernelRunLog log(to_string(Lab::Tile));
  std::unique_ptr<gpu::TileLab> lab;
  try {
    lab = std::make_unique<gpu::TileLab>(device.index);
  } catch (const std::exception& e) {
    log.fail("TileLab", e.what());
    return log.take();
  }
  const auto run = [&](const TileState& s, const std::string& prefix) {
    const std::string what = prefix + tile_fill_name(s.tile.fill) + " " +
                             std::string(gpu::to_string(s.tile.swizzle)) + ", " +
                             gpu::tile_read_text(s.read);
    if (auto why = gpu::tile_unsupported(s.tile, &s.read, device.cc_major, device.cc_minor)) {
      log.fail("tile fill and read", what + ": " + *why);
      return;
    }
    log.run("tile fill and read", what, [&] {
      const TileModel m = tile_model(s);
      if (!placement_matches(lab->load_tile(s.tile), m))
        return RunCheck{false, "the placement read back differs from the model's"};
      const auto r = lab->measure_read(s.tile, s.read, 8);
      return RunCheck{r.values_ok, r.check};
    });
  };
  for (auto fill : {gpu::TileFill::Tma, gpu::TileFill::Threads})
    for (auto swizzle : gpu::kTmaSwizzles)
      for (auto kind :
           {gpu::TileReadKind::Row, gpu::TileReadKind::Column, gpu::TileReadKind::Ldmatrix}) {
        // 16-bit elements, rows as wide as the mode's span (the TMA's swizzled box), 128 bytes
        // without a swizzle.
        const int span = swizzle == gpu::TmaSwizzle::None ? 128 : gpu::swizzle_span_bytes(swizzle);
        TileState s;
        s.tile = {fill, swizzle, 2, 16, span / 2, 0};
        s.read = {kind, 0, 4, false};
        run(s, "");
      }
  for (const Scenario* sc : scenarios) run(tile_scenario(*sc), "scenario " + sc->name + ": ");
  return log.take();
}

}  // namespace warplens::app
