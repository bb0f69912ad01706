// The bytes-in-flight lab's UI entry points: the parameter panel, the view (which hands each
// section to flight_ui_views.cpp), the numbers, the presenter's knobs and key numbers, the status
// line, and the text helpers the views share.
#include "flight_ui.h"

#include <imgui.h>

#include <algorithm>
#include <string>
#include <tuple>

#include "flight_knobs.h"
#include "flight_ui_internal.h"
#include "knob_widgets.h"
#include "lab_panel.h"
#include "legend_slot.h"
#include "ui_widgets.h"

namespace warplens::app {

namespace flight_ui_detail {

std::string kib_text(std::int64_t bytes) {
  if (bytes >= (std::int64_t{1} << 20)) {
    const double mib = static_cast<double>(bytes) / (1 << 20);
    return bytes % (1 << 20) == 0 ? format("%.0f MiB", mib) : format("%.1f MiB", mib);
  }
  if (bytes >= 1024) {
    const double k = static_cast<double>(bytes) / 1024;
    return bytes % 1024 == 0 ? format("%.0f KiB", k) : format("%.1f KiB", k);
  }
  return format("%lld B", static_cast<long long>(bytes));
}

std::string flight_knee_text(const FlightModel& m) {
  return format("%s per SM (idle-latency line; the curve meets cudaMemcpy at %s)",
                kib_text(static_cast<std::int64_t>(m.knee_bytes)).c_str(),
                kib_text(static_cast<std::int64_t>(flight_line_meets_peak_bytes(m))).c_str());
}

MeasureProgress measure_progress(const FlightSession& session, const FlightResults& r) {
  return {session.gpu_mode(), session.no_gpu_text(), r.busy, r.done, r.total,
          r.status,           session.error()};
}

ViewAside::Note measured_note(const FlightSession& session, const FlightResults& r, bool have) {
  return measured_state_note(measure_progress(session, r), have);
}

std::vector<AsyncBar> async_bars(const FlightSession& session, const FlightResults& r) {
  const FlightModel& m = session.model();
  const std::string pending = session.gpu_mode() ? "not measured yet" : "needs a GPU";
  std::vector<AsyncBar> bars;
  for (const auto& p : plain_bar_copies()) {
    AsyncBar b;
    b.name = format("plain, %d B \u00d7 %d load%s%s", p.word_bytes, p.loads_per_thread,
                    p.loads_per_thread == 1 ? "" : "s", p.grid_stride ? ", grid-stride" : "");
    b.brief = format("%d B \u00d7 %d", p.word_bytes, p.loads_per_thread);
    b.pending = pending;
    if (const auto* s = find_stream(r, p)) {
      b.gbps = s->gbps;
      b.bytes_in_flight = s->bytes_in_flight_per_sm;
    } else {
      const auto res = gpu::predict_residency(p, m.sm, gpu::estimated_stream_registers(p));
      b.bytes_in_flight =
          gpu::bytes_in_flight_per_sm(res.warps_per_sm, p.loads_per_thread, p.word_bytes);
    }
    bars.push_back(b);
  }
  for (auto kind : {gpu::AsyncKind::CpAsync, gpu::AsyncKind::Tma}) {
    AsyncBar b;
    const bool cp = kind == gpu::AsyncKind::CpAsync;
    b.name = cp ? format("cp.async, %d threads", gpu::kCpAsyncThreads)
                : std::string("TMA bulk copy, 1 thread/block");
    b.brief = cp ? "cp.async" : "TMA";
    b.pending = pending;
    const auto blocks =
        static_cast<int>(m.sm.shared_bytes_per_sm /
                         (gpu::async_block_shared_bytes(kind) + m.sm.reserved_shared_per_block));
    b.bytes_in_flight = blocks * gpu::async_block_bytes_in_flight(kind);
    if (auto why = gpu::async_unsupported(kind, m.cc_major, m.cc_minor)) b.unsupported = *why;
    for (const auto& a : r.async) {
      if (a.kind != kind) continue;
      if (a.unsupported) {
        b.unsupported = *a.unsupported;
      } else {
        b.gbps = a.gbps;
        b.bytes_in_flight = a.bytes_in_flight_per_sm;
      }
    }
    bars.push_back(b);
  }
  AsyncBar mc;
  mc.name = "cudaMemcpy";
  mc.brief = "memcpy";
  mc.pending = pending;
  if (r.memcpy) mc.gbps = r.memcpy->gbps;
  bars.push_back(mc);
  return bars;
}

}  // namespace flight_ui_detail

using namespace flight_ui_detail;

namespace {

constexpr const char* kDash = "\u2014";

const char* section_label(FlightSection s) {
  switch (s) {
    case FlightSection::Latency: return "Latency";
    case FlightSection::LittlesLaw: return "Little's law";
    case FlightSection::Async: return "Async";
  }
  return "?";
}

std::string residency_text(const FlightModel& m) {
  return format("%d warps/SM (%d blocks), limited by %s%s", m.residency.warps_per_sm,
                m.residency.blocks_per_sm, m.residency.limiter.c_str(),
                m.residency_measured ? " (occupancy API)" : " (model)");
}

const gpu::StreamMeasurement* current_stream(const FlightSession& session, const FlightResults& r) {
  return find_stream(r, session.state().stream);
}

}  // namespace

namespace flight_ui_detail {

std::vector<NumberRow> flight_number_rows(const FlightSession& session, const FlightResults& r) {
  const FlightModel& m = session.model();
  std::vector<NumberRow> rows;
  const auto row = [&](const std::string& what, const std::string& value, bool measured = false) {
    rows.push_back({what, value, measured});
  };
  const auto opt_ns = [](const std::optional<double>& v, const std::optional<double>& c) {
    return v ? format("%.0f ns (%.0f cycles)", *v, c.value_or(0)) : std::string(kDash);
  };
  switch (session.state().section) {
    case FlightSection::Latency:
      row("L1 plateau (default, 1 lane)", opt_ns(m.plateaus.l1_ns, m.plateaus.l1_cycles),
          m.plateaus.l1_ns.has_value());
      row("L2 plateau", opt_ns(m.plateaus.l2_ns, m.plateaus.l2_cycles),
          m.plateaus.l2_ns.has_value());
      row("DRAM plateau", opt_ns(m.plateaus.dram_ns, m.plateaus.dram_cycles),
          m.plateaus.dram_ns.has_value());
      row("TLB step",
          m.plateaus.tlb_step_bytes ? kib_text(*m.plateaus.tlb_step_bytes) : std::string(kDash),
          m.plateaus.tlb_step_bytes.has_value());
      row("device levels", format("L1 %s, L2 %s", kib_text(m.levels.l1_bytes).c_str(),
                                  kib_text(m.levels.l2_bytes).c_str()));
      break;
    case FlightSection::LittlesLaw: {
      const auto* cur = current_stream(session, r);
      row("resident warps per SM", residency_text(m));
      row("bytes in flight per SM",
          format("%d warps \u00d7 32 \u00d7 %d \u00d7 %d B = %s", m.picture.warps,
                 m.picture.loads_per_warp, session.state().stream.word_bytes,
                 kib_text(m.picture.bytes_in_flight).c_str()));
      row("model GB/s",
          // As short as the old line's: the legend and the notes say the rest (per warp; near
          // the wall, the probe's latency).
          // (The divisor is cudaMemcpy's GB/s, not the theoretical peak.)
          format("%.0f (%.0f ns%s \u00d7 (1 + GB/s \u00f7 %.0f%s) + %.2f ns/B%s \u00d7 %.0f B)",
                 m.predicted_gbps, m.latency_ns, m.latency_measured ? "" : " assumed", m.peak_gbps,
                 m.peak_measured ? "" : " assumed", m.batch_ns_per_byte,
                 m.batch_measured ? "" : " assumed", m.warp_batch_bytes));
      row("measured GB/s",
          cur ? format("%.0f (%s)", cur->gbps, cur->verified ? "verified" : "WRONG")
              : std::string(session.gpu_mode() ? "not measured yet" : "needs a GPU"),
          cur != nullptr);
      row("knee (idle line)",
          format("%s per SM", kib_text(static_cast<std::int64_t>(m.knee_bytes)).c_str()));
      row("curve meets cudaMemcpy",
          format("%s per SM",
                 kib_text(static_cast<std::int64_t>(flight_line_meets_peak_bytes(m))).c_str()));
      row("points measured", format("%zu", r.stream.size()), !r.stream.empty());
      break;
    }
    case FlightSection::Async:
      for (const auto& b : async_bars(session, r))
        row(b.name,
            !b.unsupported.empty() ? b.unsupported
            : b.gbps > 0
                ? format("%.0f GB/s, %s in flight/SM", b.gbps, kib_text(b.bytes_in_flight).c_str())
                : b.pending,
            b.unsupported.empty() && b.gbps > 0);
      break;
  }
  return rows;
}

}  // namespace flight_ui_detail

void draw_flight_parameters(FlightSession& session, const FlightResults& r, const viz::Theme& theme,
                            ImVec2 pos, ImVec2 size, bool interactive,
                            const std::function<void()>& header) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin("Parameters##flight", nullptr, kPanelFlags);
  if (header) header();
  FlightState st = session.state();
  const FlightModel& m = session.model();
  label("Bytes in flight");
  const float third =
      (ImGui::GetContentRegionAvail().x - 2 * ImGui::GetStyle().ItemSpacing.x) / 3.0f;
  for (auto sec : {FlightSection::Latency, FlightSection::LittlesLaw, FlightSection::Async}) {
    if (sec != FlightSection::Latency) ImGui::SameLine();
    if (section_button(section_label(sec), st.section == sec, third)) st.section = sec;
  }
  ImGui::Separator();
  ImGui::TextDisabled("%s", m.device_text.c_str());
  switch (st.section) {
    case FlightSection::Latency: {
      label("Working set (the ringed point)");
      int index = 0;
      for (std::size_t i = 0; i < m.working_sets.size(); ++i)
        if (m.working_sets[i] == st.working_set_bytes) index = static_cast<int>(i);
      ImGui::SetNextItemWidth(-1);
      if (ImGui::SliderInt("##ws", &index, 0, static_cast<int>(m.working_sets.size()) - 1,
                           kib_text(m.working_sets[static_cast<std::size_t>(index)]).c_str()))
        st.working_set_bytes = m.working_sets[static_cast<std::size_t>(index)];
      ImGui::TextWrapped("Rows: default and __ldcg loads, one lane and one warp of 32 lanes.");
      break;
    }
    case FlightSection::LittlesLaw: {
      label("Word size per load");
      radio_row<int>("word", st.stream.word_bytes, {{4, "4 B"}, {8, "8 B"}, {16, "16 B"}});
      label("Independent loads per thread");
      radio_row<int>("loads", st.stream.loads_per_thread, {{1, "1"}, {2, "2"}, {4, "4"}, {8, "8"}});
      label("Threads per block");
      radio_row<int>("block", st.stream.block_threads, {{64, "64"}, {128, "128"}, {256, "256"}});
      radio_row<int>("block-big", st.stream.block_threads, {{512, "512"}, {1024, "1024"}});
      label("Dynamic shared memory per block (KiB)");
      int dyn = static_cast<int>(st.stream.dynamic_shared_bytes / 1024);
      ImGui::SetNextItemWidth(-1);
      if (ImGui::SliderInt("##dyn", &dyn, 0, static_cast<int>(m.sm.shared_optin_per_block / 1024),
                           "%d KiB"))
        st.stream.dynamic_shared_bytes = std::int64_t{dyn} * 1024;
      ImGui::Checkbox("grid-stride loop", &st.stream.grid_stride);
      ImGui::TextWrapped("%s; %s in flight per SM.", residency_text(m).c_str(),
                         kib_text(m.picture.bytes_in_flight).c_str());
      break;
    }
    case FlightSection::Async:
      ImGui::TextWrapped(
          "The copy staged through shared memory by cp.async (CC 8.0+) and by the "
          "TMA's bulk copy (CC 9.0), beside the plain copies and cudaMemcpy.");
      break;
  }
  if (!(st == session.state())) session.set(st);
  ImGui::Separator();
  if (draw_measure_footer(measure_progress(session, r), theme, interactive)) session.remeasure();
  ImGui::End();
}

