#include "ui_widgets.h"

#include "layout_audit.h"

#include <algorithm>

namespace warplens::app {

std::string with_thousands(std::int64_t v) {
  std::string digits = std::to_string(v), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0 && digits[i - 1] != '-') out += ',';
    out += digits[i];
  }
  return out;
}

std::string bytes_text(std::int64_t bytes) {
  return format("%lld B", static_cast<long long>(bytes));
}

std::string percent_text(double fraction) {
  return format("%.1f %%", 100.0 * fraction);
}

void stat_row(const char* name, const std::string& model, const std::string& traced,
              bool show_traced, const char* tooltip) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(name);
  if (tooltip && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tooltip);
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(model.c_str());
  ImGui::TableNextColumn();
  if (!show_traced) {
    ImGui::TextDisabled("\u2014");
  } else {
    ImGui::TextUnformatted(traced.c_str());
    ImGui::SameLine();
    if (traced == model) {
      ImGui::TextDisabled("\u2713");
    } else {
      ImGui::TextColored({0.85f, 0.2f, 0.1f, 1}, "\u2717 differs");
    }
  }
}

void draw_counter_line(const std::optional<LabCounters>& counters, bool current, bool busy,
                       bool gpu_mode, const char* unit) {
  ImGui::Spacing();
  if (!gpu_mode) {
    ImGui::TextDisabled("hardware counters: need a CUDA device");
    return;
  }
  if (!counters || (!current && busy)) {
    ImGui::TextDisabled("hardware counters: %s", busy ? "reading\u2026" : "\u2014");
    return;
  }
  if (!counters->check || !counters->check->hardware) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored({0.85f, 0.45f, 0.1f, 1}, "%s",
                       counters->unavailable.empty() ? "hardware counters: not read"
                                                     : counters->unavailable.c_str());
    ImGui::PopTextWrapPos();
    return;
  }
  const CounterCheck& c = *counters->check;
  ImGui::TextDisabled("hardware counters (CUPTI, whole launch):");
  const bool hovered_title = ImGui::IsItemHovered();
  const std::string text = format("GPU %.2f %s/request, model %.2f", *c.hardware, unit, c.model);
  if (current) {
    ImGui::TextUnformatted(text.c_str());
  } else {
    ImGui::TextDisabled("%s", text.c_str());
  }
  const bool hovered_text = ImGui::IsItemHovered();
  ImGui::SameLine();
  if (c.agree) {
    ImGui::TextColored({0.1f, 0.55f, 0.25f, 1}, "\u2713 agrees");
  } else {
    ImGui::TextColored({0.85f, 0.2f, 0.1f, 1}, "\u2717 differs");
  }
  if (hovered_title || hovered_text || ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "CUPTI range profiler, a dedicated launch (not the timed one):\n%s\n"
        "%d pass%s, read in %.0f ms%s%s",
        c.metric.c_str(), c.passes, c.passes == 1 ? "" : "es", c.readout_ms,
        c.note.empty() ? "" : "\n", c.note.c_str());
  }
}

std::string fitting_title(std::initializer_list<std::string> titles, float width) {
  const float room =
      width - 2 * ImGui::GetStyle().FramePadding.x - 2 * ImGui::GetStyle().WindowBorderSize;
  for (const std::string& t : titles)
    if (ImGui::CalcTextSize(t.c_str()).x <= room) return t;
  return *(titles.end() - 1);
}

bool begin_stat_table(const char* id, bool show_traced) {
  if (!ImGui::BeginTable(id, 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH))
    return false;
  ImGui::TableSetupColumn("per warp request", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("model (predicted)");
  ImGui::TableSetupColumn(show_traced ? "GPU trace" : "GPU trace (no GPU)");
  ImGui::TableHeadersRow();
  return true;
}

void global_stat_rows(const model::GlobalAnalysis& p, const std::optional<model::GlobalAnalysis>& t,
                      bool historical) {
  using G = model::GlobalAnalysis;
  const auto row = [&](const char* name, auto get, const char* tip) {
    stat_row(name, get(p), t ? get(*t) : std::string(), t.has_value(), tip);
  };
  row(
      "requests", [](const G& a) { return std::to_string(a.requests); },
      "memory requests one warp-wide load instruction makes (1 on CC 7.0+)");
  row(
      "active lanes", [](const G& a) { return std::to_string(a.active_lanes); }, nullptr);
  row(
      "sectors (32 B)", [](const G& a) { return std::to_string(a.sectors.size()); },
      "distinct 32-byte sectors the active lanes touch: the unit DRAM and L2 move");
  if (historical) {
    row(
        "transactions",
        [](const G& a) {
          return std::to_string(a.transactions) +
                 (a.transaction_bytes ? " \u00d7 " + std::to_string(a.transaction_bytes) + " B"
                                      : "");
        },
        "memory transactions of the chosen historical model (Programming Guide, CC 1.x-3.x)");
  }
  row(
      "lines (128 B)", [](const G& a) { return std::to_string(a.lines.size()); },
      "distinct 128-byte cache lines touched");
  row(
      "bytes requested", [](const G& a) { return bytes_text(a.requested_bytes); },
      "distinct bytes the lanes asked for");
  row(
      "bytes moved", [](const G& a) { return bytes_text(a.moved_bytes); },
      "the transactions' bytes (sectors x 32 bytes on CC 7.0+)");
  row(
      "efficiency", [](const G& a) { return percent_text(a.efficiency()); },
      "bytes requested / bytes moved");
  const bool store = p.op == model::Op::Store;
  row(
      store ? "stores per KiB" : "loads per KiB",
      [](const G& a) {
        const int per_request = std::max(1, a.active_lanes) * a.word_bytes;
        return std::to_string((1024 + per_request - 1) / per_request);
      },
      store ? "warp-wide store instructions it takes to write 1 KiB from registers: 16-byte "
              "vectors need a quarter of the instructions 4-byte words do"
            : "warp-wide load instructions it takes to bring 1 KiB into registers: 16-byte "
              "vectors need a quarter of the instructions 4-byte words do");
}

std::string counters_summary(const std::optional<LabCounters>& counters, bool busy,
                             const char* unit) {
  if (!counters) return busy ? "reading\u2026" : "\u2014";
  if (!counters->unavailable.empty()) return counters->unavailable;
  if (!counters->check || !counters->check->hardware) return "\u2014";
  const CounterCheck& c = *counters->check;
  return format("%.2f %s (model %.2f) %s", *c.hardware, unit, c.model,
                c.agree ? "\u2713" : "\u2717 differs");
}

std::string headline_text(const std::optional<double>& value, const std::string& unit,
                          const std::string& note, bool busy) {
  if (value) return format("%.0f %s", *value, unit.c_str()) + (note.empty() ? "" : "  " + note);
  if (!note.empty()) return note;
  return busy ? "measuring\u2026" : "\u2014";
}

}  // namespace warplens::app
