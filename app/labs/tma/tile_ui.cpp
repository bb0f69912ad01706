#include "tile_ui.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "bank_panel.h"
#include "knob_widgets.h"
#include "lab_panel.h"
#include "legend_slot.h"
#include "tile_knobs.h"
#include "ui_state.h"
#include "ui_widgets.h"

namespace warplens::app {

namespace {

constexpr ImGuiWindowFlags kTilePanelFlags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                             ImGuiWindowFlags_NoCollapse |
                                             ImGuiWindowFlags_NoBringToFrontOnFocus;

std::string plural(int n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

MeasureProgress measure_progress(const TileSession& session, const TileResults& r) {
  return {session.gpu_mode(), session.no_gpu_text(), r.busy, r.busy ? 0 : 1, 1,
          r.status,           session.error()};
}

const gpu::TilePlacement* shown_placement(const TileSession& session, const TileResults& r) {
  const bool current = r.state && *r.state == session.state();
  return current && r.placement ? &*r.placement : nullptr;
}

}  // namespace

std::string ldmatrix_lanes_text(const gpu::TileRead& read) {
  std::string give;
  for (int m = 0; m < read.matrices; ++m)
    give += format("%s%d-%d matrix %d's", m ? ", " : "", 8 * m, 8 * m + 7, m);
  return "Lanes " + give + " row addresses (Ln in the tile); lane t receives " +
         (read.trans ? "column t/4, rows 2(t%4) and 2(t%4)+1" : "row t/4, elements 2(t%4) and +1") +
         (read.matrices > 1 ? " of each matrix, matrix m in its register m." : ".");
}

std::string tile_model_text(const TileModel& m) {
  const model::SharedAnalysis& a = m.analysis;
  std::string text = plural(a.wavefronts, "wavefront", "wavefronts") + " per request";
  if (a.min_wavefronts > 0 && a.wavefronts > a.min_wavefronts)
    text +=
        format(" (%d-way conflict; %d without)", a.wavefronts / a.min_wavefronts, a.min_wavefronts);
  else
    text += " (no conflict)";
  return text;
}

bool tile_counters_agree(const TileModel& m, const TileResults& r) {
  return r.wavefronts_per_request &&
         std::abs(*r.wavefronts_per_request - m.analysis.wavefronts) < 0.01;
}

std::string tile_counter_text(const TileSession& session, const TileResults& r) {
  if (!session.gpu_mode()) return {};
  if (auto why = session.unsupported()) return "GPU counters: none (" + *why + ")";
  const bool current = r.state && *r.state == session.state();
  if (!current || (r.busy && !r.wavefronts_per_request)) return "GPU counters: reading\u2026";
  if (r.wavefronts_per_request)
    return format("GPU counters: %.2f wavefronts per request %s", *r.wavefronts_per_request,
                  tile_counters_agree(session.model(), r) ? "\u2713" : "\u2717 differs");
  return "GPU counters: none (" + r.counters_unavailable + ")";
}

void draw_tile_parameters(TileSession& session, const TileResults& r, const viz::Theme& theme,
                          ImVec2 pos, ImVec2 size, bool interactive,
                          const std::function<void()>& header) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin("Parameters##tile", nullptr, kTilePanelFlags);
  if (header) header();
  // A refusal stands over the knobs, where the change was made (the panel's foot may be
  // scrolled away); the knobs keep the last accepted state.
  const std::string error = session.error();
  if (!error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, color4(theme.warning));
    ImGui::TextWrapped("%s", error.c_str());
    ImGui::PopStyleColor();
  }
  TileState st = session.state();
  bool changed = false;
  for (const auto& knob : tile_knobs()) {
    if (knob.shown && !knob.shown(st)) continue;
    if (draw_knob(knob, st)) {
      if (knob.then) knob.then(st);
      changed = true;
    }
  }
  if (changed) session.set(st);
  ImGui::Separator();
  MeasureProgress progress = measure_progress(session, r);
  progress.error.clear();  // said over the knobs
  if (draw_measure_footer(progress, theme, interactive)) session.remeasure();
  ImGui::End();
}

