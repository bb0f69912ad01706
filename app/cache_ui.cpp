#include "cache_ui.h"

#include <imgui.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <string>
#include <vector>

#include "plot.h"
#include "ui_widgets.h"

namespace warplens::app {

namespace {

using viz::to_imgui_color;

constexpr ImGuiWindowFlags kPanelFlags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                         ImGuiWindowFlags_NoCollapse |
                                         ImGuiWindowFlags_NoSavedSettings;

float to_f(double v) {
  return static_cast<float>(v);
}

std::string kib(std::int64_t bytes) {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0)
    return std::to_string(bytes / (1024 * 1024)) + " MiB";
  if (bytes % 1024 == 0) return std::to_string(bytes / 1024) + " KiB";
  return format("%.1f KiB", static_cast<double>(bytes) / 1024.0);
}

const char* section_label(CacheSection s) {
  switch (s) {
    case CacheSection::Carveout: return "Carveout";
    case CacheSection::L1: return "L1 sweep";
    case CacheSection::Constant: return "Constant";
    case CacheSection::ReadPath: return "Read path";
  }
  return "?";
}

const char* path_label(gpu::ReadPath p) {
  switch (p) {
    case gpu::ReadPath::Plain: return "plain load";
    case gpu::ReadPath::Ldg: return "__ldg";
    case gpu::ReadPath::Texture: return "texture";
  }
  return "?";
}

// A pattern's footprint (per thread, and the warp's shape of centres) and its layout.
const char* pattern_footprint(gpu::ReadPattern p) {
  switch (p) {
    case gpu::ReadPattern::Scattered: return "scattered";
    case gpu::ReadPattern::Local2D:
    case gpu::ReadPattern::Morton: return "window, warp 16\u00d72";
    case gpu::ReadPattern::ColumnTile:
    case gpu::ReadPattern::ColumnTileMorton: return "4\u00d74 tile, warp 1\u00d732";
  }
  return "?";
}
const char* pattern_layout(gpu::ReadPattern p) {
  return gpu::reads_morton(p) ? "Morton" : "row-major";
}
std::string pattern_label(gpu::ReadPattern p) {
  if (p == gpu::ReadPattern::Scattered) return pattern_footprint(p);
  return std::string(pattern_footprint(p)) + ", " + pattern_layout(p);
}

std::string hit_text(const L1HitRate& rate) {
  return rate.percent ? format("%.0f %%", *rate.percent) : std::string("n/a");
}

viz::Rgb series_color(const viz::Theme& theme, int i, int n) {
  return cache_series_color(theme, i, n);
}

viz::Rgb shared_color(const viz::Theme& theme) {
  return theme.sector;
}
viz::Rgb l1_color(const viz::Theme& theme) {
  return theme.lanes[21];
}

void text_centered(ImDrawList* draw, ImVec2 center, ImU32 color, const std::string& text) {
  const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
  draw->AddText({center.x - 0.5f * ts.x, center.y - 0.5f * ts.y}, color, text.c_str());
}

void heading(const viz::ImGuiLayer& layer, const std::string& text) {
  ImGui::PushFont(layer.fonts().bold);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopFont();
}

void no_gpu_line(const CacheSession& session, const viz::Theme& theme) {
  ImGui::PushStyleColor(ImGuiCol_Text, color4(theme.warning));
  ImGui::TextUnformatted(session.no_gpu_text().c_str());
  ImGui::PopStyleColor();
}

// The measured part's one line: no GPU, running, or nothing yet.
bool measured_state_line(const CacheSession& session, const CacheResults& r,
                         const viz::Theme& theme, bool have) {
  if (!session.gpu_mode()) {
    if (!have) no_gpu_line(session, theme);
    return have;
  }
  if (r.busy) {
    ImGui::TextDisabled("%s \u2026 %d / %d", r.status.c_str(), r.done, r.total);
  } else if (!have) {
    ImGui::TextDisabled("not measured yet");
  }
  return true;
}

// --- carveout --------------------------------------------------------------------------------

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

// --- L1 ----------------------------------------------------------------------------------------

void draw_l1_view(CacheSession& session, const CacheResults& r, const viz::ImGuiLayer& layer,
                  const viz::Theme& theme, bool interactive) {
  const float s = layer.scale();
  const CacheModel& m = session.model();
  heading(layer, "L1 gather: time per 4-byte access vs the working set each block gathers from");
  ImGui::TextDisabled(
      "One block of 1024 threads per SM reads random words of its own working set; "
      "the knee comes where the working set outgrows the L1 the carveout leaves.");
  measured_state_line(session, r, theme, !r.l1.empty());
  const auto& sets = l1_working_sets();
  const auto& carveouts = l1_carveouts();
  std::vector<viz::PlotSeries> series;
  int highlight = -1;
  for (std::size_t i = 0; i < sets.size(); ++i)
    if (sets[i] == session.state().working_set_bytes) highlight = static_cast<int>(i);
  for (std::size_t ci = 0; ci < carveouts.size(); ++ci) {
    const int carveout = carveouts[ci];
    gpu::CarveoutChoice left;
    try {
      left = gpu::carveout_capacity(m.table, carveout, m.reserved_bytes, 1);
    } catch (const std::exception&) {
    }
    viz::PlotSeries se;
    se.label = carveout_text(carveout) + format(" \u2022 L1 %d KiB", left.l1_kib);
    se.color = series_color(theme, static_cast<int>(ci), static_cast<int>(carveouts.size()));
    se.highlight = highlight;
    se.dashed = carveout == gpu::kCarveoutDefault;  // often on top of another carveout's line
    for (const auto& pt : r.l1) {
      if (pt.carveout != carveout) continue;
      se.x.push_back(static_cast<double>(pt.working_set_bytes) / 1024.0);
      se.y.push_back(pt.ns_per_access);
    }
    series.push_back(std::move(se));
  }
  // The default last, dashed, so a line it coincides with still shows through its gaps.
  if (!series.empty() && carveouts.front() == gpu::kCarveoutDefault)
    std::rotate(series.begin(), series.begin() + 1, series.end());
  viz::PlotSpec spec;
  spec.x_label = "working set per block (KiB, log scale)";
  spec.y_label = "ns per access (SM time per 4-byte lane access)";
  spec.log_x = true;
  spec.x_min = 6;
  spec.x_max = 1400;
  spec.x_ticks = {8, 16, 32, 64, 128, 256, 512, 1024};
  spec.value_unit = "ns";
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // Under the time plot: the L1 hit rate of the same launches from the hardware counters, or the
  // one line saying why there is none.
  const bool hits = !r.l1_hit.empty();
  const float font = ImGui::GetFontSize();
  const float hit_h = hits ? std::max(0.4f * avail.y, 150 * s) : font + 8 * s;
  viz::draw_plot("l1", spec, series, {}, avail.x, std::max(avail.y - hit_h - 8 * s, 160 * s), theme,
                 s, interactive);
  if (!hits) {
    if (!r.l1_hit_note.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, color4(theme.warning));
      ImGui::TextUnformatted(("L1 hit rate: " + r.l1_hit_note).c_str());
      ImGui::PopStyleColor();
    } else {
      ImGui::TextDisabled("L1 hit rate (hardware counters): %s", !session.gpu_mode() ? "needs a GPU"
                                                                 : r.busy
                                                                     ? "read after the timed sweep"
                                                                     : "not read yet");
    }
    return;
  }
  std::vector<viz::PlotSeries> hit_series;
  for (std::size_t ci = 0; ci < carveouts.size(); ++ci) {
    const int carveout = carveouts[ci];
    viz::PlotSeries se;
    se.label = carveout_text(carveout);
    se.color = series_color(theme, static_cast<int>(ci), static_cast<int>(carveouts.size()));
    se.dashed = carveout == gpu::kCarveoutDefault;
    for (const auto& pt : r.l1_hit) {
      if (pt.carveout != carveout || !pt.rate.percent) continue;
      if (pt.working_set_bytes == session.state().working_set_bytes)
        se.highlight = static_cast<int>(se.x.size());
      se.x.push_back(static_cast<double>(pt.working_set_bytes) / 1024.0);
      se.y.push_back(*pt.rate.percent);
    }
    hit_series.push_back(std::move(se));
  }
  if (!hit_series.empty() && carveouts.front() == gpu::kCarveoutDefault)
    std::rotate(hit_series.begin(), hit_series.begin() + 1, hit_series.end());
  viz::PlotSpec hit_spec = spec;
  hit_spec.y_label = "L1 hit rate, % of sectors looked up (hardware counters)";
  hit_spec.value_unit = "%";
  const std::vector<viz::ReferenceLine> full = {{"100 %", theme.muted_text, 100.0}};
  ImGui::Dummy({0, 4 * s});
  const float note_h = r.l1_hit_note.empty() ? 0.0f : font + 6 * s;
  viz::draw_plot("l1-hit", hit_spec, hit_series, full, avail.x, hit_h - 4 * s - note_h, theme, s,
                 interactive);
  if (!r.l1_hit_note.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, color4(theme.warning));
    ImGui::TextUnformatted(("L1 hit rate stopped: " + r.l1_hit_note).c_str());
    ImGui::PopStyleColor();
  }
}

