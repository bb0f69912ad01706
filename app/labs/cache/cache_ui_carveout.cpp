// The cache lab's Carveout section: the unified L1 + shared capacity bar with the chosen
// carveout and one SM's resident blocks of the shared-hungry kernel, with the three plots
// (cache_ui_carveout_plots.cpp) under them; in a room too short for the drawing and a plot, one
// picture at a time, picked over it. The drawing says more where it has room (a long heading,
// the request in words, a tall bar, the slots' texts beside them) and less where it has not
// (the rest goes to the notes).
#include "cache_ui_internal.h"

#include <imgui.h>

#include <algorithm>
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

// How much the drawing says: the long heading and texts, the compact ones (a short heading, a
// thin bar, the occupancy alone beside the slots), or bare: the bar and the slots alone (the
// request and, where it does not fit beside the slots, the occupancy go to the notes).
enum class Form { Full, Compact, Bare };

// The capacity bar and the SM's block slots: what they say, how tall they are in a width and
// drawing them at the cursor.
struct CapacityDrawing {
  const CacheSession& session;
  const viz::ImGuiLayer& layer;
  const viz::Theme& theme;
  float s = 1, spacing = 4;
  int slots = 0, blocks = 0;
  std::int64_t block_bytes = 0;
  std::string title_long, title_short, request_long, request_short, occ, line2, line3;
  // The window's font size now, not when made: a room too short for the drawing draws its text
  // smaller (draw_plot_grid), and its measures follow.
  [[nodiscard]] static float font() { return ImGui::GetFontSize(); }

