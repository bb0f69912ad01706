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
// each carveout of the sweep asks for, at the chosen dynamic shared memory. Side by side, in rows
// or one at a time (draw_plot_grid), as the room allows.
void draw_carveout_plots(const CacheSession& session, const CacheResults& r,
                         const viz::ImGuiLayer& layer, const viz::Theme& theme, bool interactive,
                         CacheAside& aside, float width, float height) {
  const float s = layer.scale();
  const float font = ImGui::GetFontSize();
  const CacheModel& m = session.model();
  const CacheState& st = session.state();
  const int warps = std::max(m.threads_per_block / 32, 1);
  const int max_warps = std::max(m.max_threads_per_sm / 32, 1);
  const int full = max_warps / warps;  // blocks per SM at 100 % occupancy
  const bool have_carveout =
      r.carveout_of && same_cache_measurement(CacheSection::Carveout, *r.carveout_of, st);
  const viz::Rgb model_color = theme.overfetch;
  const viz::Rgb api_color = series_color(theme, 0, 3);
  const viz::Rgb seen_color = series_color(theme, 2, 3);
  const float lead = font * 1.6f + ImGui::CalcTextSize("0000").x + 20 * s;
  const auto y_room = [&](float w) { return w - font * 1.6f - 4 * s; };

  // (a) Occupancy against dynamic shared memory, at the chosen carveout.
  viz::PlotSeries occ_model{"model", model_color, {}, {}, {}, {}, true, false, -1};
  for (std::size_t i = 0; i < m.sweep.size(); ++i) {
    const auto& row = m.sweep[i];
    if (row.dynamic_shared_bytes == st.dynamic_shared_bytes)
      occ_model.highlight = static_cast<int>(i);
    occ_model.x.push_back(static_cast<double>(row.dynamic_shared_bytes) / 1024.0);
    occ_model.y.push_back(row.blocks_per_sm);
  }
  viz::PlotSeries occ_api{"occupancy API", api_color, {}, {}, {}, {}, false, true, -1};
  for (const auto& o : r.occupancy) {
    if (o.carveout != st.carveout || !have_carveout) continue;
    occ_api.x.push_back(static_cast<double>(o.dynamic_shared_bytes) / 1024.0);
    occ_api.y.push_back(o.blocks_per_sm);
  }
  const std::vector<viz::PlotSeries> occ = {occ_model, occ_api};
  const std::vector<viz::ReferenceLine> occ_refs = {
      {"100 % occupancy", theme.muted_text, static_cast<double>(full)}};

  // The carveout sweep: x is the capacity a carveout asks for (the table's rounding, before a
  // block too large for it makes the driver raise it); the driver default (-1) has no request,
  // so its point sits at the capacity the model assumes for it.
  const auto x_of = [&](int carveout, const gpu::CarveoutChoice& choice) {
    return carveout == gpu::kCarveoutDefault ? choice.shared_kib : choice.rounded_kib;
  };
  const double x_max = m.table.max_capacity_kib();
  const int chosen = [&] {
    for (const auto& p : m.carveout_sweep)
      if (p.carveout == st.carveout) return st.carveout;
    return INT_MIN;
  }();
  const bool sweep_shown = have_carveout || (r.busy && !r.carveout_of);

  // (b) Time against the capacity asked for.
  viz::PlotSeries time{"median, min\u2013max", api_color, {}, {}, {}, {}, false, true, -1};
  viz::PlotSeries def{"default (-1)", seen_color, {}, {}, {}, {}, false, true, -1};
  for (const auto& h_m : r.hungry_sweep) {
    if (!sweep_shown) break;
    viz::PlotSeries& se = h_m.occupancy.carveout == gpu::kCarveoutDefault ? def : time;
    if (h_m.occupancy.carveout == chosen) se.highlight = static_cast<int>(se.x.size());
    se.x.push_back(x_of(h_m.occupancy.carveout, h_m.occupancy.model));
    se.y.push_back(h_m.timing.median_ms);
    se.y_low.push_back(h_m.timing.min_ms);
    se.y_high.push_back(h_m.timing.max_ms);
  }
  const std::vector<viz::PlotSeries> times = {time, def};

  // (c) Resident blocks against the capacity asked for: the occupancy API, the residency the
  // kernel saw (%smid counters) and the table's prediction.
  viz::PlotSeries blocks_model{"model", model_color, {}, {}, {}, {}, true, false, -1};
  for (const auto& p : m.carveout_sweep) {
    if (p.carveout == gpu::kCarveoutDefault) continue;
    if (p.carveout == chosen) blocks_model.highlight = static_cast<int>(blocks_model.x.size());
    blocks_model.x.push_back(x_of(p.carveout, p.choice));
    blocks_model.y.push_back(p.blocks_per_sm);
  }
  viz::PlotSeries api{"occ. API", api_color, {}, {}, {}, {}, false, true, -1};
  viz::PlotSeries seen{"seen (%smid)", seen_color, {}, {}, {}, {}, false, true, -1};
  for (const auto& h_m : r.hungry_sweep) {
    if (!sweep_shown) break;
    if (h_m.occupancy.carveout == gpu::kCarveoutDefault) continue;  // in (b) and the table
    if (h_m.occupancy.carveout == chosen) seen.highlight = static_cast<int>(seen.x.size());
    const double x = x_of(h_m.occupancy.carveout, h_m.occupancy.model);
    api.x.push_back(x);
    api.y.push_back(h_m.occupancy.blocks_per_sm);
    seen.x.push_back(x);
    seen.y.push_back(h_m.observed_blocks_per_sm);
  }
  const std::vector<viz::PlotSeries> blocks = {blocks_model, api, seen};

  // The capacity ticks: as many of the table's capacities as keep their labels apart.
  const auto capacity_ticks = [&](float w) {
    std::vector<double> ticks;
    const float px_per_kib = (w - lead) / static_cast<float>(std::max(x_max + 12, 1.0));
    const float label_w = ImGui::CalcTextSize("000").x + 8 * s;
    for (int c : m.table.capacities_kib)
      if (ticks.empty() || static_cast<float>(c - ticks.back()) * px_per_kib >= label_w)
        ticks.push_back(c);
    return ticks;
  };
  const std::string carveout_name = carveout_text(st.carveout);
  const std::vector<PlotCell> cells = {
      {"occupancy", legend_entries(occ, occ_refs),
       [&](float w, float h) {
         viz::PlotSpec spec;
         spec.x_label = fitting(
             {"dynamic shared memory per block (KiB)", "shared per block (KiB)", "KiB / block"},
             w - lead);
         spec.y_label = fitting(
             {format("blocks per SM (%d = 100 %%), carveout %s", full, carveout_name.c_str()),
              format("blocks per SM, carveout %s", carveout_name.c_str()), "blocks per SM"},
             y_room(w));
         spec.x_min = 0;
         spec.x_max = std::max(8.0, static_cast<double>(m.optin_limit_bytes) / 1024.0 + 4);
         spec.x_ticks = viz::nice_ticks(
             0, spec.x_max - 4, (w - lead) > 6 * (ImGui::CalcTextSize("200").x + 12 * s) ? 5 : 3);
         spec.value_unit = "blocks/SM";
         draw_wrapped_plot("occupancy", "occupancy", spec, occ, occ_refs, w, h, theme, s,
                           interactive, aside);
       }},
      {"time", legend_entries(times, {}),
       [&](float w, float h) {
         viz::PlotSpec spec;
         spec.x_label = fitting(
             {"capacity the carveout asks for (KiB)", "capacity asked (KiB)", "KiB"}, w - lead);
         spec.y_label = fitting(
             {format("kernel time, ms (%s per block)", kib(st.dynamic_shared_bytes).c_str()),
              "kernel time, ms", "ms"},
             y_room(w));
         spec.x_min = -6;
         spec.x_max = x_max + 6;
         spec.x_ticks = capacity_ticks(w);
         spec.value_unit = "ms";
         draw_wrapped_plot("hungry-time", "kernel time", spec, times, {}, w, h, theme, s,
                           interactive, aside);
       }},
      {"blocks per carveout", legend_entries(blocks, {}),
       [&](float w, float h) {
         viz::PlotSpec spec;
         spec.x_label = fitting(
             {"capacity the carveout asks for (KiB)", "capacity asked (KiB)", "KiB"}, w - lead);
         spec.y_label = fitting({"resident blocks per SM", "blocks per SM"}, y_room(w));
         spec.x_min = -6;
         spec.x_max = x_max + 6;
         spec.x_ticks = capacity_ticks(w);
         spec.value_unit = "blocks/SM";
         draw_wrapped_plot("hungry-blocks", "resident blocks", spec, blocks, {}, w, h, theme, s,
                           interactive, aside);
       }},
  };
  draw_plot_grid("carveout-plots", cells, width, height, s);
}