// --- constant ----------------------------------------------------------------------------------

void draw_constant_view(CacheSession& session, const CacheResults& r, const viz::ImGuiLayer& layer,
                        const viz::Theme& theme, bool interactive) {
  const float s = layer.scale();
  const CacheModel& m = session.model();
  const int k = session.state().k;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  heading(layer, format("Constant cache: %d distinct address%s per warp request \u2192 %d "
                        "read%s, served one after another",
                        k, k == 1 ? "" : "es", k, k == 1 ? " (broadcast to all 32 lanes)" : "s"));
  ImGui::TextDisabled(
      "Lanes l, l + k, l + 2k, \u2026 read the same word of the __constant__ "
      "table; each colour is one constant-cache read.");
  const float width = ImGui::GetContentRegionAvail().x - 8 * s;
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const float gap = 3 * s;
  const float lane_w = (width - 31 * gap) / 32;
  const float lane_h = 44 * s;
  const float x0 = o.x + 4 * s, y0 = o.y + 6 * s;
  std::vector<int> group_of(32, 0);
  for (std::size_t g = 0; g < m.lane_groups.size(); ++g)
    for (int lane : m.lane_groups[g])
      group_of[static_cast<std::size_t>(lane)] = static_cast<int>(g);
  const int groups = static_cast<int>(m.lane_groups.size());
  for (int lane = 0; lane < 32; ++lane) {
    const int g = group_of[static_cast<std::size_t>(lane)];
    const viz::Rgb c = theme.lanes[groups <= 1 ? 12 : g * 31 / (groups - 1)];
    const float lx = x0 + static_cast<float>(lane) * (lane_w + gap);
    draw->AddRectFilled({lx, y0}, {lx + lane_w, y0 + lane_h}, to_imgui_color(c), 4 * s);
    text_centered(draw, {lx + 0.5f * lane_w, y0 + 0.5f * lane_h}, to_imgui_color(viz::text_on(c)),
                  std::to_string(lane));
    const std::string read = "r" + std::to_string(g);
    if (ImGui::CalcTextSize(read.c_str()).x < lane_w + gap)
      text_centered(draw, {lx + 0.5f * lane_w, y0 + lane_h + 4 * s + 0.5f * ImGui::GetFontSize()},
                    to_imgui_color(theme.muted_text), read);
  }
  ImGui::Dummy({width, lane_h + ImGui::GetFontSize() + 16 * s});
  measured_state_line(session, r, theme, !r.constant.empty());
  viz::PlotSeries se;
  se.label = "measured (median)";
  se.color = series_color(theme, 0, 4);
  viz::PlotSeries cycles;
  for (const auto& pt : r.constant) {
    if (pt.k == k) se.highlight = static_cast<int>(se.x.size());
    se.x.push_back(pt.k);
    se.y.push_back(pt.cycles_per_request);  // clock64: free of launch overhead
  }
  std::vector<viz::PlotSeries> series{se};
  // The model: one read per distinct address, k x the broadcast's time.
  if (!r.constant.empty() && r.constant.front().k == 1) {
    viz::PlotSeries model{
        "model: k \u00d7 the broadcast (k = 1)", theme.overfetch, {}, {}, {}, {}, true, false, -1};
    for (int kk = 1; kk <= 32; ++kk) {
      model.x.push_back(kk);
      model.y.push_back(kk * r.constant.front().cycles_per_request);
    }
    series.push_back(std::move(model));
  }
  viz::PlotSpec spec;
  spec.x_label = "k: distinct __constant__ addresses per warp request";
  spec.y_label = "SM clock cycles per warp request (clock64)";
  spec.x_min = 0;
  spec.x_max = 33;
  spec.x_ticks = {1, 4, 8, 12, 16, 20, 24, 28, 32};
  spec.value_unit = "cycles";
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  viz::draw_plot("constant", spec, series, {}, avail.x, std::max(avail.y - 4 * s, 160 * s), theme,
                 s, interactive);
}

