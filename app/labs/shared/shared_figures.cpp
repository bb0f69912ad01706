// The shared-memory labs' panels as course-note figures (render --panel, figure_panel.h): the
// bank view of the shown shared access, the tile as stored beside it, the transpose's global
// read or write (warp), the measured variants' bars once measured, and the numbers. Each panel
// carries the numbers the window's view shows (shared_ui.cpp draws them).
#include <algorithm>

#include "array_panel.h"
#include "shared_kinds.h"
#include "shared_labs.h"
#include "shared_ui.h"
#include "ui_widgets.h"

namespace warplens::app {

namespace {

bool has_tile(const SharedSession& session) {
  return session.access() && tile_view_applies(session.access()->index);
}

}  // namespace

std::vector<FigurePanel> SharedLabBase::figure_panels() const {
  std::vector<FigurePanel> panels;
  if (session_.access()) panels.push_back(FigurePanel::Banks);
  if (shared_kind(session_.state().lab).global_views) panels.push_back(FigurePanel::Warp);
  if (has_tile(session_)) panels.push_back(FigurePanel::Tile);
  // Bars are measured on the GPU only (the window draws none without one).
  if (!shared_measured_bars(session_, session_.measured()).bars.empty())
    panels.push_back(FigurePanel::Bars);
  panels.push_back(FigurePanel::Numbers);
  return panels;
}

bool SharedLabBase::show_figure_panel(FigurePanel panel) {
  const auto panels = figure_panels();
  if (std::find(panels.begin(), panels.end(), panel) == panels.end()) return false;
  SharedState st = session_.state();
  const bool shared_side = panel == FigurePanel::Banks || panel == FigurePanel::Tile;
  if (shared_side && shows_global(st)) st.transpose_view = TransposeView::Tile;
  if (panel == FigurePanel::Warp && !shows_global(st))
    st.transpose_view = TransposeView::GlobalRead;
  if (!(st == session_.state())) session_.set(st);
  return true;
}

std::optional<FigurePanelData> SharedLabBase::figure_panel(FigurePanel panel) const {
  const SharedState& st = session_.state();
  FigurePanelData d;
  d.panel = panel;
  const auto shared_access = [&] { return shared_access_caption(st, *session_.access()); };
  const auto global_access = [&] {
    const bool write = st.transpose_view == TransposeView::GlobalWrite;
    return format("lanes 0\u201331 of warp 0, block (0, 0): the %s kernel's %s",
                  gpu::to_string(st.transpose.variant), write ? "store to out" : "load from in");
  };
  switch (panel) {
    case FigurePanel::Banks:
    case FigurePanel::Tile:
      if (!session_.access() || session_.shows_global()) return std::nullopt;
      if (panel == FigurePanel::Tile && !has_tile(session_)) return std::nullopt;
      d.trace = session_.trace();
      d.shared = session_.traced() ? *session_.traced() : session_.predicted();
      d.first_warp = st.warp;
      d.gpu_trace = session_.traced_on_gpu();
      d.access = shared_access();
      d.tile_index = session_.access()->index;
      break;
    case FigurePanel::Warp:
      if (!session_.shows_global()) return std::nullopt;
      d.trace = session_.global_trace();
      d.global = session_.global_traced() ? *session_.global_traced() : session_.global_predicted();
      d.gpu_trace = session_.global_traced().has_value();
      d.access = global_access();
      break;
    case FigurePanel::Bars: {
      const SharedBars bars = shared_measured_bars(session_, session_.measured());
      if (bars.bars.empty()) return std::nullopt;
      d.bars = bars.bars;
      d.bars_title = bars.title;
      d.access = std::string(to_string(st.lab)) + " kernels, measured";
      d.gpu_trace = true;
      d.source = "measured on " + session_.device().device->name;
      return d;
    }
    case FigurePanel::Numbers: {
      const auto m = session_.measured();
      if (session_.shows_global()) {
        d.rows = global_stat_texts(session_.global_predicted(), session_.global_traced());
        d.gpu_trace = session_.global_traced().has_value();
        d.trace_column = trace_column_title(d.gpu_trace, model::HardwareModel::Modern);
        d.access = global_access();
      } else if (session_.access()) {
        d.rows = shared_stat_texts(session_.predicted(), session_.traced());
        d.gpu_trace = session_.traced().has_value();
        d.trace_column = trace_column_title(d.gpu_trace, session_.predicted().model);
        d.access = shared_access();
      } else {
        d.notes.push_back("No shared-memory access in this kernel.");
        d.access = std::string(to_string(st.lab)) + " lab";
      }
      if (const auto notes = shared_kind(st.lab).notes) {
        const bool all = shared_measured_bars(session_, m).bars.empty();
        for (std::string& note : notes(st, all)) d.notes.push_back(std::move(note));
      }
      if (!session_.gpu_mode()) {
        d.measured_absent =
            "measurements need a CUDA device" +
            (session_.device().reason.empty() ? std::string() : ": " + session_.device().reason);
      } else if (m.bank) {  // the bank probe's lab measures one probe, no variants
        const auto& b = *m.bank;
        d.measured_title = "measured on the GPU";
        d.measured = {{"cycles per request, one warp alone", format("%.2f", b.cycles_per_request)},
                      {"whole GPU", format("%.0f GB/s", b.gbps)},
                      {"per SM per clock, whole GPU",
                       format("%.1f B (%.0f %% of 128)", b.bytes_per_clock_per_sm,
                              100.0 * b.fraction_of_limit)},
                      {"SM clock during the run", format("%.0f MHz", b.sm_clock_mhz)}};
      } else {
        const SharedBars bars = shared_measured_bars(session_, m);
        d.measured_title = bars.title.empty() ? "measured" : bars.title;
        for (const FigureBar& b : bars.bars)
          d.measured.push_back({b.name, b.text + (b.note.empty() ? "" : "  " + b.note)});
      }
      if (d.measured.empty() && d.measured_absent.empty())
        d.measured_absent = m.busy ? "the measurement is still running" : "not measured";
      if (session_.gpu_mode() && (session_.access() || session_.shows_global()))
        d.measured.push_back(
            {"hardware counters",
             counters_summary(m.counters, m.busy,
                              session_.shows_global() ? "sectors" : "wavefronts",
                              session_.shows_global() ? model::HardwareModel::Modern : st.model)});
      break;
    }
    default: return std::nullopt;
  }
  if (d.source.empty())
    d.source = d.gpu_trace ? "GPU trace on " + session_.device().device->name : "host model";
  return d;
}

}  // namespace warplens::app
