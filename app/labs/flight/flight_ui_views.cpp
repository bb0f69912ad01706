// The bytes-in-flight lab's big view, one function per section: the latency ladder, Little's law
// with the SM picture, and the staged copies' bars. Each lays itself out to the room it has with
// the shared helpers (view_layout.h); what does not fit goes to the aside.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "flight_ui.h"
#include "flight_ui_internal.h"
#include "layout_audit.h"
#include "legend_slot.h"
#include "plot.h"
#include "ui_widgets.h"

namespace warplens::app::flight_ui_detail {

namespace {

viz::Rgb series_color(const viz::Theme& theme, int i, int n) {
  return figure_color({FigureColor::Kind::Series, i, n}, theme);
}

float plot_lead(float font, float s) {
  return font * 1.6f + ImGui::CalcTextSize("0000").x + 20 * s;
}

/// The notes the view keeps over its picture (the rest go aside), then the room under them.
void draw_notes(const std::vector<ViewAside::Note>& notes, float keep_below,
                const viz::Theme& theme, ViewAside& aside) {
  float h = 0;
  const float width = ImGui::GetContentRegionAvail().x;
  for (const auto& n :
       fit_notes(notes, ImGui::GetContentRegionAvail().y - keep_below, width, aside, h))
    draw_note(n, theme);
}

}  // namespace

// --- latency ladder ----------------------------------------------------------------------------

void draw_latency_view(const FlightSession& session, const FlightResults& r,
                       const viz::ImGuiLayer& layer, const viz::Theme& theme, bool interactive,
                       ViewAside& aside) {
  const float s = layer.scale();
  const float font = ImGui::GetFontSize();
  const FlightModel& m = session.model();
  const float width = ImGui::GetContentRegionAvail().x;
  const FigurePlot data = latency_plot(session, r);
  const std::vector<viz::PlotSeries> series = plot_series(data, theme);
  const std::vector<viz::ReferenceLine> refs = plot_references(data, theme);
  const auto& pl = m.plateaus;
  heading(layer, fitting_heading(layer, "Latency ladder: one dependent load after another",
                                 "Latency ladder",
                                 plot_min_height(legend_entries(series, refs), width, s), ""));
  std::vector<ViewAside::Note> notes = {measured_note(session, r, !r.ladder.empty())};
  // The L1 size is the SM's unified L1 + shared memory; the carveout takes shared memory from it
  // (the cache lab's L1 at carveout 0 is this less what the driver keeps for itself).
  notes.push_back({format("Levels %s: L1 + shared memory %s per SM (a kernel without shared "
                          "memory gets nearly all of it as L1), L2 %s. Working sets from 4 KiB "
                          "to %s, one hop per 128-byte line in random order.",
                          m.from_device ? "from this device" : "assumed (an H100's; no device)",
                          kib_text(m.levels.l1_bytes).c_str(), kib_text(m.levels.l2_bytes).c_str(),
                          kib_text(m.working_sets.back()).c_str()),
                   false});
  if (pl.tlb_step_bytes)
    notes.push_back(
        {format("A step past %s: a TLB miss added to the DRAM latency (pages the TLB no "
                "longer covers).",
                kib_text(*pl.tlb_step_bytes).c_str()),
         false});
  draw_notes(notes, plot_min_height(legend_entries(series, refs), width, s), theme, aside);
  viz::PlotSpec spec = plot_spec(data);
  spec.x_marks = plot_x_marks(data, theme);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float lead = plot_lead(font, s);
  spec.x_label =
      fitting({"working set (KiB, log scale)", "working set (KiB)", "KiB"}, avail.x - lead);
  spec.y_label = fitting({"ns per dependent load (log scale)", "ns per load", "ns"},
                         avail.x - font * 1.6f - 4 * s);
  if ((avail.x - lead) / static_cast<float>(std::max<std::size_t>(spec.x_ticks.size(), 1)) <
      ImGui::CalcTextSize("100000").x + 8 * s) {
    std::vector<double> thin;
    for (std::size_t i = 0; i < spec.x_ticks.size(); i += 2) thin.push_back(spec.x_ticks[i]);
    spec.x_ticks = thin;
  }
  if (std::all_of(series.begin(), series.end(), [](const auto& se) { return se.x.empty(); }) &&
      refs.empty()) {
    // Nothing measured: the axes alone would mislead, so the room says what would be there.
    spec.log_y = false;
  }
  std::vector<PlotCell> cells = {{"ladder",
                                  legend_entries(series, refs),
                                  [&](float w, float h) {
                                    draw_wrapped_plot("flight-ladder", "latency", spec, series,
                                                      refs, w, h, theme, s, interactive, aside);
                                  },
                                  "ladder",
                                  {}}};
  draw_plot_grid("flight-ladder", cells, avail.x, avail.y, s);
}

// --- Little's law ------------------------------------------------------------------------------

float sm_picture_min_width(float s) {
  return ImGui::CalcTextSize("64 warps").x + 60 * s;
}

void draw_sm_picture(const gpu::SmPicture& pic, const viz::Theme& theme, float width, float height,
                     float s) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const float font = ImGui::GetFontSize();
  const std::string title = fitting(
      {format("one SM: %d warps \u00d7 %d load%s of %d B", pic.warps, pic.loads_per_warp,
              pic.loads_per_warp == 1 ? "" : "s", pic.bytes_per_load),
       format("%d warps \u00d7 %d \u00d7 %d B", pic.warps, pic.loads_per_warp, pic.bytes_per_load),
       format("%d \u00d7 %d", pic.warps, pic.loads_per_warp)},
      width);
  draw->AddText(o, to_imgui_color(theme.text), title.c_str());
  const std::string total =
      fitting({format("= %s in flight", kib_text(pic.bytes_in_flight).c_str()),
               kib_text(pic.bytes_in_flight)},
              width);
  draw->AddText({o.x, o.y + font * 1.2f}, to_imgui_color(theme.text), total.c_str());
  const float top = o.y + font * 2.6f;
  const float rows_h = std::max(height - font * 2.6f, 0.0f);
  const int warps = std::max(pic.warps, 1);
  const float row_h = std::min(rows_h / static_cast<float>(warps), font);
  const float label_w = ImGui::CalcTextSize("w00").x + 6 * s;
  const bool labels = row_h >= font * 0.9f;
  const float x0 = o.x + (labels ? label_w : 0);
  // The widest row (8 loads of 512 B) spans the room: a box's width is its bytes.
  const float per_byte = (o.x + width - x0) / (8.0f * 512.0f);
  const int shown = row_h >= 1.0f ? warps : static_cast<int>(rows_h);
  for (int w = 0; w < std::min(shown, pic.warps); ++w) {
    const float y = top + static_cast<float>(w) * row_h;
    const int block = pic.warps_per_block > 0 ? w / pic.warps_per_block : 0;
    const viz::Rgb c = theme.lanes[static_cast<std::size_t>((block * 7) % 24 + 4)];
    if (labels) draw->AddText({o.x, y}, to_imgui_color(theme.muted_text), format("w%d", w).c_str());
    for (int k = 0; k < pic.loads_per_warp; ++k) {
      const float bx = x0 + static_cast<float>(k * pic.bytes_per_load) * per_byte;
      const float bw = static_cast<float>(pic.bytes_per_load) * per_byte;
      draw->AddRectFilled({bx + 1, y + (row_h > 3 ? 0.5f : 0.0f)},
                          {bx + bw - 1, y + std::max(row_h - 1, 1.0f)}, to_imgui_color(c),
                          row_h > 6 ? 2 * s : 0);
    }
  }
  ImGui::Dummy({width, height});
}