// --- read path -------------------------------------------------------------------------------

void draw_read_path_view(CacheSession& session, const CacheResults& r, const viz::ImGuiLayer& layer,
                         const viz::Theme& theme, bool interactive) {
  const float s = layer.scale();
  const CacheState& st = session.state();
  const auto& paths = read_paths();
  const auto& patterns = read_patterns();
  const int n_paths = static_cast<int>(paths.size());
  const int n_groups = static_cast<int>(patterns.size());
  heading(layer, format("Read path: %d\u00d7%d image of 32-bit pixels, GB/s the program asked for",
                        st.read.side, st.read.side));
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled(
      "Bars grouped by access pattern: each thread's footprint, the shape of a warp's centres, the "
      "layout. A texture over a cudaArray has its own 2D layout, so its Morton bars repeat the "
      "row-major reads. Inside a bar: its L1 hit rate from the hardware counters.");
  ImGui::PopTextWrapPos();
  measured_state_line(session, r, theme, !r.read.empty());
  if (!r.read_hit_note.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, color4(theme.warning));
    ImGui::TextUnformatted(("L1 hit rate: " + r.read_hit_note).c_str());
    ImGui::PopStyleColor();
  }
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("##bars", {avail.x, std::max(avail.y - 4 * s, 160 * s)});
  const bool hovered = interactive && ImGui::IsItemHovered();
  const float font = ImGui::GetFontSize();
  const float h = std::max(avail.y - 4 * s, 160 * s);
  double top_value = 0;
  for (const auto& m : r.read) top_value = std::max(top_value, m.gbps);
  std::vector<double> ticks = viz::nice_ticks(0, top_value > 0 ? top_value * 1.1 : 100, 5);
  const double y_max = ticks.empty() ? 100 : std::max(ticks.back(), top_value * 1.1);
  float tick_w = 0;
  for (double v : ticks)
    tick_w = std::max(tick_w, ImGui::CalcTextSize(viz::tick_label(v).c_str()).x);
  const float left = o.x + tick_w + 14 * s, right = o.x + avail.x - 10 * s;
  const float top = o.y + font + 10 * s;
  const float legend_h = font * 1.6f;
  const float bottom = o.y + h - font * 3.0f - legend_h;  // two lines of group labels
  const auto py = [&](double v) { return bottom - to_f(v / y_max) * (bottom - top); };
  const ImU32 text = to_imgui_color(theme.text);
  const ImU32 muted = to_imgui_color(theme.muted_text);
  draw->AddRectFilled({left, top}, {right, bottom}, to_imgui_color(theme.background));
  for (double v : ticks) {
    const float y = py(v);
    draw->AddLine({left, y}, {right, y}, to_imgui_color(theme.untouched), 1.0f);
    const std::string t = viz::tick_label(v);
    draw->AddText({left - ImGui::CalcTextSize(t.c_str()).x - 6 * s, y - 0.5f * font}, text,
                  t.c_str());
  }
  draw->AddText({o.x, o.y}, muted, "GB/s (10\u2079 B/s requested)");
  const float group_w = (right - left) / static_cast<float>(n_groups);
  const float bar_w = group_w * 0.84f / static_cast<float>(n_paths);
  for (int gi = 0; gi < n_groups; ++gi) {
    const gpu::ReadPattern pattern = patterns[static_cast<std::size_t>(gi)];
    const float gx = left + group_w * static_cast<float>(gi) + group_w * 0.08f;
    const float gc = gx + 0.5f * bar_w * static_cast<float>(n_paths);
    text_centered(draw, {gc, bottom + 6 * s + 0.5f * font}, text, pattern_footprint(pattern));
    if (pattern != gpu::ReadPattern::Scattered)
      text_centered(draw, {gc, bottom + 8 * s + 1.5f * font}, muted, pattern_layout(pattern));
    for (int pi = 0; pi < n_paths; ++pi) {
      const gpu::ReadPath path = paths[static_cast<std::size_t>(pi)];
      const float bx = gx + static_cast<float>(pi) * bar_w;
      const viz::Rgb c = series_color(theme, pi, n_paths);
      const gpu::ReadPathMeasurement* m = nullptr;
      for (const auto& x : r.read)
        if (x.params.path == path && x.params.pattern == pattern) m = &x;
      const ReadHitPoint* hit = nullptr;
      for (const auto& x : r.read_hit)
        if (x.params.path == path && x.params.pattern == pattern) hit = &x;
      const bool chosen = st.read.path == path && st.read.pattern == pattern;
      if (m) {
        const float y = py(m->gbps);
        draw->AddRectFilled({bx + 2 * s, y}, {bx + bar_w - 2 * s, bottom}, to_imgui_color(c));
        text_centered(draw, {bx + 0.5f * bar_w, y - 0.5f * font - 2 * s}, text,
                      format("%.0f", m->gbps));
        if (hit && hit->rate.percent) {
          // The hit rate inside the bar's foot, or above the value when the bar is too short.
          const std::string t = hit_text(hit->rate);
          const bool inside =
              bottom - y > font * 1.6f && ImGui::CalcTextSize(t.c_str()).x < bar_w - 6 * s;
          text_centered(draw,
                        inside ? ImVec2{bx + 0.5f * bar_w, bottom - 0.7f * font}
                               : ImVec2{bx + 0.5f * bar_w, y - 1.5f * font - 4 * s},
                        inside ? to_imgui_color(viz::text_on(c)) : muted, t);
        }
        if (hovered && ImGui::IsMouseHoveringRect({bx, top}, {bx + bar_w, bottom}))
          ImGui::SetTooltip(
              "%s, %s\n%.1f GB/s, median %.3f ms\nL1 hit rate %s%s\n%s", path_label(path),
              pattern_label(pattern).c_str(), m->gbps, m->timing.median_ms,
              hit ? hit_text(hit->rate).c_str() : "not read",
              hit && !hit->rate.percent ? (" (" + hit->rate.unavailable + ")").c_str() : "",
              m->verified ? "checksum verified" : m->check.c_str());
      }
      if (chosen)
        draw->AddRect({bx, m ? py(m->gbps) - font - 6 * s : top}, {bx + bar_w, bottom + 1 * s},
                      text, 3 * s, 0, 2.5f * s);
    }
  }
  draw->AddLine({left, bottom}, {right, bottom}, to_imgui_color(theme.rule), 1.5f * s);
  float lx = left;
  const float ly = o.y + h - legend_h + 4 * s;
  for (int pi = 0; pi < n_paths; ++pi) {
    const viz::Rgb c = series_color(theme, pi, n_paths);
    const char* label = path_label(paths[static_cast<std::size_t>(pi)]);
    draw->AddRectFilled({lx, ly + 2 * s}, {lx + font, ly + font}, to_imgui_color(c), 2 * s);
    draw->AddText({lx + font + 6 * s, ly}, text, label);
    lx += font + 26 * s + ImGui::CalcTextSize(label).x;
  }
}

}  // namespace