  CapacityDrawing(const CacheSession& session_, const viz::ImGuiLayer& layer_,
                  const viz::Theme& theme_)
      : session(session_), layer(layer_), theme(theme_) {
    const CacheModel& m = session.model();
    const CacheState& st = session.state();
    const gpu::CarveoutChoice& c = m.current.choice;
    s = layer.scale();
    spacing = ImGui::GetStyle().ItemSpacing.y;
    slots = m.max_threads_per_sm / std::max(m.threads_per_block, 1);
    blocks = m.current.blocks_per_sm;
    block_bytes = st.dynamic_shared_bytes + m.reserved_bytes;
    title_long = format("One SM's unified L1 + shared memory: %d KiB", m.table.unified_kib) +
                 "  \u2022  " + m.device_text;
    title_short = format("Unified L1 + shared memory: %d KiB per SM", m.table.unified_kib);
    if (c.driver_default) {
      request_long =
          "default (-1): the driver picks; the model assumes the smallest capacity that holds " +
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
    occ = format("%.0f %% occupancy", m.current.occupancy_percent);
    line2 = format("%d of %d blocks (%d threads = %d warps each), limited by %s", blocks, slots,
                   m.threads_per_block, m.threads_per_block / 32, m.current.limiter.c_str());
    line3 = format("%s dynamic + %s reserved per block: %s of %d KiB used",
                   kib(st.dynamic_shared_bytes).c_str(), kib(m.reserved_bytes).c_str(),
                   kib(block_bytes * blocks).c_str(), c.shared_kib);
  }

  [[nodiscard]] std::string title(Form f) const {
    return f == Form::Full ? title_long : f == Form::Compact ? title_short : std::string();
  }
  [[nodiscard]] std::string request(Form f, float width) const {
    return f != Form::Full && ImGui::CalcTextSize(request_long.c_str()).x > width ? request_short
                                                                                  : request_long;
  }
  [[nodiscard]] float bar_h(Form f) const {
    return f == Form::Full ? 44 * s : f == Form::Compact ? 1.4f * font() : 1.0f * font();
  }
  // The capacity labels under the bar: in one row, alternating over two (full form only), or
  // only the chosen one (0; a note lists them all).
  [[nodiscard]] int label_rows(Form f, float width) const {
    const auto& caps = session.model().table.capacities_kib;
    const float per_kib =
        width / static_cast<float>(std::max(session.model().table.unified_kib, 1));
    for (int rows = 1; rows <= (f == Form::Full ? 2 : 1); ++rows) {
      bool ok = true;
      for (std::size_t i = static_cast<std::size_t>(rows); i < caps.size(); ++i) {
        const float apart =
            static_cast<float>(caps[i] - caps[i - static_cast<std::size_t>(rows)]) * per_kib;
        const float need = 0.5f * (ImGui::CalcTextSize(std::to_string(caps[i]).c_str()).x +
                                   ImGui::CalcTextSize(std::to_string(caps[i - 1]).c_str()).x) +
                           6 * s;
        ok = ok && apart >= need;
      }
      if (ok) return rows;
    }
    return 0;
  }
  [[nodiscard]] float slot_label_w() const { return ImGui::CalcTextSize("#7").x + 8 * s; }
  [[nodiscard]] float texts_w() const {
    return std::max(ImGui::CalcTextSize(line2.c_str()).x, ImGui::CalcTextSize(line3.c_str()).x) +
           16 * s;
  }
  [[nodiscard]] float occ_w() const {
    ImGui::PushFont(layer.fonts().bold);
    const float w = ImGui::CalcTextSize(occ.c_str()).x + 16 * s;
    ImGui::PopFont();
    return w;
  }
  // What goes beside the slots: the occupancy and both texts (full), the occupancy alone
  // (compact), or nothing (the occupancy goes under them).
  [[nodiscard]] float beside_w(Form f) const { return f == Form::Full ? texts_w() : occ_w(); }
  [[nodiscard]] bool beside(Form f, float width) const {
    return width - 8 * s - beside_w(f) >= static_cast<float>(slots) * (slot_label_w() + 6 * s);
  }
  [[nodiscard]] float slot_h(Form f) const {
    return f == Form::Full      ? 1.6f * font() + 2 * font() + 12 * s
           : f == Form::Compact ? 1.6f * font()
                                : 1.2f * font();
  }

  // The drawing's height at `width`: heading, request, bar and its labels, the slots (without
  // the item spacing under them).
  [[nodiscard]] float height(Form f, float width) const {
    const float said = f == Form::Bare ? 0.0f : wrapped_height(request(f, width), width);
    const float bar = said + 12 * s + bar_h(f) + 10 * s + 6 * s +
                      static_cast<float>(std::max(label_rows(f, width), 1)) * font() + spacing;
    float sm = slot_h(f) + 8 * s + spacing;
    if (f == Form::Full && beside(f, width))
      sm = std::max(slot_h(f), 1.6f * font() + 2 * font() + 12 * s) + 8 * s + spacing;
    if (!beside(f, width) && f != Form::Bare) sm += heading_height(layer, occ, width);
    return heading_height(layer, title(f), width) + bar + sm - spacing;
  }

  // Draws at the cursor, `width` wide; the texts it leaves out go to `notes` (in reading order).
  void draw(Form f, float avail_w, std::vector<CacheAside::Note>& notes) const;
};

void CapacityDrawing::draw(Form f, float avail_w, std::vector<CacheAside::Note>& notes) const {
  const CacheModel& m = session.model();
  const gpu::CarveoutChoice& c = m.current.choice;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImU32 text = to_imgui_color(theme.text);
  const ImU32 muted = to_imgui_color(theme.muted_text);
  const ImU32 rule = to_imgui_color(theme.rule);
  const float width = avail_w - 8 * s;
  const float x0 = ImGui::GetCursorScreenPos().x + 4 * s;
  const float per_kib = width / static_cast<float>(std::max(m.table.unified_kib, 1));
  const int rows = label_rows(f, width);

  heading(layer, title(f));
  // The request marker's text, then the bar with the marker over it.
  std::vector<CacheAside::Note> left_out;
  if (f == Form::Bare) {
    left_out.push_back({request_long, false});
  } else {
    ImGui::PushStyleColor(ImGuiCol_Text, color4(theme.text));
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(request(f, avail_w).c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
  }
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const float bar_top = o.y + 12 * s, bar_bottom = bar_top + bar_h(f);
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
    if (rows == 0 && !chosen) continue;
    const std::string t = std::to_string(cap);
    if (chosen) ImGui::PushFont(layer.fonts().bold);
    const ImVec2 ts = ImGui::CalcTextSize(t.c_str());
    const float row = rows == 2 ? static_cast<float>(i % 2) : 0.0f;
    const float tx = std::clamp(x - 0.5f * ts.x, x0, x0 + width - ts.x);
    draw->AddText({tx, strip_bottom + 6 * s + row * font()}, chosen ? text : muted, t.c_str());
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
  if (ImGui::CalcTextSize(shared_text.c_str()).x + 12 * s < xs - x0 && bar_h(f) > font())
    text_centered(draw, {0.5f * (x0 + xs), 0.5f * (bar_top + bar_bottom)},
                  to_imgui_color(viz::text_on(sc)), shared_text);
  const float xe = xk(m.table.unified_kib);
  if (ImGui::CalcTextSize(l1_text.c_str()).x + 12 * s < xe - xs && bar_h(f) > font())
    text_centered(draw, {0.5f * (xs + xe), 0.5f * (bar_top + bar_bottom)},
                  to_imgui_color(viz::text_on(lc)), l1_text);
  ImGui::PopFont();
  ImGui::Dummy({width, 12 * s + bar_h(f) + strip_h + 6 * s +
                           static_cast<float>(std::max(rows, 1)) * font()});
  if (rows == 0) {
    std::string capacities;
    for (int cap : m.table.capacities_kib)
      capacities += (capacities.empty() ? "" : ", ") + std::to_string(cap);
    notes.push_back(
        {"ticks: the shared capacities a carveout can pick: " + capacities + " KiB", false});
  } else {
    notes.push_back({"ticks: the shared capacities a carveout can pick (KiB)", false});
  }

  // One SM running the shared-hungry kernel: its block slots (threads), resident or empty, and
  // the occupancy beside them (or under them, where it does not fit beside).
  const ImVec2 so = ImGui::GetCursorScreenPos();
  const bool next_to = beside(f, avail_w);
  const float sh = slot_h(f);
  const float slot_gap = 6 * s;
  const float slots_room = next_to ? width - beside_w(f) : width;
  const float slot_w = std::min(120 * s, (slots_room - slot_gap * static_cast<float>(slots - 1)) /
                                             static_cast<float>(std::max(slots, 1)));
  const float sy = so.y + 2 * s;
  const std::string warps_text = format("%d warps", m.threads_per_block / 32);
  for (int i = 0; i < slots; ++i) {
    const float sx = x0 + static_cast<float>(i) * (slot_w + slot_gap);
    const std::string name = format("block %d", i);
    const std::string label =
        ImGui::CalcTextSize(name.c_str()).x + 6 * s < slot_w ? name : format("#%d", i);
    const bool two_lines =
        f == Form::Full && ImGui::CalcTextSize(warps_text.c_str()).x + 6 * s < slot_w;
    if (i < blocks) {
      const viz::Rgb bc = series_color(theme, i, std::max(slots, 2));
      draw->AddRectFilled({sx, sy}, {sx + slot_w, sy + sh}, to_imgui_color(bc), 6 * s);
      text_centered(draw, {sx + 0.5f * slot_w, sy + (two_lines ? 0.35f : 0.5f) * sh},
                    to_imgui_color(viz::text_on(bc)), label);
      if (two_lines)
        text_centered(draw, {sx + 0.5f * slot_w, sy + 0.7f * sh}, to_imgui_color(viz::text_on(bc)),
                      warps_text);
    } else {
      draw->AddRectFilled({sx, sy}, {sx + slot_w, sy + sh}, to_imgui_color(theme.untouched), 6 * s);
      draw->AddRect({sx, sy}, {sx + slot_w, sy + sh}, rule, 6 * s, 0, 1.0f * s);
      if (ImGui::CalcTextSize("empty").x + 6 * s < slot_w)
        text_centered(draw, {sx + 0.5f * slot_w, sy + 0.5f * sh}, muted, "empty");
    }
  }
  const ImU32 occ_color = to_imgui_color(blocks < slots ? theme.warning : theme.text);
  const float tx = x0 + static_cast<float>(slots) * (slot_w + slot_gap) + 10 * s;
  if (f == Form::Full && next_to) {
    const float big = 1.6f;
    draw->AddText(layer.fonts().bold, font() * big, {tx, sy}, occ_color, occ.c_str());
    draw->AddText({tx, sy + font() * big + 4 * s}, text, line2.c_str());
    draw->AddText({tx, sy + font() * big + font() + 8 * s}, text, line3.c_str());
    ImGui::Dummy({width, std::max(sh, font() * big + 2 * font() + 12 * s) + 8 * s});
  } else if (next_to) {
    ImGui::PushFont(layer.fonts().bold);
    draw->AddText({tx, sy + 0.5f * (sh - ImGui::GetFontSize())}, occ_color, occ.c_str());
    ImGui::PopFont();
    ImGui::Dummy({width, sh + 8 * s});
  } else {
    ImGui::Dummy({width, sh + 8 * s});
    if (f == Form::Bare) {
      left_out.push_back({occ + ": " + line2, blocks < slots});
    } else {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(occ_color));
      heading(layer, occ);
      ImGui::PopStyleColor();
    }
  }
  if (!(f == Form::Full && next_to)) {
    if (left_out.size() < 2) left_out.push_back({line2, false});
    left_out.push_back({line3, false});
  }
  notes.insert(notes.begin(), left_out.begin(), left_out.end());
}

// The notes under the drawing (after the ones it left out): what was measured, the opt-in.
std::vector<CacheAside::Note> carveout_notes(const CacheSession& session, const CacheResults& r) {
  const CacheModel& m = session.model();
  const CacheState& st = session.state();
  std::vector<CacheAside::Note> notes;
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
  return notes;
}

// The drawing in its fullest form that fits `height` at `width`, then the notes that fit under
// it; the rest of them go to `aside`.
void draw_capacity(const CapacityDrawing& d, const CacheSession& session, const CacheResults& r,
                   float width, float height, CacheAside& aside) {
  Form f = Form::Bare;
  for (Form candidate : {Form::Full, Form::Compact})
    if (f == Form::Bare && d.height(candidate, width) <= height) f = candidate;
  const float top = ImGui::GetCursorScreenPos().y;
  std::vector<CacheAside::Note> notes;
  d.draw(f, width, notes);
  // The drawing's own texts first (what its slots show), the rest, then what its ticks are.
  const std::vector<CacheAside::Note> more = carveout_notes(session, r);
  notes.insert(notes.end() - 1, more.begin(), more.end());
  float notes_h = 0;
  const float left = height - (ImGui::GetCursorScreenPos().y - top);
  for (const auto& n : fit_notes(notes, left, width, aside, notes_h)) draw_note(n, d.theme);
}

}  // namespace

