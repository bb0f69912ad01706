#include "analyze_report.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace warplens::app {

using nlohmann::json;

namespace {
// The fields every lane has, whatever the space.
json lane_json(const model::LaneAccess& a) {
  json j = {{"lane", a.lane}, {"active", a.active}};
  if (a.active) {
    j["tx"] = a.tx;
    j["ty"] = a.ty;
    j["index"] = a.index;
    j["address"] = a.address;
  }
  return j;
}
// The layout behind analyze --layout: each active lane's coordinate and offset from the layout
// itself, checked against the index the expression gave it (model/layout_access.h).
json layout_json(const model::LayoutAccess& access, const model::WarpAccesses& lanes,
                 json& lane_list) {
  json l;
  l["layout"] = access.layout.text();
  l["lane_layout"] = access.lanes ? json(access.lanes->text()) : json(nullptr);
  l["size"] = access.layout.size();
  l["expression"] = model::layout_index_expression(access);
  json offsets = json::array();
  for (const auto& a : lanes) {
    if (!a.active) {
      offsets.push_back(nullptr);
      continue;
    }
    const model::LayoutLane lane = model::evaluate_layout_lane(access, a.tx);
    if (lane.offset != a.index) {
      throw std::logic_error("layout " + access.layout.text() + " gives lane " +
                             std::to_string(a.lane) + " offset " + std::to_string(lane.offset) +
                             " but its expression gives " + std::to_string(a.index));
    }
    offsets.push_back(lane.offset);
    lane_list[a.lane]["layout_index"] = lane.index;
    lane_list[a.lane]["coordinate"] = lane.coordinate.text();
  }
  l["offsets"] = offsets;
  return l;
}

// Lanes past the layout would get CuTe's spill-over of the last mode, not a coordinate: refused
// before the expression is evaluated (a negative index would otherwise be the first complaint).
void check_layout_lanes(const model::LayoutAccess& access, const model::AccessPattern& pattern) {
  for (int i = 0; i < model::kWarpSize; ++i) {
    const int tid = pattern.warp * model::kWarpSize + i;
    if (tid < pattern.block.threads())
      (void)model::evaluate_layout_lane(access, tid % pattern.block.x);
  }
}

}  // namespace

json analyze_json(const model::AccessPattern& pattern, model::HardwareModel hw,
                  const model::LayoutAccess* layout) {
  if (layout) {
    pattern.validate();
    check_layout_lanes(*layout, pattern);
  }
  const model::WarpAccesses lanes = model::evaluate_lanes(pattern);
  json r;
  r["space"] = model::to_string(pattern.space);
  r["op"] = model::to_string(pattern.op);
  r["word_bytes"] = pattern.word_bytes;
  r["index"] = pattern.index;
  r["block"] = model::to_string(pattern.block);
  r["warp"] = pattern.warp;
  r["grid"] = model::to_string(pattern.grid);
  r["block_index"] = model::to_string(pattern.block_index);
  r["model"] = model::to_string(hw);
  r["address_base"] = "256-byte aligned; addresses are byte offsets from it";

  json lane_list = json::array();
  if (pattern.space == model::Space::Global) {
    const auto a = model::analyze_global(lanes, pattern.word_bytes, pattern.op, hw);
    r["active_lanes"] = a.active_lanes;
    r["requests"] = a.requests;
    r["sectors_per_request"] = a.sectors.size();
    r["lines_per_request"] = a.lines.size();
    r["transactions_per_request"] = a.transactions;
    r["transaction_bytes"] = a.transaction_bytes;
    r["requested_bytes"] = a.requested_bytes;
    r["moved_bytes"] = a.moved_bytes;
    r["efficiency"] = a.efficiency();  // the contract's name; bytes_used says what it is
    r["bytes_used"] = a.efficiency();
    r["sectors"] = a.sectors;
    r["lines"] = a.lines;
    json ranges = json::array();
    for (const auto& t : a.transaction_ranges) ranges.push_back({t.begin, t.end});
    r["transaction_ranges"] = ranges;
    for (const auto& l : a.lanes) {
      json j = lane_json(l.access);
      if (l.access.active) {
        j["sector"] = l.sector;
        j["line"] = l.line;
      }
      lane_list.push_back(j);
    }
  } else {
    const auto a = model::analyze_shared(lanes, pattern.word_bytes, pattern.op, hw);
    r["active_lanes"] = a.active_lanes;
    r["requests"] = 1;
    r["wavefronts_per_request"] = a.wavefronts;
    r["bank_count"] = a.bank_count;
    r["bank_width_bytes"] = a.bank_width_bytes;
    r["broadcast"] = a.broadcast;
    r["requested_bytes"] = a.requested_bytes;
    r["moved_bytes"] = a.moved_bytes;
    // Shared memory's efficiency is wavefronts needed / used (a broadcast is 1, the best case);
    // the byte ratio, requested / moved, is byte_efficiency.
    r["min_wavefronts_per_request"] = a.min_wavefronts;
    r["efficiency"] = a.efficiency();  // the contract's name; wavefronts_needed says what it is
    r["wavefronts_needed"] = a.efficiency();
    r["byte_efficiency"] = a.byte_efficiency();
    json phases = json::array();
    for (const auto& p : a.phases) {
      phases.push_back({{"first_lane", p.first_lane},
                        {"lanes", p.lane_count},
                        {"wavefronts", p.wavefronts},
                        {"min_wavefronts", p.min_wavefronts},
                        {"broadcast", p.broadcast},
                        {"distinct_words_per_bank", p.distinct_words_per_bank}});
    }
    r["phases"] = phases;
    for (const auto& l : a.lanes) {
      json j = lane_json(l.access);
      if (l.access.active) {
        j["bank"] = l.bank;
        j["bank_words"] = l.bank_words;
        j["phase"] = l.phase;
      }
      lane_list.push_back(j);
    }
  }
  if (layout) r["layout"] = layout_json(*layout, lanes, lane_list);
  r["lanes"] = lane_list;
  return r;
}