void draw_flight_view(FlightSession& session, const FlightResults& r, const viz::ImGuiLayer& layer,
                      const viz::Theme& theme, ImVec2 pos, ImVec2 size, bool interactive,
                      ViewAside& aside, const char* side_name) {
  aside = {};
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  // A/B compare draws two views: the side's name keeps their windows apart.
  const std::string title =
      side_name ? std::string(side_name) + ": Bytes in flight##flight-view-" + side_name
                : std::string("Bytes in flight##flight-view");
  ImGui::Begin(title.c_str(), nullptr,
               kPanelFlags | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse |
                   (open_legend_slot() ? ImGuiWindowFlags_NoTitleBar : 0));
  switch (session.state().section) {
    case FlightSection::Latency:
      draw_latency_view(session, r, layer, theme, interactive, aside);
      break;
    case FlightSection::LittlesLaw:
      draw_littles_law_view(session, r, layer, theme, interactive, aside);
      break;
    case FlightSection::Async: draw_async_view(session, r, layer, theme, aside); break;
  }
  ImGui::End();
  if (LegendSlot* slot = open_legend_slot(); slot && !aside.empty())
    aside.hand_to(*slot, theme, layer.scale());
}

void draw_flight_numbers(const FlightSession& session, const FlightResults& r,
                         const viz::Theme& theme, ImVec2 pos, ImVec2 size, const ViewAside& aside,
                         float scale) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin("Numbers##flight", nullptr, kPanelFlags);
  aside.draw(theme, scale);
  const auto row = [](const std::string& what, const std::string& value) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(what.c_str());
    ImGui::TableSetColumnIndex(1);
    ImGui::TextUnformatted(value.c_str());
  };
  const ImGuiTableFlags flags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
  if (ImGui::BeginTable("flight-numbers", 2, flags)) {
    for (const NumberRow& n : flight_number_rows(session, r)) row(n.what, n.value);
    ImGui::EndTable();
  }
  ImGui::End();
}