void draw_carveout_view(const CacheSession& session, const CacheResults& r,
                        const viz::ImGuiLayer& layer, const viz::Theme& theme, bool interactive,
                        CacheAside& aside) {
  const float s = layer.scale();
  const CapacityDrawing d(session, layer, theme);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float plots_min = carveout_plots_min_height(theme, avail.x, s);
  // Stacked: the drawing in its fullest form that leaves the plots their least height, the
  // notes, then the plots in the rest.
  for (Form f : {Form::Full, Form::Compact}) {
    if (d.height(f, avail.x) + ImGui::GetStyle().ItemSpacing.y + plots_min > avail.y) continue;
    const float top = ImGui::GetCursorScreenPos().y;
    draw_capacity(d, session, r, avail.x, avail.y - plots_min, aside);
    const float used = ImGui::GetCursorScreenPos().y - top;
    draw_carveout_plots(session, r, layer, theme, interactive, aside, avail.x, avail.y - used,
                        nullptr);
    return;
  }
  // Too short for both: one picture at a time, the drawing first.
  const PlotCell picture{"L1 + shared, one SM",
                         {},
                         [&](float w, float h) { draw_capacity(d, session, r, w, h, aside); },
                         "SM",
                         [&](float w) { return d.height(Form::Bare, w); }};
  if (ImGui::GetStateStorage()->GetInt(ImGui::GetID("carveout-pictures"), 0) != 0)
    for (auto& n : carveout_notes(session, r)) aside.notes.push_back(std::move(n));
  draw_carveout_plots(session, r, layer, theme, interactive, aside, avail.x, avail.y, &picture);
}

}  // namespace warplens::app::cache_ui_detail
