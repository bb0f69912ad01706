// The global lab's panels as course-note figures (render --panel, figure_panel.h): the warp
// view, the numbers, the sector heatmap, and the offset or stride sweep once one was measured.
// Each panel carries the numbers the window's view shows (global_panels.cpp draws them).
#include <algorithm>

#include "global_lab.h"
#include "global_panels.h"
#include "sweeps.h"
#include "ui_widgets.h"

namespace warplens::app {

namespace {

std::optional<SweepAxis> sweep_axis(FigurePanel panel) {
  if (panel == FigurePanel::OffsetSweep) return SweepAxis::Offset;
  if (panel == FigurePanel::StrideSweep) return SweepAxis::Stride;
  return std::nullopt;
}

}  // namespace

std::vector<FigurePanel> GlobalLab::figure_panels() const {
  std::vector<FigurePanel> panels = {FigurePanel::Warp};
  if (session_.heatmap_unavailable().empty()) panels.push_back(FigurePanel::Heatmap);
  // A sweep is measured on the GPU only (the window shows none without one): its panel exists
  // once a sweep of that axis has points.
  if (const auto sweep = session_.sweep(); sweep && !sweep->points.empty())
    panels.push_back(sweep->axis == SweepAxis::Offset ? FigurePanel::OffsetSweep
                                                      : FigurePanel::StrideSweep);
  panels.push_back(FigurePanel::Numbers);
  return panels;
}

bool GlobalLab::show_figure_panel(FigurePanel panel) {
  const auto panels = figure_panels();
  return std::find(panels.begin(), panels.end(), panel) != panels.end();
}

std::optional<FigurePanelData> GlobalLab::figure_panel(FigurePanel panel) const {
  const CopyState& st = session_.state();
  const auto& p = st.params;
  FigurePanelData d;
  d.panel = panel;
  d.gpu_trace = session_.trace_source() == TraceSource::GpuKernel;
  d.source = d.gpu_trace ? "GPU trace on " + session_.device().device->name : "host model";
  d.access = format("lanes 0\u201331 of warp %d \u2022 %s of %d-byte words \u2022 ", st.warp,
                    p.side == gpu::PatternSide::Read ? "loads" : "stores", p.word_bytes) +
             kernel_text(p) +
             (p.layout != gpu::StructLayout::None ? " \u2022 " + field_text(st) : "");
  const std::string no_gpu =
      "measurements need a CUDA device" +
      (session_.device().reason.empty() ? std::string() : ": " + session_.device().reason);
  switch (panel) {
    case FigurePanel::Warp:
      d.trace = session_.trace();
      d.global = session_.traced() ? *session_.traced() : session_.predicted();
      d.first_warp = st.warp;
      return d;
    case FigurePanel::Numbers: {
      const auto& t = session_.traced();
      d.global = session_.predicted();
      d.rows = global_stat_texts(session_.predicted(), t);
      const bool fields = p.layout != gpu::StructLayout::None;
      if (session_.predicted_totals().warps > 1) {  // as draw_numbers adds them
        const auto& pt = session_.predicted_totals();
        const auto& tt = session_.traced_totals();
        const char* what = fields ? "loads" : "warps";
        const auto row = [&](const char* kind, std::size_t model, std::optional<std::size_t> gpu) {
          const std::string traced = gpu ? std::to_string(*gpu) : std::string();
          d.rows.push_back(
              {format("sectors, %d %s, %s", pt.warps, what, kind), std::to_string(model), traced,
               std::to_string(model) == traced ? TraceMark::Agrees : TraceMark::Differs});
        };
        row("distinct", pt.distinct_sectors,
            tt ? std::optional<std::size_t>(tt->distinct_sectors) : std::nullopt);
        row("summed", pt.summed_sectors,
            tt ? std::optional<std::size_t>(tt->summed_sectors) : std::nullopt);
      }
      d.trace_column = trace_column_title(t.has_value(), st.model);
      if (fields)
        d.notes.push_back("per request: the load of " + field_text(st) +
                          "; last rows: all three loads");
      if (const std::string note = load_path_note(p); !note.empty()) d.notes.push_back(note);
      d.measured_title = "measured (read + write, 10\u2079 B/s)";
      if (!session_.gpu_mode()) {
        d.measured_absent = no_gpu;
        return d;
      }
      const auto m = session_.measured();
      if (m.copy && session_.measurement_current()) {
        d.measured.push_back({"this copy kernel", format("%.0f GB/s", m.copy->gbps)});
        d.measured.push_back(
            {"spread of the launches",
             spread_text(m.copy->timing, static_cast<double>(m.copy->plan.requested_bytes))});
      }
      if (m.memcpy) {
        d.measured.push_back(
            {"cudaMemcpy device\u2192device", format("%.0f GB/s", m.memcpy->gbps)});
        if (m.copy && session_.measurement_current())
          d.measured.push_back({"this copy / memcpy", percent_text(m.copy->gbps / m.memcpy->gbps)});
      }
      if (!d.measured.empty()) {
        d.measured.push_back({"theoretical DRAM peak",
                              format("%.0f GB/s", session_.device().device->theoretical_gbps)});
        d.measured.push_back(
            {"hardware counters", counters_summary(m.counters, m.busy, "sectors", st.model)});
        if (const std::string note = bandwidth_note(p); !note.empty()) d.notes.push_back(note);
      } else {
        d.measured_absent = m.busy ? "the measurement is still running" : "not measured";
      }
      return d;
    }
    case FigurePanel::Heatmap:
      if (!session_.heatmap_unavailable().empty()) return std::nullopt;
      d.heatmap = session_.heatmap();
      d.heatmap_buffer = p.side == gpu::PatternSide::Read ? "input" : "output";
      d.access = kernel_text(p) + format(" \u2022 %d-byte words", p.word_bytes);
      return d;
    case FigurePanel::OffsetSweep:
    case FigurePanel::StrideSweep: {
      const auto sweep = session_.sweep();
      const auto axis = sweep_axis(panel);
      if (!sweep || sweep->axis != *axis || sweep->points.empty()) return std::nullopt;
      d.x_label = std::string(to_string(*axis)) + " (elements of " +
                  std::to_string(sweep->base.word_bytes) + " B)";
      d.memcpy_gbps = sweep->memcpy.gbps;
      d.peak_gbps = sweep->theoretical_gbps;
      if (p.word_bytes == sweep->base.word_bytes) d.highlight_x = sweep_x(*axis, p);
      for (const SweepPoint& pt : sweep->points) {
        const GbpsRange iqr =
            iqr_gbps(pt.measured.timing, static_cast<double>(pt.measured.plan.requested_bytes));
        d.sweep.push_back({pt.x, pt.measured.gbps, iqr.low, iqr.high, pt.predicted_gbps});
      }
      d.source = "measured on " + sweep->device;
      d.gpu_trace = true;
      d.access = format("copy kernel, %s sweep of %d-byte words", to_string(*axis),
                        sweep->base.word_bytes) +
                 (sweep->cancelled ? " \u2022 cancelled, points kept" : "");
      return d;
    }
    default: return std::nullopt;
  }
}

}  // namespace warplens::app