viz::Rgb cache_series_color(const viz::Theme& theme, int i, int n) {
  // Light: skip the palest yellows; dark: skip the darkest purples.
  const int first = theme.name == viz::ThemeName::Dark ? 8 : 2;
  const int lane = n <= 1 ? first + 4 : first + i * 22 / (n - 1);
  return theme.lanes[std::clamp(lane, 0, 31)];
}

std::string carveout_text(int carveout) {
  if (carveout == gpu::kCarveoutDefault) return "default (-1)";
  if (carveout == gpu::kCarveoutMaxL1) return "0 % (max L1)";
  if (carveout == gpu::kCarveoutMaxShared) return "100 % (max shared)";
  return std::to_string(carveout) + " %";
}

void draw_cache_parameters(CacheSession& session, const CacheResults& r, const viz::Theme& theme,
                           ImVec2 pos, ImVec2 size, bool interactive,
                           const std::function<void()>& header) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin("Parameters##cache", nullptr, kPanelFlags);
  if (header) header();
  CacheState st = session.state();
  const CacheModel& m = session.model();
  label("Cache lab");
  const float half = 0.5f * (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x);
  for (auto sec :
       {CacheSection::Carveout, CacheSection::L1, CacheSection::Constant, CacheSection::ReadPath}) {
    if (sec != CacheSection::Carveout && sec != CacheSection::Constant) ImGui::SameLine();
    const bool current = st.section == sec;
    if (current)
      ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    if (ImGui::Button(section_label(sec), {half, 0}) && !current) st.section = sec;
    if (current) ImGui::PopStyleColor();
  }
  ImGui::Separator();
  ImGui::TextDisabled("%s", m.device_text.c_str());
  switch (st.section) {
    case CacheSection::Carveout: {
      label("Carveout (% of the largest shared capacity)");
      ImGui::SetNextItemWidth(-1);
      ImGui::SliderInt("##carveout", &st.carveout, -1, 100,
                       st.carveout < 0 ? "-1 (driver default)" : "%d %%");
      radio_row<int>("carveout-presets", st.carveout,
                     {{-1, "default"}, {0, "0"}, {50, "50"}, {100, "100"}});
      label("Dynamic shared memory per block (KiB)");
      int dyn_kib = static_cast<int>(st.dynamic_shared_bytes / 1024);
      ImGui::SetNextItemWidth(-1);
      if (ImGui::SliderInt("##dyn", &dyn_kib, 0, static_cast<int>(m.optin_limit_bytes / 1024),
                           "%d KiB"))
        st.dynamic_shared_bytes = std::int64_t{dyn_kib} * 1024;
      ImGui::TextWrapped("Capacity %d KiB, L1 left %d KiB, %d blocks/SM predicted.",
                         m.current.choice.shared_kib, m.current.choice.l1_kib,
                         m.current.blocks_per_sm);
      break;
    }
    case CacheSection::L1: {
      label("Working set per block (the ringed point)");
      const auto& sets = l1_working_sets();
      int index = 0;
      for (std::size_t i = 0; i < sets.size(); ++i)
        if (sets[i] == st.working_set_bytes) index = static_cast<int>(i);
      ImGui::SetNextItemWidth(-1);
      if (ImGui::SliderInt("##ws", &index, 0, static_cast<int>(sets.size()) - 1,
                           kib(sets[static_cast<std::size_t>(index)]).c_str()))
        st.working_set_bytes = sets[static_cast<std::size_t>(index)];
      ImGui::TextWrapped("The sweep times every working set at carveouts default, 0, 50 and 100.");
      break;
    }
    case CacheSection::Constant:
      label("k: distinct addresses per warp (1 = broadcast)");
      ImGui::SetNextItemWidth(-1);
      ImGui::SliderInt("##k", &st.k, 1, 32);
      break;
    case CacheSection::ReadPath: {
      label("Load path (the ringed bar)");
      radio_row<gpu::ReadPath>("path", st.read.path,
                               {{gpu::ReadPath::Plain, "plain"},
                                {gpu::ReadPath::Ldg, "__ldg"},
                                {gpu::ReadPath::Texture, "texture"}});
      label("Access pattern");
      radio_row<gpu::ReadPattern>("pattern", st.read.pattern,
                                  {{gpu::ReadPattern::Scattered, "scattered"},
                                   {gpu::ReadPattern::Local2D, "window"},
                                   {gpu::ReadPattern::Morton, "Morton"}});
      radio_row<gpu::ReadPattern>("pattern-tile", st.read.pattern,
                                  {{gpu::ReadPattern::ColumnTile, "4\u00d74 tile"},
                                   {gpu::ReadPattern::ColumnTileMorton, "tile, Morton"}});
      label("Image side (pixels)");
      int log_side = static_cast<int>(std::lround(std::log2(st.read.side)));
      ImGui::SetNextItemWidth(-1);
      if (ImGui::SliderInt("##side", &log_side, 6, 13, std::to_string(st.read.side).c_str()))
        st.read.side = 1 << log_side;
      label("Window radius (window patterns)");
      ImGui::SetNextItemWidth(-1);
      ImGui::SliderInt("##radius", &st.read.radius, 0, 4);
      label("Reads per thread (scattered)");
      ImGui::SetNextItemWidth(-1);
      ImGui::SliderInt("##reads", &st.read.scattered_reads, 1, 32);
      break;
    }
  }
  if (!(st == session.state())) session.set(st);
  ImGui::Separator();
  if (!session.gpu_mode()) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s", session.no_gpu_text().c_str());
    ImGui::PopTextWrapPos();
  } else if (r.busy) {
    ImGui::ProgressBar(r.total ? static_cast<float>(r.done) / static_cast<float>(r.total) : 0.0f,
                       {-1, 0}, r.status.c_str());
  } else if (interactive && ImGui::Button("Measure again")) {
    session.remeasure();
  }
  const std::string error = session.error();
  if (!error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, color4(theme.warning));
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(error.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
  }
  ImGui::End();
}

