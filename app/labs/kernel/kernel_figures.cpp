#include "kernel_figures.h"

#include <cstdint>
#include <string>

#include "ui_widgets.h"

namespace warplens::app {

namespace {

std::string plural(int n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

FigurePanelData kernel_numbers_panel(const KernelSession& session, const KernelResults& r) {
  const KernelState& st = session.state();
  const bool current = session.run_current(r);
  FigurePanelData d;
  d.panel = FigurePanel::Numbers;
  d.gpu_trace = current && session.traced_on_gpu();
  d.source = d.gpu_trace ? "GPU trace on " + session.device().device->name : "host model";
  d.access = format("your kernel \u2022 warp %d of block (%d, %d) traced \u2022 %zu access%s",
                    st.traced.warp, st.traced.block_x, st.traced.block_y, st.program.rows.size(),
                    st.program.rows.size() == 1 ? "" : "es");
  d.trace_column = current ? "GPU trace / counters" : "GPU trace (no GPU run)";
  // Each access of the traced warp, per request (the window's left table).
  for (std::size_t i = 0; i < st.program.rows.size(); ++i) {
    const gpu::KernelRowModel& m = session.rows_model()[i];
    const gpu::KernelRow& row = st.program.rows[i];
    StatText t;
    t.name = format("%s%zu %s %s", static_cast<int>(i) == st.step ? "\u2192 " : "", i + 1,
                    std::string(model::to_string(row.op)).c_str(), gpu::to_string(row.space));
    t.model =
        plural(m.cost(), m.global ? "sector" : "wavefront", m.global ? "sectors" : "wavefronts");
    if (current && i < r.run->traced.size()) {
      const int traced = r.run->traced[i].cost();
      t.traced = std::to_string(traced);
      t.mark = traced == m.cost() ? TraceMark::Agrees : TraceMark::Differs;
    }
    d.rows.push_back(t);
    if (current && i < r.run->out_of_range.size() && r.run->out_of_range[i] > 0)
      d.notes.push_back(format("access %zu: %s lanes out of range over the grid", i + 1,
                               with_thousands(r.run->out_of_range[i]).c_str()));
  }
  // The launch's totals per request, model beside the counters (the window's right table).
  const gpu::KernelTotals& totals = session.totals();
  const std::optional<LaunchCounters>& c = current ? r.counters : std::nullopt;
  const auto total_row = [&](const char* what, const gpu::KernelOpTotals& m,
                             std::optional<double> req, std::optional<double> cost,
                             const char* unit, bool shared_store) {
    if (m.requests == 0 && (!req || *req == 0)) return;
    StatText t;
    t.name = std::string("whole launch, ") + what;
    t.model = format("%.2f %s/req%s", m.per_request(), unit, totals.exact ? "" : " (sampled)");
    if (req && cost && *req > 0) {
      const double per = *cost / *req;
      t.traced = format("%.2f", per);
      t.mark = counters_agree(m.per_request(), per, shared_store) ? TraceMark::Agrees
                                                                  : TraceMark::Differs;
    }
    d.rows.push_back(t);
  };
  const auto opt = [&](double LaunchCounters::*f) -> std::optional<double> {
    if (!c) return std::nullopt;
    return (*c).*f;
  };
  total_row("global loads", totals.global_load, opt(&LaunchCounters::global_load_requests),
            opt(&LaunchCounters::global_load_sectors), "sectors", false);
  total_row("global stores", totals.global_store, opt(&LaunchCounters::global_store_requests),
            opt(&LaunchCounters::global_store_sectors), "sectors", false);
  total_row("shared loads", totals.shared_load, opt(&LaunchCounters::shared_load_instructions),
            opt(&LaunchCounters::shared_load_wavefronts), "wavefronts", false);
  total_row(totals.tile_clear.requests > 0 ? "shared stores*" : "shared stores",
            totals.shared_store, opt(&LaunchCounters::shared_store_instructions),
            opt(&LaunchCounters::shared_store_wavefronts), "wavefronts", true);
  if (totals.tile_clear.requests > 0)
    d.notes.push_back(
        format("* with the tile's clearing before row 1: %s stores of 16 B",
               with_thousands(static_cast<std::int64_t>(totals.tile_clear.requests)).c_str()));
  const double reference = r.reference ? r.reference->gbps : kAssumedCopyGbps;
  const std::int64_t requested =
      current ? r.run->requested_bytes : gpu::requested_global_bytes(st.program, {});
  d.notes.push_back(format(
      "bandwidth model, DRAM sectors only (no latency, barriers or bank conflicts): %.0f GB/s "
      "= cudaMemcpy's %.0f%s \u00d7 bytes asked / bytes of the sectors moved",
      predicted_gbps(totals, requested, reference), reference, r.reference ? "" : " (assumed)"));
  // What the GPU measured.
  d.measured_title = "measured (read + write, 10\u2079 B/s)";
  if (current) {
    d.measured.push_back({"this kernel", format("%.0f GB/s (%.3f ms median of %d)", r.run->gbps,
                                                r.run->timing.median_ms, r.run->timing.runs)});
    d.measured.push_back({"out", r.run->verified  ? "\u2713 verified"
                                 : r.run->checked ? "\u2717 WRONG"
                                                  : "not checked"});
  } else if (session.gpu_mode()) {
    d.measured_absent = "the run is still going";
  } else {
    d.measured_absent =
        "measurements need a CUDA device" +
        (session.device().reason.empty() ? std::string() : ": " + session.device().reason);
  }
  return d;
}

}  // namespace warplens::app
