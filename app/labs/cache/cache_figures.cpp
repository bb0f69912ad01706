#include "cache_figures.h"

#include <string>

#include "cache_ui.h"
#include "cache_ui_internal.h"
#include "ui_widgets.h"

namespace warplens::app {

using namespace cache_ui_detail;

namespace {

// A two-line header on one line: "blocks\nAPI" -> "blocks API", "occu-\npancy" -> "occupancy".
std::string one_line(const std::string& name) {
  std::string out;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name[i] != '\n') {
      out += name[i];
    } else if (!out.empty() && out.back() == '-') {
      out.pop_back();
    } else {
      out += ' ';
    }
  }
  return out;
}

// What the figure's title says is shown: the section and the state's knobs, and whose table.
std::string access_text(const CacheSession& session) {
  const CacheState& st = session.state();
  const std::string device = " \u2022 " + session.model().device_text;
  switch (st.section) {
    case CacheSection::Carveout:
      return "cache lab, carveout \u2022 " + kib(st.dynamic_shared_bytes) +
             " dynamic shared per block, carveout " + carveout_text(st.carveout) + device;
    case CacheSection::L1:
      return "cache lab, L1 sweep \u2022 working set " + kib(st.working_set_bytes) + device;
    case CacheSection::Constant:
      return format("cache lab, constant cache \u2022 k = %d distinct addresses per warp", st.k) +
             device;
    case CacheSection::ReadPath:
      return std::string("cache lab, read path \u2022 ") + path_label(st.read.path) + ", " +
             pattern_label(st.read.pattern) + device;
  }
  return "cache lab";
}

FigurePanelData numbers_panel(const CacheSession& session, const CacheResults& r) {
  FigurePanelData d;
  d.panel = FigurePanel::Numbers;
  d.access = access_text(session);
  // The tables as the window draws them; the highlighted rows' measured cells, by name.
  int measured_cells = 0;
  for (const NumbersTable& t : cache_numbers_tables(session, r)) {
    FigureTable& table = d.tables.emplace_back();
    table.highlight = t.current;
    for (const NumbersColumn& c : t.columns) table.header.push_back(c.name);
    for (std::size_t i = 0; i < t.rows.size(); ++i) {
      std::vector<FigureCell>& row = table.rows.emplace_back();
      for (std::size_t c = 0; c < t.rows[i].size(); ++c) {
        const NumbersCell& cell = t.rows[i][c];
        measured_cells += c < t.columns.size() && t.columns[c].measured && !cell.muted;
        row.push_back({cell.mark.empty() ? cell.text : cell.text + " " + cell.mark, cell.muted});
        if (static_cast<int>(i) == t.current && c < t.columns.size() && t.columns[c].measured &&
            !cell.muted)
          d.measured.push_back(
              {t.rows[i].front().text + ", " + one_line(t.columns[c].name), cell.text});
      }
    }
  }
  const CacheState& st = session.state();
  if (st.section == CacheSection::L1 && !r.l1_hit_note.empty())
    d.notes.push_back("L1 hit rate: " + r.l1_hit_note);
  if (st.section == CacheSection::ReadPath && !r.read_hit_note.empty())
    d.notes.push_back("L1 hit rate: " + r.read_hit_note);
  // No row highlighted (a state between the table's rows) yet measured values in the tables.
  d.measured_title = "measured on the GPU (the highlighted rows)";
  if (d.measured.empty() && measured_cells > 0) {
    d.measured.push_back({"the tables' measured columns", format("%d values", measured_cells)});
    d.measured_title = "measured on the GPU";
  }
  set_measured_source(d, session.gpu_mode(),
                      session.gpu_mode() ? session.device().device->name : std::string(),
                      session.device().reason, r.busy);
  return d;
}

// The section's plots (carveout: occupancy, time, resident blocks; L1: time per access and the
// hit rate once read; constant: cycles per request), as the window draws them: the model's lines
// always, the measured points where measured.
FigurePanelData plot_panel(const CacheSession& session, const CacheResults& r) {
  FigurePanelData d;
  d.panel = FigurePanel::Plot;
  d.access = access_text(session);
  switch (session.state().section) {
    case CacheSection::Carveout: d.plots = carveout_plots(session, r); break;
    case CacheSection::L1:
      d.plots = l1_plots(session, r);
      if (!r.l1_hit_note.empty()) d.notes.push_back("L1 hit rate: " + r.l1_hit_note);
      break;
    case CacheSection::Constant:
      d.plots = {constant_plot(session, r, /*reads_without_cycles=*/true)};
      break;
    case CacheSection::ReadPath: break;
  }
  std::size_t points = 0;
  for (const FigurePlot& p : d.plots) points += p.measured_points();
  if (points > 0) d.measured.push_back({"points", format("%zu", points)});
  d.measured_title = "measured on the GPU";
  set_measured_source(d, session.gpu_mode(),
                      session.gpu_mode() ? session.device().device->name : std::string(),
                      session.device().reason, r.busy);
  return d;
}

}  // namespace

std::vector<FigurePanel> cache_figure_panels(const CacheSession& session,
                                             const CacheResults& /*r*/) {
  if (session.state().section != CacheSection::ReadPath)
    return {FigurePanel::Plot, FigurePanel::Numbers};
  // Measured bars once measured on a GPU; before, the model's sectors and lines per warp load
  // (as the window draws them).
  return numbers_and_measured_bars(true);
}

std::optional<FigurePanelData> cache_figure_panel(const CacheSession& session,
                                                  const CacheResults& r, FigurePanel panel) {
  if (panel == FigurePanel::Numbers) return numbers_panel(session, r);
  if (panel == FigurePanel::Plot) {
    if (session.state().section == CacheSection::ReadPath) return std::nullopt;
    return plot_panel(session, r);
  }
  if (panel != FigurePanel::Bars || session.state().section != CacheSection::ReadPath)
    return std::nullopt;
  if (r.read.empty())
    return model_bars_panel(
        read_path_model_bars(session), read_path_title(session.state(), true),
        "model: the distinct 32-byte sectors and 128-byte lines one warp load touches, the mean "
        "over warp 0's loads, in the buffer the plain and __ldg paths read \u2022 the ringed "
        "pattern highlighted \u2022 a texture reads a cudaArray laid out by the driver: no model",
        session.gpu_mode()
            ? std::string("not measured yet")
            : "measurements need a CUDA device" + (session.device().reason.empty()
                                                       ? std::string()
                                                       : ": " + session.device().reason));
  return measured_bars_panel(
      read_path_bars(session, r), read_path_title(session.state(), false),
      "bars grouped by access pattern (footprint, a warp's centres, layout) \u2022 the ringed "
      "bar highlighted \u2022 beside each: its L1 hit rate from the hardware counters",
      session.gpu_mode() ? "measured on " + session.device().device->name
                         : std::string("measured"));
}

}  // namespace warplens::app
