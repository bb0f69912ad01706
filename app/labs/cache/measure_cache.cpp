#include "measure_cache.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>

#include "cache_lab.h"
#include "cache_scenario.h"
#include "cache_session.h"
#include "counter_service.h"
#include "exit_codes.h"
#include "json_support.h"
#include "measured_table.h"
#include "shared_lab.h"

namespace warplens::app {

namespace {

nlohmann::json choice_json(const gpu::CarveoutChoice& c) {
  return {{"percent", c.percent},
          {"driver_default", c.driver_default},
          {"requested_kib", c.requested_kib},
          {"rounded_kib", c.rounded_kib},
          {"shared_kib", c.shared_kib},
          {"l1_kib", c.l1_kib},
          {"raised_for_block", c.raised_for_block}};
}

std::vector<std::int64_t> default_working_sets() {
  std::vector<std::int64_t> v;
  for (int kib : {8, 16, 24, 32, 48, 64, 96, 128, 160, 192, 224, 256, 320, 384, 512, 1024})
    v.push_back(std::int64_t{kib} * 1024);
  return v;
}

std::vector<std::int64_t> default_dynamic_shared(int optin_bytes) {
  std::vector<std::int64_t> v;
  for (int kib : {0, 8, 16, 24, 32, 48, 56, 57, 64, 75, 76, 100, 113, 114, 160, 227})
    if (kib * 1024 <= optin_bytes) v.push_back(std::int64_t{kib} * 1024);
  return v;
}

std::string carveout_name(int c) {
  if (c == gpu::kCarveoutDefault) return "default";
  if (c == gpu::kCarveoutMaxL1) return "0 (max L1)";
  if (c == gpu::kCarveoutMaxShared) return "100 (max shared)";
  return std::to_string(c) + " %";
}

/// The hit rate's JSON fields: the percent (null when not read) and its sectors or the reason.
void add_hit(nlohmann::json& row, const L1HitRate& rate) {
  if (rate.percent) {
    row["l1_hit_rate_pct"] = *rate.percent;
    row["l1_hit_sectors"] = rate.hit_sectors;
    row["l1_miss_sectors"] = rate.miss_sectors;
    row["l1_hit_metric"] = rate.metric;
  } else {
    row["l1_hit_rate_pct"] = nullptr;
    row["l1_hit_note"] = rate.unavailable;
  }
}

std::string hit_cell(const nlohmann::json& row) {
  if (!row.contains("l1_hit_rate_pct")) return "";
  if (row["l1_hit_rate_pct"].is_null()) return "n/a";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %%", row["l1_hit_rate_pct"].get<double>());
  return text;
}

bool wants(const CacheMeasureOptions& o, const char* section) {
  return o.section == "all" || o.section == section;
}

/// Checks every parameter before the GPU is touched; throws std::invalid_argument.
void check_options(const CacheMeasureOptions& o) {
  if (o.section != "all" && o.section != "carveout" && o.section != "l1" &&
      o.section != "constant" && o.section != "read-path")
    throw std::invalid_argument("unknown section '" + o.section +
                                "' (carveout, l1, constant, read-path, all)");
  if (o.format != "text" && o.format != "json" && o.format != "csv")
    throw std::invalid_argument("unknown format '" + o.format + "' (text, json, csv)");
  if (o.runs < 1 || o.runs > 1000) throw std::invalid_argument("runs must be 1..1000");
  for (int c : o.carveouts) gpu::check_carveout(c);
  for (auto w : o.working_sets) gpu::check_working_set(w);
  for (int k : o.ks) gpu::check_constant_k(k);
  for (auto d : o.dynamic_shared) gpu::check_dynamic_shared(d, gpu::kModelSharedBytesPerBlock);
  gpu::ReadPathParams p;
  p.side = o.side;
  gpu::check_read_path(p);
}

// The verb's work; run_measure_cache turns what it throws into the exit code.
int measure_cache_body(const CacheMeasureOptions& o) {
  check_options(o);
  const auto device = measure_device();
  if (!device) return kExitNoDevice;
  const gpu::DeviceInfo& d = *device;
  // The hit rates' checker (its labs and CUPTI session) goes before this verb returns.
  struct ReleaseCounters {
    ReleaseCounters() = default;
    ReleaseCounters(const ReleaseCounters&) = delete;
    ReleaseCounters& operator=(const ReleaseCounters&) = delete;
    ~ReleaseCounters() { release_counter_checker(); }
  } release_counters;
  nlohmann::json doc = measurement_header(
      d, "cache", "4 bytes per load the program asked for / median time, 1e9 B/s");
  nlohmann::json rows = nlohmann::json::array();
  bool all_verified = true;
  {
    gpu::CacheLab lab(d);
    const auto& l = lab.limits();
    for (auto dyn : o.dynamic_shared)
      gpu::check_dynamic_shared(dyn, l.shared_bytes_per_block_optin);
    doc["limits"] = {{"shared_bytes_per_sm", l.shared_bytes_per_sm},
                     {"shared_bytes_per_block_optin", l.shared_bytes_per_block_optin},
                     {"reserved_shared_bytes_per_block", l.reserved_shared_bytes_per_block},
                     {"max_threads_per_sm", l.max_threads_per_sm},
                     {"max_blocks_per_sm", l.max_blocks_per_sm},
                     {"table_matches", l.table_matches},
                     {"table_check", l.table_check}};
    if (l.table) {
      doc["table"] = {{"capacities_kib", l.table->capacities_kib},
                      {"unified_kib", l.table->unified_kib},
                      {"source", l.table->source}};
    }
    if (wants(o, "carveout")) {
      const auto dyns = o.dynamic_shared.empty()
                            ? default_dynamic_shared(l.shared_bytes_per_block_optin)
                            : o.dynamic_shared;
      for (int c : o.carveouts) {
        for (auto dyn : dyns) {
          const auto occ = lab.occupancy(c, dyn);
          rows.push_back({{"section", "carveout"},
                          {"kernel", "occupancy"},
                          {"carveout", c},
                          {"dynamic_shared_bytes", dyn},
                          {"blocks_per_sm", occ.blocks_per_sm},
                          {"occupancy_percent", occ.occupancy_percent},
                          {"limiter", occ.limiter},
                          {"opt_in", occ.opt_in},
                          {"opt_in_note", occ.opt_in_note},
                          {"available_dynamic_bytes", occ.available_dynamic_bytes},
                          {"implied_capacity_kib", occ.implied_capacity_kib},
                          {"model", choice_json(occ.model)},
                          {"model_blocks_per_sm", occ.model_blocks_per_sm}});
        }
        for (std::int64_t dyn : {std::int64_t{20 * 1024}, std::int64_t{56 * 1024}}) {
          if (dyn > l.shared_bytes_per_block_optin) continue;
          const auto m = lab.measure_shared_hungry(c, dyn, o.runs);
          all_verified = all_verified && m.verified;
          rows.push_back({{"section", "carveout"},
                          {"kernel", "shared-hungry"},
                          {"carveout", c},
                          {"dynamic_shared_bytes", dyn},
                          {"blocks_per_sm", m.occupancy.blocks_per_sm},
                          {"observed_blocks_per_sm", m.observed_blocks_per_sm},
                          {"occupancy_percent", m.occupancy.occupancy_percent},
                          {"verified", m.verified},
                          {"check", m.check},
                          {"timing", timing_json(m.timing)}});
        }
      }
      // The shared-hungry kernel against the carveout: one carveout per supported capacity (and
      // the driver default), at each dynamic shared memory asked for (default 20 and 56 KiB).
      std::vector<std::int64_t> sweep_dyns = o.dynamic_shared;
      if (sweep_dyns.empty()) sweep_dyns = {20 * 1024, 56 * 1024};
      for (auto dyn : sweep_dyns) {
        if (dyn > l.shared_bytes_per_block_optin) continue;
        for (int c : hungry_carveouts(l.table ? &*l.table : nullptr)) {
          const auto m = lab.measure_shared_hungry(c, dyn, o.runs);
          all_verified = all_verified && m.verified;
          rows.push_back(
              {{"section", "carveout"},
               {"kernel", "carveout-sweep"},
               {"carveout", c},
               {"dynamic_shared_bytes", dyn},
               {"asked_capacity_kib", c == gpu::kCarveoutDefault
                                          ? nlohmann::json(nullptr)
                                          : nlohmann::json(m.occupancy.model.rounded_kib)},
               {"model", choice_json(m.occupancy.model)},
               {"model_blocks_per_sm", m.occupancy.model_blocks_per_sm},
               {"blocks_per_sm", m.occupancy.blocks_per_sm},
               {"observed_blocks_per_sm", m.observed_blocks_per_sm},
               {"occupancy_percent", m.occupancy.occupancy_percent},
               {"verified", m.verified},
               {"check", m.check},
               {"timing", timing_json(m.timing)}});
        }
      }
    }
    if (wants(o, "l1")) {
      const auto sets = o.working_sets.empty() ? default_working_sets() : o.working_sets;
      const std::size_t first = rows.size();
      for (int c : o.carveouts) {
        for (auto ws : sets) {
          const auto m = lab.measure_l1_gather(c, ws, o.runs);
          all_verified = all_verified && m.verified;
          rows.push_back({{"section", "l1"},
                          {"carveout", c},
                          {"working_set_bytes", ws},
                          {"ns_per_access", m.ns_per_access},
                          {"gbps", m.gbps},
                          {"expected_l1_kib", m.expected.l1_kib},
                          {"fits_l1", m.fits_l1},
                          {"verified", m.verified},
                          {"check", m.check},
                          {"timing", timing_json(m.timing)}});
        }
      }
      // The L1 hit rates after every timed run: dedicated launches on the checker's own lab.
      for (std::size_t i = first; i < rows.size(); ++i) {
        CacheCounterCase c;
        c.kind = CacheCounterCase::Kind::L1Gather;
        c.carveout = rows[i]["carveout"].get<int>();
        c.working_set_bytes = rows[i]["working_set_bytes"].get<std::int64_t>();
        const L1HitRate rate = read_cache_hit_rate(d, c);
        add_hit(rows[i], rate);
        if (!rate.percent) {
          doc["l1_hit_note"] = rate.unavailable;  // the other points would fail alike
          break;
        }
      }
    }
    if (wants(o, "constant")) {
      std::vector<int> ks = o.ks;
      if (ks.empty())
        for (int k = 1; k <= 32; ++k) ks.push_back(k);
      for (int k : ks) {
        const auto m = lab.measure_constant(k, o.runs);
        all_verified = all_verified && m.verified;
        rows.push_back({{"section", "constant"},
                        {"k", k},
                        {"ns_per_request", m.ns_per_request},
                        {"cycles_per_request", m.cycles_per_request},
                        {"lane_groups", m.lane_groups},
                        {"verified", m.verified},
                        {"check", m.check},
                        {"timing", timing_json(m.timing)}});
      }
    }
    if (wants(o, "read-path")) {
      const std::size_t first = rows.size();
      for (auto q : read_patterns()) {
        for (auto path : read_paths()) {
          gpu::ReadPathParams p;
          p.path = path;
          p.pattern = q;
          p.side = o.side;
          const auto m = lab.measure_read_path(p, o.runs);
          all_verified = all_verified && m.verified;
          rows.push_back({{"section", "read-path"},
                          {"path", gpu::to_string(path)},
                          {"pattern", gpu::to_string(q)},
                          {"side", p.side},
                          {"radius", p.radius},
                          {"reads", m.reads},
                          {"gbps", m.gbps},
                          {"verified", m.verified},
                          {"check", m.check},
                          {"timing", timing_json(m.timing)}});
        }
      }
      // The L1 hit rates after every timed run; a path whose counters this GPU lacks (the
      // texture pipe's, say) notes why and the others still read.
      std::string notes;
      for (std::size_t i = first; i < rows.size(); ++i) {
        CacheCounterCase c;
        c.kind = CacheCounterCase::Kind::ReadPath;
        c.read.path = gpu::parse_read_path(rows[i]["path"].get<std::string>());
        c.read.pattern = gpu::parse_read_pattern(rows[i]["pattern"].get<std::string>());
        c.read.side = o.side;
        const L1HitRate rate = read_cache_hit_rate(d, c);
        add_hit(rows[i], rate);
        if (!rate.percent && notes.find(rate.unavailable) == std::string::npos)
          notes += (notes.empty() ? "" : "; ") + rate.unavailable;
      }
      if (!notes.empty()) doc["read_hit_note"] = notes;
    }
  }
  doc["measurements"] = rows;

  write_measurement(std::cout, o.format, doc, cache_measure_table(doc));
  if (!all_verified) {
    std::cerr << "warplens measure: a kernel's checksum did not match the CPU\n";
    return kExitRuntime;
  }
  return kExitOk;
}

}  // namespace

namespace {

// A row's CSV reading: what it varies (x) and what it measures (value), by section.
struct CsvReading {
  std::string kernel, x_name, value_name;
  double x = 0, value = 0;
};

CsvReading csv_reading(const nlohmann::json& r) {
  const std::string section = r["section"];
  CsvReading c{section, "", "", 0, 0};
  if (section == "carveout" && r["kernel"] == "carveout-sweep") {
    // x: the capacity the carveout asks for (the model's, for the driver default)
    c.kernel = "carveout-sweep/" +
               std::to_string(r["dynamic_shared_bytes"].get<long long>() / 1024) + "KiB";
    c.x_name = "asked_capacity_kib";
    c.x = r["asked_capacity_kib"].is_null() ? r["model"]["shared_kib"].get<double>()
                                            : r["asked_capacity_kib"].get<double>();
    c.value_name = "observed_blocks_per_sm";
  } else if (section == "carveout") {
    c.kernel = r["kernel"];
    c.x_name = "dynamic_shared_bytes";
    c.value_name = c.kernel == "occupancy" ? "blocks_per_sm" : "observed_blocks_per_sm";
  } else if (section == "l1") {
    c.x_name = "working_set_bytes";
    c.value_name = "ns_per_access";
  } else if (section == "constant") {
    c.x_name = "k";
    c.value_name = "ns_per_request";
  } else {
    c.kernel = r["path"].get<std::string>() + "/" + r["pattern"].get<std::string>();
    c.x_name = "side";
    c.value_name = "gbps";
  }
  if (c.x_name != "asked_capacity_kib") c.x = r[c.x_name].get<double>();
  c.value = r[c.value_name].get<double>();
  return c;
}

TableColumn carveout_column() {
  return {"carveout", [](const nlohmann::json& r, const nlohmann::json&) {
            return carveout_name(r["carveout"].get<int>());
          }};
}

std::function<bool(const nlohmann::json&)> takes(std::string section, std::string kernel = "",
                                                 bool other_kernels = false) {
  return [=](const nlohmann::json& r) {
    if (r["section"] != section) return false;
    if (kernel.empty()) return true;
    return other_kernels ? r["kernel"] != "occupancy" && r["kernel"] != "carveout-sweep"
                         : r["kernel"] == kernel;
  };
}

}  // namespace

MeasuredTable cache_measure_table(const nlohmann::json& doc) {
  MeasuredTable t;
  t.head.push_back("device  " + doc["device"].get<std::string>() + " (CC " +
                   doc["compute_capability"].get<std::string>() + ", " +
                   std::to_string(doc["sm_count"].get<int>()) + " SMs)");
  t.head.push_back("table   " + doc["limits"]["table_check"].get<std::string>());
  if (doc.contains("table")) {
    std::string caps;
    for (int c : doc["table"]["capacities_kib"]) caps += std::to_string(c) + " ";
    t.head.push_back("        shared capacities " + caps + "KiB of " +
                     std::to_string(doc["table"]["unified_kib"].get<int>()) + " KiB unified (" +
                     doc["table"]["source"].get<std::string>() + ")");
  }
  const auto model_kib = [](const char* key) -> TableColumn {
    return {std::string("model ") + (key[0] == 's' ? "shared" : "L1") + " KiB",
            [key](const nlohmann::json& r, const nlohmann::json&) { return r["model"][key]; }};
  };
  t.sections.push_back({"[carveout] occupancy: blocks per SM the API reports, beside the model's",
                        takes("carveout", "occupancy"),
                        {carveout_column(),
                         scaled_field("dyn KiB", "dynamic_shared_bytes", 1024, 1),
                         field("blocks/SM", "/blocks_per_sm"),
                         field("occupancy %", "/occupancy_percent", 1),
                         field("limiter", "/limiter"),
                         model_kib("shared_kib"),
                         model_kib("l1_kib"),
                         field("model blocks/SM", "/model_blocks_per_sm"),
                         {"opt-in", [](const nlohmann::json& r, const nlohmann::json&) {
                            return r["opt_in"].get<bool>() ? "> 48 KiB" : "";
                          }}}});
  t.sections.push_back({"[carveout] sweep: the carveout asked, the blocks per SM observed",
                        takes("carveout", "carveout-sweep"),
                        {scaled_field("dyn KiB", "dynamic_shared_bytes", 1024, 1),
                         carveout_column(),
                         {"asks",
                          [](const nlohmann::json& r, const nlohmann::json&) {
                            return r["asked_capacity_kib"].is_null()
                                       ? std::string("(driver)")
                                       : std::to_string(r["asked_capacity_kib"].get<int>()) +
                                             " KiB";
                          }},
                         model_kib("shared_kib"),
                         field("model blocks/SM", "/model_blocks_per_sm"),
                         field("API blocks/SM", "/blocks_per_sm"),
                         field("observed blocks/SM", "/observed_blocks_per_sm"),
                         field("median ms", "/timing/median_ms", 4),
                         verified_column()}});
  t.sections.push_back(
      {"[carveout] the shared-hungry kernel",
       takes("carveout", "shared-hungry", true),
       {carveout_column(), scaled_field("dyn KiB", "dynamic_shared_bytes", 1024, 1),
        field("API blocks/SM", "/blocks_per_sm"),
        field("observed blocks/SM", "/observed_blocks_per_sm"),
        field("median ms", "/timing/median_ms", 4), verified_column()}});
  t.sections.push_back(
      {"[l1] the L1 working-set sweep",
       takes("l1"),
       {carveout_column(),
        scaled_field("working set KiB", "working_set_bytes", 1024, 0),
        field("ns/access/SM", "/ns_per_access", 4),
        field("GB/s", "/gbps", 1),
        field("L1 left KiB", "/expected_l1_kib"),
        {"fits L1", [](const nlohmann::json& r,
                       const nlohmann::json&) { return r["fits_l1"].get<bool>() ? "fits" : ""; }},
        verified_column(),
        {"L1 hit", [](const nlohmann::json& r, const nlohmann::json&) { return hit_cell(r); }}}});
  t.sections.push_back({"[constant] distinct addresses per warp",
                        takes("constant"),
                        {field("k", "/k"), field("ns/request/SM", "/ns_per_request", 3),
                         field("cycles/request", "/cycles_per_request", 2), verified_column()}});
  t.sections.push_back(
      {"[read-path] one image read through each path",
       takes("read-path"),
       {field("path", "/path"),
        field("pattern", "/pattern"),
        field("side", "/side"),
        field("GB/s", "/gbps", 1),
        field("median ms", "/timing/median_ms", 4),
        {"L1 hit", [](const nlohmann::json& r, const nlohmann::json&) { return hit_cell(r); }},
        verified_column()}});
  for (const char* note : {"l1_hit_note", "read_hit_note"})
    if (doc.contains(note))
      t.foot.push_back(std::string("L1 hit rate (") + (note[0] == 'l' ? "l1" : "read-path") +
                       "): " + doc[note].get<std::string>());
  const auto reading = [](auto member) {
    return [member](const nlohmann::json& r, const nlohmann::json&) -> nlohmann::json {
      return csv_reading(r).*member;
    };
  };
  t.csv = {doc_field("device", "/device"),
           field("section", "/section"),
           {"kernel", reading(&CsvReading::kernel)},
           {"carveout",
            [](const nlohmann::json& r, const nlohmann::json&) { return r.value("carveout", 0); }},
           {"x_name", reading(&CsvReading::x_name)},
           {"x", reading(&CsvReading::x), 0},
           {"value_name", reading(&CsvReading::value_name)},
           {"value", reading(&CsvReading::value), 4},
           {"median_ms",
            [](const nlohmann::json& r, const nlohmann::json&) {
              return r.contains("timing") ? r["timing"]["median_ms"].get<double>() : 0.0;
            },
            5},
           verified_column("verified"),
           field("l1_hit_rate_pct", "/l1_hit_rate_pct", 2)};
  return t;
}

int run_measure_cache(const CacheMeasureOptions& o) {
  return exit_code_of("measure", [&] { return measure_cache_body(o); });
}

}  // namespace warplens::app

namespace warplens::app {

int measure_cache_lab(const MeasureOptions& o, const Scenario* scenario) {
  if (!o.settings.empty()) {
    // A scenario here names a section, which measure sweeps by its own flags (--carveout,
    // --working-set, --dynamic-shared, --k, --image-side): a knob of one point would not reach it.
    std::cerr << "warplens measure: --set: the cache lab's measure sweeps the scenario's section; "
                 "give the sweep's points with --carveout, --working-set, --dynamic-shared, --k "
                 "or --image-side\n";
    return kExitBadInput;
  }
  CacheMeasureOptions co = o.cache;
  if (scenario) co.section = to_string(cache_scenario(*scenario).section);
  co.format = o.format;
  co.runs = std::max(3, o.runs / 2);
  return run_measure_cache(co);
}

}  // namespace warplens::app