namespace {

// The lab's knobs with the ladder's working sets, which are a device's (its L2) and which the
// table cannot know: made once per list, not every frame (the UI's thread).
const std::vector<Knob<FlightState>>& strip_knobs(const std::vector<std::int64_t>& working_sets) {
  static std::vector<Knob<FlightState>> knobs;
  static std::vector<std::int64_t> made_for;
  if (knobs.empty() || made_for != working_sets) {
    knobs = flight_knobs();
    for (auto& k : knobs)
      if (k.key == "working_set_kib") {
        k.values.clear();
        for (const std::int64_t bytes : working_sets) k.values.push_back(bytes / 1024);
      }
    made_for = working_sets;
  }
  return knobs;
}

}  // namespace

void draw_flight_knobs(FlightSession& session, float s) {
  FlightState st = session.state();
  // The section's knobs (their `strip` in flight_knobs.cpp).
  draw_strip_knobs(strip_knobs(session.model().working_sets), st, 8 * s);
  if (!(st == session.state())) session.set(st);
}

std::vector<KeyNumber> flight_key_numbers(const FlightSession& session, const FlightResults& r) {
  const FlightModel& m = session.model();
  const bool gpu = session.gpu_mode();
  const auto pending = [&](const std::string& what) -> KeyNumber {
    if (!gpu) return {what, kDash, "needs a GPU"};
    return {what, r.busy ? "measuring\u2026" : kDash, r.busy ? r.status : "not measured yet"};
  };
  std::vector<KeyNumber> k;
  switch (session.state().section) {
    case FlightSection::Latency:
      // Without a GPU the chart draws the model's plateaus (an H100's, assumed): the numbers say
      // the same, marked as the model's.
      for (const auto& [name, v, assumed] :
           {std::tuple{"L1 latency", m.plateaus.l1_ns, kAssumedLadderL1Ns},
            std::tuple{"L2 latency", m.plateaus.l2_ns, kAssumedLadderL2Ns},
            std::tuple{"DRAM latency", m.plateaus.dram_ns, kAssumedLadderDramNs}})
        k.push_back(v     ? KeyNumber{name, format("%.0f ns", *v), "default loads, one lane"}
                    : gpu ? pending(name)
                          : KeyNumber{std::string(name) + ", model",
                                      format("\u2248 %.0f ns", assumed), ""});
      // Model only: what the three assume, said once under the last.
      if (!gpu && !m.plateaus.dram_ns) {
        k.back().note = "the model's: an H100's, assumed (measuring needs a GPU)";
        // The plateau above is one lane's; Little's law starts from a warp's chase (32 lines in
        // flight), which the look-for text names: its number here, so the two screens agree.
        k.push_back({"DRAM latency, a warp's chase, model: the idle latency of Little's law",
                     format("\u2248 %.0f ns", kAssumedDramNs), ""});
      }
      break;
    case FlightSection::LittlesLaw: {
      k.push_back({format("bytes in flight per SM: %d warps \u00d7 %d load%s \u00d7 %d B",
                          m.picture.warps, m.picture.loads_per_warp,
                          m.picture.loads_per_warp == 1 ? "" : "s", m.picture.bytes_per_load),
                   kib_text(m.picture.bytes_in_flight), ""});
      k.push_back({format("model: %.0f %% of cudaMemcpy%s", 100 * m.predicted_gbps / m.peak_gbps,
                          m.latency_measured ? "" : " (latency assumed)"),
                   format("%.0f GB/s", m.predicted_gbps), ""});
      if (const auto* cur = current_stream(session, r))
        k.push_back({format("measured: %.0f %% of cudaMemcpy", 100 * cur->gbps / m.peak_gbps),
                     format("%.0f GB/s", cur->gbps), ""});
      else
        k.push_back(pending("measured"));
      break;
    }
    case FlightSection::Async: {
      for (const auto& b : async_bars(session, r)) {
        if (b.brief != "cp.async" && b.brief != "TMA") continue;
        if (!b.unsupported.empty())
          k.push_back({b.brief, kDash, b.unsupported});
        else if (b.gbps > 0)
          k.push_back({b.brief, format("%.0f GB/s", b.gbps),
                       kib_text(b.bytes_in_flight) + " in flight per SM"});
        else if (!gpu && b.bytes_in_flight > 0)
          // Without a GPU the model's bytes in flight, as its bars draw them.
          k.push_back({b.brief + ": bytes in flight per SM (model); GB/s needs a GPU",
                       kib_text(b.bytes_in_flight), ""});
        else
          k.push_back(pending(b.brief));
      }
      break;
    }
  }
  return k;
}

std::string flight_status_text(const FlightSession& session, const FlightResults& r) {
  return sectioned_status_text("bytes in flight", to_string(session.state().section),
                               session.model().device_text, session.gpu_mode(), r.busy, r.status);
}

Headline flight_headline(const FlightSession& session, const FlightResults& r) {
  Headline h;
  h.unit = "GB/s";
  const auto& p = session.state().stream;
  h.what = format("copy %d B \u00d7 %d loads, read + write", p.word_bytes, p.loads_per_thread);
  if (const auto* cur = current_stream(session, r)) {
    h.value = cur->gbps;
    if (!cur->verified) h.note = "WRONG RESULT";
  }
  // Busy until the panel's own point is in: the section goes on measuring its grid for
  // seconds after it (flight_session.cpp measures that point first), and the number shown is
  // already the measurement of these parameters.
  h.busy = r.busy && !h.value;
  if (!session.gpu_mode()) h.note = "no GPU";
  return h;
}

}  // namespace warplens::app