void draw_tile_view(UiState& ui, TileSession& session, const TileResults& r, viz::BankView& banks,
                    const viz::ImGuiLayer& layer, const viz::Theme& theme, ImVec2 pos, ImVec2 size,
                    bool interactive, const char* side_name) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  const TileState& st = session.state();
  const TileModel& m = session.model();
  const gpu::TilePlacement* placement = shown_placement(session, r);
  const std::string title =
      fitting_title(
          {"Layouts: the tile as stored and the warp's read on the banks", "Tile and banks"},
          size.x) +
      "###tile-view" + (side_name ? side_name : "");
  ImGui::Begin(title.c_str(), nullptr, view_window_flags(side_name));
  const float s = layer.scale();
  // Presenter layout and A/B: the key numbers carry the verdict and the counters; the view keeps
  // its room for the two pictures.
  // So does a view too short for both beside their text (a projector's scale without the
  // presenter layout): the numbers under it say the verdict and the counters.
  const bool compact = side_name != nullptr || open_legend_slot() != nullptr ||
                       size.y < 20 * ImGui::GetTextLineHeightWithSpacing();
  // The layout on one line over both pictures: wrapped, it would read as two layouts.
  const std::string layout_line = "CuTe layout: " + m.layout_text;
  // Too short for even that line above a two-phase grid (720 px at 3x): the layout goes into the
  // bank grid's caption.
  const bool tight = size.y < 14 * ImGui::GetTextLineHeightWithSpacing();
  // Too short for the bold line (720 px at 3x): the same words in the body font, still on top.
  {
    ImGui::PushFont(tight ? ImGui::GetFont() : layer.fonts().bold);
    const float line_w = ImGui::GetContentRegionAvail().x;
    if (ImGui::CalcTextSize(layout_line.c_str()).x <= line_w)
      ImGui::TextUnformatted(layout_line.c_str());
    else  // wrapped only where even the layout alone does not fit
      ImGui::TextWrapped("%s", m.layout_text.c_str());
    ImGui::PopFont();
    glossary_tooltip(layout_line +
                     (m.layout_text.find("Sw<") != std::string::npos ? " swizzle" : ""));
  }
  if (!compact) {
    ImGui::TextWrapped("%s", ("The warp's " + gpu::tile_read_text(st.read) + ": " +
                              tile_model_text(m) + " (model)")
                                 .c_str());
  }
  if (const std::string error = session.error(); !error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, color4(theme.warning));
    ImGui::TextWrapped("%s", error.c_str());
    ImGui::PopStyleColor();
  }
  if (auto why = session.unsupported()) {
    ImGui::PushStyleColor(ImGuiCol_Text, color4(theme.warning));
    ImGui::TextWrapped("This GPU cannot run it: %s. Nothing is launched; the model is shown.",
                       why->c_str());
    ImGui::PopStyleColor();
  } else if (const std::string c = tile_counter_text(session, r); !c.empty() && !compact) {
    ImGui::TextWrapped("%s", c.c_str());
  }
  const ImVec2 room = ImGui::GetContentRegionAvail();
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  // The stored tile takes the whole height on the left (a row of it per shared row, readable
  // only when tall enough); the bank grid stands on the right and keeps what its 32 columns
  // need. Where both do not fit (a projector at 3x) one stands alone: the stored tile, whose
  // outlined chunks are this lab's lesson, with the wavefront count over it; or the bank grid
  // (key T or the strip's "as stored", as the shared labs' tile view).
  const float bank_need = 70 * s + 32 * std::max(10.0f, 3.5f * s);
  const float tile_w = std::floor(std::min(room.x * 0.5f, room.x - gap - bank_need));
  const bool both = tile_w >= 200 * s;
  constexpr ImGuiWindowFlags kChild =
      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse;
  const std::string caption = "warp 0, " + gpu::tile_read_text(st.read) + " \u2022 model";
  if (!both) {
    ui.array_left_out = true;
    if (ui.array_alone.value_or(true)) {
      ui.array_shown_alone = true;
      // The count the grid would have said, on one bold line over the tile.
      ImGui::PushFont(layer.fonts().bold);
      const std::string n = std::to_string(m.analysis.wavefronts);
      ImGui::TextUnformatted(fitting_title({"Wavefronts per request: " + n + " (model)",
                                            n + " wavefronts (model)", n + " wavefronts"},
                                           room.x)
                                 .c_str());
      ImGui::PopFont();
      draw_stored_tile(st, m, placement, layer, theme, ImGui::GetContentRegionAvail(), interactive);
    } else {
      draw_bank_view(banks, session.trace(), m.analysis, layer, theme, interactive, caption.c_str(),
                     !compact);
    }
    ImGui::End();
    return;
  }
  ImGui::BeginChild("##stored", ImVec2(tile_w, room.y), false, kChild);
  draw_stored_tile(st, m, placement, layer, theme, ImGui::GetContentRegionAvail(), interactive);
  ImGui::EndChild();
  ImGui::SameLine(0, gap);
  ImGui::BeginChild("##banks", ImVec2(room.x - tile_w - gap, room.y), false, kChild);
  draw_bank_view(banks, session.trace(), m.analysis, layer, theme, interactive, caption.c_str(),
                 !compact);
  ImGui::EndChild();
  ImGui::End();
}

