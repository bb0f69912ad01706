// The cache lab's Carveout section: the unified L1 + shared capacity bar with the chosen
// carveout, one SM's resident blocks of the shared-hungry kernel, and the three plots under
// them (occupancy vs dynamic shared memory, the sweep's time and resident blocks per carveout).
#include "cache_ui_internal.h"

#include <imgui.h>

#include <algorithm>
#include <climits>
#include <string>
#include <vector>

#include "plot.h"
#include "ui_widgets.h"

namespace warplens::app::cache_ui_detail {

namespace {

viz::Rgb shared_color(const viz::Theme& theme) {
  return theme.sector;
}
viz::Rgb l1_color(const viz::Theme& theme) {
  return theme.lanes[21];
}

// The three plots under the carveout drawing: occupancy against dynamic shared memory at the
// chosen carveout, and the shared-hungry kernel's time and resident blocks against the capacity
// each carveout of the sweep asks for, at the chosen dynamic shared memory.
void draw_carveout_plots(const CacheSession& session, const CacheResults& r,
                         const viz::ImGuiLayer& layer, const viz::Theme& theme, bool interactive) {
  const float s = layer.scale();
  const CacheModel& m = session.model();
  const CacheState& st = session.state();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float gap = 14 * s;
  const float w = (avail.x - 2 * gap) / 3;
  const float h = std::max(avail.y - 4 * s, 150 * s);
  const int warps = std::max(m.threads_per_block / 32, 1);
  const int max_warps = std::max(m.max_threads_per_sm / 32, 1);
  const int full = max_warps / warps;  // blocks per SM at 100 % occupancy
  const bool have_carveout =
      r.carveout_of && same_cache_measurement(CacheSection::Carveout, *r.carveout_of, st);
  const viz::Rgb model_color = theme.overfetch;
  const viz::Rgb api_color = series_color(theme, 0, 3);
  const viz::Rgb seen_color = series_color(theme, 2, 3);

  // (a) Occupancy against dynamic shared memory, at the chosen carveout.
  {
    viz::PlotSeries model{"model", model_color, {}, {}, {}, {}, true, false, -1};
    for (std::size_t i = 0; i < m.sweep.size(); ++i) {
      const auto& row = m.sweep[i];
      if (row.dynamic_shared_bytes == st.dynamic_shared_bytes)
        model.highlight = static_cast<int>(i);
      model.x.push_back(static_cast<double>(row.dynamic_shared_bytes) / 1024.0);
      model.y.push_back(row.blocks_per_sm);
    }
    viz::PlotSeries api{"occupancy API", api_color, {}, {}, {}, {}, false, true, -1};
    for (const auto& o : r.occupancy) {
      if (o.carveout != st.carveout || !have_carveout) continue;
      api.x.push_back(static_cast<double>(o.dynamic_shared_bytes) / 1024.0);
      api.y.push_back(o.blocks_per_sm);
    }
    viz::PlotSpec spec;
    spec.x_label = "dynamic shared memory per block (KiB)";
    spec.y_label = format("blocks per SM (%d = 100 %%), carveout %s", full,
                          carveout_text(st.carveout).c_str());
    spec.x_min = 0;
    spec.x_max = std::max(8.0, static_cast<double>(m.optin_limit_bytes) / 1024.0 + 4);
    spec.x_ticks = viz::nice_ticks(0, spec.x_max - 4, 5);
    spec.value_unit = "blocks/SM";
    const std::vector<viz::ReferenceLine> refs = {
        {"100 % occupancy", theme.muted_text, static_cast<double>(full)}};
    viz::draw_plot("occupancy", spec, {model, api}, refs, w, h, theme, s, interactive);
  }

  // The carveout sweep: x is the capacity a carveout asks for (the table's rounding, before a
  // block too large for it makes the driver raise it); the driver default (-1) has no request,
  // so its point sits at the capacity the model assumes for it.
  const auto x_of = [&](int carveout, const gpu::CarveoutChoice& choice) {
    return carveout == gpu::kCarveoutDefault ? choice.shared_kib : choice.rounded_kib;
  };
  double x_max = m.table.max_capacity_kib();
  std::vector<double> ticks;
  {
    const float px_per_kib = 0.8f * w / static_cast<float>(std::max(x_max, 1.0));
    for (int c : m.table.capacities_kib)
      if (ticks.empty() || static_cast<float>(c - ticks.back()) * px_per_kib >= 30 * s)
        ticks.push_back(c);
  }
  const int chosen = [&] {
    for (const auto& p : m.carveout_sweep)
      if (p.carveout == st.carveout) return st.carveout;
    return INT_MIN;
  }();

  // (b) Time against the capacity asked for.
  {
    viz::PlotSeries time{"median, min\u2013max", api_color, {}, {}, {}, {}, false, true, -1};
    viz::PlotSeries def{"default (-1)", seen_color, {}, {}, {}, {}, false, true, -1};
    for (const auto& h_m : r.hungry_sweep) {
      if (!have_carveout && !(r.busy && !r.carveout_of)) break;
      viz::PlotSeries& se = h_m.occupancy.carveout == gpu::kCarveoutDefault ? def : time;
      if (h_m.occupancy.carveout == chosen) se.highlight = static_cast<int>(se.x.size());
      se.x.push_back(x_of(h_m.occupancy.carveout, h_m.occupancy.model));
      se.y.push_back(h_m.timing.median_ms);
      se.y_low.push_back(h_m.timing.min_ms);
      se.y_high.push_back(h_m.timing.max_ms);
    }
    viz::PlotSpec spec;
    spec.x_label = "capacity the carveout asks for (KiB)";
    spec.y_label = format("kernel time, ms (%s per block)", kib(st.dynamic_shared_bytes).c_str());
    spec.x_min = -6;
    spec.x_max = x_max + 6;
    spec.x_ticks = ticks;
    spec.value_unit = "ms";
    ImGui::SameLine(0, gap);
    viz::draw_plot("hungry-time", spec, {time, def}, {}, w, h, theme, s, interactive);
  }

  // (c) Resident blocks against the capacity asked for: the occupancy API, the residency the
  // kernel saw (%smid counters) and the table's prediction.
  {
    viz::PlotSeries model{"model", model_color, {}, {}, {}, {}, true, false, -1};
    for (const auto& p : m.carveout_sweep) {
      if (p.carveout == gpu::kCarveoutDefault) continue;
      if (p.carveout == chosen) model.highlight = static_cast<int>(model.x.size());
      model.x.push_back(x_of(p.carveout, p.choice));
      model.y.push_back(p.blocks_per_sm);
    }
    viz::PlotSeries api{"occ. API", api_color, {}, {}, {}, {}, false, true, -1};
    viz::PlotSeries seen{"seen (%smid)", seen_color, {}, {}, {}, {}, false, true, -1};
    for (const auto& h_m : r.hungry_sweep) {
      if (!have_carveout && !(r.busy && !r.carveout_of)) break;
      if (h_m.occupancy.carveout == gpu::kCarveoutDefault) continue;  // in (b) and the table
      if (h_m.occupancy.carveout == chosen) seen.highlight = static_cast<int>(seen.x.size());
      const double x = x_of(h_m.occupancy.carveout, h_m.occupancy.model);
      api.x.push_back(x);
      api.y.push_back(h_m.occupancy.blocks_per_sm);
      seen.x.push_back(x);
      seen.y.push_back(h_m.observed_blocks_per_sm);
    }
    viz::PlotSpec spec;
    spec.x_label = "capacity the carveout asks for (KiB)";
    spec.y_label = "resident blocks per SM";
    spec.x_min = -6;
    spec.x_max = x_max + 6;
    spec.x_ticks = ticks;
    spec.value_unit = "blocks/SM";
    ImGui::SameLine(0, gap);
    viz::draw_plot("hungry-blocks", spec, {model, api, seen}, {}, w, h, theme, s, interactive);
  }
}

}  // namespace

void draw_carveout_view(const CacheSession& session, const CacheResults& r,
                        const viz::ImGuiLayer& layer, const viz::Theme& theme, bool interactive) {
  const float s = layer.scale();
  const CacheModel& m = session.model();
  const CacheState& st = session.state();
  const gpu::CarveoutChoice& c = m.current.choice;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImU32 text = to_imgui_color(theme.text);
  const ImU32 muted = to_imgui_color(theme.muted_text);
  const ImU32 rule = to_imgui_color(theme.rule);
  const float font = ImGui::GetFontSize();

  heading(layer, format("One SM's unified L1 + shared memory: %d KiB", m.table.unified_kib) +
                     "  \u2022  " + m.device_text);
  {
    const char* ticks_note = "ticks: the shared capacities a carveout can pick (KiB)";
    ImGui::SameLine(0, 16 * s);
    if (ImGui::CalcTextSize(ticks_note).x < ImGui::GetContentRegionAvail().x)
      ImGui::TextDisabled("%s", ticks_note);
    else
      ImGui::NewLine();
  }
  ImGui::Dummy({0, 2 * s});

  // The capacity bar: shared [0, shared_kib], then L1 up to unified_kib; under its shared part a
  // strip of the resident blocks' shared memory on the same scale.
  const int slots = m.max_threads_per_sm / std::max(m.threads_per_block, 1);
  const int blocks = m.current.blocks_per_sm;
  const std::int64_t block_bytes = st.dynamic_shared_bytes + m.reserved_bytes;
  const float width = ImGui::GetContentRegionAvail().x - 8 * s;
  ImVec2 o = ImGui::GetCursorScreenPos();
  const float top_room = font * 1.5f + 10 * s;  // the "requested" marker above the bar
  const float bar_top = o.y + top_room, bar_h = 44 * s, bar_bottom = bar_top + bar_h;
  const float strip_h = 12 * s, strip_bottom = bar_bottom + strip_h;
  const float x0 = o.x + 4 * s;
  const float per_kib = width / static_cast<float>(std::max(m.table.unified_kib, 1));
  const auto xk = [&](double k) { return x0 + to_f(k) * per_kib; };
  const float xs = xk(c.shared_kib);
  const viz::Rgb sc = shared_color(theme), lc = l1_color(theme);
  draw->AddRectFilled({x0, bar_top}, {xs, bar_bottom}, to_imgui_color(sc));
  draw->AddRectFilled({xs, bar_top}, {xk(m.table.unified_kib), bar_bottom}, to_imgui_color(lc));
  draw->AddRectFilled({x0, bar_bottom}, {xs, strip_bottom}, to_imgui_color(theme.untouched));
  for (int i = 0; i < blocks; ++i) {
    const float bx0 = x0 + to_f(static_cast<double>(block_bytes * i) / 1024.0) * per_kib;
    const float bx1 = x0 + to_f(static_cast<double>(block_bytes * (i + 1)) / 1024.0) * per_kib;
    draw->AddRectFilled({bx0, bar_bottom}, {bx1, strip_bottom},
                        to_imgui_color(series_color(theme, i, std::max(slots, 2))));
    draw->AddLine({bx1, bar_bottom}, {bx1, strip_bottom}, to_imgui_color(theme.background),
                  1.5f * s);
  }
  // Capacities the table does not offer above the largest (e.g. 228..256 KiB on 9.0) are L1 only.
  for (int cap : m.table.capacities_kib) {
    const float x = xk(cap);
    const bool chosen = cap == c.shared_kib;
    draw->AddLine({x, bar_top}, {x, strip_bottom + 4 * s},
                  chosen ? text : to_imgui_color(theme.background, 0.9f),
                  chosen ? 3 * s : 1.5f * s);
    const std::string t = std::to_string(cap);
    const ImVec2 ts = ImGui::CalcTextSize(t.c_str());
    if (chosen) ImGui::PushFont(layer.fonts().bold);
    draw->AddText({x - 0.5f * ts.x, strip_bottom + 6 * s}, chosen ? text : muted, t.c_str());
    if (chosen) ImGui::PopFont();
  }
  draw->AddRect({x0, bar_top}, {xk(m.table.unified_kib), bar_bottom}, rule, 0, 0, 1.5f * s);
  draw->AddRect({x0, bar_bottom}, {xs, strip_bottom}, rule, 0, 0, 1.0f * s);
  const std::string shared_text = format("shared %d KiB", c.shared_kib);
  const std::string l1_text = format("L1 %d KiB", c.l1_kib);
  ImGui::PushFont(layer.fonts().bold);
  if (ImGui::CalcTextSize(shared_text.c_str()).x + 12 * s < xs - x0)
    text_centered(draw, {0.5f * (x0 + xs), 0.5f * (bar_top + bar_bottom)},
                  to_imgui_color(viz::text_on(sc)), shared_text);
  const float xe = xk(m.table.unified_kib);
  if (ImGui::CalcTextSize(l1_text.c_str()).x + 12 * s < xe - xs)
    text_centered(draw, {0.5f * (xs + xe), 0.5f * (bar_top + bar_bottom)},
                  to_imgui_color(viz::text_on(lc)), l1_text);
  ImGui::PopFont();
  // The request marker: percent x the largest capacity, rounded up.
  {
    std::string what;
    float xr = xs;
    if (c.driver_default) {
      what = "default (-1): the driver picks; the model assumes the smallest capacity that holds " +
             std::to_string(m.current.blocks_per_sm) + " blocks \u2192 " +
             std::to_string(c.shared_kib) + " KiB";
    } else {
      xr = xk(c.requested_kib);
      what = format("requested %d %% \u00d7 %d KiB = %.0f KiB \u2192 rounds up to %d KiB",
                    c.percent, m.table.max_capacity_kib(), c.requested_kib, c.rounded_kib);
      if (c.raised_for_block) what += format(", raised to %d KiB to hold one block", c.shared_kib);
    }
    const float ty = o.y + 2 * s;
    draw->AddTriangleFilled({xr - 7 * s, bar_top - 12 * s}, {xr + 7 * s, bar_top - 12 * s},
                            {xr, bar_top - 1 * s}, text);
    const ImVec2 ts = ImGui::CalcTextSize(what.c_str());
    const float tx = std::clamp(xr - 0.5f * ts.x, x0, std::max(x0, x0 + width - ts.x));
    draw->AddText({tx, ty}, text, what.c_str());
  }
  ImGui::Dummy({width, top_room + bar_h + strip_h + font + 12 * s});

  // One SM running the shared-hungry kernel: its block slots (threads), resident or empty, and
  // the occupancy beside them.
  o = ImGui::GetCursorScreenPos();
  const float big = 1.6f;
  const float slot_h = font * big + 2 * font + 12 * s;
  const std::int64_t used = block_bytes * blocks;
  const std::string line2 = format("%d of %d blocks (%d threads each), limited by %s", blocks,
                                   slots, m.threads_per_block, m.current.limiter.c_str());
  const std::string line3 = format("%s dynamic + %s reserved per block: %s of %d KiB used",
                                   kib(st.dynamic_shared_bytes).c_str(),
                                   kib(m.reserved_bytes).c_str(), kib(used).c_str(), c.shared_kib);
  const float right_w =
      std::max(ImGui::CalcTextSize(line2.c_str()).x, ImGui::CalcTextSize(line3.c_str()).x) + 16 * s;
  const float slot_gap = 6 * s;
  const float slot_w =
      std::min(120 * s, (width - right_w - slot_gap * static_cast<float>(slots - 1)) /
                            static_cast<float>(std::max(slots, 1)));
  const float sy = o.y + 2 * s;
  for (int i = 0; i < slots; ++i) {
    const float sx = x0 + static_cast<float>(i) * (slot_w + slot_gap);
    const bool resident = i < blocks;
    const std::string name = format("block %d", i);
    const std::string label =
        ImGui::CalcTextSize(name.c_str()).x + 6 * s < slot_w ? name : format("#%d", i);
    if (resident) {
      const viz::Rgb bc = series_color(theme, i, std::max(slots, 2));
      draw->AddRectFilled({sx, sy}, {sx + slot_w, sy + slot_h}, to_imgui_color(bc), 6 * s);
      text_centered(draw, {sx + 0.5f * slot_w, sy + 0.35f * slot_h},
                    to_imgui_color(viz::text_on(bc)), label);
      text_centered(draw, {sx + 0.5f * slot_w, sy + 0.7f * slot_h},
                    to_imgui_color(viz::text_on(bc)), format("%d warps", m.threads_per_block / 32));
    } else {
      draw->AddRectFilled({sx, sy}, {sx + slot_w, sy + slot_h}, to_imgui_color(theme.untouched),
                          6 * s);
      draw->AddRect({sx, sy}, {sx + slot_w, sy + slot_h}, rule, 6 * s, 0, 1.0f * s);
      text_centered(draw, {sx + 0.5f * slot_w, sy + 0.5f * slot_h}, muted, "empty");
    }
  }
  {
    const float tx = x0 + static_cast<float>(slots) * (slot_w + slot_gap) + 10 * s;
    ImGui::PushFont(layer.fonts().bold);
    const std::string occ = format("%.0f %% occupancy", m.current.occupancy_percent);
    draw->AddText(layer.fonts().bold, font * big, {tx, sy},
                  to_imgui_color(blocks < slots ? theme.warning : theme.text), occ.c_str());
    ImGui::PopFont();
    draw->AddText({tx, sy + font * big + 4 * s}, text, line2.c_str());
    draw->AddText({tx, sy + font * big + font + 8 * s}, text, line3.c_str());
  }
  ImGui::Dummy({width, slot_h + 8 * s});

  // The opt-in and what the device said.
  ImGui::PushStyleColor(ImGuiCol_Text, color4(m.needs_optin ? theme.warning : theme.muted_text));
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
  ImGui::TextUnformatted((std::string(m.needs_optin ? "Opt-in: " : "") + m.optin_note +
                          ". A block may have at most " + kib(m.optin_limit_bytes) +
                          "; the static 48 KiB limit applies to __shared__ arrays.")
                             .c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
  const bool have =
      r.carveout_of && same_cache_measurement(CacheSection::Carveout, *r.carveout_of, st);
  if (measured_state_line(session, r, theme, have || r.hungry) && r.hungry) {
    const auto& h = *r.hungry;
    ImGui::Text(
        "GPU: the occupancy API allows %d blocks/SM (model %d%s); at most %d were seen "
        "resident at once; the kernel took %.3f ms (median of %d)",
        h.occupancy.blocks_per_sm, m.current.blocks_per_sm,
        h.occupancy.blocks_per_sm == m.current.blocks_per_sm ? " \u2713" : ", differs",
        h.observed_blocks_per_sm, h.timing.median_ms, h.timing.runs);
  }
  draw_carveout_plots(session, r, layer, theme, interactive);
}

}  // namespace warplens::app::cache_ui_detail
