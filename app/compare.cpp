#include "compare.h"

#include "app_ui.h"
#include "shared_ui.h"
#include "ui_widgets.h"

namespace warplens::app {

CompareSide::CompareSide(bool use_gpu)
    : session(view, heat, use_gpu), shared(bank_view, global_view, use_gpu) {}

CompareSide& CompareSlot::side() {
  if (!side_) side_ = std::make_unique<CompareSide>(use_gpu_);
  return *side_;
}

void CompareSlot::update() {
  if (!side_) return;
  side_->session.update();
  side_->shared.update();
}

bool CompareSlot::idle() const {
  return !side_ || (side_->session.idle() && side_->shared.idle());
}

bool lab_has_compare(Lab lab) {
  return lab != Lab::Cache;
}

namespace {

/// One copy of a side's worker results, taken once per frame (a measured() call copies them all).
struct SideResults {
  std::optional<CopySession::Measured> copy;      ///< the global lab, with a GPU
  std::optional<SharedSession::Measured> shared;  ///< the shared labs, with a GPU
};

SideResults results_of(Lab lab, const CopySession& session, const SharedSession& shared) {
  SideResults r;
  if (lab == Lab::Global) {
    if (session.gpu_mode()) r.copy = session.measured();
  } else if (shared.gpu_mode()) {
    r.shared = shared.measured();
  }
  return r;
}

Headline headline_of(Lab lab, const CopySession& session, const SharedSession& shared,
                     const SideResults& results) {
  Headline h;
  h.unit = "GB/s";
  if (lab == Lab::Global) {
    h.what = "copy kernel, bytes read + written";
    if (!session.gpu_mode()) {
      h.note = "no GPU";
      return h;
    }
    const auto& m = *results.copy;
    h.busy = m.busy;
    if (m.copy && session.measurement_current()) h.value = m.copy->gbps;
    return h;
  }
  const SharedSession::Measured m = results.shared.value_or(SharedSession::Measured{});
  h.busy = m.busy;
  const bool current = shared.measurement_current();
  const SharedState& st = shared.state();
  switch (lab) {
    case Lab::Banks:
      h.what = "bank probe, bytes the active lanes ask for";
      if (m.bank && current) h.value = m.bank->gbps;
      break;
    case Lab::Transpose:
      h.what = std::string(gpu::to_string(st.transpose.variant)) + " transpose, read + write";
      for (const auto& t : m.transpose) {
        if (current && t.params.variant == st.transpose.variant) {
          h.value = t.gbps;
          if (!t.verified) h.note = "WRONG RESULT";
        }
      }
      break;
    case Lab::Matmul:
      h.unit = "GFLOP/s";
      h.what = st.matmul.block_size ? "tiled multiply, BLOCK_SIZE " +
                                          std::to_string(st.matmul.block_size) + ", 2n\u00b3 / time"
                                    : std::string("naive multiply, 2n\u00b3 / time");
      for (const auto& r : m.matmul) {
        if (current && r.params.block_size == st.matmul.block_size) {
          h.value = r.gflops;
          if (!r.verified) h.note = "WRONG RESULT";
        }
      }
      break;
    case Lab::Reduction:
      h.what = std::string(gpu::to_string(st.reduction.variant)) + " reduction, input read";
      for (const auto& r : m.reduction) {
        if (current && r.params.variant == st.reduction.variant) {
          h.value = r.gbps;
          if (!r.verified) h.note = "WRONG RESULT";
        }
      }
      break;
    case Lab::Global:
    case Lab::Cache: h.note = "no compare in this lab"; break;
  }
  if (!shared.gpu_mode()) h.note = "no GPU";
  return h;
}

}  // namespace

Headline headline(Lab lab, const CopySession& session, const SharedSession& shared) {
  return headline_of(lab, session, shared, results_of(lab, session, shared));
}

std::optional<double> headline_ratio(const Headline& a, const Headline& b) {
  if (!a.value || !b.value || *a.value <= 0) return std::nullopt;
  return *b.value / *a.value;
}

namespace {

std::string parameters_text(Lab lab, const LabSide& side) {
  if (lab == Lab::Global) {
    const gpu::CopyParams& p = side.session.state().params;
    return kernel_text(p) + format(", %d-byte words", p.word_bytes);
  }
  const SharedState& st = side.shared.state();
  switch (lab) {
    case Lab::Transpose:
      return format("%s transpose, tile %d, %d rows per block, n = %d",
                    gpu::to_string(st.transpose.variant), st.transpose.tile,
                    st.transpose.rows_per_block, st.transpose.n);
    case Lab::Matmul:
      return st.matmul.block_size
                 ? format("BLOCK_SIZE %d, n = %d", st.matmul.block_size, st.matmul.n)
                 : format("naive multiply, n = %d", st.matmul.n);
    case Lab::Reduction:
      return format("%s, %d threads per block, %lld elements", gpu::to_string(st.reduction.variant),
                    st.reduction.block_threads, static_cast<long long>(st.reduction.elements));
    case Lab::Banks:
    default:
      return format("%d\u00d7%d block, warp %d", st.probe.block_x, st.probe.block_y, st.warp);
  }
}

std::string access_text(Lab lab, const LabSide& side) {
  if (lab == Lab::Global) {
    const CopyState& st = side.session.state();
    return std::string(st.params.side == gpu::PatternSide::Read ? "load" : "store") +
           format(" of warp %d", st.warp);
  }
  if (side.shared.shows_global()) {
    return side.shared.state().transpose_view == TransposeView::GlobalWrite
               ? "global write out[\u2026]"
               : "global read in[\u2026]";
  }
  try {
    return shared_access_text(side.shared.state());
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
}

std::string model_text(Lab lab, const LabSide& side) {
  const auto global = [](const model::GlobalAnalysis& g) {
    return format("%zu sectors, %s efficiency", g.sectors.size(),
                  percent_text(g.efficiency()).c_str());
  };
  if (lab == Lab::Global) return global(side.session.predicted());
  if (side.shared.shows_global()) return global(side.shared.global_predicted());
  if (!side.shared.access()) return "no shared memory";
  const model::SharedAnalysis& a = side.shared.predicted();
  return format("%d wavefront%s, %s efficiency", a.wavefronts, a.wavefronts == 1 ? "" : "s",
                percent_text(a.efficiency()).c_str());
}

std::string counters_text(Lab lab, const LabSide& side, const SideResults& results, bool* stale) {
  std::optional<LabCounters> counters;
  bool current = false;
  bool busy = false;
  if (results.copy) {
    counters = results.copy->counters;
    current = side.session.measurement_current();
    busy = results.copy->busy;
  } else if (results.shared) {
    counters = results.shared->counters;
    current = side.shared.counters_current();
    busy = results.shared->busy;
  } else {
    current =
        lab == Lab::Global ? side.session.measurement_current() : side.shared.counters_current();
  }
  *stale = !current;
  if (!counters) return busy ? "reading\u2026" : "\u2014";
  if (!counters->unavailable.empty()) return counters->unavailable;
  if (!counters->check || !counters->check->hardware) return "\u2014";
  const CounterCheck& c = *counters->check;
  const bool sectors = lab == Lab::Global || side.shared.shows_global();
  return format("%.2f %s (model %.2f) %s", *c.hardware, sectors ? "sectors" : "wavefronts", c.model,
                c.agree ? "\u2713" : "\u2717 differs");
}

std::string headline_text(const Headline& h) {
  if (h.value) {
    return format("%.0f %s", *h.value, h.unit.c_str()) + (h.note.empty() ? "" : "  " + h.note);
  }
  if (!h.note.empty()) return h.note;
  return h.busy ? "measuring\u2026" : "\u2014";
}

}  // namespace

void draw_compare_numbers(Lab lab, LabSide a, LabSide b, const viz::ImGuiLayer& layer,
                          const viz::Theme& theme, ImVec2 pos, ImVec2 size) {
  const float s = layer.scale();
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin(
      "##compare-numbers", nullptr,
      ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
  const SideResults ra = results_of(lab, a.session, a.shared);
  const SideResults rb = results_of(lab, b.session, b.shared);
  const Headline ha = headline_of(lab, a.session, a.shared, ra);
  const Headline hb = headline_of(lab, b.session, b.shared, rb);
  const std::optional<double> ratio = headline_ratio(ha, hb);

  // The ratio, large, on the right; the table takes the rest.
  const float ratio_w = std::min(ImGui::GetContentRegionAvail().x * 0.3f, 340 * s);
  ImGui::BeginChild("##compare-table", {ImGui::GetContentRegionAvail().x - ratio_w - 16 * s, 0});
  if (ImGui::BeginTable("compare", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH)) {
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed,
                            ImGui::CalcTextSize("GPU counters, per request").x + 8 * s);
    ImGui::TableSetupColumn("A", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("B", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    const auto row = [&](const char* name, const std::string& va, const std::string& vb,
                         bool stale_a, bool stale_b, const char* tip) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(name);
      if (tip && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tip);
      for (const auto& [text, stale] : {std::pair{&va, stale_a}, std::pair{&vb, stale_b}}) {
        ImGui::TableNextColumn();
        ImGui::PushTextWrapPos(0);
        if (stale) {
          ImGui::TextDisabled("%s", text->c_str());
        } else {
          ImGui::TextUnformatted(text->c_str());
        }
        ImGui::PopTextWrapPos();
      }
    };
    row("parameters", parameters_text(lab, a), parameters_text(lab, b), false, false, nullptr);
    row("access shown", access_text(lab, a), access_text(lab, b), false, false, nullptr);
    row("model, per warp request", model_text(lab, a), model_text(lab, b), false, false,
        "the memory model's count for the access the view shows: 32-byte sectors for global "
        "memory, wavefronts (passes through the 32 banks) for shared memory");
    bool stale_a = false, stale_b = false;
    const std::string ca = counters_text(lab, a, ra, &stale_a);
    const std::string cb = counters_text(lab, b, rb, &stale_b);
    row("GPU counters, per request", ca, cb, stale_a, stale_b,
        "CUPTI's counters over a dedicated launch of the same kernel, per warp request");
    row(("measured, " + ha.unit).c_str(), headline_text(ha), headline_text(hb), false, false,
        "median of timed runs (CUDA events) on the GPU; the two sides take turns, never run "
        "together");
    ImGui::EndTable();
  }
  ImGui::TextDisabled("A: %s \u2022 B: %s", ha.what.c_str(), hb.what.c_str());
  ImGui::EndChild();

  ImGui::SameLine(0, 16 * s);
  ImGui::BeginChild("##compare-ratio", {0, 0});
  ImGui::TextDisabled("B / A, %s", lab == Lab::Matmul ? "throughput" : "bandwidth");
  ImGui::PushFont(layer.fonts().large);
  if (ratio) {
    ImGui::TextColored(color4(theme.text), "%.2f\u00d7", *ratio);
  } else {
    ImGui::TextDisabled("%s", ha.busy || hb.busy ? "\u2026" : "\u2014");
  }
  ImGui::PopFont();
  ImGui::PushTextWrapPos(0);
  if (ratio) {
    ImGui::TextUnformatted((*ratio >= 1.005   ? format("B is %.2f\u00d7 as fast as A.", *ratio)
                            : *ratio <= 0.995 ? format("B reaches %.0f %% of A.", 100.0 * *ratio)
                                              : std::string("A and B run at the same speed."))
                               .c_str());
  } else if (!ha.value || !hb.value) {
    ImGui::TextDisabled("%s", ha.note == "no GPU" ? "Measurements need a CUDA device."
                                                  : "Waiting for both measurements.");
  }
  ImGui::PopTextWrapPos();
  ImGui::EndChild();
  ImGui::End();
}

}  // namespace warplens::app