void draw_littles_law_view(const FlightSession& session, const FlightResults& r,
                           const viz::ImGuiLayer& layer, const viz::Theme& theme, bool interactive,
                           ViewAside& aside) {
  const float s = layer.scale();
  const float font = ImGui::GetFontSize();
  const FlightModel& m = session.model();
  const FigurePlot data = littles_law_plot(session, r);
  const std::vector<viz::PlotSeries> series = plot_series(data, theme);
  const std::vector<viz::ReferenceLine> refs = plot_references(data, theme);
  const float width = ImGui::GetContentRegionAvail().x;
  // What the plot keeps below the heading and the notes: its least height beside the SM
  // picture, or, where the two cannot stand side by side, under the grid's picker row too.
  const float keep_below =
      width - std::max(width * 0.3f, sm_picture_min_width(s)) - 14 * s >= 18 * font
          ? plot_min_height(legend_entries(series, refs), width * 0.6f, s)
          : ImGui::GetFrameHeightWithSpacing() +
                plot_min_height(legend_entries(series, refs), width, s);
  heading(layer, fitting_heading(layer, "Little's law: bandwidth = bytes in flight \u00f7 latency",
                                 "Little's law", keep_below, ""));
  std::vector<ViewAside::Note> notes = {measured_note(session, r, !r.stream.empty())};
  if (!m.latency_measured)
    notes.push_back({format("Model latency %.0f ns is assumed (an H100's) until the latency "
                            "ladder (key 1, \"Latency\" in the panel) measures DRAM here.",
                            m.latency_ns),
                     false});
  // In pieces: format() holds 255 characters.
  notes.push_back({format("GB/s counts read + write, as the model does: 2 \u00d7 SMs \u00d7 "
                          "bytes in flight \u00f7 latency, %.0f ns idle (a warp's chase), twice "
                          "that at cudaMemcpy's rate, + %.2f ns per byte a warp waits for at once",
                          m.latency_ns, m.batch_ns_per_byte) +
                       flight_line_extras_text(m) +
                       format(". Knee: %s.", flight_knee_text(m).c_str()),
                   false});
  draw_notes(notes, keep_below, theme, aside);
  viz::PlotSpec spec = plot_spec(data);
  spec.x_marks = plot_x_marks(data, theme);  // the knee, and where the curve meets the cap
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const auto plot = [&](float w, float h) {
    viz::PlotSpec sp = spec;
    sp.x_label =
        fitting({"bytes in flight per SM (KiB, log scale)", "in flight per SM (KiB)", "KiB/SM"},
                w - plot_lead(font, s));
    sp.y_label = fitting({"GB/s (read + write, 10\u2079 B/s)", "GB/s"}, w - font * 1.6f - 4 * s);
    draw_wrapped_plot("flight-littles-law", "Little's law", sp, series, refs, w, h, theme, s,
                      interactive, aside);
  };
  const auto picture = [&](float w, float h) { draw_sm_picture(m.picture, theme, w, h, s); };
  std::vector<PlotCell> cells = {
      {"GB/s vs bytes in flight", legend_entries(series, refs), plot, "GB/s", {}},
      {"one SM", {}, picture, "SM", [&](float) { return font * 6; }}};
  // The SM picture takes a third of the width beside the plot where both fit, else the grid
  // shows them one at a time.
  const float pic_w = std::max(avail.x * 0.3f, sm_picture_min_width(s));
  const float plot_w = avail.x - pic_w - 14 * s;
  if (plot_w >= 18 * font && avail.y >= plot_min_height(cells.front().legend, plot_w, s)) {
    const ImVec2 o = ImGui::GetCursorScreenPos();
    ImGui::BeginGroup();
    plot(plot_w, avail.y);
    ImGui::EndGroup();
    ImGui::SetCursorScreenPos({o.x + plot_w + 14 * s, o.y});
    ImGui::BeginGroup();
    picture(pic_w, avail.y);
    ImGui::EndGroup();
    return;
  }
  draw_plot_grid("flight-littles-law", cells, avail.x, avail.y, s, true);
}