// The least height draw_carveout_plots needs at `width`: one plot and the picker over it.
float carveout_plots_min_height(const viz::Theme& theme, float width, float s) {
  const std::vector<CacheLegendEntry> widest = {{"model", theme.overfetch, true, false},
                                                {"occupancy API", theme.text, false, false},
                                                {"100 % occupancy", theme.text, true, false}};
  float picker_w = 0;
  for (const char* name : {"occupancy", "time", "blocks per carveout"})
    picker_w += ImGui::GetFrameHeight() + ImGui::CalcTextSize(name).x +
                ImGui::GetStyle().ItemInnerSpacing.x + ImGui::GetStyle().ItemSpacing.x;
  const float picker_rows = picker_w <= width ? 1.0f : 2.0f;
  return plot_min_height(widest, width, s) + picker_rows * ImGui::GetFrameHeightWithSpacing();
}

}  // namespace

void draw_carveout_view(const CacheSession& session, const CacheResults& r,
                        const viz::ImGuiLayer& layer, const viz::Theme& theme, bool interactive,
                        CacheAside& aside) {
  const float s = layer.scale();
  const CacheModel& m = session.model();
  const CacheState& st = session.state();
  const gpu::CarveoutChoice& c = m.current.choice;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImU32 text = to_imgui_color(theme.text);
  const ImU32 muted = to_imgui_color(theme.muted_text);
  const ImU32 rule = to_imgui_color(theme.rule);
  const float font = ImGui::GetFontSize();
  const float spacing = ImGui::GetStyle().ItemSpacing.y;
  const float avail_w = ImGui::GetContentRegionAvail().x;
  const float width = avail_w - 8 * s;
  const float x0 = ImGui::GetCursorScreenPos().x + 4 * s;

  // What the drawing says, in long and short forms; the short ones where the room is short.
  const int slots = m.max_threads_per_sm / std::max(m.threads_per_block, 1);
  const int blocks = m.current.blocks_per_sm;
  const std::int64_t block_bytes = st.dynamic_shared_bytes + m.reserved_bytes;
  const std::string title =
      format("One SM's unified L1 + shared memory: %d KiB", m.table.unified_kib) + "  \u2022  " +
      m.device_text;
  std::string request_long, request_short;
  if (c.driver_default) {
    request_long =
        "default (-1): the driver picks; the model assumes the smallest capacity that "
        "holds " +
        std::to_string(blocks) + " blocks \u2192 " + std::to_string(c.shared_kib) + " KiB";
    request_short = format("default: the driver picks (model: %d KiB)", c.shared_kib);
  } else {
    request_long = format("requested %d %% \u00d7 %d KiB = %.0f KiB \u2192 rounds up to %d KiB",
                          c.percent, m.table.max_capacity_kib(), c.requested_kib, c.rounded_kib);
    request_short = format("%d %% \u00d7 %d = %.0f \u2192 %d KiB", c.percent,
                           m.table.max_capacity_kib(), c.requested_kib, c.rounded_kib);
    if (c.raised_for_block) {
      request_long += format(", raised to %d KiB to hold one block", c.shared_kib);
      request_short += format(" \u2192 %d KiB (one block)", c.shared_kib);
    }
  }
  const std::string occ = format("%.0f %% occupancy", m.current.occupancy_percent);
  const std::string line2 =
      format("%d of %d blocks (%d threads = %d warps each), limited by %s", blocks, slots,
             m.threads_per_block, m.threads_per_block / 32, m.current.limiter.c_str());
  const std::string line3 = format(
      "%s dynamic + %s reserved per block: %s of %d KiB used", kib(st.dynamic_shared_bytes).c_str(),
      kib(m.reserved_bytes).c_str(), kib(block_bytes * blocks).c_str(), c.shared_kib);
  // The capacity labels under the bar: in one row, alternating over two, or only the chosen one
  // (then a line lists them all).
  const float per_kib = width / static_cast<float>(std::max(m.table.unified_kib, 1));
  int label_rows = 0;
  for (int rows = 1; rows <= 2 && label_rows == 0; ++rows) {
    bool ok = true;
    const auto& caps = m.table.capacities_kib;
    for (std::size_t i = static_cast<std::size_t>(rows); i < caps.size(); ++i) {
      const float apart =
          static_cast<float>(caps[i] - caps[i - static_cast<std::size_t>(rows)]) * per_kib;
      const float need = 0.5f * (ImGui::CalcTextSize(std::to_string(caps[i]).c_str()).x +
                                 ImGui::CalcTextSize(std::to_string(caps[i - 1]).c_str()).x) +
                         6 * s;
      ok = ok && apart >= need;
    }
    if (ok) label_rows = rows;
  }
  // How tall each part is, full and compact; compact where the full ones leave the plots less
  // than their least height.
  const float plots_min = carveout_plots_min_height(theme, avail_w, s);
  const float room = ImGui::GetContentRegionAvail().y;
  const float title_h = heading_height(layer, title, avail_w);
  const auto bar_part = [&](bool compact, const std::string& request) {
    const float bar_h = compact ? 1.4f * font : 44 * s;
    return wrapped_height(request, avail_w) + 12 * s + bar_h + 10 * s + 4 * s +
           static_cast<float>(std::max(label_rows, 1)) * font + 4 * s;
  };
  const float slot_label_w = ImGui::CalcTextSize("#7").x + 8 * s;
  const float right_w =
      std::max({ImGui::CalcTextSize(line2.c_str()).x, ImGui::CalcTextSize(line3.c_str()).x}) +
      16 * s;
  const bool texts_beside = width - right_w >= static_cast<float>(slots) * (slot_label_w + 6 * s);
  const auto sm_part = [&](bool compact) {
    const float slot_h = compact ? 1.6f * font : 1.6f * font + 2 * font + 12 * s;
    if (texts_beside) return std::max(slot_h, 1.8f * font + 2 * font + 12 * s) + 8 * s + spacing;
    return slot_h + 8 * s + spacing + 1.8f * font + spacing;  // the occupancy under the slots
  };
  const bool compact = title_h + bar_part(false, request_long) + sm_part(false) + plots_min > room;
  const std::string request = compact && ImGui::CalcTextSize(request_long.c_str()).x > avail_w
                                  ? request_short
                                  : request_long;
  // Compact: labels in one row (the chosen capacity's; a note lists them all), the occupancy in
  // the bold font beside the slots where it fits, the slots' texts as notes.
  if (compact && label_rows == 2) label_rows = 0;
  std::string capacities;
  for (int cap : m.table.capacities_kib)
    capacities += (capacities.empty() ? "" : ", ") + std::to_string(cap);
  const std::string ticks_note =
      label_rows > 0 ? "ticks: the shared capacities a carveout can pick (KiB)"
                     : "ticks: the shared capacities a carveout can pick: " + capacities + " KiB";
  ImGui::PushFont(layer.fonts().bold);
  const float occ_w = ImGui::CalcTextSize(occ.c_str()).x + 16 * s;
  ImGui::PopFont();
  const bool occ_beside =
      compact && width - occ_w >= static_cast<float>(slots) * (slot_label_w + 6 * s);

  heading(layer, compact ? format("Unified L1 + shared memory: %d KiB per SM", m.table.unified_kib)
                         : title);
  // The request marker's text, then the bar with the marker over it.
  ImGui::PushStyleColor(ImGuiCol_Text, color4(theme.text));
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(request.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const float bar_top = o.y + 12 * s, bar_h = compact ? 1.4f * font : 44 * s;
  const float bar_bottom = bar_top + bar_h;
  const float strip_h = 10 * s, strip_bottom = bar_bottom + strip_h;
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
  for (std::size_t i = 0; i < m.table.capacities_kib.size(); ++i) {
    const int cap = m.table.capacities_kib[i];
    const float x = xk(cap);
    const bool chosen = cap == c.shared_kib;
    draw->AddLine({x, bar_top}, {x, strip_bottom + 4 * s},
                  chosen ? text : to_imgui_color(theme.background, 0.9f),
                  chosen ? 3 * s : 1.5f * s);
    if (label_rows == 0 && !chosen) continue;
    const std::string t = std::to_string(cap);
    if (chosen) ImGui::PushFont(layer.fonts().bold);
    const ImVec2 ts = ImGui::CalcTextSize(t.c_str());
    const float row = label_rows == 2 ? static_cast<float>(i % 2) : 0.0f;
    const float tx = std::clamp(x - 0.5f * ts.x, x0, x0 + width - ts.x);
    draw->AddText({tx, strip_bottom + 6 * s + row * font}, chosen ? text : muted, t.c_str());
    if (chosen) ImGui::PopFont();
  }
  draw->AddRect({x0, bar_top}, {xk(m.table.unified_kib), bar_bottom}, rule, 0, 0, 1.5f * s);
  draw->AddRect({x0, bar_bottom}, {xs, strip_bottom}, rule, 0, 0, 1.0f * s);
  {
    const float xr = c.driver_default ? xs : xk(c.requested_kib);
    draw->AddTriangleFilled({xr - 7 * s, bar_top - 12 * s}, {xr + 7 * s, bar_top - 12 * s},
                            {xr, bar_top - 1 * s}, text);
  }
  const std::string shared_text = format("shared %d KiB", c.shared_kib);
  const std::string l1_text = format("L1 %d KiB", c.l1_kib);
  ImGui::PushFont(layer.fonts().bold);
  if (ImGui::CalcTextSize(shared_text.c_str()).x + 12 * s < xs - x0 && bar_h > font)
    text_centered(draw, {0.5f * (x0 + xs), 0.5f * (bar_top + bar_bottom)},
                  to_imgui_color(viz::text_on(sc)), shared_text);
  const float xe = xk(m.table.unified_kib);
  if (ImGui::CalcTextSize(l1_text.c_str()).x + 12 * s < xe - xs && bar_h > font)
    text_centered(draw, {0.5f * (xs + xe), 0.5f * (bar_top + bar_bottom)},
                  to_imgui_color(viz::text_on(lc)), l1_text);
  ImGui::PopFont();
  ImGui::Dummy({width, 12 * s + bar_h + strip_h + 6 * s +
                           static_cast<float>(std::max(label_rows, 1)) * font});

  // One SM running the shared-hungry kernel: its block slots (threads), resident or empty, and
  // the occupancy beside them (or under them, where the texts do not fit beside).
  const ImVec2 so = ImGui::GetCursorScreenPos();
  const float big = 1.6f;
  const float slot_h = compact ? 1.6f * font : font * big + 2 * font + 12 * s;
  const float slot_gap = 6 * s;
  const bool beside = compact ? occ_beside : texts_beside;
  const float slots_room =
      compact ? (occ_beside ? width - occ_w : width) : (texts_beside ? width - right_w : width);
  const float slot_w = std::min(120 * s, (slots_room - slot_gap * static_cast<float>(slots - 1)) /
                                             static_cast<float>(std::max(slots, 1)));
  const float sy = so.y + 2 * s;
  const std::string warps_text = format("%d warps", m.threads_per_block / 32);
  for (int i = 0; i < slots; ++i) {
    const float sx = x0 + static_cast<float>(i) * (slot_w + slot_gap);
    const bool resident = i < blocks;
    const std::string name = format("block %d", i);
    const std::string label =
        ImGui::CalcTextSize(name.c_str()).x + 6 * s < slot_w ? name : format("#%d", i);
    const bool two_lines = !compact && ImGui::CalcTextSize(warps_text.c_str()).x + 6 * s < slot_w;
    if (resident) {
      const viz::Rgb bc = series_color(theme, i, std::max(slots, 2));
      draw->AddRectFilled({sx, sy}, {sx + slot_w, sy + slot_h}, to_imgui_color(bc), 6 * s);
      text_centered(draw, {sx + 0.5f * slot_w, sy + (two_lines ? 0.35f : 0.5f) * slot_h},
                    to_imgui_color(viz::text_on(bc)), label);
      if (two_lines)
        text_centered(draw, {sx + 0.5f * slot_w, sy + 0.7f * slot_h},
                      to_imgui_color(viz::text_on(bc)), warps_text);
    } else {
      draw->AddRectFilled({sx, sy}, {sx + slot_w, sy + slot_h}, to_imgui_color(theme.untouched),
                          6 * s);
      draw->AddRect({sx, sy}, {sx + slot_w, sy + slot_h}, rule, 6 * s, 0, 1.0f * s);
      if (ImGui::CalcTextSize("empty").x + 6 * s < slot_w)
        text_centered(draw, {sx + 0.5f * slot_w, sy + 0.5f * slot_h}, muted, "empty");
    }
  }
  const ImU32 occ_color = to_imgui_color(blocks < slots ? theme.warning : theme.text);
  std::vector<CacheAside::Note> notes;
  if (compact && beside) {
    const float tx = x0 + static_cast<float>(slots) * (slot_w + slot_gap) + 10 * s;
    ImGui::PushFont(layer.fonts().bold);
    draw->AddText({tx, sy + 0.5f * (slot_h - font * 1.15f)}, occ_color, occ.c_str());
    ImGui::PopFont();
    ImGui::Dummy({width, slot_h + 8 * s});
    notes.push_back({line2, false});
    notes.push_back({line3, false});
  } else if (beside) {
    const float tx = x0 + static_cast<float>(slots) * (slot_w + slot_gap) + 10 * s;
    draw->AddText(layer.fonts().bold, font * big, {tx, sy}, occ_color, occ.c_str());
    draw->AddText({tx, sy + font * big + 4 * s}, text, line2.c_str());
    draw->AddText({tx, sy + font * big + font + 8 * s}, text, line3.c_str());
    ImGui::Dummy({width, std::max(slot_h, font * big + 2 * font + 12 * s) + 8 * s});
  } else {
    ImGui::Dummy({width, slot_h + 8 * s});
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(occ_color));
    heading(layer, occ);
    ImGui::PopStyleColor();
    notes.push_back({line2, false});
    notes.push_back({line3, false});
  }

  // The notes under the drawing, as many as leave the plots their least height.
  const bool have =
      r.carveout_of && same_cache_measurement(CacheSection::Carveout, *r.carveout_of, st);
  notes.push_back(measured_state_note(session, r, have || r.hungry));
  if (r.hungry) {
    const auto& h = *r.hungry;
    notes.push_back(
        {format("GPU: the occupancy API allows %d blocks/SM (model %d%s); at most %d were seen "
                "resident at once; the kernel took %.3f ms (median of %d)",
                h.occupancy.blocks_per_sm, m.current.blocks_per_sm,
                h.occupancy.blocks_per_sm == m.current.blocks_per_sm ? " \u2713" : ", differs",
                h.observed_blocks_per_sm, h.timing.median_ms, h.timing.runs),
         false});
  }
  notes.push_back({(m.needs_optin ? "Opt-in: " : "") + m.optin_note +
                       ". A block may have at most " + kib(m.optin_limit_bytes) +
                       "; the static 48 KiB limit applies to __shared__ arrays.",
                   m.needs_optin});
  notes.push_back({ticks_note, false});
  float notes_h = 0;
  for (const auto& n :
       fit_notes(notes, ImGui::GetContentRegionAvail().y - plots_min, avail_w, aside, notes_h))
    draw_note(n, theme);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  draw_carveout_plots(session, r, layer, theme, interactive, aside, avail.x, avail.y);
}

}  // namespace warplens::app::cache_ui_detail