void draw_cache_view(CacheSession& session, const CacheResults& r, const viz::ImGuiLayer& layer,
                     const viz::Theme& theme, ImVec2 pos, ImVec2 size, bool interactive) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin("Cache lab##cache-view", nullptr,
               kPanelFlags | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  switch (session.state().section) {
    case CacheSection::Carveout: draw_carveout_view(session, r, layer, theme, interactive); break;
    case CacheSection::L1: draw_l1_view(session, r, layer, theme, interactive); break;
    case CacheSection::Constant: draw_constant_view(session, r, layer, theme, interactive); break;
    case CacheSection::ReadPath: draw_read_path_view(session, r, layer, theme, interactive); break;
  }
  ImGui::End();
}

void draw_cache_numbers(const CacheSession& session, const CacheResults& r, const viz::Theme& theme,
                        ImVec2 pos, ImVec2 size) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin("Numbers##cache", nullptr, kPanelFlags);
  const CacheModel& m = session.model();
  const CacheState& st = session.state();
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingStretchProp;
  const ImU32 current_row = to_imgui_color(theme.sector, 0.25f);
  const auto measured_cell = [&](bool have, const std::string& text) {
    if (have) {
      ImGui::TextUnformatted(text.c_str());
    } else {
      ImGui::TextDisabled("%s", session.gpu_mode() ? "\u2026" : "needs a GPU");
    }
  };
  switch (st.section) {
    case CacheSection::Carveout: {
      // Left: the occupancy table by dynamic shared memory; right: the shared-hungry sweep by
      // carveout at the chosen dynamic shared memory.
      const ImVec2 avail = ImGui::GetContentRegionAvail();
      const float gap = ImGui::GetStyle().ItemSpacing.x * 2;
      const float left_w = (avail.x - gap) * 0.54f;
      if (ImGui::BeginTable("carveout", 8, flags, {left_w, avail.y})) {
        ImGui::TableSetupScrollFreeze(0, 1);
        for (const char* h : {"dyn. shared", "opt-in", "capacity", "L1 left", "model blocks",
                              "occupancy", "API blocks", "limited by"})
          ImGui::TableSetupColumn(h);
        ImGui::TableHeadersRow();
        for (const auto& row : m.sweep) {
          ImGui::TableNextRow();
          if (row.dynamic_shared_bytes == st.dynamic_shared_bytes)
            ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, current_row);
          const gpu::OccupancyInfo* gpu_row = nullptr;
          for (const auto& o : r.occupancy)
            if (o.dynamic_shared_bytes == row.dynamic_shared_bytes && o.carveout == st.carveout)
              gpu_row = &o;
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(kib(row.dynamic_shared_bytes).c_str());
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(gpu::needs_shared_optin(row.dynamic_shared_bytes) ? "yes" : "no");
          ImGui::TableNextColumn();
          ImGui::Text("%d KiB%s", row.choice.shared_kib, row.choice.raised_for_block ? " *" : "");
          ImGui::TableNextColumn();
          ImGui::Text("%d KiB", row.choice.l1_kib);
          ImGui::TableNextColumn();
          ImGui::Text("%d", row.blocks_per_sm);
          ImGui::TableNextColumn();
          ImGui::Text("%.0f %%", row.occupancy_percent);
          ImGui::TableNextColumn();
          measured_cell(
              gpu_row != nullptr,
              gpu_row ? format("%d%s", gpu_row->blocks_per_sm,
                               gpu_row->blocks_per_sm == row.blocks_per_sm ? " \u2713" : " differs")
                      : "");
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(row.limiter.c_str());
        }
        ImGui::EndTable();
      }
      ImGui::SameLine(0, gap);
      const bool have =
          r.carveout_of && same_cache_measurement(CacheSection::Carveout, *r.carveout_of, st);
      if (ImGui::BeginTable("carveout-sweep", 6, flags, {avail.x - left_w - gap, avail.y})) {
        ImGui::TableSetupScrollFreeze(0, 1);
        for (const char* h :
             {"carveout", "asks for", "model blocks", "API blocks", "seen (%smid)", "median ms"})
          ImGui::TableSetupColumn(h);
        ImGui::TableHeadersRow();
        for (const auto& row : m.carveout_sweep) {
          const gpu::SharedHungryMeasurement* pt = nullptr;
          for (const auto& x : r.hungry_sweep)
            if (x.occupancy.carveout == row.carveout && (have || (r.busy && !r.carveout_of)))
              pt = &x;
          ImGui::TableNextRow();
          if (row.carveout == st.carveout)
            ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, current_row);
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(row.carveout == gpu::kCarveoutDefault
                                     ? "default"
                                     : format("%d %%", row.carveout).c_str());
          ImGui::TableNextColumn();
          if (row.choice.driver_default) {
            ImGui::TextDisabled("(driver)");
          } else if (row.choice.raised_for_block) {
            ImGui::Text("%d\u2192%d KiB", row.choice.rounded_kib, row.choice.shared_kib);
          } else {
            ImGui::Text("%d KiB", row.choice.rounded_kib);
          }
          ImGui::TableNextColumn();
          ImGui::Text("%d", row.blocks_per_sm);
          ImGui::TableNextColumn();
          measured_cell(pt != nullptr, pt ? format("%d", pt->occupancy.blocks_per_sm) : "");
          ImGui::TableNextColumn();
          measured_cell(pt != nullptr, pt ? format("%d", pt->observed_blocks_per_sm) : "");
          ImGui::TableNextColumn();
          measured_cell(pt != nullptr, pt ? format("%.3f", pt->timing.median_ms) : "");
        }
        ImGui::EndTable();
      }
      break;
    }
    case CacheSection::L1:
      if (ImGui::BeginTable("l1", 1 + static_cast<int>(l1_carveouts().size()), flags)) {
        ImGui::TableSetupScrollFreeze(0, 1);
        ImGui::TableSetupColumn("working set");
        for (int c : l1_carveouts())
          ImGui::TableSetupColumn(("ns/access, L1 hit, " + carveout_text(c)).c_str());
        ImGui::TableHeadersRow();
        for (auto ws : l1_working_sets()) {
          ImGui::TableNextRow();
          if (ws == st.working_set_bytes)
            ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, current_row);
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(kib(ws).c_str());
          for (int c : l1_carveouts()) {
            ImGui::TableNextColumn();
            const gpu::L1GatherMeasurement* pt = nullptr;
            for (const auto& x : r.l1)
              if (x.carveout == c && x.working_set_bytes == ws) pt = &x;
            const L1HitPoint* hit = nullptr;
            for (const auto& x : r.l1_hit)
              if (x.carveout == c && x.working_set_bytes == ws) hit = &x;
            measured_cell(pt != nullptr,
                          pt ? format("%.3f%s%s", pt->ns_per_access,
                                      hit ? (", " + hit_text(hit->rate) + " hit").c_str() : "",
                                      pt->fits_l1 ? " (fits L1)" : "")
                             : "");
          }
        }
        ImGui::EndTable();
      }
      break;
    case CacheSection::Constant:
      if (ImGui::BeginTable("constant", 4, flags)) {
        ImGui::TableSetupScrollFreeze(0, 1);
        for (const char* h :
             {"k (reads per request)", "ns / request", "cycles / request", "\u00d7 broadcast"})
          ImGui::TableSetupColumn(h);
        ImGui::TableHeadersRow();
        const double base = !r.constant.empty() ? r.constant.front().cycles_per_request : 0;
        for (int k = 1; k <= 32; ++k) {
          const gpu::ConstantMeasurement* pt = nullptr;
          for (const auto& x : r.constant)
            if (x.k == k) pt = &x;
          ImGui::TableNextRow();
          if (k == st.k) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, current_row);
          ImGui::TableNextColumn();
          ImGui::Text("%d", k);
          ImGui::TableNextColumn();
          measured_cell(pt != nullptr, pt ? format("%.3f", pt->ns_per_request) : "");
          ImGui::TableNextColumn();
          measured_cell(pt != nullptr, pt ? format("%.1f", pt->cycles_per_request) : "");
          ImGui::TableNextColumn();
          measured_cell(pt != nullptr && base > 0,
                        pt && base > 0 ? format("%.1f\u00d7", pt->cycles_per_request / base) : "");
        }
        ImGui::EndTable();
      }
      break;
    case CacheSection::ReadPath:
      if (ImGui::BeginTable("read", 6, flags)) {
        ImGui::TableSetupScrollFreeze(0, 1);
        for (const char* h :
             {"path", "pattern", "GB/s", "median ms", "L1 hit rate (counters)", "checksum"})
          ImGui::TableSetupColumn(h);
        ImGui::TableHeadersRow();
        for (auto path : read_paths()) {
          for (auto pattern : read_patterns()) {
            const gpu::ReadPathMeasurement* pt = nullptr;
            for (const auto& x : r.read)
              if (x.params.path == path && x.params.pattern == pattern) pt = &x;
            const ReadHitPoint* hit = nullptr;
            for (const auto& x : r.read_hit)
              if (x.params.path == path && x.params.pattern == pattern) hit = &x;
            ImGui::TableNextRow();
            if (path == st.read.path && pattern == st.read.pattern)
              ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, current_row);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(path_label(path));
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(pattern_label(pattern).c_str());
            ImGui::TableNextColumn();
            measured_cell(pt != nullptr, pt ? format("%.1f", pt->gbps) : "");
            ImGui::TableNextColumn();
            measured_cell(pt != nullptr, pt ? format("%.3f", pt->timing.median_ms) : "");
            ImGui::TableNextColumn();
            measured_cell(hit != nullptr, hit ? hit_text(hit->rate) : "");
            if (hit && !hit->rate.percent && ImGui::IsItemHovered())
              ImGui::SetTooltip("%s", hit->rate.unavailable.c_str());
            ImGui::TableNextColumn();
            measured_cell(pt != nullptr, pt ? (pt->verified ? "verified" : pt->check) : "");
          }
        }
        ImGui::EndTable();
      }
      break;
  }
  ImGui::End();
}

std::string cache_status_text(const CacheSession& session, const CacheResults& r) {
  const CacheModel& m = session.model();
  std::string text = std::string("cache lab \u2022 ") + to_string(session.state().section) +
                     " \u2022 " + m.device_text;
  if (!session.gpu_mode()) return text + " \u2022 model only";
  if (r.busy) text += " \u2022 " + r.status;
  return text;
}

}  // namespace warplens::app