// --- asynchronous copies -------------------------------------------------------------------------

void draw_async_view(const FlightSession& session, const FlightResults& r,
                     const viz::ImGuiLayer& layer, const viz::Theme& theme, ViewAside& aside) {
  const float s = layer.scale();
  const float font = ImGui::GetFontSize();
  const FlightModel& m = session.model();
  const std::vector<AsyncBar> bars = async_bars(session, r);
  heading(layer, fitting_heading(layer, kAsyncTitle, "Asynchronous copies", font * 8, ""));
  std::vector<ViewAside::Note> notes = {measured_note(session, r, !r.async.empty())};
  notes.push_back(
      {"cp.async and the TMA stage the copy through shared memory: the stages are in "
       "flight, not registers, so a few threads keep many bytes outstanding.",
       false});
  // Bars not measured are the model's: the bytes each keeps in flight per SM (the length, of the
  // most here), in the model's colour as the other labs' model lines and bars, and said so.
  const auto modelled = [](const AsyncBar& b) {
    return b.gbps <= 0 && b.bytes_in_flight > 0 && b.unsupported.empty();
  };
  if (std::any_of(bars.begin(), bars.end(), modelled))
    notes.push_back(
        {"Tinted, outlined bars are the model's: bytes in flight per SM (their length, "
         "of the most here); a GPU's copies fill them with measured GB/s.",
         false});
  const float row_h = font * 2.4f;
  draw_notes(notes, row_h * static_cast<float>(bars.size()), theme, aside);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  float name_w = 0;
  for (const auto& b : bars) name_w = std::max(name_w, ImGui::CalcTextSize(b.brief.c_str()).x);
  bool long_names = true;
  for (const auto& b : bars)
    if (ImGui::CalcTextSize(b.name.c_str()).x > avail.x * 0.34f) long_names = false;
  if (long_names) {
    name_w = 0;
    for (const auto& b : bars) name_w = std::max(name_w, ImGui::CalcTextSize(b.name.c_str()).x);
  }
  name_w += 10 * s;
  const float bar_room = std::max(avail.x - name_w, 1.0f);
  double top = std::max(m.theoretical_gbps, m.peak_gbps);
  std::int64_t most = 1;
  for (const auto& b : bars) {
    top = std::max(top, b.gbps);
    most = std::max(most, b.bytes_in_flight);
  }
  const float rh =
      std::min(row_h, avail.y / static_cast<float>(std::max<std::size_t>(bars.size(), 1)));
  if (rh < font * 1.05f)
    audit_finding("hidden", format("flight async view: bars have %.0f px rows", rh));
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const AsyncBar& b = bars[i];
    const float y = o.y + static_cast<float>(i) * rh;
    draw->AddText({o.x, y + 0.5f * (rh - font)}, to_imgui_color(theme.text),
                  (long_names ? b.name : b.brief).c_str());
    const float x0 = o.x + name_w;
    // What the bar says, longest first: its GB/s and bytes in flight, or why it is empty.
    const std::string flight = kib_text(b.bytes_in_flight) + " in flight/SM";
    std::vector<std::string> says;
    if (!b.unsupported.empty()) {
      says = {b.unsupported, "needs a newer GPU", "n/a"};
    } else if (b.gbps > 0) {
      says = {format("%.0f GB/s \u2022 %s", b.gbps, flight.c_str()), format("%.0f GB/s", b.gbps)};
    } else if (b.bytes_in_flight > 0) {
      says = {"model: " + flight + " \u2022 GB/s " + b.pending, "model: " + flight,
              "model: " + kib_text(b.bytes_in_flight), kib_text(b.bytes_in_flight)};
    } else {
      says = {b.pending, "\u2014"};
    }
    float text_x = x0 + 4 * s, text_room = bar_room - 8 * s;
    if (modelled(b)) {
      // Not measured: the model's bar, tinted and outlined in the model's colour; its words
      // after it where they do not fit inside.
      const float w = bar_room * static_cast<float>(b.bytes_in_flight) / static_cast<float>(most);
      draw->AddRectFilled({x0, y + rh * 0.12f}, {x0 + w, y + rh * 0.88f},
                          to_imgui_color(theme.overfetch, 0.18f), 2 * s);
      draw->AddRect({x0, y + rh * 0.12f}, {x0 + w, y + rh * 0.88f}, to_imgui_color(theme.overfetch),
                    2 * s, 0, 2.0f * s);
      // Inside the bar or after it, whichever shows more of its words (never across its edge).
      const float inside = w - 8 * s, after = bar_room - w - 12 * s;
      const auto most_words = [&](float room) {
        for (std::size_t k = 0; k < says.size(); ++k)
          if (ImGui::CalcTextSize(says[k].c_str()).x <= room) return k;
        return says.size();
      };
      const std::size_t in = most_words(inside), out = most_words(after);
      if (out < in) {
        text_x = x0 + w + 6 * s;
        text_room = after;
      } else if (in < says.size()) {
        text_room = inside;
      }
    }
    if (b.gbps > 0) {
      const float w = bar_room * static_cast<float>(b.gbps / top);
      draw->AddRectFilled(
          {x0, y + rh * 0.12f}, {x0 + w, y + rh * 0.88f},
          to_imgui_color(series_color(theme, static_cast<int>(i), static_cast<int>(bars.size()))),
          2 * s);
    }
    std::string shown = says.back();
    for (const auto& t : says)
      if (ImGui::CalcTextSize(t.c_str()).x <= text_room) {
        shown = t;
        break;
      }
    if (ImGui::CalcTextSize(shown.c_str()).x > text_room) shown = fitting({shown}, text_room);
    draw->AddText({text_x, y + 0.5f * (rh - font)}, to_imgui_color(theme.text), shown.c_str());
  }
  ImGui::Dummy({avail.x, rh * static_cast<float>(bars.size())});
}

}  // namespace warplens::app::flight_ui_detail
