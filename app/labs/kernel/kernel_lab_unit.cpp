#include "kernel_lab_unit.h"

#include <stdexcept>

#include "kernel_figures.h"
#include "kernel_preset.h"
#include "kernel_scenario.h"
#include "measure_kernel.h"
#include "ui_state.h"
#include "ui_widgets.h"

namespace warplens::app {

void KernelLabUnit::apply(const Scenario& scenario, std::optional<model::HardwareModel> model) {
  KernelState st = kernel_scenario(scenario);
  if (model) st.model = *model;
  session_.set(st);
}

std::string KernelLabUnit::preset_section() const {
  return toml_text(kernel_preset_section(session_.state()));
}

void KernelLabUnit::draw_parameters(LabFrame& frame, ImVec2 pos, ImVec2 size) {
  draw_kernel_parameters(session_, results_, editor_, frame.theme, pos, size, frame.ui.interactive,
                         frame.draw_scenario_picker);
}

void KernelLabUnit::draw_view(LabFrame& frame, ImVec2 pos, ImVec2 size, const char* side_name) {
  draw_kernel_view(session_, results_, warp_view_, bank_view_, frame.layer, frame.theme, pos, size,
                   frame.ui, side_name);
}

bool KernelLabUnit::tall_view() const {
  const KernelState& st = session_.state();
  return st.section == KernelSection::Access &&
         st.program.rows.at(static_cast<std::size_t>(st.step)).space == gpu::KernelSpace::Tile;
}

float KernelLabUnit::numbers_height(const LabFrame& frame, float body_h, float cap) const {
  // The rows' table: a header and a line per row, plus the totals' notes.
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const auto rows = static_cast<float>(session_.state().program.rows.size());
  // The rows' table (a header and a line per row) or the totals' (5 lines), then up to five
  // lines of notes: the clearing, the counters, measured, the bandwidth model (two lines).
  const float wanted =
      (std::max(rows + 1, 5.0f) + 5.5f) * line + 2 * ImGui::GetStyle().WindowPadding.y;
  (void)frame;
  return std::min({wanted, body_h * 0.4f, cap});
}

void KernelLabUnit::draw_numbers(LabFrame& frame, ImVec2 pos, ImVec2 size) {
  draw_kernel_numbers(session_, results_, frame.theme, pos, size, frame.layer.scale());
}

bool KernelLabUnit::pick_view(UiState& ui, int view) {
  (void)ui;
  if (view < 0 || view > 1) return false;
  KernelState st = session_.state();
  st.section = view == 0 ? KernelSection::Access : KernelSection::Source;
  session_.set(st);
  return true;
}

bool KernelLabUnit::arrow_key(int direction) {
  KernelState st = session_.state();
  if (st.section != KernelSection::Access) return false;
  const int rows = static_cast<int>(st.program.rows.size());
  st.step = std::clamp(st.step + direction, 0, rows - 1);
  session_.set(st);
  return true;
}

void KernelLabUnit::go_to_access(int step) {
  KernelState st = session_.state();
  const int rows = static_cast<int>(st.program.rows.size());
  if (step < 1 || step > rows)
    throw std::invalid_argument("--step " + std::to_string(step) +
                                ": this kernel has accesses 1 .. " + std::to_string(rows));
  st.step = step - 1;
  st.section = KernelSection::Access;
  session_.set(st);
}

void KernelLabUnit::draw_knobs(LabFrame& frame) {
  draw_kernel_knobs(session_, frame.layer.scale());
}

std::vector<KeyNumber> KernelLabUnit::key_numbers() const {
  return kernel_key_numbers(session_, results_);
}

CompareColumn KernelLabUnit::compare_column() const {
  CompareColumn c;
  const KernelState& st = session_.state();
  c.parameters = format("%zu row%s, block %dx%d, grid %dx%d", st.program.rows.size(),
                        st.program.rows.size() == 1 ? "" : "s", st.program.block.x,
                        st.program.block.y, st.program.grid.x, st.program.grid.y);
  c.access = kernel_access_title(st);
  c.model = kernel_row_cost_text(session_.rows_model().at(static_cast<std::size_t>(st.step)));
  const KernelResults r = session_.measured();
  // The shown access's kind, per request, beside the model's (as the numbers panel says it).
  c.counters = kernel_counters_summary(session_, r);
  c.headline = kernel_headline(session_, r);
  return c;
}

std::string KernelLabUnit::status_text() const {
  return kernel_status_text(session_, results_);
}

std::string KernelLabUnit::source_text() const {
  return session_.gpu_mode()
             ? "own-kernel lab, compiled with NVRTC and run on " + session_.device().device->name
             : "own-kernel lab, host model only (" + session_.device().reason + ")";
}

std::vector<FigurePanel> KernelLabUnit::figure_panels() const {
  const KernelState& st = session_.state();
  const bool tile =
      st.program.rows.at(static_cast<std::size_t>(st.step)).space == gpu::KernelSpace::Tile;
  return {tile ? FigurePanel::Banks : FigurePanel::Warp, FigurePanel::Numbers};
}

std::optional<FigurePanelData> KernelLabUnit::figure_panel(FigurePanel panel) const {
  if (panel == FigurePanel::Numbers) return kernel_numbers_panel(session_, session_.measured());
  const KernelState& st = session_.state();
  const auto step = static_cast<std::size_t>(st.step);
  const gpu::KernelRow& row = st.program.rows.at(step);
  const bool tile = row.space == gpu::KernelSpace::Tile;
  if (panel != (tile ? FigurePanel::Banks : FigurePanel::Warp)) return std::nullopt;
  const KernelResults r = session_.measured();
  const gpu::KernelRowModel* traced =
      session_.traced_on_gpu() && session_.run_current(r) && step < r.run->traced.size()
          ? &r.run->traced[step]
          : nullptr;
  const gpu::KernelRowModel& m = traced ? *traced : session_.rows_model().at(step);
  FigurePanelData d;
  d.panel = panel;
  d.trace = session_.trace();
  if (tile && m.shared) d.shared = *m.shared;
  if (!tile && m.global) d.global = *m.global;
  d.first_warp = st.traced.warp;
  d.gpu_trace = traced != nullptr;
  d.source = d.gpu_trace ? "GPU trace on " + session_.device().device->name : "host model";
  d.access = format("warp %d of block (%d, %d) \u2022 ", st.traced.warp, st.traced.block_x,
                    st.traced.block_y) +
             kernel_access_title(st);
  return d;
}

void KernelLabUnit::figure_numbers(nlohmann::json& j) const {
  kernel_figure_json(session_, session_.measured(), j);
}

}  // namespace warplens::app