void draw_tile_numbers(const TileSession& session, const TileResults& r,
                       const viz::ImGuiLayer& layer, const viz::Theme& theme, ImVec2 pos,
                       ImVec2 size) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin("Numbers##tile", nullptr, kTilePanelFlags);
  const TileState& st = session.state();
  const TileModel& m = session.model();
  const bool current = r.state && *r.state == st;
  ImGui::PushFont(layer.fonts().mono);
  ImGui::TextWrapped("Model: %s", tile_model_text(m).c_str());
  if (st.read.kind == gpu::TileReadKind::Ldmatrix) {
    ImGui::PushStyleColor(ImGuiCol_Text, color4(theme.muted_text));
    ImGui::TextWrapped("%s", ldmatrix_lanes_text(st.read).c_str());
    ImGui::PopStyleColor();
  }
  if (!session.gpu_mode()) {
    ImGui::PopFont();
    ImGui::PushStyleColor(ImGuiCol_Text, color4(theme.muted_text));
    ImGui::TextWrapped("%s", session.no_gpu_text().c_str());
    ImGui::PopStyleColor();
    ImGui::End();
    return;
  }
  if (auto why = session.unsupported()) {
    ImGui::PopFont();
    ImGui::PushStyleColor(ImGuiCol_Text, color4(theme.warning));
    ImGui::TextWrapped("Not run on this GPU: %s.", why->c_str());
    ImGui::PopStyleColor();
    ImGui::End();
    return;
  }
  ImGui::TextWrapped("%s", tile_counter_text(session, r).c_str());
  if (current && r.read)
    ImGui::TextWrapped("Read: %.1f cycles per request (%d requests of warp 0); values %s",
                       r.read->cycles_per_request, r.read->reads,
                       r.read->values_ok ? "as the model says \u2713" : "WRONG");
  else
    ImGui::TextWrapped("Read: timing\u2026");
  if (current && r.read && r.read->gpu_blocks > 0)
    ImGui::TextWrapped(
        "Whole GPU (%d one-warp blocks): %.0f GB/s, %.1f B/clk/SM (%.0f %% of 128), "
        "SM clock %.0f MHz",
        r.read->gpu_blocks, r.read->gbps, r.read->bytes_per_clock_per_sm,
        100.0 * r.read->fraction_of_limit, r.read->sm_clock_mhz);
  if (current && r.placement)
    ImGui::TextWrapped(
        "Fill: %.0f cycles; placement read back %s", r.placement->fill_cycles,
        placement_matches(*r.placement, m) ? "= the model's \u2713" : "DIFFERS from the model's");
  ImGui::PopFont();
  ImGui::End();
}

std::string tile_status_text(const TileSession& session, const TileResults& r) {
  const TileState& st = session.state();
  const std::string swizzle = st.tile.swizzle == gpu::TmaSwizzle::None
                                  ? std::string("no swizzle")
                                  : std::string(gpu::to_string(st.tile.swizzle)) + " swizzle";
  std::string text = "Tile \u2022 " + tile_fill_name(st.tile.fill) + ", " + swizzle + " \u2022 " +
                     gpu::tile_read_text(st.read);
  if (!session.gpu_mode()) return text + " \u2022 model only";
  text += " \u2022 " + session.device().device->name;
  if (r.busy && !r.status.empty()) text += " \u2022 " + r.status;
  return text;
}

std::vector<KeyNumber> tile_key_numbers(const TileSession& session, const TileResults& r) {
  const TileModel& m = session.model();
  std::vector<KeyNumber> k;
  k.push_back({"model, per warp request", plural(m.analysis.wavefronts, "wavefront", "wavefronts"),
               tile_counter_text(session, r)});
  const bool current = r.state && *r.state == session.state();
  if (current && r.read)
    k.push_back({"measured", format("%.1f cycles per request", r.read->cycles_per_request), ""});
  return k;
}

}  // namespace warplens::app