std::string analyze_text(const json& r) {
  std::ostringstream out;
  const bool global = r["space"] == "global";
  const bool layout = r.contains("layout");
  out << r["space"].get<std::string>() << " " << r["op"].get<std::string>() << " of "
      << r["word_bytes"].get<int>() << "-byte words, "
      << (layout ? "layout " + r["layout"]["layout"].get<std::string>()
                 : "index " + r["index"].get<std::string>())
      << ", block " << r["block"].get<std::string>() << ", warp " << r["warp"].get<int>()
      << ", model " << r["model"].get<std::string>() << "\n";
  if (layout) {
    const json& l = r["layout"];
    out << "  layout              " << l["layout"].get<std::string>() << " (" << l["size"]
        << " coordinates, offsets in " << r["word_bytes"].get<int>() << "-byte elements)\n"
        << "  lane layout         "
        << (l["lane_layout"].is_null() ? "none: thread tx takes coordinate tx"
                                       : l["lane_layout"].get<std::string>() +
                                             ": thread tx takes coordinate lane_layout(tx)")
        << "\n"
        << "  as an index         " << l["expression"].get<std::string>() << "\n"
        << "  offsets             ";
    for (std::size_t i = 0; i < l["offsets"].size(); ++i) {
      out << (i ? " " : "") << (l["offsets"][i].is_null() ? "-" : l["offsets"][i].dump());
    }
    out << "\n";
  }
  char eff[32];
  std::snprintf(eff, sizeof eff, "%.1f %%", 100.0 * r["efficiency"].get<double>());
  out << "  active lanes        " << r["active_lanes"] << "\n";
  if (global) {
    out << "  requests            " << r["requests"] << "\n"
        << "  sectors per request " << r["sectors_per_request"] << " (32 B)\n"
        << "  lines per request   " << r["lines_per_request"] << " (128 B)\n"
        << "  transactions        " << r["transactions_per_request"] << " of "
        << r["transaction_bytes"] << " B\n";
  } else {
    out << "  wavefronts/request  " << r["wavefronts_per_request"] << " (" << r["phases"].size()
        << " phase(s), " << r["bank_count"] << " banks of " << r["bank_width_bytes"] << " B)\n"
        << "  broadcast           " << (r["broadcast"].get<bool>() ? "yes" : "no") << "\n";
  }
  out << "  bytes requested     " << r["requested_bytes"] << "\n"
      << "  bytes moved         " << r["moved_bytes"] << "\n";
  if (global) {
    out << "  bytes used          " << eff << " (bytes requested / moved)\n";
  } else {
    char bytes[32];
    std::snprintf(bytes, sizeof bytes, "%.1f %%", 100.0 * r["byte_efficiency"].get<double>());
    out << "  wavefronts needed   " << eff << " (" << r["min_wavefronts_per_request"] << " of "
        << r["wavefronts_per_request"] << ")\n"
        << "  bank bytes used     " << bytes << " (bytes requested / moved)\n";
  }
  out << (global ? "  lane  index    address  sector  line"
                 : "  lane  index    address  bank  phase")
      << (layout ? "  coordinate\n" : "\n");
  for (const auto& l : r["lanes"]) {
    char line[128];
    if (!l["active"].get<bool>()) {
      std::snprintf(line, sizeof line, "  %4d  inactive", l["lane"].get<int>());
    } else if (global) {
      std::snprintf(line, sizeof line, "  %4d %6lld %10lld %7lld %5lld", l["lane"].get<int>(),
                    l["index"].get<long long>(), l["address"].get<long long>(),
                    l["sector"].get<long long>(), l["line"].get<long long>());
    } else {
      std::snprintf(line, sizeof line, "  %4d %6lld %10lld %5d %6d", l["lane"].get<int>(),
                    l["index"].get<long long>(), l["address"].get<long long>(),
                    l["bank"].get<int>(), l["phase"].get<int>());
    }
    out << line;
    if (l.contains("coordinate")) out << "  " << l["coordinate"].get<std::string>();
    out << "\n";
  }
  return out.str();
}

}  // namespace warplens::app
